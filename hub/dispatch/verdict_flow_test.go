package dispatch

import (
	"strings"
	"testing"

	"github.com/testautomation/ta/protocol"
)

// flowJob: open, if b {accept} else {other}, repeat r 2 times {add,
// forEach f [x, y] {say}}, end. Indexes 0 to 8 in that order.
var flowJob = protocol.Job{Document: protocol.Document{Steps: []protocol.Step{
	{ID: "open", Type: "navigate"},
	{ID: "b", Type: "if", Steps: []protocol.Step{{ID: "accept", Type: "click"}}, Else: []protocol.Step{{ID: "other", Type: "log"}}},
	{ID: "r", Type: "repeat", Times: ptr(2), Steps: []protocol.Step{
		{ID: "add", Type: "click"},
		{ID: "f", Type: "forEach", Items: &protocol.Items{List: []string{"x", "y"}}, Steps: []protocol.Step{{ID: "say", Type: "log"}}},
	}},
	{ID: "end", Type: "click"},
}}}

func sr(i int, id, status string, iter ...int) protocol.StepResult {
	return protocol.StepResult{Index: i, ID: id, Status: status, Iteration: iter}
}

// flowResult is a result of flowJob where say fails (softly or not) in
// the given iteration of r and f, or passes everywhere (-1).
func flowResult(failR, failF int, status string) protocol.RunResult {
	p := protocol.StepPassed
	its := []protocol.IterationResult{}
	for n := range 2 {
		inner := []protocol.IterationResult{}
		for m := range 2 {
			st := p
			if n == failR && m == failF {
				st = protocol.StepFailed
			}
			inner = append(inner, protocol.IterationResult{Iteration: m, Status: st, Steps: []protocol.StepResult{sr(7, "say", st, n, m)}})
		}
		f := sr(6, "f", p, n)
		f.Iterations = inner
		its = append(its, protocol.IterationResult{Iteration: n, Status: p, Steps: []protocol.StepResult{sr(5, "add", p, n), f}})
	}
	b := sr(1, "b", p)
	b.Branch, b.Steps = "then", []protocol.StepResult{sr(2, "accept", p)}
	r := sr(4, "r", p)
	r.Iterations = its
	passed := 8
	if failR >= 0 {
		passed = 7
	}
	return protocol.RunResult{Status: status, Passed: passed, Total: 8, Steps: []protocol.StepResult{sr(0, "open", p), b, r, sr(8, "end", p)}}
}

func TestCheckResultTree(t *testing.T) {
	shape := shapeOf(flowJob, newMasker(nil))
	change := func(f func(r *protocol.RunResult)) protocol.RunResult {
		r := flowResult(-1, -1, "passed")
		f(&r)
		return r
	}
	for _, c := range []struct {
		name string
		res  protocol.RunResult
		want string
	}{
		{"passed: the then branch, every iteration", flowResult(-1, -1, "passed"), ""},
		{"a soft failure in iteration [1 0]", flowResult(1, 0, "failed"), ""},
		{"the else branch", change(func(r *protocol.RunResult) {
			r.Steps[1].Branch, r.Steps[1].Steps = "else", []protocol.StepResult{sr(3, "other", "passed")}
		}), ""},
		{"no branch taken", change(func(r *protocol.RunResult) {
			r.Steps[1].Branch, r.Steps[1].Steps = "none", nil
			r.Passed, r.Total = 7, 7
		}), ""},

		{"then's steps under else", change(func(r *protocol.RunResult) { r.Steps[1].Branch = "else" }), "has index 2"},
		{"steps with no branch", change(func(r *protocol.RunResult) { r.Steps[1].Branch = "none" }), "took no branch"},
		{"a made-up branch", change(func(r *protocol.RunResult) { r.Steps[1].Branch = "maybe" }), `branch "maybe"`},
		{"more iterations than times", change(func(r *protocol.RunResult) {
			r.Steps[2].Iterations = append(r.Steps[2].Iterations, r.Steps[2].Iterations[0])
		}), "at most 2"},
		{"iterations out of order", change(func(r *protocol.RunResult) { r.Steps[2].Iterations[1].Iteration = 0 }), "iteration 0 in place 1"},
		{"a step's iteration is not its loop's", change(func(r *protocol.RunResult) { r.Steps[2].Iterations[1].Steps[0].Iteration = []int{0} }), "inside iteration [1]"},
		{"an iteration outside loops", change(func(r *protocol.RunResult) { r.Steps[0].Iteration = []int{0} }), "inside 0 loops"},
		{"a leaf holding steps", change(func(r *protocol.RunResult) { r.Steps[3].Steps = []protocol.StepResult{sr(0, "open", "passed")} }), "no block"},
		{"a step missing in an iteration", change(func(r *protocol.RunResult) {
			r.Steps[2].Iterations[0].Steps = r.Steps[2].Iterations[0].Steps[:1]
		}), "every step is reported"},
		{"passed counts executions", change(func(r *protocol.RunResult) { r.Passed = 11 }), "counts 11 steps passed, but 8 did"},
		{"a failed run with none failed", change(func(r *protocol.RunResult) { r.Status = "failed" }), "none of its steps failed"},
		{"a loop's steps outside its iterations", change(func(r *protocol.RunResult) { r.Steps[2].Steps = []protocol.StepResult{sr(5, "add", "passed")} }), "is a loop"},
	} {
		got := shape.checkResult(c.res)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	// Events carry the iteration of their step's loops.
	if got := shape.checkEvent(protocol.Event{Kind: protocol.StepFinished, Index: ptr(7), StepID: "say", Status: "passed", Iteration: []int{1, 0}}); got != "" {
		t.Errorf("say's event: %q", got)
	}
	if got := shape.checkEvent(protocol.Event{Kind: protocol.StepStarted, Index: ptr(7), StepID: "say", Iteration: []int{1}}); !strings.Contains(got, "inside 2 loops") {
		t.Errorf("say's event with one iteration: %q", got)
	}
	// Ids left out are filled through the tree.
	res := flowResult(-1, -1, "passed")
	res.Steps[2].Iterations[1].Steps[1].Iterations[0].Steps[0].ID = ""
	shape.fillResult(&res)
	if res.Steps[2].Iterations[1].Steps[1].Iterations[0].Steps[0].ID != "say" {
		t.Error("the id of a step inside loops was not filled")
	}
	// A hostile tree is cut to maxResultSteps results before anything walks it.
	big := flowResult(-1, -1, "passed")
	for range 20 {
		big.Steps[2].Iterations = append(big.Steps[2].Iterations, big.Steps[2].Iterations...)
	}
	newMasker(nil).result(&big)
	if n := len(protocol.AllResults(big.Steps)); n > maxResultSteps {
		t.Errorf("%d step results kept", n)
	}
}
