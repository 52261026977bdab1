package api

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/pgcluster"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// acked reads until the hub acknowledges every message up to id.
func (a *rawAgent) acked(id int64) {
	a.t.Helper()
	for {
		m := a.read()
		if m.Type == protocol.MsgAck && m.Ack >= id {
			return
		}
	}
}

func (a *rawAgent) event(runID string, id, seq int64, kind protocol.EventKind, extra func(*protocol.Event)) {
	e := protocol.Event{Seq: seq, Kind: kind}
	if extra != nil {
		extra(&e)
	}
	a.send(protocol.Message{Type: protocol.MsgEvent, ID: id, RunID: runID, Event: &e})
}

func (a *rawAgent) artifact(runID string, id int64, name string, data []byte) {
	a.t.Helper()
	a.send(protocol.Message{Type: protocol.MsgArtifact, ID: id, RunID: runID,
		Artifact: &protocol.ArtifactInfo{Name: name, ContentType: "image/png", Size: int64(len(data))}})
	if err := a.ws.Write(a.t.Context(), websocket.MessageBinary, data); err != nil {
		a.t.Fatal(err)
	}
}

// rawRun pairs a raw agent and starts one run on it.
func rawRun(t *testing.T, h *harness) (*client, *rawAgent, string) {
	t.Helper()
	o := h.org(t)
	mgr := o.members[access.TestManager]
	a := h.rawAgent(t, mgr, "")
	id := mgr.createTest(t, o.project, map[string]any{"name": "T", "steps": []map[string]any{
		{"id": "s1", "type": "navigate", "url": "https://example.com/"}}})
	runID := mgr.do("POST", "/api/runs", map[string]any{"testId": id}, ProjectHeader, o.project).want(t, 201).str("runId")
	a.assigned()
	return mgr, a, runID
}

func seqs(t *testing.T, h *harness, runID string) []int64 {
	t.Helper()
	events, err := h.store.Events(t.Context(), runID, 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	for _, e := range events {
		out = append(out, e.Seq)
	}
	return out
}

// The hub acknowledges an agent's messages only once they are stored, and
// takes the ones an agent sends again after a reconnect (not knowing
// whether they were stored) as no-ops: nothing is lost, nothing doubled.
func TestAgentMessagesAcknowledgedOnceStored(t *testing.T) {
	h := newHarness(t)
	mgr, a, runID := rawRun(t, h)
	a.send(protocol.Message{Type: protocol.MsgAccept, ID: 1, RunID: runID})
	a.event(runID, 2, 1, protocol.RunStarted, nil)
	a.event(runID, 3, 2, protocol.StepStarted, func(e *protocol.Event) { e.Index = protocol.Ptr(0) })
	a.artifact(runID, 4, "step-0.png", []byte("\x89PNG one"))
	a.acked(4)
	if got := seqs(t, h, runID); fmt.Sprint(got) != "[1 2]" {
		t.Fatalf("stored events after the ack: %v", got)
	}
	if _, err := h.store.Artifact(t.Context(), runID, "step-0.png"); err != nil {
		t.Fatalf("artifact acknowledged but not stored: %v", err)
	}

	// The connection breaks; the agent does not know what was stored and
	// sends everything again, then the rest of the run.
	a.ws.CloseNow()
	a = h.rawAgent(t, mgr, a.token, runID)
	a.send(protocol.Message{Type: protocol.MsgAccept, ID: 1, RunID: runID})
	a.event(runID, 2, 1, protocol.RunStarted, nil)
	a.event(runID, 3, 2, protocol.StepStarted, func(e *protocol.Event) { e.Index = protocol.Ptr(0) })
	a.artifact(runID, 4, "step-0.png", []byte("\x89PNG one"))
	a.event(runID, 5, 3, protocol.StepFinished, func(e *protocol.Event) {
		e.Index, e.Status, e.Screenshot = protocol.Ptr(0), protocol.StepPassed, "step-0.png"
	})
	a.event(runID, 6, 4, protocol.RunFinished, nil)
	res := &protocol.RunResult{Status: protocol.RunPassed, Passed: 1, Total: 1,
		Steps: []protocol.StepResult{{Index: 0, ID: "s1", Type: "navigate", Status: protocol.StepPassed, Screenshot: "step-0.png"}}}
	a.send(protocol.Message{Type: protocol.MsgFinish, ID: 7, RunID: runID, Result: res})
	a.acked(7)
	// and once more, as after another reconnect: still one run.finished
	a.ws.CloseNow()
	a = h.rawAgent(t, mgr, a.token, runID)
	a.send(protocol.Message{Type: protocol.MsgFinish, ID: 7, RunID: runID, Result: res})
	a.acked(7)
	run := mgr.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
	if run["status"] != "passed" {
		t.Fatalf("run %v", run)
	}
	if got := seqs(t, h, runID); fmt.Sprint(got) != "[1 2 3 4]" {
		t.Errorf("events after the resend: %v, want each once", got)
	}
	if strings.Count(kinds(mgr.sse(t, runID)), "run.finished") != 1 {
		t.Error("run.finished stored twice")
	}
}

// A run that sends more than its limits ends as error, saying why, and its
// agent is told to stop; long texts and NUL characters from an agent are
// cut and cleaned instead of failing the hub.
func TestRunLimits(t *testing.T) {
	h := newHarness(t)
	h.limits = store.RunLimits{Events: 5, EventBytes: 1 << 20, ArtifactBytes: 100}
	h.restart(t)
	mgr, a, runID := rawRun(t, h)
	a.send(protocol.Message{Type: protocol.MsgAccept, ID: 1, RunID: runID})
	a.event(runID, 2, 1, protocol.RunStarted, nil)
	long := strings.Repeat("é", 20000) // 40,000 bytes
	a.event(runID, 3, 2, protocol.LogLine, func(e *protocol.Event) { e.Level, e.Message = "info", "nul\x00here "+long })
	for i := int64(3); i <= 8; i++ {
		a.event(runID, i+1, i, protocol.LogLine, func(e *protocol.Event) { e.Level, e.Message = "info", "line" })
	}
	for {
		if m := a.read(); m.Type == protocol.MsgCancel && m.RunID == runID {
			break
		}
	}
	run := mgr.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
	if run["status"] != "error" || !strings.Contains(run["error"].(string), "more than 5 events") {
		t.Fatalf("a run over its event limit: %v", run)
	}
	if got := seqs(t, h, runID); len(got) != 6 { // 5 of the agent's, and the hub's run.finished
		t.Errorf("stored %d events: %v", len(got), got)
	}
	events := mgr.sse(t, runID)
	msg := events[1].Message
	if len(msg) > 9000 || strings.ContainsRune(msg, 0) || !strings.HasPrefix(msg, "nulhere é") || !strings.Contains(msg, "bytes cut by the hub") {
		t.Errorf("a 40 kB log line with a NUL was stored as %d bytes: %.60q…", len(msg), msg)
	}

	// Artifacts have a byte budget of their own.
	mgr2, a2, run2 := rawRun(t, h)
	a2.send(protocol.Message{Type: protocol.MsgAccept, ID: 1, RunID: run2})
	a2.artifact(run2, 2, "a.png", make([]byte, 60))
	a2.artifact(run2, 3, "a.png", make([]byte, 70)) // a repeat counts its new size only
	a2.artifact(run2, 4, "b.png", make([]byte, 40))
	for {
		if m := a2.read(); m.Type == protocol.MsgCancel && m.RunID == run2 {
			break
		}
	}
	r2 := mgr2.do("GET", "/api/runs/"+run2, nil).want(t, 200).json()
	if r2["status"] != "error" || !strings.Contains(r2["error"].(string), "artifacts") {
		t.Errorf("a run over its artifact limit: %v", r2)
	}

	// A finish with a NUL in its texts is stored, cleaned.
	mgr3, a3, run3 := rawRun(t, h)
	a3.send(protocol.Message{Type: protocol.MsgFinish, ID: 1, RunID: run3, Result: &protocol.RunResult{Status: protocol.RunFailed,
		Total: 1, Error: "bad\x00error", Steps: []protocol.StepResult{{Index: 0, ID: "s\x001", Status: "failed", Error: "x\x00y"}}}})
	a3.acked(1)
	r3 := mgr3.do("GET", "/api/runs/"+run3, nil).want(t, 200).json()
	if r3["status"] != "failed" || r3["error"] != "baderror" {
		t.Errorf("finish with NUL characters: %v", r3)
	}
}

// DELETE /api/agent/:id answers at once even when the agent never answers
// the close handshake.
func TestDisconnectDoesNotWaitForTheAgent(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	a := h.rawAgent(t, mgr, "") // it reads nothing from now on
	_ = a
	agents := mgr.do("GET", "/api/agent", nil).want(t, 200).json()["agents"].([]any)
	id := agents[0].(map[string]any)["id"].(string)
	req, _ := newRequest(h, "DELETE", "/api/agent/"+id)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	res, err := mgr.http.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatalf("DELETE /api/agent/:id with a silent agent: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != 204 {
		t.Errorf("DELETE /api/agent/:id: %d", res.StatusCode)
	}
}

// worldTempDir is a folder the postgres account can traverse when the
// tests run as root (t.TempDir is 0700).
func worldTempDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "hub-api-test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	if err := os.Chmod(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// pgCtlRestart restarts a cluster the way an operator would.
func pgCtlRestart(t *testing.T, dir string) {
	t.Helper()
	bin, err := pgcluster.FindBinaries()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"-D", dir, "restart", "-m", "fast", "-w", "-l", filepath.Join(dir, "log", "pg_ctl.log")}
	cmd := exec.Command(filepath.Join(bin, "pg_ctl"), args...)
	if os.Geteuid() == 0 {
		cmd = exec.Command("runuser", append([]string{"-u", "postgres", "--", filepath.Join(bin, "pg_ctl")}, args...)...)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pg_ctl restart: %v\n%s", err, out)
	}
}

// A database restart while runs stream loses nothing: the hub acknowledges
// an agent's messages only once stored, keeps trying while the database is
// away, and the agent sends again what was not acknowledged. Every run
// passes with every event (no gap in its sequence) and every screenshot.
func TestNoEventLostAcrossDatabaseRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL cluster of its own")
	}
	dir := filepath.Join(worldTempDir(t), "pg")
	cluster, err := pgcluster.Start(t.Context(), pgcluster.Options{Dir: dir, Fast: true, Restart: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cluster.Stop(context.Background()) })
	pool, err := pgxpool.New(t.Context(), cluster.URL("hub"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if err := store.Migrate(t.Context(), pool); err != nil {
		t.Fatal(err)
	}
	h := newHarnessOn(t, pool)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	env := mgr.do("POST", "/api/environments", map[string]any{"name": "Local", "variables": map[string]string{"baseUrl": site(t)},
		"secrets": map[string]string{"PASSWORD": "hunter2-very-secret"}}, ProjectHeader, o.project).want(t, 201).str("id")
	h.pairAgent(t, mgr, browserRunner{sharedBrowser(t)})
	testID := mgr.createTest(t, o.project, signInDoc("", "Welcome, ann@example.com"))
	const runs = 20
	var ids []string
	for range runs {
		ids = append(ids, mgr.do("POST", "/api/runs", map[string]any{"testId": testID, "environmentId": env}, ProjectHeader, o.project).
			want(t, 201).str("runId"))
	}
	// Restart once the third run is under way.
	for deadline := time.Now().Add(60 * time.Second); ; {
		if r := mgr.do("GET", "/api/runs/"+ids[2], nil).json(); r["status"] != "queued" || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	pgCtlRestart(t, dir)
	waitHealthy(t, h)

	lost, gaps := 0, 0
	for _, id := range ids {
		run := mgr.waitStatus(t, id, "passed")
		events, err := h.store.Events(t.Context(), id, 0, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		var stepsDone int
		var logs []string // the agent's warnings, should a screenshot be missing
		for _, e := range events {
			var ev protocol.Event
			if json.Unmarshal(e.Data, &ev) == nil && ev.Kind == protocol.LogLine {
				logs = append(logs, ev.Message)
			}
		}
		for i, e := range events {
			if e.Seq != int64(i+1) {
				gaps++
				t.Errorf("run %s: event %d has seq %d", id, i+1, e.Seq)
				break
			}
			var ev protocol.Event
			_ = json.Unmarshal(e.Data, &ev)
			if ev.Kind == protocol.StepFinished {
				stepsDone++
				if _, err := h.store.Artifact(t.Context(), id, ev.Screenshot); ev.Screenshot == "" || err != nil {
					lost++
					t.Errorf("run %s: step %d's screenshot %q is missing: %v (logs %q)", id, *ev.Index, ev.Screenshot, err, logs)
				}
			}
		}
		if stepsDone != 5 || run["passed"] != float64(5) {
			lost++
			t.Errorf("run %s: %d step.finished events, result %v", id, stepsDone, run)
		}
	}
	t.Logf("figure: %d runs across pg_ctl restart -m fast: %d lost events or screenshots, %d sequence gaps", runs, lost, gaps)
}

// waitHealthy waits until /healthz answers 200.
func waitHealthy(t *testing.T, h *harness) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if res, err := h.client().http.Get(h.srv.URL + "/healthz"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return
			}
		}
	}
	t.Fatal("/healthz did not recover")
}

// A pairing request's host name and OS are shown to the approver: control,
// NUL and bidi characters are taken out, so a name cannot pose as another.
func TestPairingHostnameIsCleaned(t *testing.T) {
	h := newHarness(t)
	ann, _ := h.register("Ann")
	url := "ws" + strings.TrimPrefix(h.srv.URL, "http") + "/api/agent/connect"
	ws, _, err := websocket.Dial(t.Context(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	a := &rawAgent{t: t, ws: ws}
	a.send(protocol.Message{Type: protocol.MsgHello, Protocol: protocol.Version,
		Pair: &protocol.PairRequest{Hostname: "build\x00-box\u202etxt.exe\n", OS: "linux\u200d\x1b[31m"}})
	m := a.read()
	if m.Type != protocol.MsgPairing {
		t.Fatalf("got %+v", m)
	}
	p := ann.do("GET", "/api/agent/pair/"+m.Code, nil).want(t, 200).json()
	if p["hostname"] != "build-boxtxt.exe" || p["os"] != "linux[31m" {
		t.Errorf("pairing shows hostname %q os %q", p["hostname"], p["os"])
	}
}

// agentID is the id of the caller's only agent.
func agentID(t *testing.T, c *client) string {
	t.Helper()
	agents := c.do("GET", "/api/agent", nil).want(t, 200).json()["agents"].([]any)
	return agents[0].(map[string]any)["id"].(string)
}

// ackedTypes reads until the hub acknowledges id, returning the types of
// the other messages it sent meanwhile.
func (a *rawAgent) ackedTypes(id int64) []string {
	a.t.Helper()
	var seen []string
	for {
		m := a.read()
		if m.Type == protocol.MsgAck && m.Ack >= id {
			return seen
		}
		seen = append(seen, m.Type)
	}
}

// An agent away longer than its lease (a long database outage, a network
// cut) comes back still holding its run, which the hub had queued again
// meanwhile: the run goes back to it, what it ran is kept (not run
// twice, no event lost to a clash of sequence numbers), and it still
// counts as one attempt.
func TestAgentBackAfterItsLeaseKeepsItsRun(t *testing.T) {
	h := newHarness(t)
	mgr, a, runID := rawRun(t, h)
	agent := agentID(t, mgr)
	a.send(protocol.Message{Type: protocol.MsgAccept, ID: 1, RunID: runID})
	a.event(runID, 2, 1, protocol.RunStarted, nil)
	a.event(runID, 3, 2, protocol.StepStarted, func(e *protocol.Event) { e.Index = protocol.Ptr(0) })
	a.acked(3)
	a.ws.CloseNow()
	for deadline := time.Now().Add(10 * time.Second); h.dispatch.Status(agent).Connected; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the hub did not notice the agent leave")
		}
	}
	h.advance(4 * time.Second) // past the 3 s lease
	h.dispatch.Sweep(t.Context())
	if r := mgr.do("GET", "/api/runs/"+runID, nil).json(); r["status"] != "queued" {
		t.Fatalf("a run whose agent vanished is queued again: %v", r)
	}
	a = h.rawAgent(t, mgr, a.token, runID)
	a.event(runID, 4, 3, protocol.StepFinished, func(e *protocol.Event) { e.Index, e.Status = protocol.Ptr(0), protocol.StepPassed })
	a.event(runID, 5, 4, protocol.RunFinished, nil)
	a.send(protocol.Message{Type: protocol.MsgFinish, ID: 6, RunID: runID, Result: &protocol.RunResult{Status: protocol.RunPassed, Passed: 1, Total: 1,
		Steps: []protocol.StepResult{{Index: 0, ID: "s1", Type: "navigate", Status: protocol.StepPassed}}}})
	if seen := a.ackedTypes(6); strings.Contains(fmt.Sprint(seen), protocol.MsgAssign) || strings.Contains(fmt.Sprint(seen), protocol.MsgCancel) {
		t.Errorf("the agent that took its run back was sent %v", seen)
	}
	r := mgr.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
	if r["status"] != "passed" || r["attempts"] != float64(1) {
		t.Errorf("run after its agent came back: %v", r)
	}
	if got := seqs(t, h, runID); fmt.Sprint(got) != "[1 2 3 4]" {
		t.Errorf("events %v: the agent's were not all kept", got)
	}
}

// A connection whose messages cannot be stored for a while (here: its
// run's row is locked) is closed instead of left unread, so the agent
// notices and sends again what was not acknowledged.
func TestStalledAgentConnectionIsClosed(t *testing.T) {
	h := newHarness(t)
	h.stall = 300 * time.Millisecond
	h.restart(t)
	mgr, a, runID := rawRun(t, h)
	tx, err := h.store.Pool().Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(t.Context(), `SELECT 1 FROM runs WHERE id = $1 FOR UPDATE`, runID); err != nil {
		t.Fatal(err)
	}
	a.send(protocol.Message{Type: protocol.MsgAccept, ID: 1, RunID: runID}) // waits for the lock
	for i := int64(1); i <= 4; i++ {
		a.event(runID, i+1, i, protocol.LogLine, func(e *protocol.Event) { e.Level, e.Message = "info", "line" })
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	for {
		_, data, err := a.ws.Read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				t.Fatal("the hub kept a stalled connection open")
			}
			break
		}
		var m protocol.Message
		if json.Unmarshal(data, &m) == nil && m.Type == protocol.MsgAck {
			t.Fatalf("acknowledged %d while its messages could not be stored", m.Ack)
		}
	}
	_ = tx.Rollback(t.Context())
	a = h.rawAgent(t, mgr, a.token, runID)
	a.send(protocol.Message{Type: protocol.MsgAccept, ID: 1, RunID: runID})
	for i := int64(1); i <= 4; i++ {
		a.event(runID, i+1, i, protocol.LogLine, func(e *protocol.Event) { e.Level, e.Message = "info", "line" })
	}
	a.acked(5)
	if got := seqs(t, h, runID); fmt.Sprint(got) != "[1 2 3 4]" {
		t.Errorf("events after the resend: %v", got)
	}
}

// Storing the same artifact again (the message sent again after a failed
// write) counts its bytes once against the run's limit.
func TestArtifactCountedOnceWhenStoredAgain(t *testing.T) {
	h := newHarness(t)
	_, _, runID := rawRun(t, h)
	lim := store.RunLimits{ArtifactBytes: 150}
	row := store.ArtifactRow{Name: "shot.png", ContentType: "image/png", Size: 100}
	for range 3 {
		if got, err := h.store.AddArtifactWithin(t.Context(), runID, row, lim); err != nil || got != store.StoredNew {
			t.Fatalf("storing the same artifact again: %v %v", got, err)
		}
	}
	var counted int64
	if err := h.store.Pool().QueryRow(t.Context(), `SELECT artifact_bytes FROM runs WHERE id = $1`, runID).Scan(&counted); err != nil {
		t.Fatal(err)
	}
	if counted != 100 {
		t.Errorf("100 bytes stored three times count as %d", counted)
	}
}
