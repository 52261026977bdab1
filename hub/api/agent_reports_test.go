package api

import (
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// Issue 26, finding 6: the hub checks what an agent reports against the
// job it sent. A 5-step test "passed 0/0", a step.finished at index
// 99,999,999 and a row the run does not have each end the run as error,
// stored as such, with a log line naming the agent; an honest report of
// the same run is stored as sent.
func TestAgentReportsCheckedAgainstTheJob(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	a := h.rawAgent(t, mgr, "")
	agent := agentID(t, mgr)
	test := mgr.createTest(t, o.project, doc("Five", 5))
	start := func() protocol.Job {
		t.Helper()
		mgr.do("POST", "/api/runs", map[string]any{"testId": test}, ProjectHeader, o.project).want(t, 201)
		job := a.assigned()
		a.send(protocol.Message{Type: protocol.MsgAccept, RunID: job.RunID})
		return job
	}
	var id int64
	refused := func(runID, why string) {
		t.Helper()
		for {
			if m := a.read(); m.Type == protocol.MsgCancel && m.RunID == runID {
				break
			}
		}
		r := mgr.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
		if r["status"] != "error" || !strings.Contains(r["error"].(string), "does not match the run") ||
			!strings.Contains(r["error"].(string), why) || num(r["passed"]) != 0 {
			t.Errorf("run %s: %v", runID, r)
		}
		if logs := h.logs.String(); !strings.Contains(logs, "run="+runID+" agent="+agent) {
			t.Errorf("no log line names the agent for run %s", runID)
		}
	}

	job := start()
	id++
	a.send(protocol.Message{Type: protocol.MsgFinish, ID: id, RunID: job.RunID, Result: &protocol.RunResult{Status: protocol.RunPassed}})
	refused(job.RunID, "counts 0 steps, but the run has 5")

	job = start()
	id++
	a.event(job.RunID, id, 1, protocol.StepFinished, func(e *protocol.Event) {
		e.Index, e.StepID, e.Status = protocol.Ptr(99_999_999), "s1", protocol.StepPassed
	})
	refused(job.RunID, "step index 99999999 is out of range: the run has 5 steps")
	if k := kinds(mgr.sse(t, job.RunID)); k != "run.finished" {
		t.Errorf("events stored: %s; the out-of-range step.finished must not be", k)
	}

	job = start()
	id++
	a.event(job.RunID, id, 1, protocol.RowStarted, func(e *protocol.Event) { e.Row = protocol.Ptr(3) })
	refused(job.RunID, "row 3 was reported for a run without data rows")

	// The same test reported honestly.
	job = start()
	id++
	a.event(job.RunID, id, 1, protocol.StepFinished, func(e *protocol.Event) { e.Index, e.Status = protocol.Ptr(4), protocol.StepPassed })
	id++
	a.send(protocol.Message{Type: protocol.MsgFinish, ID: id, RunID: job.RunID, Result: report(job, protocol.RunFailed)})
	a.acked(id)
	r := mgr.do("GET", "/api/runs/"+job.RunID, nil).want(t, 200).json()
	if r["status"] != "failed" || num(r["passed"]) != 4 || num(r["total"]) != 5 {
		t.Errorf("an honest report: %v", r)
	}
	if e := mgr.sse(t, job.RunID)[0]; e.Kind != protocol.StepFinished || e.StepID != "s5" {
		t.Errorf("a step event without its id is stored with the job's: %+v", e)
	}
}
