package api

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	agentclient "github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// traceRunner is an agent's runner that opens no browser: it reports a
// flat document's steps (the last one failed) and sends, through the real
// client and WebSocket, the trace artifacts an agent's recorder sends
// (docs/trace.md), with the shapes of protocol/trace.go. Each job it gets
// goes to jobs, so a test sees what the hub asked for.
type traceRunner struct {
	jobs chan protocol.Job
	// extra, when set, sends more artifacts after the trace.
	extra func(job protocol.Job, emit agentclient.Emitter)
}

func newTraceRunner() traceRunner { return traceRunner{jobs: make(chan protocol.Job, 32)} }

const traceSecret = "hunter2-very-secret"

func (r traceRunner) Run(_ context.Context, job protocol.Job, emit agentclient.Emitter) protocol.RunResult {
	r.jobs <- job
	steps := job.Document.Steps
	total := len(steps)
	emit.Event(protocol.Event{Kind: protocol.RunStarted, Total: &total})
	res := protocol.RunResult{Status: protocol.RunFailed, Total: total, Passed: total - 1}
	for i, st := range steps {
		status := protocol.StepPassed
		if i == total-1 {
			status = protocol.StepFailed
		}
		d := int64(80)
		emit.Event(protocol.Event{Kind: protocol.StepFinished, Index: &i, StepID: st.ID, Status: status, DurationMs: &d})
		res.Steps = append(res.Steps, protocol.StepResult{Index: i, ID: st.ID, Type: st.Type, Status: status, DurationMs: d})
	}
	// The recorder sends each step's trace when it ends; sent here last
	// step first, so the listing's order is the hub's doing.
	for i := total - 1; i >= 0; i-- {
		sendTrace(emit, traceOf(job, i))
	}
	last := total - 1
	emit.Artifact(protocol.ArtifactInfo{Name: fmt.Sprintf("step-%03d-%s-failure.png", total, steps[last].ID), ContentType: "image/png",
		Size: int64(len(tinyPNG)), Step: &last}, tinyPNG)
	if r.extra != nil {
		r.extra(job, emit)
	}
	emit.Event(protocol.Event{Kind: protocol.RunFinished, Status: res.Status, Passed: &res.Passed, Total: &total})
	return res
}

// traceOf is step i's trace: a log line and a request each; the last,
// failed step logs an uncaught error naming the secret, gets a 500 and a
// refused request, and has its snapshots after and before it.
func traceOf(job protocol.Job, i int) protocol.TraceStep {
	st := job.Document.Steps[i]
	at := int64(i) * 100
	ts := protocol.TraceStep{Index: i, ID: st.ID, Type: st.Type, Status: protocol.StepPassed, StartMs: at, DurationMs: 80,
		Console: []protocol.ConsoleEntry{{TimeMs: at + 10, Level: "log", Source: "console", Text: fmt.Sprintf("step %d", i)}},
		Network: []protocol.NetworkEntry{{TimeMs: at + 5, Method: "GET", URL: fmt.Sprintf("http://shop.test/api/items?page=%d", i),
			Status: 200, Type: "Fetch", DurationMs: 12, RequestBytes: 300, ResponseBytes: 1200}},
		Light: job.Trace == protocol.TraceFailures}
	if i == len(job.Document.Steps)-1 {
		ts.Status, ts.Light = protocol.StepFailed, false
		ts.Console = append(ts.Console, protocol.ConsoleEntry{TimeMs: at + 40, Level: "error", Source: "exception",
			Text: "TypeError: cannot log in as " + traceSecret, URL: "http://shop.test/app.js", Line: 12, Column: 7})
		ts.Network = append(ts.Network,
			protocol.NetworkEntry{TimeMs: at + 20, Method: "POST", URL: "http://shop.test/api/login?pw=" + traceSecret, Status: 500, Type: "XHR", DurationMs: 30},
			protocol.NetworkEntry{TimeMs: at + 25, Method: "GET", URL: "http://down.test/x.js", Type: "Script", Failure: "refused"})
		ts.Snapshot = protocol.SnapshotArtifact(i, st.ID, nil, false)
		ts.Before = protocol.SnapshotArtifact(i, st.ID, nil, true)
	}
	return ts
}

// sendTrace sends a TraceStep and the snapshots it names, as the agent's
// recorder does.
func sendTrace(emit agentclient.Emitter, ts protocol.TraceStep) {
	step := ts.Index
	data, _ := json.Marshal(ts)
	emit.Artifact(protocol.ArtifactInfo{Name: protocol.TraceArtifact(ts.Index, ts.ID, ts.Iteration), ContentType: "application/json",
		Size: int64(len(data)), Step: &step}, data)
	for _, name := range []string{ts.Snapshot, ts.Before} {
		if name == "" {
			continue
		}
		html := []byte(`<html><head><base href="http://shop.test/"><style>b{color:red}</style></head><body><p data-ta-target>Signed in as ` +
			traceSecret + `</p></body></html>`)
		emit.Artifact(protocol.ArtifactInfo{Name: name, ContentType: "text/html", Size: int64(len(html)), Step: &step}, html)
	}
}

// traceFixture is a project with an environment holding a secret and an
// agent whose runner is a traceRunner.
type traceFixture struct {
	h      *harness
	o      org
	user   *client // a Test Manager
	env    string
	runner traceRunner
}

func newTraceFixture(t *testing.T, runner traceRunner) traceFixture {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	env := mgr.do("POST", "/api/environments", map[string]any{"name": "Local", "variables": map[string]string{"baseUrl": "http://shop.test"},
		"secrets": map[string]string{"PASSWORD": traceSecret}}, ProjectHeader, o.project).want(t, 201).str("id")
	h.pairAgent(t, mgr, runner)
	return traceFixture{h: h, o: o, user: mgr, env: env, runner: runner}
}

// traceDoc signs in with the environment's secret; three flat steps.
func traceDoc(name string) map[string]any {
	return map[string]any{"dsl": 2, "name": name, "steps": []map[string]any{
		{"id": "open", "type": "navigate", "url": "${baseUrl}/login.html"},
		{"id": "password", "type": "fill", "value": "${secrets.PASSWORD}", "target": target(loc("css", "#password"))},
		{"id": "greet", "type": "assertText", "expected": "Welcome", "target": target(loc("testId", "greeting"))},
	}}
}

// run starts a run of a new test with the options, waits for its end and
// answers its id and the job the agent got.
func (f traceFixture) run(t *testing.T, doc, opts map[string]any) (string, protocol.Job) {
	t.Helper()
	body := map[string]any{"testId": f.user.createTest(t, f.o.project, doc), "environmentId": f.env}
	for k, v := range opts {
		body[k] = v
	}
	runID := f.user.do("POST", "/api/runs", body, ProjectHeader, f.o.project).want(t, 201).str("runId")
	f.user.sse(t, runID)
	return runID, f.job(t)
}

func (f traceFixture) job(t *testing.T) protocol.Job {
	t.Helper()
	select {
	case j := <-f.runner.jobs:
		return j
	case <-time.After(30 * time.Second):
		t.Fatal("the agent got no job")
		return protocol.Job{}
	}
}

// The option trace is checked, stored with the run, shown in its options
// and in lists, and sent to the agent in its job; the default is failures.
// Batches take it, and their reruns keep it.
func TestRunTraceOptionStoredAndPassed(t *testing.T) {
	f := newTraceFixture(t, newTraceRunner())
	test := f.user.createTest(t, f.o.project, traceDoc("Checkout"))
	for _, bad := range []any{"ON", "always", 1, true, "off "} {
		for _, body := range []map[string]any{{"testId": test, "trace": bad}, {"testIds": []string{test}, "trace": bad}} {
			r := f.user.do("POST", "/api/runs", body, ProjectHeader, f.o.project)
			if r.status != 422 || (bad == "ON" || bad == "always") && !strings.Contains(string(r.body), `"path":"trace"`) {
				t.Errorf("trace %v: %d %s", bad, r.status, r.body)
			}
		}
	}
	if n := len(f.user.do("GET", "/api/runs", nil, ProjectHeader, f.o.project).want(t, 200).json()["runs"].([]any)); n != 0 {
		t.Fatalf("refused requests made %d runs", n)
	}
	for _, c := range []struct{ opt, want string }{{"on", "on"}, {"off", "off"}, {"", "failures"}} {
		opts := map[string]any{}
		if c.opt != "" {
			opts["trace"] = c.opt
		}
		runID, job := f.run(t, traceDoc("T "+c.want), opts)
		if job.Trace != c.want {
			t.Errorf("trace %q: the agent's job has trace %q, want %q", c.opt, job.Trace, c.want)
		}
		run := f.user.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
		if got := run["options"].(map[string]any)["trace"]; got != c.want {
			t.Errorf("trace %q: options.trace %v", c.opt, got)
		}
	}
	for _, r := range f.user.do("GET", "/api/runs", nil, ProjectHeader, f.o.project).want(t, 200).json()["runs"].([]any) {
		if tr := r.(map[string]any)["options"].(map[string]any)["trace"]; tr != "on" && tr != "off" && tr != "failures" {
			t.Errorf("a listed run's options.trace: %v", tr)
		}
	}
	batch := f.user.do("POST", "/api/runs", map[string]any{"testIds": []string{test}, "environmentId": f.env, "trace": "off"},
		ProjectHeader, f.o.project).want(t, 201).json()
	if job := f.job(t); job.Trace != protocol.TraceOff {
		t.Errorf("a batch's run got trace %q", job.Trace)
	}
	b := f.user.do("GET", "/api/batches/"+batch["batchId"].(string), nil).want(t, 200).json()
	if b["options"].(map[string]any)["trace"] != "off" || b["runs"].([]any)[0].(map[string]any)["options"].(map[string]any)["trace"] != "off" {
		t.Errorf("batch options %v", b["options"])
	}
	f.user.sse(t, batch["runIds"].([]any)[0].(string))
	again := f.user.do("POST", "/api/batches/"+batch["batchId"].(string)+"/rerun", map[string]any{}).want(t, 201).json()
	if job := f.job(t); job.Trace != protocol.TraceOff {
		t.Errorf("a rerun batch's run got trace %q", job.Trace)
	}
	f.user.sse(t, again["runIds"].([]any)[0].(string))
}

// GET /api/runs/:id/trace lists each step's trace in the order the steps
// ran, whatever order the agent sent them in, with console and network
// entries, the secret masked by the hub, snapshot names the hub holds; a
// trace artifact that no longer parses is left out, never a 500.
func TestRunTraceListsStepsInOrder(t *testing.T) {
	f := newTraceFixture(t, newTraceRunner())
	runID, _ := f.run(t, traceDoc("Sign in"), map[string]any{"trace": "on"})
	r := f.user.do("GET", "/api/runs/"+runID+"/trace", nil).want(t, 200)
	if strings.Contains(string(r.body), traceSecret) {
		t.Errorf("the trace shows the secret: %s", r.body)
	}
	var tr traceJSON
	if err := json.Unmarshal(r.body, &tr); err != nil {
		t.Fatal(err)
	}
	if tr.Mode != "on" || len(tr.Steps) != 3 || tr.Dropped != 0 {
		t.Fatalf("trace: %s", r.body)
	}
	for i, st := range tr.Steps {
		if st.Index != i || st.StartMs != int64(i)*100 || len(st.Console) == 0 || len(st.Network) == 0 {
			t.Errorf("step %d: %+v", i, st)
		}
	}
	last := tr.Steps[2]
	if last.ID != "greet" || last.Status != "failed" || len(last.Console) != 2 || last.Console[1].Level != "error" ||
		last.Console[1].Line != 12 || last.Console[1].Text != "TypeError: cannot log in as ***" {
		t.Errorf("the failed step's console: %+v", last.Console)
	}
	if len(last.Network) != 3 || last.Network[1].Status != 500 || last.Network[2].Failure != "refused" || !strings.HasSuffix(last.Network[1].URL, "pw=***") {
		t.Errorf("the failed step's network: %+v", last.Network)
	}
	if last.Snapshot != "dom-003-greet.html" || last.Before != "dom-003-greet-before.html" || tr.Steps[0].Snapshot != "" {
		t.Errorf("snapshots: %q %q, first step %q", last.Snapshot, last.Before, tr.Steps[0].Snapshot)
	}
	// A snapshot is a page with no script and no network; a trace is JSON.
	snap := f.user.do("GET", "/api/runs/"+runID+"/artifacts/"+last.Snapshot, nil).want(t, 200)
	if snap.header.Get("Content-Type") != "text/html; charset=utf-8" || snap.header.Get("Content-Security-Policy") != snapshotPolicy ||
		snap.header.Get("X-Content-Type-Options") != "nosniff" || snap.header.Get("Content-Disposition") != "" {
		t.Errorf("snapshot served with %v", snap.header)
	}
	if !strings.Contains(string(snap.body), "Signed in as ***") {
		t.Errorf("snapshot: %s", snap.body)
	}
	js := f.user.do("GET", "/api/runs/"+runID+"/artifacts/trace-003-greet.json", nil).want(t, 200)
	if js.header.Get("Content-Type") != "application/json" || !strings.Contains(js.header.Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("trace JSON served with %v", js.header)
	}
	// A damaged trace artifact is skipped.
	if err := os.WriteFile(filepath.Join(f.h.dataDir, "artifacts", runID, "trace-001-open.json"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(f.user.do("GET", "/api/runs/"+runID+"/trace", nil).want(t, 200).body, &tr); err != nil || len(tr.Steps) != 2 {
		t.Errorf("with a damaged trace: %d steps, %v", len(tr.Steps), err)
	}
}

// Only trace artifacts become JSON or HTML: the same types under any
// other name, or a trace's name with another type, are served as bytes
// to download.
func TestRunTraceContentTypes(t *testing.T) {
	runner := newTraceRunner()
	runner.extra = func(_ protocol.Job, emit agentclient.Emitter) {
		for _, a := range []struct{ name, ct, body string }{
			{"page.html", "text/html", "<script>alert(1)</script>"},
			{"notes.json", "application/json", `{"a":1}`},
			{"dom-009-x.html", "image/png", "<script>alert(2)</script>"},
			{"trace-009-x.json", "text/html", "<script>alert(3)</script>"},
			{"trace-010-y.json", "application/json", "[1, 2]"},
		} {
			emit.Artifact(protocol.ArtifactInfo{Name: a.name, ContentType: a.ct, Size: int64(len(a.body))}, []byte(a.body))
		}
	}
	f := newTraceFixture(t, runner)
	runID, _ := f.run(t, traceDoc("Types"), nil)
	for _, name := range []string{"page.html", "notes.json", "dom-009-x.html", "trace-009-x.json", "trace-010-y.json"} {
		r := f.user.do("GET", "/api/runs/"+runID+"/artifacts/"+name, nil).want(t, 200)
		if ct := r.header.Get("Content-Type"); ct != "application/octet-stream" || !strings.HasPrefix(r.header.Get("Content-Disposition"), "attachment") {
			t.Errorf("%s served as %q, %q", name, ct, r.header.Get("Content-Disposition"))
		}
	}
	var tr traceJSON
	_ = json.Unmarshal(f.user.do("GET", "/api/runs/"+runID+"/trace", nil).want(t, 200).body, &tr)
	if tr.Mode != "failures" || len(tr.Steps) != 3 {
		t.Errorf("the trace lists %d steps (mode %q), want the 3 real ones", len(tr.Steps), tr.Mode)
	}
}
