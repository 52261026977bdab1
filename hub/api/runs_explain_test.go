package api

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
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

// A running run's record folds its step.finished events into steps with
// their box and used values; a used value an agent failed to mask is
// masked by the hub.
func TestRunningStepsKeepBoxAndUsed(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	env := mgr.do("POST", "/api/environments", map[string]any{"name": "Prod", "variables": map[string]string{},
		"secrets": map[string]string{"PW": "raw-agent-secret"}}, ProjectHeader, o.project).want(t, 201).str("id")
	a := h.rawAgent(t, mgr, "")
	id := mgr.createTest(t, o.project, map[string]any{"name": "T", "steps": []map[string]any{
		{"id": "s1", "type": "fill", "value": "${secrets.PW}", "target": target(loc("css", "#pw"))},
		{"id": "s2", "type": "wait", "ms": 10}}})
	runID := mgr.do("POST", "/api/runs", map[string]any{"testId": id, "environmentId": env}, ProjectHeader, o.project).want(t, 201).str("runId")
	a.assigned()
	a.send(protocol.Message{Type: protocol.MsgAccept, RunID: runID})
	zero, d := 0, int64(5)
	box := &protocol.Box{X: 10, Y: 20, Width: 30, Height: 40, ViewportWidth: 1280, ViewportHeight: 720, DPR: 1}
	for _, e := range []protocol.Event{
		{Seq: 1, Kind: protocol.RunStarted},
		{Seq: 2, Kind: protocol.StepFinished, Index: &zero, StepID: "s1", StepType: "fill", Status: protocol.StepPassed, DurationMs: &d,
			Box: box, Used: protocol.Used{"value": "raw-agent-secret"}},
	} {
		a.send(protocol.Message{Type: protocol.MsgEvent, RunID: runID, Event: &e})
	}
	var run runJSON
	for range 200 {
		r := mgr.do("GET", "/api/runs/"+runID, nil).want(t, 202)
		_ = json.Unmarshal(r.body, &run)
		if len(run.Result.Steps) == 1 {
			if strings.Contains(string(r.body), "raw-agent-secret") {
				t.Errorf("the secret shows in %s", r.body)
			}
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(run.Result.Steps) != 1 {
		t.Fatalf("steps so far: %+v", run.Result.Steps)
	}
	if s := run.Result.Steps[0]; s.Box == nil || *s.Box != *box || s.Used["value"] != "***" {
		t.Errorf("step so far: box %+v used %v", s.Box, s.Used)
	}
}
