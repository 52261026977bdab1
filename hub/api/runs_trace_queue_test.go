package api

import (
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// A run queued again (its agent gone past its lease) keeps its option
// trace: the agent that takes it next is asked for the same.
func TestRunTraceKeptWhenQueuedAgain(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	a := h.rawAgent(t, mgr, "")
	agent := agentID(t, mgr)
	id := mgr.createTest(t, o.project, map[string]any{"name": "T", "steps": []map[string]any{
		{"id": "s1", "type": "navigate", "url": "https://example.com/"}}})
	runID := mgr.do("POST", "/api/runs", map[string]any{"testId": id, "trace": "off"}, ProjectHeader, o.project).want(t, 201).str("runId")
	if job := a.assigned(); job.Trace != protocol.TraceOff {
		t.Fatalf("first job: trace %q", job.Trace)
	}
	a.ws.CloseNow()
	for deadline := time.Now().Add(10 * time.Second); h.dispatch.Status(agent).Connected; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the hub did not notice the agent leave")
		}
	}
	h.advance(4 * time.Second) // past the 3 s lease
	h.dispatch.Sweep(t.Context())
	if r := mgr.do("GET", "/api/runs/"+runID, nil).json(); r["status"] != "queued" || r["options"].(map[string]any)["trace"] != "off" {
		t.Fatalf("the run queued again: %v", r)
	}
	a = h.rawAgent(t, mgr, a.token)
	if job := a.assigned(); job.RunID != runID || job.Trace != protocol.TraceOff {
		t.Errorf("the run given again: %s with trace %q", job.RunID, job.Trace)
	}
}
