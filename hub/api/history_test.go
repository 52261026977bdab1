package api

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
)

// TestHistoryOver100Runs: a test with 120 finished runs (some cancelled,
// some errors, failures and retried passes, two versions and two
// environments) answers exactly its last 100 passed, failed or errored
// runs, newest first, with the rates and flaky call they make; the test
// list's strip and rates agree, and its sorts and filters order tests by
// them.
func TestHistoryOver100Runs(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.TestManager]
	staging := c.projectDo(o.project, "POST", "/api/environments", obj{"name": "Staging"}).want(t, 201).str("id")
	prod := c.projectDo(o.project, "POST", "/api/environments", obj{"name": "Prod"}).want(t, 201).str("id")
	base := time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)
	tests := map[string]string{}
	for _, n := range []string{"Steady", "Flip-flop", "Retried", "Never run", "Failing", "Changed"} {
		tests[n] = c.createTest(t, o.project, obj{"name": n})
	}

	// Steady: 120 runs, i = 0 the oldest. Its last 20 judged runs all pass.
	type kept struct {
		id string
		s  seed
	}
	var steady []kept // newest first once reversed, cancelled left out
	for i := range 120 {
		s := seed{status: "passed", version: 1, env: staging, durationMs: int64(1000 + 10*i), at: base.Add(time.Duration(i) * time.Minute),
			quarantined: i%25 == 0}
		switch {
		case i%15 == 14:
			s.status = "cancelled"
		case i%20 == 7:
			s.status = "error"
		case i%10 == 3 && i < 100:
			s.status = "failed"
		}
		s.flaky = s.status == "passed" && i%9 == 0 && i < 100
		if i >= 60 {
			s.version = 2
		}
		if i%2 == 1 {
			s.env = prod
		}
		id := seedRun(t, h, o.project, tests["Steady"], s)
		if s.status != "cancelled" {
			steady = append(steady, kept{id, s})
		}
	}
	slices.Reverse(steady)
	last := steady[:100]
	var passed, judged, flakyRuns int
	var passedMs []int64
	for _, k := range last {
		switch k.s.status {
		case "passed":
			passed++
			judged++
			passedMs = append(passedMs, k.s.durationMs)
		case "failed":
			judged++
		}
		if k.s.flaky {
			flakyRuns++
		}
	}

	timeline := func(name, codes string, versions ...int) {
		for i, code := range strings.Split(codes, "") {
			v := 1
			if len(versions) > 0 {
				v = versions[i]
			}
			seedRun(t, h, o.project, tests[name], seed{status: map[string]string{"P": "passed", "F": "failed", "R": "passed"}[code], flaky: code == "R",
				version: v, env: staging, durationMs: 500, at: base.Add(time.Duration(i) * time.Minute)})
		}
	}
	timeline("Flip-flop", "PFPFPFPFPFPF")       // 0.5, flaky
	timeline("Retried", "PPRPF")                // 0.6, flaky (a retry)
	timeline("Failing", "FFFFF", 1, 2, 3, 4, 5) // 0
	timeline("Changed", "PFPFP", 1, 1, 2, 2, 3) // 0.6, one flip per version: not flaky

	hist := c.do("GET", "/api/tests/"+tests["Steady"]+"/history", nil).want(t, 200).json()
	runs := hist["runs"].([]any)
	if len(runs) != 100 {
		t.Fatalf("%d runs, want the last 100", len(runs))
	}
	for i, r := range runs {
		m, want := r.(map[string]any), last[i]
		wantEnv := "Staging"
		if want.s.env == prod {
			wantEnv = "Prod"
		}
		if m["runId"] != want.id || m["status"] != want.s.status || num(m["durationMs"]) != int(want.s.durationMs) || m["flaky"] != want.s.flaky ||
			num(m["version"]) != want.s.version || m["environmentId"] != want.s.env || m["environmentName"] != wantEnv ||
			m["quarantined"] != want.s.quarantined || m["startedAt"] == nil {
			t.Fatalf("run %d: %v, want %+v %s", i, m, want.s, want.id)
		}
	}
	near := func(what string, got any, want float64) {
		t.Helper()
		if f, ok := got.(float64); !ok || math.Abs(f-want) > 1e-9 {
			t.Errorf("%s %v, want %v", what, got, want)
		}
	}
	near("passRate", hist["passRate"], float64(passed)/float64(judged))
	near("flakyRate", hist["flakyRate"], float64(flakyRuns)/float64(judged))
	if hist["flaky"] != false || hist["quarantine"] != nil {
		t.Errorf("Steady: flaky %v quarantine %v", hist["flaky"], hist["quarantine"])
	}
	med := func(ms []int64) float64 {
		s := slices.Clone(ms)
		slices.Sort(s)
		return float64(s[len(s)/2-1]+s[len(s)/2]) / 2
	}
	trend := hist["durationTrend"].(map[string]any)
	near("recent median", trend["recentMedianMs"], math.Floor(med(passedMs[:10])))
	near("previous median", trend["previousMedianMs"], math.Floor(med(passedMs[10:20])))

	for name, want := range map[string]struct {
		passRate any
		flaky    bool
	}{"Flip-flop": {0.5, true}, "Retried": {0.8, true}, "Never run": {nil, false}, "Failing": {0.0, false}, "Changed": {0.6, false}} {
		got := c.do("GET", "/api/tests/"+tests[name]+"/history", nil).want(t, 200).json()
		if got["passRate"] != want.passRate || got["flaky"] != want.flaky {
			t.Errorf("%s: passRate %v flaky %v, want %v %v", name, got["passRate"], got["flaky"], want.passRate, want.flaky)
		}
	}

	// The list's strip (the last 10) and rates say what the history says.
	for _, row := range c.do("GET", "/api/tests", nil, ProjectHeader, o.project).want(t, 200).json()["tests"].([]any) {
		m := row.(map[string]any)
		lh := m["history"].(map[string]any)
		full := c.do("GET", "/api/tests/"+m["id"].(string)+"/history", nil).want(t, 200).json()
		recent, all := lh["recent"].([]any), full["runs"].([]any)
		if len(recent) != min(10, len(all)) {
			t.Errorf("%s: strip of %d runs, history has %d", m["name"], len(recent), len(all))
		}
		for i := range recent {
			if fmt.Sprint(recent[i]) != fmt.Sprint(all[i]) {
				t.Errorf("%s: strip run %d %v, history %v", m["name"], i, recent[i], all[i])
			}
		}
		for _, k := range []string{"passRate", "flakyRate", "flaky"} {
			if fmt.Sprint(lh[k]) != fmt.Sprint(full[k]) {
				t.Errorf("%s: list %s %v, history %v", m["name"], k, lh[k], full[k])
			}
		}
		if m["quarantine"] != nil {
			t.Errorf("%s: quarantine %v", m["name"], m["quarantine"])
		}
	}

	// Sorts and filters. Never-run tests come last by pass rate, either way.
	steadyRate := float64(passed) / float64(judged)
	if steadyRate <= 0.8 || steadyRate >= 1 {
		t.Fatalf("Steady's pass rate %v: the orders below assume it between Retried's and 1", steadyRate)
	}
	asc := []string{"Failing", "Flip-flop", "Changed", "Retried", "Steady", "Never run"}
	names, _ := listNames(t, c, o.project, "sort=passRate")
	if got := strings.Join(names, ","); got != strings.Join(asc, ",") {
		t.Errorf("sort=passRate: %s, want %s", got, strings.Join(asc, ","))
	}
	desc := []string{"Steady", "Retried", "Changed", "Flip-flop", "Failing", "Never run"}
	names, _ = listNames(t, c, o.project, "sort=-passRate")
	if got := strings.Join(names, ","); got != strings.Join(desc, ",") {
		t.Errorf("sort=-passRate: %s, want %s", got, strings.Join(desc, ","))
	}
	// Paged two at a time, the cursor keeps the order.
	var paged []string
	for cursor := ""; ; {
		body := c.do("GET", "/api/tests?sort=passRate&limit=2"+cursor, nil, ProjectHeader, o.project).want(t, 200).json()
		for _, row := range body["tests"].([]any) {
			paged = append(paged, row.(map[string]any)["name"].(string))
		}
		next, _ := body["nextCursor"].(string)
		if next == "" {
			break
		}
		cursor = "&cursor=" + next
	}
	if got := strings.Join(paged, ","); got != strings.Join(asc, ",") {
		t.Errorf("sort=passRate in pages of 2: %s", got)
	}
	// Flakiest first: called flaky (Retried has flaky runs too), then
	// Steady, whose retried passes are older than its last 10 runs.
	names, _ = listNames(t, c, o.project, "sort=-flakiness")
	if got := strings.Join(names[:3], ","); got != "Retried,Flip-flop,Steady" {
		t.Errorf("sort=-flakiness: %v", names)
	}
	names, body := listNames(t, c, o.project, "flaky=1&sort=name")
	if got := strings.Join(names, ","); got != "Flip-flop,Retried" || num(body["total"]) != 2 {
		t.Errorf("flaky=1: %v total %v", names, body["total"])
	}
	c.do("PUT", "/api/tests/"+tests["Failing"]+"/quarantine", obj{"reason": "the shop's sandbox is down"}).want(t, 200)
	names, body = listNames(t, c, o.project, "quarantined=true")
	if got := strings.Join(names, ","); got != "Failing" || num(body["total"]) != 1 {
		t.Errorf("quarantined=true: %v total %v", names, body["total"])
	}
	if names, _ = listNames(t, c, o.project, "quarantined=1&flaky=1"); len(names) != 0 {
		t.Errorf("quarantined and flaky: %v", names)
	}
	for _, bad := range []string{"flaky=yes", "quarantined=2", "sort=flaky", "sort=passRate&cursor=WyJub3QtYS1udW1iZXIiLCJ0c3RfeCJd"} {
		c.do("GET", "/api/tests?"+bad, nil, ProjectHeader, o.project).want(t, 422)
	}
}
