package api

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

// r is a history run for the rule's table: "P", "F", "E" (error), "R"
// (passed after a retry), on version v and environment env.
func hr(code string, v int, env string) store.HistoryRun {
	status := map[string]string{"P": "passed", "F": "failed", "E": "error", "R": "passed"}[code]
	return store.HistoryRun{Status: status, Flaky: code == "R", Version: v, EnvironmentID: env}
}

// seq is runs on one version and environment, written oldest first as
// one reads a timeline ("PFP"), answered newest first as the store does.
func seq(codes string, v int, env string) []store.HistoryRun {
	var out []store.HistoryRun
	for _, c := range strings.Split(codes, "") {
		out = append(out, hr(c, v, env))
	}
	slices.Reverse(out)
	return out
}

// newestFirst joins timelines written oldest first: later arguments are
// newer runs.
func newestFirst(parts ...[]store.HistoryRun) []store.HistoryRun {
	var out []store.HistoryRun
	for _, p := range slices.Backward(parts) {
		out = append(out, p...)
	}
	return out
}

var flakyCases = []struct {
	name string
	runs []store.HistoryRun
	want bool
}{
	{"never run", nil, false},
	{"always passed", seq("PPPPPPPPPPPP", 1, "env_a"), false},
	{"always failed", seq("FFFFFFFFFF", 1, "env_a"), false},
	{"broke once", seq("PPPPPFFFFF", 1, "env_a"), false},
	{"broke and was fixed: two flips", seq("PPFFPP", 1, "env_a"), true},
	{"failed, passed, failed", seq("FPF", 1, "env_a"), true},
	{"passed after a retry", seq("PPRPP", 1, "env_a"), true},
	{"a retry 10 runs ago counts", seq("RPPPPPPPPP", 1, "env_a"), true},
	{"a retry 11 runs ago does not", seq("RPPPPPPPPPP", 1, "env_a"), false},
	{"flips 11 runs ago do not count", seq("PFPPPPPPPPPPP", 1, "env_a"), false},
	{"errors neither flip nor break a sequence", seq("PEPEPEFEEE", 1, "env_a"), false},
	{"errors between flips", seq("PEFEP", 1, "env_a"), true},
	{"one flip per version is a change, not flakiness", newestFirst(seq("PF", 1, "env_a"), seq("PF", 2, "env_a")), false},
	{"one flip per environment", newestFirst(seq("PF", 1, "env_a"), seq("PF", 1, "env_b")), false},
	{"interleaved environments, two flips on one",
		newestFirst(seq("P", 1, "env_a"), seq("P", 1, "env_b"), seq("F", 1, "env_a"), seq("F", 1, "env_b"), seq("P", 1, "env_a")), true},
	{"no environment is one environment", seq("PFP", 3, ""), true},
}

func TestFlakyRule(t *testing.T) {
	for _, c := range flakyCases {
		if got := flakyNow(c.runs); got != c.want {
			t.Errorf("%s: flaky %v, want %v", c.name, got, c.want)
		}
	}
}

// The test list filters on the same rule written in SQL: each case, stored
// as a test's runs, is listed by ?flaky=1 exactly when the rule says so,
// and its list row says the same.
func TestFlakyRuleSQLAgrees(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.TestManager]
	envs := map[string]string{"": ""}
	for _, name := range []string{"env_a", "env_b"} {
		envs[name] = c.projectDo(o.project, "POST", "/api/environments", obj{"name": name}).want(t, 201).str("id")
	}
	want := map[string]bool{}
	for i, fc := range flakyCases {
		name := fmt.Sprintf("case %02d", i)
		test := c.createTest(t, o.project, obj{"name": name})
		at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
		for j, run := range slices.Backward(fc.runs) {
			seedRun(t, h, o.project, test, seed{status: run.Status, flaky: run.Flaky, version: run.Version, env: envs[run.EnvironmentID],
				at: at.Add(time.Duration(len(fc.runs)-j) * time.Minute)})
		}
		want[name] = fc.want
	}
	flaky, _ := listNames(t, c, o.project, "flaky=1&limit=500")
	for i, fc := range flakyCases {
		if name := fmt.Sprintf("case %02d", i); slices.Contains(flaky, name) != want[name] {
			t.Errorf("%s (%s): listed by flaky=1 %v, want %v", name, fc.name, !want[name], want[name])
		}
	}
	for _, row := range c.do("GET", "/api/tests?limit=500", nil, ProjectHeader, o.project).want(t, 200).json()["tests"].([]any) {
		m := row.(map[string]any)
		if got := m["history"].(map[string]any)["flaky"]; got != want[m["name"].(string)] {
			t.Errorf("%s: the list row says flaky %v", m["name"], got)
		}
	}
}

// seed is a finished run stored as the hub would have stored it.
type seed struct {
	status      string
	flaky       bool
	quarantined bool
	version     int
	env         string // an environment id, "" for none
	durationMs  int64
	at          time.Time // when it finished
}

// seedRun stores a finished run of test and answers its id.
func seedRun(t *testing.T, h *harness, project, test string, s seed) string {
	t.Helper()
	id := ids.New("run")
	started := s.at.Add(-time.Duration(s.durationMs) * time.Millisecond)
	if _, err := h.store.Pool().Exec(t.Context(), `INSERT INTO runs (id, project_id, test_id, version, environment_id, status, headed, screenshots,
		created_at, started_at, finished_at, duration_ms, flaky, quarantined) VALUES ($1, $2, $3, $4, nullif($5, ''), $6, false, false, $7, $7, $8, $9, $10, $11)`,
		id, project, test, max(s.version, 1), s.env, s.status, started, s.at, s.durationMs, s.flaky, s.quarantined); err != nil {
		t.Fatal(err)
	}
	return id
}
