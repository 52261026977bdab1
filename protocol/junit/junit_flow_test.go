package junit

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/testautomation/ta/protocol"
)

// flowDoc is a test with a loop and an if with an else (docs/flow.md):
// open 1, five 2 (add 2.1, count 2.2), banner 3 (accept 3.1, other 3.2).
func flowDoc(t *testing.T) []protocol.Step {
	t.Helper()
	target := `{"locators": [{"kind": "css", "value": "#x"}]}`
	var steps []protocol.Step
	err := json.Unmarshal([]byte(`[
		{"id": "open", "type": "navigate", "url": "http://shop.test/"},
		{"id": "five", "type": "repeat", "times": 3, "steps": [
			{"id": "add", "type": "click", "target": `+target+`},
			{"id": "count", "type": "assertText", "target": `+target+`, "expected": "1"}]},
		{"id": "banner", "type": "if", "condition": {"kind": "visible", "target": `+target+`},
			"steps": [{"id": "accept", "type": "click", "target": `+target+`}],
			"else": [{"id": "other", "type": "click", "target": `+target+`}]}]`), &steps)
	if err != nil {
		t.Fatal(err)
	}
	return steps
}

func passed(i int, id, typ string, iter ...int) protocol.StepResult {
	return protocol.StepResult{Index: i, ID: id, Type: typ, Status: protocol.StepPassed, Iteration: iter}
}

// A run with blocks names the execution that failed (its number in the
// tree and its iteration) and lists the result tree in its output; an
// else step is numbered after the then-steps, as the editor shows it.
func TestReportOfARunWithBlocks(t *testing.T) {
	doc := flowDoc(t)
	count := passed(3, "count", "assertText", 1)
	count.Status, count.Error = protocol.StepFailed, "expected the text to contain \"1\"\nit was \"2\""
	inLoop := Run{Name: "Loop", Status: protocol.RunFailed, Document: doc,
		Error: "step 2.2 (count, assertText) failed in iteration 2: expected ...", Steps: []protocol.StepResult{
			passed(0, "open", "navigate"),
			{Index: 1, ID: "five", Type: "repeat", Status: protocol.StepFailed, Error: "step 2.2 (count, assertText) failed in iteration 2: expected ...",
				Iterations: []protocol.IterationResult{
					{Iteration: 0, Status: protocol.StepPassed, Steps: []protocol.StepResult{passed(2, "add", "click", 0), passed(3, "count", "assertText", 0)}},
					{Iteration: 1, Status: protocol.StepFailed, Steps: []protocol.StepResult{passed(2, "add", "click", 1), count}}}},
			{Index: 4, ID: "banner", Type: "if", Status: protocol.StepSkipped}}}
	other := passed(6, "other", "click")
	other.Status, other.Error = protocol.StepFailed, "no element matches css #x"
	inElse := Run{Name: "Else", Status: protocol.RunFailed, Document: doc, Steps: []protocol.StepResult{
		passed(0, "open", "navigate"),
		{Index: 1, ID: "five", Type: "repeat", Status: protocol.StepPassed, Iterations: []protocol.IterationResult{}},
		{Index: 4, ID: "banner", Type: "if", Status: protocol.StepFailed, Branch: "else", Steps: []protocol.StepResult{other}}}}
	var buf bytes.Buffer
	if err := (Report{Name: "flow", Runs: []Run{inLoop, inElse}}).Write(&buf); err != nil {
		t.Fatal(err)
	}
	var p parsed
	if err := xml.Unmarshal(buf.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	if p.Tests != 2 || p.Failures != 2 {
		t.Fatalf("tests %d failures %d, want one case per test: 2 2", p.Tests, p.Failures)
	}
	loop, els := p.Suite.Cases[0], p.Suite.Cases[1]
	if f := loop.Failure; f == nil || f.Message != `step 2.2 (assertText count) in iteration 2: expected the text to contain "1"` ||
		!strings.Contains(f.Text, `it was "2"`) {
		t.Errorf("the loop's failure: %+v", f)
	}
	for _, want := range []string{"Steps:", "  1 navigate open: passed", "  2 repeat five: failed", "    iteration 1: passed",
		"      2.2 assertText count: passed", "    iteration 2: failed", "      2.2 assertText count: failed: expected the text", "  3 if banner: skipped"} {
		if !strings.Contains(loop.SystemOut, want) {
			t.Errorf("the loop's output lacks %q:\n%s", want, loop.SystemOut)
		}
	}
	if f := els.Failure; f == nil || f.Message != "step 3.2 (click other): no element matches css #x" {
		t.Errorf("the else step's failure: %+v", f)
	}
	if !strings.Contains(els.SystemOut, "  3 if banner: failed (branch else)\n    3.2 click other: failed") {
		t.Errorf("the else run's output:\n%s", els.SystemOut)
	}
}
