package ci

import (
	"io"
	"strings"
	"testing"

	"github.com/testautomation/ta/protocol"
)

func TestParseFlags(t *testing.T) {
	t.Setenv("TA_TOKEN", "tat_env")
	t.Setenv("TA_HUB", "")
	base := []string{"--hub", "http://hub:8080"}
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"--suite", "Smoke"}, ""},
		{[]string{"--suite", ""}, ""}, // the Unsorted tests
		{[]string{"--test", "tc_a,tc_b", "--test", "tc_c", "--data-set", "Cards"}, ""},
		{[]string{"--tag", "smoke", "--remote"}, ""},
		{[]string{}, "one of --suite NAME, --test ID or --tag TAG"},
		{[]string{"--suite", "a", "--tag", "b"}, "one of --suite"},
		{[]string{"--tag", " "}, "--tag needs a tag"},
		{[]string{"--suite", "a", "--data-set", "Cards"}, "--data-set goes with --test"},
		{[]string{"--suite", "a", "--parallel", "0"}, "--parallel must be from 1 to 16"},
		{[]string{"--suite", "a", "--remote", "--browser", "/x"}, "--browser has no effect with --remote"},
		{[]string{"--suite", "a", "--remote", "--headless-shell", "auto"}, "--headless-shell has no effect with --remote"},
		{[]string{"--suite", "a", "extra"}, `unexpected argument "extra"`},
		{[]string{"--suite", "a", "--hub-wait", "0s"}, "must be positive"},
	} {
		o, err := ParseFlags(append(append([]string{}, base...), tc.args...), io.Discard)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%v: err %v, want %q", tc.args, err, tc.err)
		}
		if err == nil && o.Token != "tat_env" {
			t.Errorf("%v: token %q, want it from TA_TOKEN", tc.args, o.Token)
		}
	}
	if o, _ := ParseFlags(append(base, "--test", "tc_a,tc_b", "--test", "tc_c"), io.Discard); strings.Join(o.Tests, " ") != "tc_a tc_b tc_c" {
		t.Errorf("tests %v", o.Tests)
	}
	if _, err := ParseFlags([]string{"--hub", "hub:8080", "--suite", "a"}, io.Discard); err == nil || !strings.Contains(err.Error(), "http://") {
		t.Errorf("hub without scheme: %v", err)
	}
	t.Setenv("TA_TOKEN", "")
	if _, err := ParseFlags(append(base, "--suite", "a"), io.Discard); err == nil || !strings.Contains(err.Error(), "Profile page") {
		t.Errorf("no token: %v", err)
	}
}

func TestPick(t *testing.T) {
	all := []named{{"env_1", "Staging"}, {"env_2", "staging-eu"}, {"env_3", "Prod"}, {"env_4", "prod"}}
	for _, tc := range []struct{ want, id, err string }{
		{"Staging", "env_1", ""},
		{"STAGING", "env_1", ""}, // case ignored when nothing matches exactly
		{"prod", "env_4", ""},    // the exact name wins
		{"env_3", "env_3", ""},   // by id
		{"PROD", "", `2 environments match "PROD"`},
		{"QA", "", `no environment "QA" in this project; there are: "Staging", "staging-eu", "Prod", "prod"`},
	} {
		got, err := pick("environment", tc.want, all)
		if got.ID != tc.id || tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("pick %q: %v %v", tc.want, got, err)
		}
	}
	if _, err := pick("environment", "x", nil); err == nil || !strings.Contains(err.Error(), "this project has none") {
		t.Errorf("empty: %v", err)
	}
}

func TestExitCode(t *testing.T) {
	runs := func(statuses ...string) []*runState {
		var out []*runState
		for _, s := range statuses {
			out = append(out, &runState{status: s})
		}
		return out
	}
	for _, tc := range []struct {
		statuses    []string
		interrupted bool
		want        int
	}{
		{[]string{protocol.RunPassed, protocol.RunPassed}, false, ExitPassed},
		{[]string{protocol.RunPassed, protocol.RunFailed}, false, ExitFailed},
		{[]string{protocol.RunFailed, protocol.RunError}, false, ExitError},
		{[]string{protocol.RunPassed, protocol.RunCancelled}, false, ExitError},
		{[]string{protocol.RunPassed, protocol.RunRunning}, false, ExitError},
		{[]string{protocol.RunPassed}, true, ExitError},
		{nil, false, ExitPassed},
	} {
		if got := exitCode(runs(tc.statuses...), tc.interrupted); got != tc.want {
			t.Errorf("%v interrupted=%v: exit %d, want %d", tc.statuses, tc.interrupted, got, tc.want)
		}
	}
	// A quarantined run's failure or error fails nothing; its test being
	// quarantined excuses nothing else (docs/history.md).
	quarantined := func(status string) *runState {
		return &runState{status: status, detail: &runDetail{Status: status, Quarantined: true}}
	}
	for _, tc := range []struct {
		runs []*runState
		want int
	}{
		{append(runs(protocol.RunPassed), quarantined(protocol.RunFailed)), ExitPassed},
		{append(runs(protocol.RunPassed), quarantined(protocol.RunError)), ExitPassed},
		{append(runs(protocol.RunFailed), quarantined(protocol.RunFailed)), ExitFailed},
		{[]*runState{quarantined(protocol.RunCancelled)}, ExitError},
	} {
		if got := exitCode(tc.runs, false); got != tc.want {
			t.Errorf("with quarantined runs: exit %d, want %d", got, tc.want)
		}
	}
}
