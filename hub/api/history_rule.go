package api

import (
	"slices"

	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// flakyNow is the flaky rule of issue 31 (docs/history.md): among a
// test's last store.RecentRuns finished runs (newest first, as the store
// answers them), one passed after a retry, or, on one version and
// environment, its result flipped between passed and failed at least
// twice. Errors are the infrastructure's, not the test's: they neither
// flip nor break a sequence. The list's SQL filter has the same rule
// (store/history.go historyJoins).
func flakyNow(runs []store.HistoryRun) bool {
	if len(runs) > store.RecentRuns {
		runs = runs[:store.RecentRuns]
	}
	type place struct {
		version int
		env     string
	}
	last := map[place]string{}
	flips := map[place]int{}
	for _, r := range slices.Backward(runs) { // oldest first
		if r.Flaky {
			return true
		}
		if r.Status != protocol.RunPassed && r.Status != protocol.RunFailed {
			continue
		}
		p := place{r.Version, r.EnvironmentID}
		if prev, ok := last[p]; ok && prev != r.Status {
			flips[p]++
			if flips[p] >= 2 {
				return true
			}
		}
		last[p] = r.Status
	}
	return false
}

// historyRates are a test's pass and flaky rates over runs: passed, and
// passed after a retry, among those that passed or failed. Nil without
// any: a test never judged has no rate, not a rate of 0.
func historyRates(runs []store.HistoryRun) (passRate, flakyRate *float64) {
	var passed, judged, flaky int
	for _, r := range runs {
		switch r.Status {
		case protocol.RunPassed:
			passed++
			judged++
		case protocol.RunFailed:
			judged++
		}
		if r.Flaky {
			flaky++
		}
	}
	return rate(passed, judged), rate(flaky, judged)
}

func rate(n, of int) *float64 {
	if of == 0 {
		return nil
	}
	v := float64(n) / float64(of)
	return &v
}

// durationTrend compares the median duration of the test's last 10
// passed runs with that of the 10 passed before them: failed runs stop
// early and errors say nothing of the test, so only passed runs time it.
func durationTrend(runs []store.HistoryRun) (recent, previous *int64) {
	var passed []int64
	for _, r := range runs {
		if r.Status == protocol.RunPassed {
			passed = append(passed, r.DurationMs)
		}
	}
	window := 10
	return median(passed[:min(window, len(passed))]), median(passed[min(window, len(passed)):min(2*window, len(passed))])
}

func median(ms []int64) *int64 {
	if len(ms) == 0 {
		return nil
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return &m
}
