package api

import (
	"net/http"

	"github.com/testautomation/ta/hub/store"
)

// historyRunJSON is one finished run in a test's history.
type historyRunJSON struct {
	RunID           string  `json:"runId"`
	Status          string  `json:"status" enum:"passed|failed|error"`
	DurationMs      int64   `json:"durationMs"`
	Flaky           bool    `json:"flaky"`
	Quarantined     bool    `json:"quarantined"`
	StartedAt       *string `json:"startedAt"`
	FinishedAt      string  `json:"finishedAt"`
	Version         int     `json:"version"`
	EnvironmentID   *string `json:"environmentId"`
	EnvironmentName *string `json:"environmentName"`
}

func toHistoryRuns(runs []store.HistoryRun) []historyRunJSON {
	out := make([]historyRunJSON, 0, len(runs))
	for _, r := range runs {
		out = append(out, historyRunJSON{RunID: r.RunID, Status: r.Status, DurationMs: r.DurationMs, Flaky: r.Flaky, Quarantined: r.Quarantined,
			StartedAt: timePtr(r.StartedAt), FinishedAt: r.FinishedAt.UTC().Format(timeFormat), Version: r.Version,
			EnvironmentID: strPtr(r.EnvironmentID), EnvironmentName: strPtr(r.EnvironmentName)})
	}
	return out
}

// quarantineJSON is a test's quarantine (docs/history.md).
type quarantineJSON struct {
	At     string  `json:"at"`
	By     *string `json:"by"` // null when the account is gone
	ByName *string `json:"byName"`
	Reason string  `json:"reason"`
}

func toQuarantineJSON(q *store.Quarantine) *quarantineJSON {
	if q == nil {
		return nil
	}
	return &quarantineJSON{At: q.At.UTC().Format(timeFormat), By: strPtr(q.ByID), ByName: strPtr(q.ByName), Reason: q.Reason}
}

// testHistoryJSON answers GET /api/tests/:id/history: the test's last 100
// finished runs (passed, failed or error; newest first), its rates over
// those that passed or failed, the flaky call over the last 10, and the
// median duration of its last 10 passed runs against the 10 before.
type testHistoryJSON struct {
	TestID        string           `json:"testId"`
	Runs          []historyRunJSON `json:"runs"`
	PassRate      *float64         `json:"passRate"`
	FlakyRate     *float64         `json:"flakyRate"`
	Flaky         bool             `json:"flaky"`
	Quarantine    *quarantineJSON  `json:"quarantine"`
	DurationTrend struct {
		RecentMedianMs   *int64 `json:"recentMedianMs"`
		PreviousMedianMs *int64 `json:"previousMedianMs"`
	} `json:"durationTrend"`
}

func (s *Server) testHistory(w http.ResponseWriter, r *http.Request) {
	t, _, ok := s.loadTest(w, r)
	if !ok {
		return
	}
	runs, err := s.store.TestHistoryRuns(r.Context(), t.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := testHistoryJSON{TestID: t.ID, Runs: toHistoryRuns(runs), Flaky: flakyNow(runs), Quarantine: toQuarantineJSON(t.Quarantine)}
	out.PassRate, out.FlakyRate = historyRates(runs)
	out.DurationTrend.RecentMedianMs, out.DurationTrend.PreviousMedianMs = durationTrend(runs)
	writeJSON(w, http.StatusOK, out)
}

// listHistoryJSON is a test's history as the test list shows it: its
// last 10 runs (newest first) for the pass/fail strip, the rates over its
// last 100, the flaky call.
type listHistoryJSON struct {
	Recent    []historyRunJSON `json:"recent"`
	PassRate  *float64         `json:"passRate"`
	FlakyRate *float64         `json:"flakyRate"`
	Flaky     bool             `json:"flaky"`
}

func toListHistory(h *store.TestHistory) *listHistoryJSON {
	if h == nil {
		return nil
	}
	return &listHistoryJSON{Recent: toHistoryRuns(h.Recent), PassRate: rate(h.Passed, h.Judged), FlakyRate: rate(h.FlakyRuns, h.Judged),
		Flaky: flakyNow(h.Recent)}
}
