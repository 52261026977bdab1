package ci

import (
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
