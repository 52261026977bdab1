package dispatch

import (
	"strings"
	"testing"

	"github.com/testautomation/ta/protocol"
)

func ptr[T any](v T) *T { return &v }

// fiveSteps is a job whose first two steps came from a component.
var fiveSteps = protocol.Job{Document: protocol.Document{Steps: []protocol.Step{
	{ID: "open", Type: "navigate"}, {ID: "s2", Type: "fill", Call: "login"}, {ID: "s3", Type: "click", Call: "login"},
	{ID: "check", Type: "assertTitle"}, {ID: "bye", Type: "click"}}}}

func results(statuses ...string) []protocol.StepResult {
	ids := []string{"open", "s2", "s3", "check", "bye"}
	out := make([]protocol.StepResult, len(statuses))
	for i, s := range statuses {
		out[i] = protocol.StepResult{Index: i, ID: ids[i], Status: s}
	}
	return out
}

func TestCheckResult(t *testing.T) {
	shape := shapeOf(fiveSteps, newMasker(nil))
	p, f, s := protocol.StepPassed, protocol.StepFailed, protocol.StepSkipped
	swapped := results(p, p, p, p, p)
	swapped[1].ID, swapped[2].ID = "s3", "s2"
	for _, c := range []struct {
		name string
		res  protocol.RunResult
		want string // part of the refusal; "" accepts
	}{
		{"passed, every step passed", protocol.RunResult{Status: "passed", Passed: 5, Total: 5, Steps: results(p, p, p, p, p)}, ""},
		{"failed at step 4, the rest skipped", protocol.RunResult{Status: "failed", Passed: 3, Total: 5, Steps: results(p, p, p, f, s)}, ""},
		{"soft assertions failed, later steps ran", protocol.RunResult{Status: "failed", Passed: 3, Total: 5, Steps: results(p, f, p, f, p)}, ""},
		{"a soft failure, then a hard one", protocol.RunResult{Status: "failed", Passed: 2, Total: 5, Steps: results(p, f, p, f, s)}, ""},
		{"cancelled after two steps", protocol.RunResult{Status: "cancelled", Passed: 2, Total: 5, Steps: results(p, p)}, ""},
		{"cancelled with a failed step (the agent's cancel wins)", protocol.RunResult{Status: "cancelled", Passed: 1, Total: 5, Steps: results(p, f, s, s, s)}, ""},
		{"error before any step", protocol.RunResult{Status: "error", Total: 5}, ""},
		{"cancelled before it began, counting nothing", protocol.RunResult{Status: "cancelled"}, ""},
		{"cancelled 1/0", protocol.RunResult{Status: "cancelled", Passed: 1}, "counts 0 steps"},
		{"error with every step skipped", protocol.RunResult{Status: "error", Total: 5, Steps: results(s, s, s, s, s)}, ""},

		{"passed 0/0 for a 5-step test", protocol.RunResult{Status: "passed"}, "counts 0 steps, but the run has 5"},
		{"passed 5/5 without step results", protocol.RunResult{Status: "passed", Passed: 5, Total: 5}, "counts 5 steps passed, but 0 did"},
		{"passed with a failed step", protocol.RunResult{Status: "passed", Passed: 4, Total: 5, Steps: results(p, p, f, p, p)}, "reported passed, but 4 of its 5 steps passed"},
		{"passed count inflated", protocol.RunResult{Status: "failed", Passed: 5, Total: 5, Steps: results(p, p, p, f, s)}, "counts 5 steps passed, but 3 did"},
		{"failed without a failed step", protocol.RunResult{Status: "failed", Passed: 4, Total: 5, Steps: results(p, p, p, p, s)}, "none of its steps failed"},
		{"failed with steps missing", protocol.RunResult{Status: "failed", Passed: 1, Total: 5, Steps: results(p, f)}, "failed with results for 2 of its 5 steps"},
		{"more results than steps", protocol.RunResult{Status: "error", Total: 5, Steps: append(results(s, s, s, s, s), protocol.StepResult{Index: 5, ID: "x", Status: s})}, "6 step results"},
		{"an index out of order", protocol.RunResult{Status: "error", Total: 5, Steps: []protocol.StepResult{{Index: 99_999_999, ID: "open", Status: s}}}, "has index 99999999"},
		{"steps of a component swapped", protocol.RunResult{Status: "passed", Passed: 5, Total: 5, Steps: swapped}, `step 1 was reported as "s3"`},
		{"an unknown step status", protocol.RunResult{Status: "error", Total: 5, Steps: []protocol.StepResult{{Index: 0, ID: "open", Status: "great"}}}, `status "great"`},
		{"rows in a run without rows", protocol.RunResult{Status: "cancelled", Total: 5, Rows: []protocol.RowResult{{Row: 0, Status: "cancelled"}}}, "has no data rows"},
	} {
		got := shape.checkResult(c.res)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestCheckResultRows(t *testing.T) {
	job := fiveSteps
	job.Rows = []protocol.DataRow{{Row: 0}, {Row: 2}, {Row: 7}}
	shape := shapeOf(job, newMasker(nil))
	p, f, s := protocol.StepPassed, protocol.StepFailed, protocol.StepSkipped
	row := func(n int, status string, steps ...string) protocol.RowResult {
		st := results(steps...)
		passed := 0
		for _, x := range steps {
			if x == p {
				passed++
			}
		}
		return protocol.RowResult{Row: n, Status: status, Passed: passed, Total: 5, Steps: st}
	}
	allPassed := []protocol.RowResult{row(0, "passed", p, p, p, p, p), row(2, "passed", p, p, p, p, p), row(7, "passed", p, p, p, p, p)}
	for _, c := range []struct {
		name string
		res  protocol.RunResult
		want string
	}{
		{"every row passed", protocol.RunResult{Status: "passed", Passed: 3, Total: 3, Rows: allPassed}, ""},
		{"one row failed", protocol.RunResult{Status: "failed", Passed: 2, Total: 3,
			Rows: []protocol.RowResult{row(0, "passed", p, p, p, p, p), row(2, "failed", p, f, s, s, s), row(7, "passed", p, p, p, p, p)}}, ""},
		{"cancelled: a row never started", protocol.RunResult{Status: "cancelled", Passed: 1, Total: 3,
			Rows: []protocol.RowResult{row(0, "passed", p, p, p, p, p), row(2, "cancelled", p, s, s, s, s), {Row: 7, Status: "cancelled", Steps: []protocol.StepResult{}}}}, ""},

		{"passed 0/0 without rows", protocol.RunResult{Status: "passed"}, "counts 0 rows, but the run has 3"},
		{"passed without row results", protocol.RunResult{Status: "passed", Passed: 3, Total: 3}, "counts 3 rows passed, but 0 did"},
		{"a row the run does not have", protocol.RunResult{Status: "passed", Passed: 3, Total: 3,
			Rows: []protocol.RowResult{row(0, "passed", p, p, p, p, p), row(2, "passed", p, p, p, p, p), row(8, "passed", p, p, p, p, p)}}, "row 8 is not one of the run's 3 rows"},
		{"a row twice", protocol.RunResult{Status: "passed", Passed: 3, Total: 3,
			Rows: []protocol.RowResult{row(0, "passed", p, p, p, p, p), row(0, "passed", p, p, p, p, p), row(7, "passed", p, p, p, p, p)}}, "row 0 is reported twice"},
		{"a passed row with no steps", protocol.RunResult{Status: "passed", Passed: 3, Total: 3,
			Rows: []protocol.RowResult{row(0, "passed", p, p, p, p, p), {Row: 2, Status: "passed"}, row(7, "passed", p, p, p, p, p)}}, "row 2: the result counts 0 steps"},
		{"steps outside rows", protocol.RunResult{Status: "passed", Passed: 3, Total: 3, Rows: allPassed, Steps: results(p)}, "steps outside its rows"},
		{"error before any row, counting nothing", protocol.RunResult{Status: "error"}, ""},
		{"a row still running", protocol.RunResult{Status: "error", Total: 3, Rows: []protocol.RowResult{{Row: 0, Status: "running"}}}, `row 0 ended with status "running"`},
	} {
		got := shape.checkResult(c.res)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestCheckEvent(t *testing.T) {
	plain := shapeOf(fiveSteps, newMasker(nil))
	job := fiveSteps
	job.Rows = []protocol.DataRow{{Row: 3}}
	rows := shapeOf(job, newMasker(nil))
	// A step whose id is a secret's value: the agent sends it masked.
	secretJob := protocol.Job{Document: protocol.Document{Steps: []protocol.Step{{ID: "hunter2"}}}, Secrets: map[string]string{"PW": "hunter2"}}
	secret := shapeOf(secretJob, newMasker(secretJob.Secrets))
	for _, c := range []struct {
		name  string
		shape jobShape
		e     protocol.Event
		want  string
	}{
		{"step finished", plain, protocol.Event{Kind: protocol.StepFinished, Index: ptr(3), StepID: "check", Status: "failed"}, ""},
		{"a log line on a step", plain, protocol.Event{Kind: protocol.LogLine, Step: ptr(4)}, ""},
		{"a log line of the run", plain, protocol.Event{Kind: protocol.LogLine}, ""},
		{"a row's step", rows, protocol.Event{Kind: protocol.StepStarted, Row: ptr(3), Index: ptr(0), StepID: "open"}, ""},
		{"a row starts", rows, protocol.Event{Kind: protocol.RowStarted, Row: ptr(3)}, ""},
		{"a masked step id", secret, protocol.Event{Kind: protocol.StepStarted, Index: ptr(0), StepID: "***"}, ""},
		{"no step id: the index says", plain, protocol.Event{Kind: protocol.StepStarted, Index: ptr(1)}, ""},

		{"index 99,999,999", plain, protocol.Event{Kind: protocol.StepFinished, Index: ptr(99_999_999), StepID: "x", Status: "passed"}, "step index 99999999 is out of range: the run has 5 steps"},
		{"a negative index", plain, protocol.Event{Kind: protocol.StepStarted, Index: ptr(-1), StepID: "open"}, "out of range"},
		{"no index", plain, protocol.Event{Kind: protocol.StepRetry, StepID: "open"}, "names no step index"},
		{"another step's id", plain, protocol.Event{Kind: protocol.StepFinished, Index: ptr(0), StepID: "check", Status: "passed"}, `step 0 was reported as "check"`},
		{"a made-up status", plain, protocol.Event{Kind: protocol.StepFinished, Index: ptr(0), StepID: "open", Status: "passed!"}, `status "passed!"`},
		{"a log line on step 5 of 5", plain, protocol.Event{Kind: protocol.LogLine, Step: ptr(5)}, "step index 5 is out of range"},
		{"a row in a run without rows", plain, protocol.Event{Kind: protocol.LogLine, Row: ptr(0)}, "run without data rows"},
		{"a row the run does not have", rows, protocol.Event{Kind: protocol.RowStarted, Row: ptr(4)}, "row 4 is not one of the run's 1 rows"},
		{"a row's step without its row", rows, protocol.Event{Kind: protocol.StepStarted, Index: ptr(0), StepID: "open"}, "names no row"},
	} {
		got := c.shape.checkEvent(c.e)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	if got := rows.checkArtifact(protocol.ArtifactInfo{Row: ptr(3), Step: ptr(7)}); !strings.Contains(got, "out of range") {
		t.Errorf("an artifact of step 7 of 5: %q", got)
	}
	if got := rows.checkArtifact(protocol.ArtifactInfo{Row: ptr(3), Step: ptr(1)}); got != "" {
		t.Errorf("a row's screenshot: %q", got)
	}
}

// A report that leaves step ids out gets the job's.
func TestFillIDs(t *testing.T) {
	shape := shapeOf(fiveSteps, newMasker(nil))
	e := protocol.Event{Kind: protocol.StepFinished, Index: ptr(3)}
	shape.fillEvent(&e)
	res := protocol.RunResult{Steps: []protocol.StepResult{{Index: 0}, {Index: 1, ID: "s2"}},
		Rows: []protocol.RowResult{{Steps: []protocol.StepResult{{Index: 0}}}}}
	shape.fillResult(&res)
	if e.StepID != "check" || res.Steps[0].ID != "open" || res.Steps[1].ID != "s2" || res.Rows[0].Steps[0].ID != "open" || res.Total != 5 {
		t.Errorf("filled: event %q, steps %+v, rows %+v", e.StepID, res.Steps, res.Rows)
	}
}
