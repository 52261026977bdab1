package ci

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/testautomation/ta/protocol"
)

// The CI command names a failing step as the editor numbers it: a step of
// a component call is the call's number, a dot and its place in it.
func TestFailureLineNumbersStepsAsTheEditor(t *testing.T) {
	d := &runDetail{Status: protocol.RunFailed}
	d.Result.Steps = []protocol.StepResult{
		{Index: 0, ID: "s1", Type: "navigate", Status: protocol.StepPassed},
		{Index: 1, ID: "c1", Type: "fill", Call: "s2", Status: protocol.StepPassed},
		{Index: 2, ID: "c2", Type: "click", Call: "s2", Status: protocol.StepPassed},
		{Index: 3, ID: "c3", Type: "assertText", Call: "s2", Status: protocol.StepFailed, Error: "wrong text\nmore"},
		{Index: 4, ID: "s3", Type: "click", Status: protocol.StepSkipped},
	}
	var b strings.Builder
	newPrinter(&b, false).finished(snapshot{testName: "Checkout", status: protocol.RunFailed, detail: d}, "http://hub/runs/run_x")
	if !strings.Contains(b.String(), "step 2.3 (assertText c3): wrong text") {
		t.Errorf("output %q, want step 2.3", b.String())
	}
}

// A run with blocks: the failing step is named by its number in the tree
// and its iteration, and the tree follows, each iteration on its line.
func TestFailureLinesOfARunWithBlocks(t *testing.T) {
	d := &runDetail{Status: protocol.RunFailed}
	if err := json.Unmarshal([]byte(`{"document": {"steps": [{"id": "open", "type": "navigate"},
		{"id": "five", "type": "repeat", "steps": [{"id": "add", "type": "click"}, {"id": "count", "type": "assertText"}]}]}}`), d); err != nil {
		t.Fatal(err)
	}
	ok := func(i int, id, typ string, n int) protocol.StepResult {
		return protocol.StepResult{Index: i, ID: id, Type: typ, Status: protocol.StepPassed, Iteration: []int{n}}
	}
	bad := ok(3, "count", "assertText", 1)
	bad.Status, bad.Error = protocol.StepFailed, "wrong count\nmore"
	d.Result.Steps = []protocol.StepResult{
		{Index: 0, ID: "open", Type: "navigate", Status: protocol.StepPassed},
		{Index: 1, ID: "five", Type: protocol.TypeRepeat, Status: protocol.StepFailed, Error: "step 2.2 (count, assertText) failed in iteration 2: wrong count",
			Iterations: []protocol.IterationResult{
				{Iteration: 0, Status: protocol.StepPassed, Steps: []protocol.StepResult{ok(2, "add", "click", 0), ok(3, "count", "assertText", 0)}},
				{Iteration: 1, Status: protocol.StepFailed, Steps: []protocol.StepResult{ok(2, "add", "click", 1), bad}}}},
	}
	var b strings.Builder
	newPrinter(&b, false).finished(snapshot{testName: "Cart", status: protocol.RunFailed, detail: d}, "http://hub/runs/run_x")
	want := `
      step 2.2 (assertText count) in iteration 2: wrong count
      1 navigate open: passed
      2 repeat five: failed
        iteration 1: passed
          2.1 click add: passed
          2.2 assertText count: passed
        iteration 2: failed
          2.1 click add: passed
          2.2 assertText count: failed: wrong count`
	if !strings.HasSuffix(b.String(), want+"\n") {
		t.Errorf("output:\n%s\nwant it to end with:%s", b.String(), want)
	}
}
