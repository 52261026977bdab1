package api

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testautomation/ta/agent/ci"
	agentclient "github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/hub/access"
)

// ciWorld is a project with an environment on the local site and a Smoke
// suite of three tests, the last of which fails (its greeting is wrong).
type ciWorld struct {
	o                  org
	dev                *client
	env                string
	signIn, greet, bad string
}

func newCIWorld(t *testing.T, h *harness) ciWorld {
	w := ciWorld{o: h.org(t)}
	w.dev = w.o.members[access.TestDeveloper]
	mgr := w.o.members[access.TestManager]
	w.env = mgr.projectDo(w.o.project, "POST", "/api/environments", map[string]any{"name": "Local", "variables": map[string]string{"baseUrl": site(t)}}).
		want(t, 201).str("id")
	signIn := ciSignIn
	w.signIn = w.dev.createTest(t, w.o.project, signIn("Sign in", "Welcome"))
	w.greet = w.dev.createTest(t, w.o.project, signIn("Greeting", "amy@example.com"))
	w.bad = w.dev.createTest(t, w.o.project, signIn("Wrong greeting", "Goodbye"))
	return w
}

// ciSignIn is a Smoke test that signs in and checks the greeting.
func ciSignIn(name, expected string) map[string]any {
	return map[string]any{"dsl": 2, "name": name, "suite": "Smoke", "tags": []string{"smoke"}, "steps": []any{
		map[string]any{"id": "open", "type": "navigate", "url": "${baseUrl}/login.html"},
		map[string]any{"id": "email", "type": "fill", "value": "amy@example.com", "target": map[string]any{"locators": []any{loc("label", "Email")}}},
		map[string]any{"id": "go", "type": "click", "target": map[string]any{"locators": []any{loc("role", "button", "Sign in")}}},
		map[string]any{"id": "check", "type": "assertText", "target": map[string]any{"locators": []any{loc("testId", "greeting")}},
			"expected": expected, "match": "contains", "timeoutMs": 1500},
	}}
}

// waitRunning waits until a run of the test is running.
func waitRunning(t *testing.T, h *harness, testID string) {
	t.Helper()
	waitFor(t, func() bool {
		var n int
		_ = h.store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM runs WHERE test_id = $1 AND status = 'running'`, testID).Scan(&n)
		return n == 1
	})
}

// runCI runs the command in this process against the harness's hub.
func runCI(t *testing.T, ctx context.Context, h *harness, args ...string) (int, string) {
	t.Helper()
	o, err := ci.ParseFlags(append([]string{"--hub", h.srv.URL, "--hub-wait", "5s"}, args...), os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	var out syncBuffer
	code := ci.Run(ctx, o, ci.Env{Out: &out, Version: "test", Hostname: "ci-box", OS: "linux", Arch: "amd64",
		Local: func(context.Context) (agentclient.Runner, func(), error) {
			return browserRunner{sharedBrowser(t)}, func() {}, nil
		}})
	return code, out.String()
}

// junitReport is what the test reads back from a report.
type junitReport struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Suite    struct {
		Name  string `xml:"name,attr"`
		Cases []struct {
			Name      string `xml:"name,attr"`
			ClassName string `xml:"classname,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
			} `xml:"failure"`
			SystemOut string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// readJUnit reads the JUnit report the CI command wrote at path, checks it
// against the schema and decodes it.
func readJUnit(t *testing.T, path string) (junitReport, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	checkJUnitSchema(t, data)
	var rep junitReport
	if err := xml.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	return rep, data
}

func checkJUnitSchema(t *testing.T, report []byte) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "r.xml")
	if err := os.WriteFile(f, report, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("xmllint", "--noout", "--schema", "../../protocol/junit/testdata/junit.xsd", f).CombinedOutput()
	if err != nil {
		t.Fatalf("the JUnit schema refuses the report: %v\n%s\n%s", err, out, report)
	}
}

// The CI command runs a suite here as an ephemeral agent of the token's
// user: live progress, a JUnit report a schema check accepts with the
// failing step and its screenshot, exit 1 for the failing test; once it is
// fixed, exit 0. Its agent is gone afterwards, and it never took another
// run of its user.
func TestCICommandRunsSuiteHere(t *testing.T) {
	h := newHarness(t)
	w := newCIWorld(t, h)
	_, token := w.dev.newToken(t, map[string]any{"name": "pipeline", "projectId": w.o.project})
	// A run the user started in the web app, for their own paired agents:
	// the CI agent must leave it alone.
	other := w.dev.projectDo(w.o.project, "POST", "/api/runs", map[string]any{"testId": w.signIn, "environmentId": w.env}).want(t, 201).str("runId")

	report := filepath.Join(t.TempDir(), "out", "report.xml")
	code, out := runCI(t, t.Context(), h, "--token", token, "--suite", "Smoke", "--environment", "local", "--junit", report, "--parallel", "2")
	if code != ci.ExitFailed {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{`3 run(s) of suite "Smoke" in project "Shop" against "Local"`, "batch: " + h.srv.URL + "/batches/bat_",
		"✓ passed Sign in  4/4 steps", "✗ failed Wrong greeting  3/4 steps", "step 4 (assertText check)", h.srv.URL + "/runs/run_",
		"TEST", "3 test run(s): 2 passed, 1 failed", "JUnit report: " + report} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	rep, _ := readJUnit(t, report)
	if rep.Tests != 3 || rep.Failures != 1 || rep.Suite.Name != "Smoke" || len(rep.Suite.Cases) != 3 {
		t.Fatalf("report: %+v", rep)
	}
	for _, c := range rep.Suite.Cases {
		if c.ClassName != "Smoke" {
			t.Errorf("classname %q", c.ClassName)
		}
		if (c.Failure != nil) != (c.Name == "Wrong greeting") {
			t.Errorf("case %q failure %v", c.Name, c.Failure)
		}
		if c.Name != "Wrong greeting" {
			continue
		}
		if !strings.HasPrefix(c.Failure.Message, "step 4 (assertText check):") {
			t.Errorf("failure message %q", c.Failure.Message)
		}
		_, shot, ok := strings.Cut(c.SystemOut, "[[ATTACHMENT|")
		shot = strings.TrimSuffix(shot, "]]")
		if !ok || !strings.HasPrefix(shot, filepath.Join(filepath.Dir(report), "report-screenshots")) {
			t.Fatalf("attachment in %q", c.SystemOut)
		}
		if png, err := os.ReadFile(shot); err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
			t.Errorf("screenshot %s: %v", shot, err)
		}
	}

	// The CI agent is gone, and the web app's run still waits for one of
	// the user's own agents.
	agents := w.dev.do("GET", "/api/agent", nil).want(t, 200).json()
	if len(agents["agents"].([]any)) != 0 || agents["needed"] != true {
		t.Errorf("agents after the command: %v", agents)
	}
	if st := w.dev.do("GET", "/api/runs/"+other, nil).want(t, 202).json()["status"]; st != "queued" {
		t.Errorf("the user's other run is %v", st)
	}

	// Fixed: exit 0.
	w.dev.do("PUT", "/api/tests/"+w.bad, ciSignIn("Wrong greeting", "Welcome")).want(t, 200)
	code, out = runCI(t, t.Context(), h, "--token", token, "--tag", "SMOKE", "--environment", w.env)
	if code != ci.ExitPassed || !strings.Contains(out, "3 test run(s): 3 passed") {
		t.Fatalf("after the fix: exit %d\n%s", code, out)
	}
}

// --remote runs on the user's paired agent; no CI agent joins.
func TestCICommandRemote(t *testing.T) {
	h := newHarness(t)
	w := newCIWorld(t, h)
	h.pairAgent(t, w.dev, browserRunner{sharedBrowser(t)})
	_, token := w.dev.newToken(t, map[string]any{"name": "pipeline"})
	report := filepath.Join(t.TempDir(), "report.xml")
	code, out := runCI(t, t.Context(), h, "--token", token, "--project", "shop", "--test", w.signIn+","+w.bad, "--environment", "Local",
		"--remote", "--junit", report)
	if code != ci.ExitFailed || !strings.Contains(out, "on your paired agents") || !strings.Contains(out, "2 test run(s): 1 passed, 1 failed") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	readJUnit(t, report)
	var n int
	if err := h.store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM agents WHERE ephemeral`).Scan(&n); err != nil || n != 0 {
		t.Errorf("ephemeral agents: %d %v", n, err)
	}
}

// Bad input ends with exit 2 and a message saying what to do; nothing
// runs.
func TestCICommandRefusals(t *testing.T) {
	h := newHarness(t)
	w := newCIWorld(t, h)
	_, token := w.dev.newToken(t, map[string]any{"name": "pipeline", "projectId": w.o.project})
	revokedID, revoked := w.dev.newToken(t, map[string]any{"name": "old"})
	w.dev.do("DELETE", "/api/tokens/"+revokedID, nil).want(t, 204)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"revoked token", []string{"--token", revoked, "--suite", "Smoke"}, "this API token was revoked"},
		{"malformed token", []string{"--token", "tat_nope", "--suite", "Smoke"}, "malformed or unknown"},
		{"empty suite", []string{"--token", token, "--suite", "Nothing"}, "no test you can run"},
		{"unknown tag", []string{"--token", token, "--tag", "nightly"}, `no test you can run has the tag "nightly"`},
		{"no environment", []string{"--token", token, "--suite", "Smoke", "--environment", "Staging"}, `no environment "Staging" in this project; there are: "Local"`},
		{"unknown test", []string{"--token", token, "--test", "tc_nope"}, "no test \"tc_nope\" in this project"},
		{"unknown project", []string{"--token", token, "--project", "Nope", "--suite", "Smoke"}, `no project "Nope" for this token`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out := runCI(t, t.Context(), h, tc.args...)
			if code != ci.ExitError || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, want 2 and %q:\n%s", code, tc.want, out)
			}
		})
	}
	var runs int
	if err := h.store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM runs`).Scan(&runs); err != nil || runs != 0 {
		t.Errorf("refused commands started %d runs (%v)", runs, err)
	}
	if _, err := ci.ParseFlags([]string{"--hub", "http://x", "--token", token, "--suite", "a", "--tag", "b"}, &bytes.Buffer{}); err == nil {
		t.Error("--suite with --tag was accepted")
	}
}

// neverTest saves a test in its own suite (named like the test) that opens
// the fixture site, then waits up to timeoutMs for a text that never comes.
func (w ciWorld) neverTest(t *testing.T, suite string, timeoutMs int) string {
	t.Helper()
	return w.dev.createTest(t, w.o.project, map[string]any{"dsl": 2, "name": suite, "suite": suite, "steps": []any{
		map[string]any{"id": "open", "type": "navigate", "url": "${baseUrl}/login.html"},
		map[string]any{"id": "wait", "type": "assertText", "target": map[string]any{"locators": []any{loc("testId", "greeting")}},
			"expected": "never", "timeoutMs": timeoutMs},
	}})
}

// Ctrl-C cancels the command's runs; a hub that goes away mid-run is
// tried again, then the command exits 2 saying so.
func TestCICommandInterruptedAndHubGone(t *testing.T) {
	h := newHarness(t)
	w := newCIWorld(t, h)
	_, token := w.dev.newToken(t, map[string]any{"name": "pipeline"})
	slow := w.neverTest(t, "Slow", 20000)

	ctx, cancel := context.WithCancel(t.Context())
	var code int
	var out string
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		code, out = runCI(t, ctx, h, "--token", token, "--suite", "Slow", "--environment", "Local")
	}()
	waitRunning(t, h, slow)
	cancel()
	wg.Wait()
	var status string
	_ = h.store.Pool().QueryRow(t.Context(), `SELECT status FROM runs WHERE test_id = $1`, slow).Scan(&status)
	if code != ci.ExitError || !strings.Contains(out, "interrupted: cancelling") || status != "cancelled" {
		t.Fatalf("interrupted: exit %d, run %s\n%s", code, status, out)
	}

	// The hub goes away for good while the test runs.
	wg.Add(1)
	go func() {
		defer wg.Done()
		code, out = runCI(t, t.Context(), h, "--token", token, "--suite", "Slow", "--environment", "Local")
	}()
	waitRunning(t, h, slow)
	start := time.Now()
	h.srv.CloseClientConnections()
	h.srv.Close()
	wg.Wait()
	if code != ci.ExitError || !strings.Contains(out, "did not answer for 5s") {
		t.Fatalf("hub gone: exit %d after %s\n%s", code, time.Since(start), out)
	}
}

// The hub answers a batch's and a run's results as JUnit XML: at /junit as
// a download, or to Accept: application/xml; other members see only what
// they may, outsiders nothing.
func TestJUnitFromHub(t *testing.T) {
	h := newHarness(t)
	w := newCIWorld(t, h)
	h.pairAgent(t, w.dev, browserRunner{sharedBrowser(t)})
	batch := w.dev.startBatch(t, w.o.project, map[string]any{"suite": "Smoke", "environmentId": w.env})
	id := batch["batchId"].(string)
	waitFor(t, func() bool {
		return w.dev.do("GET", "/api/batches/"+id, nil).want(t, 200).json()["finishedAt"] != nil
	})
	r := w.dev.do("GET", "/api/batches/"+id+"/junit", nil).want(t, 200)
	if r.header.Get("Content-Type") != "application/xml; charset=utf-8" || r.header.Get("Content-Disposition") != `attachment; filename="`+id+`-junit.xml"` {
		t.Errorf("headers: %v", r.header)
	}
	checkJUnitSchema(t, r.body)
	var rep junitReport
	if err := xml.Unmarshal(r.body, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Tests != 3 || rep.Failures != 1 || rep.Suite.Name != "Smoke" {
		t.Fatalf("report: %+v", rep)
	}
	for _, c := range rep.Suite.Cases {
		if c.Name == "Wrong greeting" && !strings.Contains(c.SystemOut, "[[ATTACHMENT|http://hub.test/api/runs/run_") {
			t.Errorf("failure attachment: %q", c.SystemOut)
		}
		// The failed run's trace (the default, failures) is linked; a
		// passed run's is not.
		if trace := traceLine(c.SystemOut); (trace != "") != (c.Name == "Wrong greeting") ||
			trace != "" && (!strings.HasPrefix(trace, "http://hub.test/api/runs/run_") || !strings.HasSuffix(trace, "/trace.zip")) {
			t.Errorf("%s: trace %q in %q", c.Name, trace, c.SystemOut)
		}
	}
	// Content negotiation gives the same report without the download name.
	neg := w.dev.do("GET", "/api/batches/"+id, nil, "Accept", "application/xml").want(t, 200)
	if !bytes.Equal(neg.body, r.body) || neg.header.Get("Content-Disposition") != "" {
		t.Errorf("negotiated report differs:\n%s", neg.body)
	}
	if j := w.dev.do("GET", "/api/batches/"+id, nil, "Accept", "application/json, application/xml").want(t, 200); j.json()["id"] != id {
		t.Error("JSON first in Accept did not give JSON")
	}
	runID := batch["runs"].([]any)[2].(map[string]any)["runId"].(string)
	one := w.dev.do("GET", "/api/runs/"+runID+"/junit", nil).want(t, 200)
	checkJUnitSchema(t, one.body)
	if err := xml.Unmarshal(one.body, &rep); err != nil || rep.Tests != 1 {
		t.Errorf("run report: %v %+v", err, rep)
	}
	w.dev.do("GET", "/api/runs/"+runID, nil, "Accept", "text/xml").want(t, 200)

	// Another member sees the shared runs; an outsider gets 404 for both.
	w.o.members[access.Tester].do("GET", "/api/batches/"+id+"/junit", nil).want(t, 200)
	outsider, _ := h.register("Outsider")
	outsider.do("GET", "/api/batches/"+id+"/junit", nil).want(t, 404)
	outsider.do("GET", "/api/runs/"+runID+"/junit", nil).want(t, 404)
	h.client().do("GET", "/api/runs/"+runID+"/junit", nil).want(t, 401)
}

// --data-set runs each --test once per row; the report has a testcase per
// row, the failing row's with its step and screenshot.
func TestCICommandDataSet(t *testing.T) {
	h := newHarness(t)
	w := newCIWorld(t, h)
	w.dev.projectDo(w.o.project, "POST", "/api/test-data", map[string]any{"name": "Greetings", "columns": []string{"greeting"},
		"rows": []map[string]string{{"greeting": "Welcome"}, {"greeting": "Goodbye"}, {"greeting": "amy@"}}}).want(t, 201)
	driven := w.dev.createTest(t, w.o.project, ciSignIn("Greets", "${greeting}"))
	_, token := w.dev.newToken(t, map[string]any{"name": "pipeline"})
	report := filepath.Join(t.TempDir(), "rows.xml")
	code, out := runCI(t, t.Context(), h, "--token", token, "--test", driven, "--data-set", "greetings", "--environment", "Local", "--junit", report)
	if code != ci.ExitFailed || !strings.Contains(out, "✗ failed Greets  2/3 rows") || !strings.Contains(out, "row 2 failed") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	rep, data := readJUnit(t, report)
	if rep.Tests != 3 || rep.Failures != 1 {
		t.Fatalf("report: %s", data)
	}
	for i, c := range rep.Suite.Cases {
		if want := "Greets [row " + string(rune('1'+i)) + "]"; c.Name != want || c.ClassName != "Smoke.Greets" {
			t.Errorf("case %d: %q %q, want %q", i, c.Name, c.ClassName, want)
		}
	}
	bad := rep.Suite.Cases[1]
	if bad.Failure == nil || !strings.HasPrefix(bad.Failure.Message, "step 4 (assertText check)") || !strings.Contains(bad.SystemOut, "-row2-") {
		t.Errorf("failing row: %+v", bad)
	}
}

// A hub that restarts while the command's test runs: the CI agent
// reconnects, the event stream resumes, and the command reports the run's
// real result.
func TestCICommandSurvivesHubRestart(t *testing.T) {
	h := newHarness(t)
	w := newCIWorld(t, h)
	_, token := w.dev.newToken(t, map[string]any{"name": "pipeline"})
	slow := w.neverTest(t, "Waits", 4000)
	var code int
	var out string
	done := make(chan struct{})
	go func() {
		defer close(done)
		code, out = runCI(t, t.Context(), h, "--token", token, "--suite", "Waits", "--environment", "Local")
	}()
	waitRunning(t, h, slow)
	h.restart(t)
	<-done
	if code != ci.ExitFailed || !strings.Contains(out, "✗ failed Waits  1/2 steps") || !strings.Contains(out, `expected the text to contain "never"`) {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

// A CI agent joining with a token the hub refuses is told why and stops
// trying; no agent is created.
func TestCIAgentRefusedToken(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev := o.members[access.TestDeveloper]
	id, revoked := dev.newToken(t, map[string]any{"name": "old"})
	dev.do("DELETE", "/api/tokens/"+id, nil).want(t, 204)
	for token, want := range map[string]string{revoked: "this API token was revoked", "tat_nope": "malformed or unknown"} {
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		err := agentclient.New(agentclient.Config{HubURL: h.srv.URL, ConfigDir: t.TempDir(), Hostname: "ci-box", OS: "linux",
			APIToken: token}).Run(ctx)
		cancel()
		var refused *agentclient.RefusedError
		if !errors.As(err, &refused) || !strings.Contains(err.Error(), want) {
			t.Errorf("token %.8s: %v, want a refusal saying %q", token, err, want)
		}
	}
	var n int
	if err := h.store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM agents`).Scan(&n); err != nil || n != 0 {
		t.Errorf("agents after refusals: %d %v", n, err)
	}
}
