package api

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	agentclient "github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/agent/runner"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

var (
	browserOnce sync.Once
	browser     *runner.Browser
	browserErr  error
)

// sharedBrowser is one warm Chromium for the package's run tests.
func sharedBrowser(t testing.TB) *runner.Browser {
	t.Helper()
	browserOnce.Do(func() {
		path, err := runner.FindBrowser("")
		if err != nil {
			browserErr = err
			return
		}
		browser, browserErr = runner.Launch(context.Background(), runner.Options{BrowserPath: path, HeadlessShell: "off"})
	})
	if browserErr != nil {
		t.Fatalf("Chromium: %v", browserErr)
	}
	return browser
}

type browserRunner struct{ b *runner.Browser }

func (r browserRunner) Run(ctx context.Context, job protocol.Job, emit agentclient.Emitter) protocol.RunResult {
	return r.b.Run(ctx, job, emit)
}

// site serves testdata/site, and the runner's own test pages
// (agent/runner/testdata/site: shop, dialogs, tabs, drags, uploads) for the
// names it lacks, so the hub's tests through an agent run on the very
// pages the runner's tests use rather than copies of them.
func site(t testing.TB) string {
	t.Helper()
	srv := httptest.NewServer(http.FileServer(dirs{"testdata/site", "../../agent/runner/testdata/site"}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// dirs serves each name from the first folder that has it.
type dirs []http.Dir

func (d dirs) Open(name string) (http.File, error) {
	for _, dir := range d[:len(d)-1] {
		if f, err := dir.Open(name); err == nil {
			return f, nil
		}
	}
	return d[len(d)-1].Open(name)
}

func loc(kind, value string, name ...string) map[string]any {
	l := map[string]any{"kind": kind, "value": value}
	if len(name) > 0 {
		l["name"] = name[0]
	}
	return l
}

func target(locs ...map[string]any) map[string]any { return map[string]any{"locators": locs} }

// signInDoc signs in on the fixture site and checks the greeting.
func signInDoc(base string, expected string) map[string]any {
	return map[string]any{"dsl": 2, "name": "Sign in", "variables": map[string]string{"user": "ann@example.com"}, "steps": []map[string]any{
		{"id": "open", "type": "navigate", "url": "${baseUrl}/login.html"},
		{"id": "email", "type": "fill", "value": "${user}", "target": target(loc("label", "Email"))},
		{"id": "password", "type": "fill", "value": "${secrets.PASSWORD}", "target": target(loc("placeholder", "no such"), loc("css", "#password"))},
		{"id": "submit", "type": "click", "target": target(loc("role", "button", "Sign in"))},
		{"id": "greet", "type": "assertText", "expected": expected, "target": target(loc("testId", "greeting"))},
	}}
}

// sse reads a run's event stream until run.finished.
func (c *client) sse(t *testing.T, runID string) []protocol.Event {
	t.Helper()
	req, _ := http.NewRequest("GET", c.h.srv.URL+"/api/runs/"+runID+"/events", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	resp, err := c.http.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var out []protocol.Event
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var id, kind string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			id = line[4:]
		case strings.HasPrefix(line, "event: "):
			kind = line[7:]
		case strings.HasPrefix(line, "data: "):
			var e protocol.Event
			if err := json.Unmarshal([]byte(line[6:]), &e); err != nil {
				t.Fatalf("event data: %v", err)
			}
			if string(e.Kind) != kind || id == "" {
				t.Errorf("event %q with kind %q id %q", line, kind, id)
			}
			out = append(out, e)
		}
	}
	return out
}

func kinds(events []protocol.Event) string {
	var s []string
	for _, e := range events {
		s = append(s, string(e.Kind))
	}
	return strings.Join(s, ",")
}

// runFixture is a project with an environment, a secret and a paired agent.
type runFixture struct {
	h     *harness
	o     org
	user  *client
	env   string
	agent *agentProc
}

func newRunFixture(t *testing.T) runFixture {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	base := site(t)
	env := mgr.do("POST", "/api/environments", map[string]any{"name": "Local", "variables": map[string]string{"baseUrl": base},
		"secrets": map[string]string{"PASSWORD": "hunter2-very-secret"}}, ProjectHeader, o.project).want(t, 201).str("id")
	a := h.pairAgent(t, mgr, browserRunner{sharedBrowser(t)})
	return runFixture{h: h, o: o, user: mgr, env: env, agent: a}
}

func (f runFixture) start(t *testing.T, doc map[string]any, opts map[string]any) string {
	t.Helper()
	id := f.user.createTest(t, f.o.project, doc)
	body := map[string]any{"testId": id, "environmentId": f.env}
	for k, v := range opts {
		body[k] = v
	}
	return f.user.do("POST", "/api/runs", body, ProjectHeader, f.o.project).want(t, 201).str("runId")
}

func TestRunPassesWithEvents(t *testing.T) {
	f := newRunFixture(t)
	runID := f.start(t, signInDoc("", "Welcome, ann@example.com"), nil)
	events := f.user.sse(t, runID)
	want := "run.started"
	for range 5 {
		want += ",step.started,artifact,step.finished"
	}
	// The default trace (failures) sends a passed run's steps' traces,
	// light, once the run is over (docs/trace.md).
	want += strings.Repeat(",artifact", 5) + ",run.finished"
	got := kinds(events)
	// A healed locator adds a log line after its step.
	if strings.ReplaceAll(got, ",log", "") != want {
		t.Errorf("events:\n%s\nwant (log lines aside):\n%s", got, want)
	}
	for i, e := range events {
		if e.Seq != int64(i+1) || e.RunID != runID {
			t.Errorf("event %d: seq %d run %s", i, e.Seq, e.RunID)
		}
	}
	r := f.user.do("GET", "/api/runs/"+runID, nil).want(t, 200)
	var run runJSON
	_ = json.Unmarshal(r.body, &run)
	if run.Status != "passed" || run.Passed != 5 || run.Total != 5 || run.Version != 1 || len(run.Result.Steps) != 5 || run.DurationMs <= 0 {
		t.Fatalf("run: %s", r.body)
	}
	me := f.user.do("GET", "/api/auth/session", nil).want(t, 200).json()
	if run.StartedBy != me["id"] || run.StartedByName == nil || *run.StartedByName != me["name"] {
		t.Errorf("started by %q (%v), want %v %v", run.StartedBy, run.StartedByName, me["id"], me["name"])
	}
	healed := run.Result.Steps[2].HealedBy
	if healed == nil || healed.Kind != "css" || healed.Value != "#password" {
		t.Errorf("the password step should be healed by its css fallback: %+v", run.Result.Steps[2])
	}
	// Screenshots after every step (JPEG), downloadable.
	shot := run.Result.Steps[4].Screenshot
	resp := f.user.do("GET", "/api/runs/"+runID+"/artifacts/"+shot, nil).want(t, 200)
	if !strings.HasPrefix(string(resp.body), "\xff\xd8\xff") || resp.header.Get("Content-Type") != "image/jpeg" || !strings.HasSuffix(shot, ".jpg") {
		t.Errorf("screenshot %q: %q %s", shot, resp.header.Get("Content-Type"), resp.body[:min(8, len(resp.body))])
	}
	f.user.do("GET", "/api/runs/"+runID+"/artifacts/..%2Fsecret.key", nil).want(t, 404)
	// The secret never shows.
	all, _ := json.Marshal(events)
	if strings.Contains(string(all)+string(r.body)+f.h.logs.String(), "hunter2-very-secret") {
		t.Error("the secret value leaked into events, the result or the hub log")
	}
	// The test's last run and the dashboard count it.
	test := f.user.test(t, run.TestID)
	if lr := test["lastRun"].(map[string]any); lr["status"] != "passed" || num(lr["passed"]) != 5 {
		t.Errorf("last run: %v", lr)
	}
	d := f.user.do("GET", "/api/dashboard", nil, ProjectHeader, f.o.project).want(t, 200).json()
	if num(d["last7Days"].(map[string]any)["passed"]) != 1 {
		t.Errorf("dashboard: %v", d)
	}
	if p := f.user.do("GET", "/api/profile", nil).want(t, 200).json(); len(p["recentRuns"].([]any)) != 1 {
		t.Errorf("profile recent runs: %v", p["recentRuns"])
	}
	// A late subscriber resumes after Last-Event-ID.
	req, _ := http.NewRequest("GET", f.h.srv.URL+"/api/runs/"+runID+"/events", nil)
	req.Header.Set("Last-Event-ID", "3")
	res, err := f.user.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if strings.Contains(string(body), "id: 3\n") || !strings.Contains(string(body), "id: 4\n") {
		t.Errorf("Last-Event-ID 3 resumed wrong:\n%.300s", body)
	}
}

func TestRunFailsWithScreenshot(t *testing.T) {
	f := newRunFixture(t)
	runID := f.start(t, signInDoc("", "Goodbye"), map[string]any{"screenshots": false})
	events := f.user.sse(t, runID)
	last := events[len(events)-1]
	if last.Kind != protocol.RunFinished || last.Status != "failed" || *last.Passed != 4 {
		t.Fatalf("last event: %+v", last)
	}
	var run runJSON
	_ = json.Unmarshal(f.user.do("GET", "/api/runs/"+runID, nil).want(t, 200).body, &run)
	failed := run.Result.Steps[4]
	if failed.Status != "failed" || !strings.Contains(failed.Error, "Goodbye") || failed.Screenshot == "" {
		t.Fatalf("failed step: %+v", failed)
	}
	for _, s := range run.Result.Steps[:4] {
		if s.Screenshot != "" {
			t.Errorf("screenshots off, yet step %s has %s", s.ID, s.Screenshot)
		}
	}
	f.user.do("GET", "/api/runs/"+runID+"/artifacts/"+failed.Screenshot, nil).want(t, 200)
}

func TestRunRefusals(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	owner, admin := o.members[access.Tester], o.members[access.Admin]
	private := owner.createTest(t, o.project, map[string]any{"name": "Mine", "visibility": "Private"})
	runID := owner.do("POST", "/api/runs", map[string]any{"testId": private}, ProjectHeader, o.project).want(t, 201).str("runId")
	if r := owner.do("GET", "/api/agent", nil).want(t, 200).json(); r["needed"] != true {
		t.Errorf("agent needed: %v", r)
	}
	if r := owner.do("GET", "/api/runs/"+runID, nil).want(t, 202).json(); r["status"] != "queued" {
		t.Errorf("queued run: %v", r)
	}
	for _, path := range []string{"/api/runs/" + runID, "/api/runs/" + runID + "/events", "/api/runs/" + runID + "/artifacts/x.png"} {
		admin.do("GET", path, nil).want(t, 404)
	}
	admin.do("POST", "/api/runs/"+runID+"/cancel", nil).want(t, 404)
	admin.do("POST", "/api/runs", map[string]any{"testId": private}, ProjectHeader, o.project).want(t, 404)
	if r := admin.do("GET", "/api/runs", nil, ProjectHeader, o.project).want(t, 200).json(); len(r["runs"].([]any)) != 0 {
		t.Errorf("admin lists a private test's run: %v", r)
	}
	// Deprecated tests do not run; invalid input is refused.
	shared := owner.createTest(t, o.project, doc("Flow", 1))
	admin.do("PUT", "/api/tests/"+shared, map[string]any{"status": "Ready"}).want(t, 200)
	admin.do("PUT", "/api/tests/"+shared, map[string]any{"status": "Deprecated"}).want(t, 200)
	owner.do("POST", "/api/runs", map[string]any{"testId": shared}, ProjectHeader, o.project).want(t, 409)
	owner.do("POST", "/api/runs", map[string]any{}, ProjectHeader, o.project).want(t, 422)
	owner.do("POST", "/api/runs", map[string]any{"testId": private, "environmentId": "env_aaaaaaaaaaaaaaaa"}, ProjectHeader, o.project).want(t, 422)
	// Cancel a queued run: it ends at once, with run.finished.
	owner.do("POST", "/api/runs/"+runID+"/cancel", nil).want(t, 202)
	r := owner.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
	if r["status"] != "cancelled" {
		t.Errorf("cancelled run: %v", r)
	}
	if ev := owner.sse(t, runID); kinds(ev) != "run.finished" {
		t.Errorf("cancelled run events: %s", kinds(ev))
	}
	owner.do("POST", "/api/runs/"+runID+"/cancel", nil).want(t, 409)
	// Another project's header on a run is refused and audited.
	other := o.owner.do("POST", "/api/orgs/"+o.id+"/projects", map[string]string{"name": "Other"}).want(t, 201).str("id")
	routes := [][2]string{{"GET", "/api/runs/" + runID}, {"GET", "/api/runs/" + runID + "/events"},
		{"GET", "/api/runs/" + runID + "/artifacts/step-001-s1.png"}, {"POST", "/api/runs/" + runID + "/cancel"}}
	for _, rt := range routes {
		owner.do(rt[0], rt[1], nil, ProjectHeader, other).want(t, 404)
	}
	if n := len(readAudit(t, h)); n != len(routes) {
		t.Errorf("audit lines %d, want %d", n, len(routes))
	}
	// Starting a run of this project's test under the other project's header.
	owner.do("POST", "/api/runs", map[string]any{"testId": private}, ProjectHeader, other).want(t, 404)
	if n := len(readAudit(t, h)); n != len(routes)+1 {
		t.Errorf("audit lines %d, want %d", n, len(routes)+1)
	}
}

func newRequest(h *harness, method, path string) (*http.Request, error) {
	return http.NewRequest(method, h.srv.URL+path, nil)
}
