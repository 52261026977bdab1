package api

import (
	"fmt"
	"strings"
	"testing"
)

// flowLiveDoc is a test with blocks on the fixture's flow page: open;
// three (a repeat: add); check (if the count is want: ok, else bad).
func flowLiveDoc(want string) map[string]any {
	css := func(sel string) map[string]any { return target(loc("css", sel)) }
	return map[string]any{"name": "Blocks", "steps": []any{
		map[string]any{"id": "open", "type": "navigate", "url": "${baseUrl}/flow.html"},
		map[string]any{"id": "three", "type": "repeat", "times": 2, "steps": []any{
			map[string]any{"id": "add", "type": "click", "target": css("#add")}}},
		map[string]any{"id": "check", "type": "if", "condition": map[string]any{"kind": "text", "target": css("#count"), "expected": "9", "match": "equals"},
			"steps": []any{map[string]any{"id": "ok", "type": "log", "message": "nine"}},
			"else":  []any{map[string]any{"id": "bad", "type": "assertText", "target": css("#count"), "expected": want, "match": "equals", "timeoutMs": 400}}},
		map[string]any{"id": "done", "type": "log", "message": "end"},
	}}
}

func flowMarks(v map[string]any) string {
	steps := v["steps"].(map[string]any)
	var out []string
	for _, id := range []string{"open", "three", "add", "check", "ok", "bad"} {
		if m, ok := steps[id].(map[string]any); ok {
			out = append(out, id+"="+fmt.Sprint(m["status"]))
		}
	}
	return strings.Join(out, " ")
}

// TestLiveSessionWithBlocks (issue 29): the editor's live session on a
// test with blocks. "Run to here" and "Run from here" on a step inside a
// block run to and from the block around it at the top; "Run this step"
// on a block runs the block; a step inside a block run again loses the
// failure it had; a picker on a step inside a block replays the steps on
// the way to it.
func TestLiveSessionWithBlocks(t *testing.T) {
	w := newLiveWorld(t)
	id := w.open(t)
	doc := flowLiveDoc("never")

	v := w.run(t, id, obj{"document": doc, "to": "add"}, "ready")
	if got := flowMarks(v); got != "open=passed three=passed add=passed" || v["at"] != "check" {
		t.Fatalf("run to a step in a loop: %s at %v: %v", got, v["at"], v)
	}
	v = w.run(t, id, obj{"document": doc, "from": "ok", "pauseOnFailure": true}, "paused")
	if got := flowMarks(v); got != "open=passed three=passed add=passed check=failed bad=failed" || v["failedStepId"] != "bad" || v["at"] != "bad" {
		t.Fatalf("run from a step in the if: %s, paused at %v: %v", got, v["at"], v)
	}
	// Fixed, the failed step alone where the page stands: it passes, and
	// then the page stands inside the if: not known where.
	v = w.run(t, id, obj{"document": flowLiveDoc("2"), "stepIds": []string{"bad"}, "pauseOnFailure": true}, "ready")
	if got := flowMarks(v); !strings.HasSuffix(got, "bad=passed") || v["at"] != nil {
		t.Fatalf("run the else step alone: %s at %v: %v", got, v["at"], v)
	}
	// The loop alone: two more rows.
	v = w.run(t, id, obj{"document": doc, "stepIds": []string{"three"}}, "ready")
	if got := flowMarks(v); got != "open=passed three=passed add=passed check=failed bad=passed" {
		t.Fatalf("run the loop alone: %s: %v", got, v)
	}
	// The if fails; run again with the fix (4 rows now), its else step's
	// mark is this run's, not the failure before.
	v = w.run(t, id, obj{"document": doc, "stepIds": []string{"check"}}, "ready")
	if got := flowMarks(v); !strings.HasSuffix(got, "check=failed bad=failed") {
		t.Fatalf("run the if: %s: %v", got, v)
	}
	v = w.run(t, id, obj{"document": flowLiveDoc("4"), "stepIds": []string{"check"}}, "ready")
	if got := flowMarks(v); !strings.HasSuffix(got, "check=passed bad=passed") {
		t.Fatalf("run the if again: %s: %v", got, v)
	}
	w.c.do("POST", "/api/sessions/"+id+"/run", obj{"document": doc, "from": "nosuch"}).wantCode(t, 422, "invalid")

	// A picker on the step inside the if: open and the loop replay on a
	// fresh page (two rows), and the page stands before that step.
	r := w.c.do("POST", "/api/pick/start", obj{"sessionId": id, "stepId": "ok", "document": doc}, ProjectHeader, w.o.project).want(t, 201)
	pid := r.str("id")
	waitFor(t, func() bool {
		return w.c.do("GET", "/api/pick/"+pid, nil).want(t, 200).json()["status"] == "ready"
	})
	if got := recordingPage(t, w.port, "/flow.html").MustElement("#count").MustText(); got != "2" {
		t.Errorf("the picker's page has %s rows, want the 2 of the replayed loop", got)
	}
	if v := w.c.do("GET", "/api/sessions/"+id, nil).want(t, 200).json(); v["at"] != "ok" {
		t.Errorf("after the replay the page is at %v", v["at"])
	}
	w.c.do("POST", "/api/pick/"+pid+"/close", nil).want(t, 204)
}
