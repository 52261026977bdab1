package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// flakyPage serves a page whose heading says "not yet" the first time
// and "ready" after.
func flakyPage(t *testing.T) string {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		text := "ready"
		if r.URL.Path == "/flaky" && n.Add(1) == 1 {
			text = "not yet"
		}
		fmt.Fprintf(w, "<!doctype html><title>Flaky</title><h1 id=out>%s</h1>", text)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/flaky"
}

func flakyDoc(url string) map[string]any {
	return map[string]any{"dsl": 2, "name": "Flaky", "steps": []map[string]any{
		{"id": "open", "type": "navigate", "url": url},
		{"id": "check", "type": "assertText", "expected": "ready", "timeoutMs": 500, "target": target(loc("css", "#out"))},
	}}
}

// waitFinal polls a run until it has ended.
func (c *client) waitFinal(t *testing.T, runID string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		r := c.do("GET", "/api/runs/"+runID, nil).json()
		if s, _ := r["status"].(string); protocol.Final(s) {
			return r
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("run %s never ended", runID)
	return nil
}

// waitBatchDone polls a batch until every run is final.
func (c *client) waitBatchDone(t *testing.T, batchID string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		b := c.do("GET", "/api/batches/"+batchID, nil).want(t, 200).json()
		if protocol.Final(b["status"].(string)) {
			return b
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("batch %s did not finish", batchID)
	return nil
}

// Through a real agent and Chromium: a test that fails once and then
// passes, run with retries 1, is passed and flaky in GET /api/runs/:id
// (with both attempts and their steps), in the run list, the batch's
// counts, its JUnit (a flakyFailure, no failure) and the run.finished
// webhook; each attempt's screenshots and trace can be fetched.
func TestRetriedRunIsFlakyEverywhere(t *testing.T) {
	f := newRunFixture(t)
	f.h.startWebhooks(t, 5*time.Second)
	rc := newReceiver(t, nil)
	f.user.projectDo(f.o.project, "POST", "/api/webhooks", obj{"name": "CI", "url": rc.srv.URL, "events": []any{"run.finished"}}).want(t, 201)
	testID := f.user.createTest(t, f.o.project, flakyDoc(flakyPage(t)))
	batchID := f.user.do("POST", "/api/runs", map[string]any{"testIds": []string{testID}, "retries": 1}, ProjectHeader, f.o.project).want(t, 201).str("batchId")
	b := f.user.waitBatchDone(t, batchID)
	if b["status"] != "passed" || num(b["flaky"]) != 1 || num(b["passed"]) != 1 {
		t.Errorf("batch: status %v flaky %v passed %v", b["status"], b["flaky"], b["passed"])
	}
	runID := b["runs"].([]any)[0].(map[string]any)["runId"].(string)

	run := f.user.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
	if run["status"] != "passed" || run["flaky"] != true || num(run["passed"]) != 2 {
		t.Fatalf("run: status %v flaky %v passed %v error %v", run["status"], run["flaky"], run["passed"], run["error"])
	}
	attempts, _ := run["attemptResults"].([]any)
	if len(attempts) != 2 {
		t.Fatalf("attemptResults: %v", run["attemptResults"])
	}
	first, second := attempts[0].(map[string]any), attempts[1].(map[string]any)
	if first["status"] != "failed" || !strings.Contains(first["error"].(string), "not yet") || len(first["steps"].([]any)) != 2 ||
		second["status"] != "passed" || num(second["attempt"]) != 2 {
		t.Errorf("attempts: %v", attempts)
	}
	// Each attempt's screenshots are its own artifacts.
	shot1 := first["steps"].([]any)[1].(map[string]any)["screenshot"].(string)
	shot2 := second["steps"].([]any)[0].(map[string]any)["screenshot"].(string)
	if !strings.HasPrefix(shot2, "a2-") || strings.HasPrefix(shot1, "a2-") {
		t.Errorf("screenshots %q (attempt 1), %q (attempt 2)", shot1, shot2)
	}
	for _, name := range []string{shot1, shot2} {
		f.user.do("GET", "/api/runs/"+runID+"/artifacts/"+name, nil).want(t, 200)
	}
	if got := run["result"].(map[string]any)["steps"].([]any)[0].(map[string]any)["screenshot"]; got != shot2 {
		t.Errorf("the run's own steps are not its last attempt's: %v", got)
	}
	// Attempt 1 failed: its trace was sent and is listed as attempt 1's,
	// its snapshots with it.
	tr := f.user.do("GET", "/api/runs/"+runID+"/trace?attempt=1", nil).want(t, 200).json()
	if steps, _ := tr["steps"].([]any); len(steps) != 2 {
		t.Errorf("attempt 1's trace: %v", tr)
	}
	// Attempt 2's trace (a2-trace-*.json) is classified and listed as its.
	tr = f.user.do("GET", "/api/runs/"+runID+"/trace?attempt=2", nil).want(t, 200).json()
	if steps, _ := tr["steps"].([]any); len(steps) != 2 {
		t.Errorf("attempt 2's trace: %v", tr)
	}
	for _, bad := range []string{"0", "3", "two"} {
		f.user.do("GET", "/api/runs/"+runID+"/trace?attempt="+bad, nil).want(t, 422)
	}
	// The zip's index has a table per attempt, each linking its own files.
	zipped := readZip(t, f.user.do("GET", "/api/runs/"+runID+"/trace.zip", nil).want(t, 200).body)
	index := zipped["index.html"]
	if !strings.Contains(index, "attempt 1") || !strings.Contains(index, "attempt 2") || !strings.Contains(index, `href="a2-trace-`) ||
		!strings.Contains(index, `href="`+shot2+`"`) {
		t.Errorf("the zip's index does not list both attempts:\n%s", index)
	}
	for _, name := range []string{shot1, shot2} {
		if _, ok := zipped[name]; !ok {
			t.Errorf("the zip lacks %s", name)
		}
	}

	events := f.user.sse(t, runID)
	retried, marked := 0, 0
	for _, e := range events {
		if e.Kind == protocol.RunRetry {
			retried++
			if !strings.HasPrefix(e.Message, "attempt 1 failed") {
				t.Errorf("run.retry: %+v", e)
			}
		}
		if e.RunAttempt == 2 {
			marked++
		}
	}
	if retried != 1 || marked == 0 {
		t.Errorf("events: %d run.retry, %d of attempt 2 (%s)", retried, marked, kinds(events))
	}

	list := f.user.do("GET", "/api/runs", nil, ProjectHeader, f.o.project).want(t, 200).json()["runs"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["flaky"] != true {
		t.Errorf("run list: %v", list)
	}

	xml := string(f.user.do("GET", "/api/runs/"+runID+"/junit", nil).want(t, 200).body)
	if strings.Count(xml, "<flakyFailure") != 1 || strings.Contains(xml, "<failure") || !strings.Contains(xml, "<stackTrace>") ||
		!strings.Contains(xml, `failures="0"`) {
		t.Errorf("junit:\n%s", xml)
	}

	p := rc.next(t).payload(t)
	if p.Run == nil || p.Run.RunID != runID || !p.Run.Flaky || p.Run.Status != "passed" {
		t.Errorf("run.finished payload: %+v", p.Run)
	}
}

// The hub decides flakiness from the attempts an agent reports: a claim
// of flaky without a failed earlier attempt is not believed, attempts the
// run's retries do not allow (or a retried attempt that did not fail) end
// the run as error, and a failed attempt before a pass makes it flaky.
func TestFlakyClaimsAreChecked(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	a := h.rawAgent(t, mgr, "")
	var seq int64
	// Its second step types the environment's secret, so the run's job carries it.
	testID := mgr.createTest(t, o.project, map[string]any{"dsl": 2, "name": "Claims", "steps": []map[string]any{
		{"id": "s1", "type": "navigate", "url": "https://example.com/"},
		{"id": "s2", "type": "fill", "value": "${secrets.PW}", "target": target(loc("css", "#pw"))},
	}})
	const secret = "hunter2-attempt-secret"
	env := mgr.projectDo(o.project, "POST", "/api/environments", obj{"name": "Env", "secrets": map[string]string{"PW": secret}}).want(t, 201).str("id")
	finish := func(retries int, claim func(job protocol.Job, res *protocol.RunResult)) map[string]any {
		t.Helper()
		runID := mgr.projectDo(o.project, "POST", "/api/runs", obj{"testId": testID, "retries": retries, "environmentId": env}).want(t, 201).str("runId")
		job := a.assigned()
		a.send(protocol.Message{Type: protocol.MsgAccept, RunID: job.RunID})
		res := report(job, protocol.RunPassed)
		claim(job, res)
		seq++
		a.send(protocol.Message{Type: protocol.MsgFinish, ID: seq, RunID: job.RunID, Result: res})
		a.acked(seq)
		return mgr.waitFinal(t, runID)
	}
	attempt := func(job protocol.Job, n int, status string) protocol.AttemptResult {
		r := report(job, status)
		return protocol.AttemptResult{Attempt: n, Status: r.Status, Passed: r.Passed, Total: r.Total, Steps: r.Steps}
	}

	r := finish(2, func(_ protocol.Job, res *protocol.RunResult) { res.Flaky = true })
	if r["status"] != "passed" || r["flaky"] != false {
		t.Errorf("flaky without attempts: status %v flaky %v", r["status"], r["flaky"])
	}
	r = finish(2, func(job protocol.Job, res *protocol.RunResult) {
		res.Flaky, res.Attempts = true, []protocol.AttemptResult{attempt(job, 1, "passed"), attempt(job, 2, "passed")}
	})
	if r["status"] != "error" || r["flaky"] != false {
		t.Errorf("a passed attempt retried: status %v flaky %v", r["status"], r["flaky"])
	}
	r = finish(1, func(job protocol.Job, res *protocol.RunResult) {
		res.Attempts = []protocol.AttemptResult{attempt(job, 1, "failed"), attempt(job, 2, "failed"), attempt(job, 3, "passed")}
	})
	if r["status"] != "error" || r["flaky"] != false {
		t.Errorf("more attempts than retries 1 allows: status %v flaky %v", r["status"], r["flaky"])
	}
	r = finish(1, func(job protocol.Job, res *protocol.RunResult) {
		first := attempt(job, 1, "failed")
		// An agent that leaks a secret in an attempt's texts: the hub masks them as a result's.
		first.Error, first.Steps[1].Error = "typed "+secret, "typed "+secret
		res.Attempts = []protocol.AttemptResult{first, attempt(job, 2, "passed")}
	})
	if r["status"] != "passed" || r["flaky"] != true || len(r["attemptResults"].([]any)) != 2 {
		t.Errorf("failed then passed: status %v flaky %v attempts %v", r["status"], r["flaky"], r["attemptResults"])
	}
	if body := fmt.Sprint(r["attemptResults"]); strings.Contains(body, secret) || !strings.Contains(body, "typed ***") {
		t.Errorf("an attempt's texts are not masked: %s", body)
	}
}

// Retries hide no infrastructure error: a retried run whose agent is lost
// mid-attempt is queued again as any run (its retries kept), and the
// agent that takes it starts from attempt 1; the run ends as that agent
// reports, with no attempts of the lost one.
func TestRetriedRunLostAgentQueuedAgain(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	a := h.rawAgent(t, mgr, "")
	agent := agentID(t, mgr)
	id := mgr.createTest(t, o.project, map[string]any{"name": "T", "steps": []map[string]any{
		{"id": "s1", "type": "navigate", "url": "https://example.com/"}}})
	runID := mgr.do("POST", "/api/runs", map[string]any{"testId": id, "retries": 2}, ProjectHeader, o.project).want(t, 201).str("runId")
	if job := a.assigned(); job.Retries != 2 {
		t.Fatalf("first job: retries %d", job.Retries)
	}
	a.send(protocol.Message{Type: protocol.MsgAccept, ID: 1, RunID: runID})
	a.event(runID, 2, 1, protocol.RunStarted, nil)
	a.event(runID, 3, 2, protocol.StepFinished, func(e *protocol.Event) { e.Index, e.Status = protocol.Ptr(0), protocol.StepFailed })
	a.event(runID, 4, 3, protocol.RunRetry, func(e *protocol.Event) { e.RunAttempt, e.Message = 2, "attempt 1 failed: x; running again (2 of 3)" })
	a.event(runID, 5, 4, protocol.StepStarted, func(e *protocol.Event) { e.Index, e.RunAttempt = protocol.Ptr(0), 2 })
	a.acked(5)
	// While it runs, its steps so far are attempt 2's: none finished yet.
	if steps := mgr.do("GET", "/api/runs/"+runID, nil).want(t, 202).json()["result"].(map[string]any)["steps"].([]any); len(steps) != 0 {
		t.Errorf("steps so far in attempt 2: %v", steps)
	}
	a.ws.CloseNow()
	for deadline := time.Now().Add(10 * time.Second); h.dispatch.Status(agent).Connected; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the hub did not notice the agent leave")
		}
	}
	h.advance(4 * time.Second) // past the 3 s lease
	h.dispatch.Sweep(t.Context())
	if r := mgr.do("GET", "/api/runs/"+runID, nil).json(); r["status"] != "queued" {
		t.Fatalf("the run whose agent was lost in attempt 2: %v", r)
	}
	if got := seqs(t, h, runID); len(got) < 4 {
		t.Errorf("events %v: the lost attempt's run.retry and marked events were not kept", got)
	}
	a = h.rawAgent(t, mgr, a.token)
	job := a.assigned()
	if job.RunID != runID || job.Retries != 2 || job.FirstSeq <= 4 {
		t.Fatalf("the run given again: %s retries %d first seq %d", job.RunID, job.Retries, job.FirstSeq)
	}
	a.send(protocol.Message{Type: protocol.MsgAccept, ID: 6, RunID: runID})
	a.send(protocol.Message{Type: protocol.MsgFinish, ID: 7, RunID: runID, Result: report(job, protocol.RunPassed)})
	a.acked(7)
	r := mgr.waitFinal(t, runID)
	if r["status"] != "passed" || r["flaky"] != false || r["attemptResults"] != nil || r["attempts"] != float64(2) {
		t.Errorf("after the new agent: status %v flaky %v attemptResults %v attempts %v", r["status"], r["flaky"], r["attemptResults"], r["attempts"])
	}
}

// "Since it last passed" reads a retried run's trace of the attempt its
// steps are (the last), not attempt 1's: here attempt 1's request failed
// with 500, the last attempt's with 404, and the comparison names 404.
func TestCompareReadsTheLastAttemptsTrace(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	a := h.rawAgent(t, mgr, "")
	testID := mgr.createTest(t, o.project, map[string]any{"name": "T", "steps": []map[string]any{
		{"id": "s1", "type": "navigate", "url": "https://example.com/"}}})
	var id int64
	trace := func(runID string, attempt, status int) {
		ts := protocol.TraceStep{Index: 0, ID: "s1", Type: "navigate", Status: protocol.StepPassed, Console: []protocol.ConsoleEntry{},
			Network: []protocol.NetworkEntry{{Method: "GET", URL: "http://shop.test/price", Status: status, Type: "Fetch"}}}
		data, _ := json.Marshal(ts)
		id++
		a.send(protocol.Message{Type: protocol.MsgArtifact, ID: id, RunID: runID, Artifact: &protocol.ArtifactInfo{
			Name: protocol.AttemptArtifact(attempt, protocol.TraceArtifact(0, "s1", nil)), ContentType: "application/json",
			Size: int64(len(data)), Step: protocol.Ptr(0), Attempt: attempt}})
		if err := a.ws.Write(t.Context(), websocket.MessageBinary, data); err != nil {
			t.Fatal(err)
		}
	}
	run := func(status string, traces map[int]int, attempts []protocol.AttemptResult) string {
		runID := mgr.projectDo(o.project, "POST", "/api/runs", obj{"testId": testID, "retries": 1}).want(t, 201).str("runId")
		job := a.assigned()
		id++
		a.send(protocol.Message{Type: protocol.MsgAccept, ID: id, RunID: runID})
		for attempt := 1; attempt <= 2; attempt++ {
			if st, ok := traces[attempt]; ok {
				trace(runID, attempt, st)
			}
		}
		res := report(job, status)
		for i := range attempts {
			attempts[i].Steps = report(job, attempts[i].Status).Steps
		}
		res.Attempts = attempts
		id++
		a.send(protocol.Message{Type: protocol.MsgFinish, ID: id, RunID: runID, Result: res})
		a.acked(id)
		if r := mgr.waitFinal(t, runID); r["status"] != status {
			t.Fatalf("run: %v", r)
		}
		return runID
	}
	run(protocol.RunPassed, map[int]int{1: 200}, nil)
	h.advance(time.Second) // the baseline ended before the next run
	failed := run(protocol.RunFailed, map[int]int{1: 500, 2: 404},
		[]protocol.AttemptResult{{Attempt: 1, Status: "failed", Total: 1}, {Attempt: 2, Status: "failed", Total: 1}})
	cmp := mgr.do("GET", "/api/runs/"+failed+"/compare", nil).want(t, 200).json()
	reqs, _ := cmp["requests"].([]any)
	if len(reqs) != 1 || num(reqs[0].(map[string]any)["status"]) != 404 || num(reqs[0].(map[string]any)["baselineStatus"]) != 200 {
		t.Errorf("the comparison's requests: %v", cmp["requests"])
	}
}

// A data-driven run retries a failed row on its own, through a real agent:
// the row is flaky in the run's rows, answers its attempts, its attempt
// 2's trace, and its JUnit case has the flakyFailure; the run is flaky.
func TestRetriedRowIsFlaky(t *testing.T) {
	f := newRunFixture(t)
	set := f.user.projectDo(f.o.project, "POST", "/api/test-data", obj{"name": "Two", "columns": []string{"n"},
		"rows": []map[string]string{{"n": "1"}, {"n": "2"}}}).want(t, 201).str("id")
	d := flakyDoc(flakyPage(t))
	d["data"] = obj{"set": set}
	testID := f.user.createTest(t, f.o.project, d)
	runID := f.user.do("POST", "/api/runs", map[string]any{"testId": testID, "retries": 1}, ProjectHeader, f.o.project).want(t, 201).str("runId")
	run := f.user.waitFinal(t, runID)
	if run["status"] != "passed" || run["flaky"] != true {
		t.Fatalf("run: status %v flaky %v error %v", run["status"], run["flaky"], run["error"])
	}
	rows := run["rows"].([]any)
	if rows[0].(map[string]any)["flaky"] != true || rows[1].(map[string]any)["flaky"] != nil {
		t.Errorf("rows: %v", rows)
	}
	row := f.user.do("GET", "/api/runs/"+runID+"/rows/0", nil).want(t, 200).json()
	if attempts, _ := row["attemptResults"].([]any); len(attempts) != 2 || attempts[0].(map[string]any)["status"] != "failed" {
		t.Errorf("row 0's attempts: %v", row["attemptResults"])
	}
	tr := f.user.do("GET", "/api/runs/"+runID+"/rows/0/trace?attempt=2", nil).want(t, 200).json()
	if steps, _ := tr["steps"].([]any); len(steps) != 2 {
		t.Errorf("row 0's attempt 2 trace: %v", tr)
	}
	xml := string(f.user.do("GET", "/api/runs/"+runID+"/junit", nil).want(t, 200).body)
	if strings.Count(xml, "<flakyFailure") != 1 || strings.Contains(xml, "<failure") {
		t.Errorf("junit:\n%s", xml)
	}
	checkJUnitSchema(t, []byte(xml))
}
