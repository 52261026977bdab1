package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/testautomation/ta/protocol"
)

// TestRunWithBlocks (issue 29): a test with an if, a repeat calling a
// component with an input, and a forEach over a JSON list runs through
// the hub and a real agent; the hub accepts the result tree, stores it
// and serves it, with steps counted once however often they ran.
func TestRunWithBlocks(t *testing.T) {
	f := newRunFixture(t)
	add := f.user.projectDo(f.o.project, "POST", "/api/components", map[string]any{"name": "Add a row",
		"inputs": []any{map[string]any{"name": "label"}},
		"steps": []any{
			map[string]any{"id": "click", "type": "click", "target": target(loc("css", "#add"))},
			map[string]any{"id": "say", "type": "log", "message": "added ${label}"},
		}}).want(t, 201).json()["component"].(map[string]any)["id"].(string)
	doc := map[string]any{"name": "Blocks", "variables": map[string]string{"people": `["Ann","Bo"]`}, "steps": []any{
		map[string]any{"id": "open", "type": "navigate", "url": "${baseUrl}/flow.html?banner=1"},
		map[string]any{"id": "banner", "type": "if", "condition": map[string]any{"kind": "visible", "target": target(loc("css", "#accept"))},
			"steps": []any{map[string]any{"id": "accept", "type": "click", "target": target(loc("css", "#accept"))}},
			"else":  []any{map[string]any{"id": "none", "type": "log", "message": "no banner"}}},
		map[string]any{"id": "three", "type": "repeat", "times": 3, "steps": []any{callStep("row", add, 0, map[string]string{"label": "a row"})}},
		map[string]any{"id": "count", "type": "assertText", "target": target(loc("css", "#count")), "expected": "3", "match": "equals"},
		map[string]any{"id": "each", "type": "forEach", "items": "${people}", "as": "who", "steps": []any{
			map[string]any{"id": "name", "type": "fill", "target": target(loc("label", "Name")), "value": "${who}"},
			map[string]any{"id": "save", "type": "click", "target": target(loc("css", "#save"))},
		}},
		map[string]any{"id": "saved", "type": "assertText", "target": target(loc("css", "#saved")), "expected": "Ann Bo", "match": "equals"},
	}}
	runID := f.start(t, doc, nil)
	events := f.user.sse(t, runID)
	r := f.user.do("GET", "/api/runs/"+runID, nil).want(t, 200)
	var run runJSON
	_ = json.Unmarshal(r.body, &run)
	if run.Status != "passed" {
		t.Fatalf("run %s: %s\n%s", run.Status, run.Error, r.body)
	}
	// open, banner, accept, three, row.click, row.say, count, each, name, save, saved: none never ran.
	if run.Passed != 11 || run.Total != 11 {
		t.Errorf("passed %d of %d", run.Passed, run.Total)
	}
	steps := run.Result.Steps
	if len(steps) != 6 || steps[1].Branch != "then" || len(steps[2].Iterations) != 3 || len(steps[4].Iterations) != 2 {
		t.Fatalf("result tree: %s", r.body)
	}
	inner := steps[2].Iterations[2].Steps
	if len(inner) != 2 || inner[0].ID != "row.click" || inner[0].Call != "row" || inner[1].ID != "row.say" ||
		len(inner[1].Iteration) != 1 || inner[1].Iteration[0] != 2 {
		t.Errorf("the component's steps in iteration 2: %+v", inner)
	}
	// The stored document is the tree, the component expanded inside the loop.
	if d := run.Document; d == nil || len(d.Steps[2].Steps) != 2 || d.Steps[2].Steps[0].ID != "row.click" {
		t.Errorf("stored document: %+v", run.Document)
	}
	// Events: the component's log step finished once per iteration.
	n := 0
	for _, e := range events {
		if e.Kind == protocol.StepFinished && e.StepID == "row.say" {
			n++
		}
	}
	if n != 3 || !strings.Contains(string(r.body), `"iteration":[2]`) {
		t.Errorf("row.say finished %d times", n)
	}
}

// TestRowsAndHealingInBlocks (issue 29): a data-driven test whose steps
// sit in blocks runs once per row through a real agent, each row taking
// its own branch; a click inside a loop whose first locator matches
// nothing is healed by its fallback, and the result inside the block
// says so.
func TestRowsAndHealingInBlocks(t *testing.T) {
	f := newRunFixture(t)
	set := f.user.projectDo(f.o.project, "POST", "/api/test-data", map[string]any{"name": "People",
		"columns": []string{"who", "adds"}, "rows": []map[string]string{{"who": "Ann", "adds": "2"}, {"who": "Bo", "adds": "0"}}}).
		want(t, 201).str("id")
	doc := map[string]any{"name": "Rows in blocks", "data": map[string]any{"set": set}, "steps": []any{
		map[string]any{"id": "open", "type": "navigate", "url": "${baseUrl}/flow.html"},
		map[string]any{"id": "adds", "type": "if", "condition": map[string]any{"kind": "variable", "name": "adds", "expected": "0", "match": "equals"},
			"steps": []any{map[string]any{"id": "none", "type": "log", "message": "${who} adds nothing"}},
			"else": []any{map[string]any{"id": "each", "type": "forEach", "items": []string{"a", "b"}, "steps": []any{
				map[string]any{"id": "add", "type": "click", "target": target(loc("css", "#no-such-button"), loc("css", "#add"))},
			}}}},
		map[string]any{"id": "name", "type": "fill", "target": target(loc("label", "Name")), "value": "${who}"},
		map[string]any{"id": "save", "type": "click", "target": target(loc("css", "#save"))},
		map[string]any{"id": "saved", "type": "assertText", "target": target(loc("css", "#saved")), "expected": "${who}", "match": "equals"},
	}}
	runID := f.start(t, doc, nil)
	f.user.sse(t, runID)
	run := f.user.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
	if run["status"] != "passed" || len(run["rows"].([]any)) != 2 {
		t.Fatalf("run %v: %v rows %v", run["status"], run["error"], run["rows"])
	}
	var ann, bo struct {
		Steps []protocol.StepResult `json:"steps"`
	}
	_ = json.Unmarshal(f.user.do("GET", "/api/runs/"+runID+"/rows/0", nil).want(t, 200).body, &ann)
	_ = json.Unmarshal(f.user.do("GET", "/api/runs/"+runID+"/rows/1", nil).want(t, 200).body, &bo)
	if len(ann.Steps) != 5 || ann.Steps[1].Branch != "else" || len(bo.Steps) != 5 || bo.Steps[1].Branch != "then" {
		t.Fatalf("rows' trees: Ann %+v\nBo %+v", ann.Steps, bo.Steps)
	}
	loop := ann.Steps[1].Steps
	if len(loop) != 1 || len(loop[0].Iterations) != 2 {
		t.Fatalf("Ann's forEach: %+v", loop)
	}
	for _, it := range loop[0].Iterations {
		add := it.Steps[0]
		if add.Status != "passed" || add.HealedBy == nil || add.HealedBy.Value != "#add" {
			t.Errorf("iteration %d's click: %+v, want healed by css #add", it.Iteration, add)
		}
	}
}
