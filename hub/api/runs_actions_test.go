package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// actionsDoc uses every action step of issue 28 against the fixture site:
// dialogs, tabs, drags, the mouse, history and the viewport. Its JSON is
// what the editor saves ("to" a string for switchTab, a target for dragTo).
func actionsDoc() map[string]any {
	css := func(sel string) map[string]any { return target(loc("css", sel)) }
	text := func(id, sel, want string) map[string]any {
		return map[string]any{"id": id, "type": "assertText", "target": css(sel), "expected": want}
	}
	return map[string]any{"dsl": 2, "name": "Actions", "steps": []map[string]any{
		{"id": "d1", "type": "navigate", "url": "${baseUrl}/dialogs.html"},
		{"id": "d2", "type": "dialog", "action": "accept", "expected": "Delete 3 items?", "match": "equals"},
		{"id": "d3", "type": "click", "target": css("#confirm")},
		text("d4", "#out", "confirmed"),
		{"id": "d5", "type": "dialog", "action": "accept", "text": "Ann"},
		{"id": "d6", "type": "click", "target": css("#prompt")},
		text("d7", "#out", "name=Ann"),
		{"id": "t1", "type": "navigate", "url": "${baseUrl}/tabs.html"},
		{"id": "t2", "type": "click", "target": css("#link")},
		{"id": "t3", "type": "switchTab", "to": "new"},
		{"id": "t4", "type": "assertTitle", "expected": "Second tab"},
		{"id": "t5", "type": "script", "code": "if (innerWidth !== 393 || !navigator.userAgent.includes('iPhone')) throw new Error('not the iPhone: ' + innerWidth)"},
		{"id": "t6", "type": "closeTab"},
		{"id": "t7", "type": "click", "target": css("#open")},
		{"id": "t8", "type": "switchTab", "to": "match", "url": "via=script"},
		{"id": "t9", "type": "switchTab", "to": "opener"},
		{"id": "t10", "type": "switchTab", "to": "index", "index": 2},
		{"id": "t11", "type": "switchTab", "to": "index", "index": 0},
		{"id": "m1", "type": "navigate", "url": "${baseUrl}/drag.html"},
		{"id": "m2", "type": "dragTo", "target": css("#card"), "to": css("#bin")},
		text("m3", "#out", "dropped card-1;"),
		{"id": "m4", "type": "mouse", "action": "down", "target": css("#handle")},
		{"id": "m5", "type": "mouse", "action": "move", "target": css("#target")},
		{"id": "m6", "type": "mouse", "action": "up"},
		text("m7", "#out", "pointer dropped after moves;"),
		{"id": "m8", "type": "click", "target": css("#pad"), "button": "right"},
		{"id": "m9", "type": "click", "target": css("#pad"), "modifiers": []string{"Shift"}, "position": map[string]any{"x": 5, "y": 6}},
		{"id": "m10", "type": "dblclick", "target": css("#pad"), "button": "left"},
		text("m11", "#out", "contextmenu b2;click b0 Shift at 5,6;"),
		{"id": "h1", "type": "goBack"},
		{"id": "h2", "type": "assertTitle", "expected": "Tabs", "match": "equals"},
		{"id": "h3", "type": "goForward"},
		{"id": "h4", "type": "reload"},
		{"id": "h5", "type": "assertTitle", "expected": "Drag", "match": "equals"},
		{"id": "v1", "type": "setViewport", "width": 700, "height": 500},
		{"id": "v2", "type": "navigate", "url": "${baseUrl}/tabs.html"}, // a mobile page: width=device-width
		{"id": "v3", "type": "script", "code": "if (innerWidth !== 700 || innerHeight !== 500) throw new Error('viewport ' + innerWidth + 'x' + innerHeight)"},
	}}
}

// TestRunActionSteps runs a test using all the action steps through the
// hub and a paired agent, on the device it asks for; the run keeps the
// device in its options.
func TestRunActionSteps(t *testing.T) {
	f := newRunFixture(t)
	runID := f.start(t, actionsDoc(), map[string]any{"device": "iPhone 15"})
	events := f.user.sse(t, runID)
	if last := events[len(events)-1]; last.Kind != protocol.RunFinished || last.Status != protocol.RunPassed {
		t.Fatalf("last event %+v", last)
	}
	var run runJSON
	_ = json.Unmarshal(f.user.do("GET", "/api/runs/"+runID, nil).want(t, 200).body, &run)
	if run.Status != "passed" || run.Options.Device != "iPhone 15" {
		t.Fatalf("run %s, options %+v", run.Status, run.Options)
	}
	// A batch keeps the device for its runs, and its rerun.
	id := f.user.createTest(t, f.o.project, signInDoc("", "Welcome"))
	b := f.user.do("POST", "/api/runs", map[string]any{"testIds": []string{id}, "environmentId": f.env, "device": "Pixel 7"},
		ProjectHeader, f.o.project).want(t, 201).str("batchId")
	batch := f.user.do("GET", "/api/batches/"+b, nil).want(t, 200).json()
	if batch["options"].(map[string]any)["device"] != "Pixel 7" ||
		batch["runs"].([]any)[0].(map[string]any)["options"].(map[string]any)["device"] != "Pixel 7" {
		t.Errorf("batch: %v", batch)
	}
}

// TestRunActionStepFailures: the failures say what was expected.
func TestRunActionStepFailures(t *testing.T) {
	f := newRunFixture(t)
	for _, tc := range []struct {
		steps []map[string]any
		want  string
	}{
		{[]map[string]any{{"id": "open", "type": "navigate", "url": "${baseUrl}/dialogs.html"},
			{"id": "arm", "type": "dialog", "action": "accept", "expected": "Delete 3 items?"},
			{"id": "noop", "type": "click", "target": target(loc("css", "#noop")), "timeoutMs": 1000}},
			`expected a dialog (accept "Delete 3 items?", armed by step 2) but none opened before this step ended`},
		{[]map[string]any{{"id": "open", "type": "navigate", "url": "${baseUrl}/tabs.html"},
			{"id": "new", "type": "switchTab", "to": "new", "timeoutMs": 1000}},
			"timed out after 1s: no new tab opened"},
	} {
		runID := f.start(t, map[string]any{"dsl": 2, "name": "Fails", "steps": tc.steps}, nil)
		f.user.sse(t, runID)
		var run runJSON
		_ = json.Unmarshal(f.user.do("GET", "/api/runs/"+runID, nil).want(t, 200).body, &run)
		last := run.Result.Steps[len(run.Result.Steps)-1]
		if run.Status != "failed" || last.Status != "failed" || !strings.Contains(last.Error, tc.want) || !strings.Contains(run.Error, tc.want) {
			t.Errorf("run %s %q, last step %s %q; want failed with %q", run.Status, run.Error, last.Status, last.Error, tc.want)
		}
	}
}

// TestRunDeviceRefused: an unknown device is refused naming the known
// ones, and nothing is queued; GET /api/registry lists the devices.
func TestRunDeviceRefused(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	id := mgr.createTest(t, o.project, signInDoc("", "Welcome"))
	for _, body := range []map[string]any{{"testId": id, "device": "Nokia 3310"}, {"testIds": []string{id}, "device": "iphone 15"}} {
		r := mgr.do("POST", "/api/runs", body, ProjectHeader, o.project).want(t, 422)
		var e errorBody
		_ = json.Unmarshal(r.body, &e)
		if len(e.Issues) != 1 || e.Issues[0].Path != "device" || !strings.Contains(e.Issues[0].Message, "use one of iPhone SE, iPhone 12") {
			t.Errorf("refusal %s", r.body)
		}
	}
	if runs := mgr.do("GET", "/api/runs", nil, ProjectHeader, o.project).want(t, 200).json()["runs"].([]any); len(runs) != 0 {
		t.Errorf("runs were queued: %v", runs)
	}
	reg := mgr.do("GET", "/api/registry", nil).want(t, 200).json()
	var names []string
	for _, d := range reg["devices"].([]any) {
		names = append(names, d.(map[string]any)["name"].(string))
	}
	for _, want := range []string{"iPhone 15", "iPhone 15 Pro Max", "iPhone SE", "Pixel 5", "Pixel 7", "Galaxy S9+", "Galaxy S8", "iPad (gen 7)", "iPad Mini", "iPad Pro 11", "Galaxy Tab S4"} {
		if !strings.Contains(strings.Join(names, "|")+"|", want+"|") {
			t.Errorf("registry devices %v lack %s", names, want)
		}
	}
}
