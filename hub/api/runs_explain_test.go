package api

import (
	"encoding/json"
	"strings"
	"testing"
)

// Through hub and a real agent: each step's used values and its element's
// box are stored with the events and the result; a secret typed into a
// field shows as ***, and its value appears nowhere.
func TestRunUsedValuesAndBox(t *testing.T) {
	f := newRunFixture(t)
	d := map[string]any{"dsl": 2, "name": "Explains", "variables": map[string]string{"user": "ann@example.com"},
		"steps": []map[string]any{
			{"id": "open", "type": "navigate", "url": "${baseUrl}/login.html"},
			{"id": "email", "type": "fill", "value": "${user}", "target": target(loc("css", "#email"))},
			{"id": "pw", "type": "fill", "value": "${secrets.PASSWORD}", "target": target(loc("css", "#password"))},
			{"id": "check", "type": "assertValue", "expected": "${secrets.PASSWORD}!", "timeoutMs": 300, "target": target(loc("css", "#password"))},
		}}
	runID := f.start(t, d, map[string]any{"screenshots": false})
	events := f.user.sse(t, runID)
	r := f.user.do("GET", "/api/runs/"+runID, nil).want(t, 200)
	var run runJSON
	_ = json.Unmarshal(r.body, &run)
	if run.Status != "failed" || len(run.Result.Steps) != 4 {
		t.Fatalf("run: %s", r.body)
	}
	want := []map[string]string{{"url": ""}, {"value": "ann@example.com"}, {"value": "***"}, {"expected": "***!"}}
	var finished int
	for _, e := range events {
		if e.Kind != "step.finished" || e.Index == nil {
			continue
		}
		finished++
		w := want[*e.Index]
		for k, v := range w {
			if got := e.Used[k]; got != v && (v != "" || got == "") {
				t.Errorf("step.finished %d used %v, want %v", *e.Index, e.Used, w)
			}
		}
		if got := run.Result.Steps[*e.Index].Used; len(got) != len(e.Used) {
			t.Errorf("result step %d used %v, event %v", *e.Index, got, e.Used)
		}
	}
	if finished != 4 {
		t.Errorf("%d step.finished events: %s", finished, kinds(events))
	}
	if b := run.Result.Steps[3].Box; b == nil || b.Width <= 0 || b.ViewportWidth <= 0 {
		t.Errorf("the failed step's box: %+v", b)
	}
	all, _ := json.Marshal(events)
	text := string(all) + string(r.body) + f.h.logs.String()
	if strings.Contains(text, "hunter2-very-secret") || strings.Contains(text, "hunter2") {
		t.Error("the secret value leaked into events, the result or the hub log")
	}
	if !strings.Contains(text, `"value":"***"`) {
		t.Errorf("the masked form is missing from the stored events and result")
	}
}
