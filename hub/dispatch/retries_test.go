package dispatch

import (
	"strings"
	"testing"

	"github.com/testautomation/ta/protocol"
)

// The attempts of a retried run are checked as a result's steps are, and
// flakiness follows from them alone.
func TestCheckRetries(t *testing.T) {
	job := fiveSteps
	job.Retries = 2
	shape := shapeOf(job, newMasker(nil))
	p, f, s := protocol.StepPassed, protocol.StepFailed, protocol.StepSkipped
	failed := protocol.AttemptResult{Attempt: 1, Status: "failed", Passed: 3, Total: 5, Steps: results(p, p, p, f, s)}
	passed := protocol.AttemptResult{Attempt: 2, Status: "passed", Passed: 5, Total: 5, Steps: results(p, p, p, p, p)}
	at := func(a protocol.AttemptResult, n int) protocol.AttemptResult { a.Attempt = n; return a }
	for _, c := range []struct {
		name  string
		res   protocol.RunResult
		want  string // part of the refusal; "" accepts
		flaky bool
	}{
		{"failed, then passed", protocol.RunResult{Status: "passed", Attempts: []protocol.AttemptResult{failed, passed}}, "", true},
		{"failed three times", protocol.RunResult{Status: "failed", Attempts: []protocol.AttemptResult{failed, at(failed, 2), at(failed, 3)}}, "", false},
		{"flaky claimed without attempts", protocol.RunResult{Status: "passed", Flaky: true}, "", false},
		{"four attempts with retries 2", protocol.RunResult{Status: "passed", Attempts: []protocol.AttemptResult{failed, at(failed, 2), at(failed, 3), at(passed, 4)}}, "allows 3", false},
		{"a passed attempt retried", protocol.RunResult{Status: "passed", Attempts: []protocol.AttemptResult{at(passed, 1), passed}}, "only a failed attempt", false},
		{"an error retried", protocol.RunResult{Status: "passed", Attempts: []protocol.AttemptResult{{Attempt: 1, Status: "error"}, passed}}, "only a failed attempt", false},
		{"numbered wrong", protocol.RunResult{Status: "passed", Attempts: []protocol.AttemptResult{failed, at(passed, 3)}}, "attempt 2 is numbered 3", false},
		{"last attempt is not the run's", protocol.RunResult{Status: "failed", Attempts: []protocol.AttemptResult{failed, passed}}, "the last attempt ended passed", false},
		{"an attempt's steps lie", protocol.RunResult{Status: "passed", Attempts: []protocol.AttemptResult{{Attempt: 1, Status: "failed", Passed: 5, Total: 5, Steps: results(p, p, p, p, p)}, passed}}, "attempt 1:", false},
	} {
		got := shape.checkRetries(c.res)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
		if got == "" && flakyOf(c.res) != c.flaky {
			t.Errorf("%s: flaky %v, want %v", c.name, flakyOf(c.res), c.flaky)
		}
	}
}

// A later attempt's artifacts keep its prefix inside a row's; an attempt
// beyond the run's retries is refused ("").
func TestAttemptArtifactName(t *testing.T) {
	job := fiveSteps
	job.Retries = 1
	shape := shapeOf(job, newMasker(nil))
	row := 3
	for _, c := range []struct {
		name string
		info protocol.ArtifactInfo
		want string
	}{
		{"step-001-open.jpg", protocol.ArtifactInfo{}, "step-001-open.jpg"},
		{"a2-step-001-open.jpg", protocol.ArtifactInfo{Attempt: 2}, "a2-step-001-open.jpg"},
		{"step-001-open.jpg", protocol.ArtifactInfo{Attempt: 2}, "a2-step-001-open.jpg"},
		{"r3-step-001-open.jpg", protocol.ArtifactInfo{Attempt: 2, Row: &row}, "r3-a2-step-001-open.jpg"},
		{"r3-a2-trace-001-open.json", protocol.ArtifactInfo{Attempt: 2, Row: &row}, "r3-a2-trace-001-open.json"},
		{"step-001-open.jpg", protocol.ArtifactInfo{Attempt: 3}, ""},
		{"step-001-open.jpg", protocol.ArtifactInfo{Attempt: -1}, ""},
	} {
		if got := shape.attemptArtifactName(c.name, c.info); got != c.want {
			t.Errorf("%s with attempt %d: %q, want %q", c.name, c.info.Attempt, got, c.want)
		}
	}
	for _, name := range []string{"a2-trace-001-open.json", "r3-a2-dom-001-open.html", "trace-001-open.json"} {
		if !isTrace(name) {
			t.Errorf("%s is not taken as a trace artifact", name)
		}
	}
	if isTrace("a2-step-001-open.jpg") {
		t.Error("a screenshot is taken as a trace artifact")
	}
}
