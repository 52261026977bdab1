package api

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// waitDoc opens the fixture site, then waits long enough to be interrupted.
func waitDoc(base string) map[string]any {
	return map[string]any{"dsl": 2, "name": "Slow", "steps": []map[string]any{
		{"id": "open", "type": "navigate", "url": base + "/login.html"},
		{"id": "pause", "type": "wait", "ms": 60000, "timeoutMs": 120000},
	}}
}

// waitStatus polls a run until it has the status.
func (c *client) waitStatus(t *testing.T, runID, status string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		r := c.do("GET", "/api/runs/"+runID, nil).json()
		if r["status"] == status {
			return r
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("run %s never became %s", runID, status)
	return nil
}

func TestRunCancelMidRun(t *testing.T) {
	f := newRunFixture(t)
	runID := f.start(t, waitDoc(site(t)), nil)
	f.user.waitStatus(t, runID, "running")
	f.user.do("POST", "/api/runs/"+runID+"/cancel", nil).want(t, 202)
	start := time.Now()
	events := f.user.sse(t, runID)
	if last := events[len(events)-1]; last.Kind != "run.finished" || last.Status != "cancelled" {
		t.Fatalf("last event %+v", last)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("cancel took %v", d)
	}
	r := f.user.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
	if r["status"] != "cancelled" {
		t.Errorf("run: %v", r)
	}
	if ag := f.user.do("GET", "/api/agent", nil).json()["agents"].([]any)[0].(map[string]any); num(ag["busy"]) != 0 {
		t.Errorf("agent still busy after the cancel: %v", ag)
	}
}

// Each user's runs go to that user's own agent.
func TestRunsGoToTheirOwnersAgents(t *testing.T) {
	f := newRunFixture(t)
	dev := f.o.members[access.TestDeveloper]
	devAgent := f.h.pairAgent(t, dev, browserRunner{sharedBrowser(t)})
	base := site(t)
	mine := f.start(t, waitDoc(base), nil)
	id := dev.createTest(t, f.o.project, waitDoc(base))
	theirs := dev.do("POST", "/api/runs", map[string]any{"testId": id}, ProjectHeader, f.o.project).want(t, 201).str("runId")
	f.user.waitStatus(t, mine, "running")
	dev.waitStatus(t, theirs, "running")
	var agentOf = func(runID string) string {
		var a string
		_ = f.h.store.Pool().QueryRow(t.Context(), `SELECT agent_id FROM runs WHERE id = $1`, runID).Scan(&a)
		return a
	}
	if agentOf(mine) != f.agent.cl.State().AgentID || agentOf(theirs) != devAgent.cl.State().AgentID {
		t.Errorf("runs went to the wrong agents: %s→%s, %s→%s", mine, agentOf(mine), theirs, agentOf(theirs))
	}
	f.user.do("POST", "/api/runs/"+mine+"/cancel", nil).want(t, 202)
	dev.do("POST", "/api/runs/"+theirs+"/cancel", nil).want(t, 202)
	f.user.waitStatus(t, mine, "cancelled")
	dev.waitStatus(t, theirs, "cancelled")
}

var agentBin string

func buildAgent(t *testing.T) string {
	t.Helper()
	if agentBin == "" {
		bin := filepath.Join(os.TempDir(), "ta-agent-test")
		out, err := exec.Command("go", "build", "-o", bin, "../../agent").CombinedOutput()
		if err != nil {
			t.Fatalf("go build agent: %v\n%s", err, out)
		}
		agentBin = bin
	}
	return agentBin
}

// startAgentProcess runs the agent binary headless; it returns the process
// and, on first start, its pairing code.
func startAgentProcess(t *testing.T, hubURL, configDir string, extra ...string) (*exec.Cmd, chan string) {
	t.Helper()
	cmd := exec.Command(buildAgent(t), append([]string{"--hub", hubURL, "--headless", "--config", configDir}, extra...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // kill -9 takes its Chromium along
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	codes := make(chan string, 1)
	re := regexp.MustCompile(`^pairing code: (\S+)$`)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				codes <- m[1]
			}
		}
	}()
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Wait() })
	return cmd, codes
}

// waitDisconnected waits until the hub has noticed the user's agent is gone.
func waitDisconnected(t *testing.T, c *client) {
	t.Helper()
	for range 300 {
		if c.do("GET", "/api/agent", nil).json()["needed"] == true {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the hub still sees the killed agent as connected")
}

func killAgent(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Wait()
}

// An agent killed mid-run: its run is queued again once, then ends as error
// when the second agent dies too; no run stays running forever.
func TestRunAgentKilled(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.Tester]
	dir := t.TempDir()
	cmd, codes := startAgentProcess(t, h.srv.URL, dir)
	var code string
	select {
	case code = <-codes:
	case <-time.After(30 * time.Second):
		t.Fatal("the agent printed no pairing code")
	}
	c.do("POST", "/api/agent/pair/"+code, nil).want(t, 201)
	id := c.createTest(t, o.project, waitDoc(site(t)))
	runID := c.do("POST", "/api/runs", map[string]any{"testId": id}, ProjectHeader, o.project).want(t, 201).str("runId")
	c.waitStatus(t, runID, "running")

	killAgent(cmd)
	waitDisconnected(t, c)
	h.advance(4 * time.Second) // past the 3 s lease
	h.dispatch.Sweep(t.Context())
	r := c.do("GET", "/api/runs/"+runID, nil).want(t, 202).json()
	if r["status"] != "queued" || num(r["attempts"]) != 1 {
		t.Fatalf("after the first agent died: %v", r)
	}
	// The agent comes back (its token is kept) and gets the run again.
	cmd, _ = startAgentProcess(t, h.srv.URL, dir)
	c.waitStatus(t, runID, "running")
	killAgent(cmd)
	waitDisconnected(t, c)
	h.advance(4 * time.Second)
	h.dispatch.Sweep(t.Context())
	r = c.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
	if r["status"] != "error" || !strings.Contains(r["error"].(string), "stopped answering") {
		t.Fatalf("after the second agent died: %v", r)
	}
	events := c.sse(t, runID)
	got, _ := json.Marshal(events)
	if !strings.Contains(string(got), "queued again") || events[len(events)-1].Status != "error" {
		t.Errorf("events: %s", kinds(events))
	}
}

// The hub restarts mid-run: the agent reconnects with its token, says which
// run it still has, and the run finishes normally.
func TestRunSurvivesHubRestart(t *testing.T) {
	f := newRunFixture(t)
	base := site(t)
	d := map[string]any{"dsl": 2, "name": "Pause", "steps": []map[string]any{
		{"id": "open", "type": "navigate", "url": base + "/login.html"},
		{"id": "pause", "type": "wait", "ms": 2500},
		{"id": "check", "type": "assertTitle", "expected": "Shop sign-in"},
	}}
	runID := f.start(t, d, nil)
	f.user.waitStatus(t, runID, "running")
	from := f.agent.stateCount()
	f.h.restart(t)
	f.agent.waitReconnect(t, from)
	r := f.user.waitStatus(t, runID, "passed")
	if num(r["passed"]) != 3 || num(r["attempts"]) != 1 {
		t.Errorf("after the restart: %v", r)
	}
	events := f.user.sse(t, runID)
	for i, e := range events {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d: events lost or repeated across the restart (%s)", i, e.Seq, kinds(events))
		}
	}
}

// Through hub and agent: a step waits for a button that is enabled late
// (auto-waiting, no step.retry), and steps act inside an iframe.
func TestRunRetriesAndFrames(t *testing.T) {
	f := newRunFixture(t)
	frame := []map[string]any{loc("css", "#login")}
	d := map[string]any{"dsl": 2, "name": "Frames", "steps": []map[string]any{
		{"id": "open", "type": "navigate", "url": "${baseUrl}/frame.html"},
		{"id": "later", "type": "click", "target": target(loc("css", "#later"))},
		{"id": "out", "type": "assertText", "expected": "later clicked", "target": target(loc("css", "#out"))},
		{"id": "email", "type": "fill", "value": "fay@example.com", "target": map[string]any{"locators": []any{loc("label", "Email")}, "frame": frame}},
		{"id": "submit", "type": "click", "target": map[string]any{"locators": []any{loc("role", "button", "Sign in")}, "frame": frame}},
		{"id": "greet", "type": "assertText", "expected": "Welcome, fay@example.com", "target": map[string]any{"locators": []any{loc("testId", "greeting")}, "frame": frame}},
	}}
	runID := f.start(t, d, map[string]any{"screenshots": false})
	events := f.user.sse(t, runID)
	retries := 0
	for _, e := range events {
		if e.Kind == protocol.StepRetry && e.StepID == "later" {
			retries++
		}
	}
	if retries != 0 {
		t.Errorf("step.retry while waiting for the button to be enabled: %s", kinds(events))
	}
	r := f.user.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
	if r["status"] != "passed" || num(r["passed"]) != 6 {
		t.Fatalf("run: %v", r)
	}
	// The run list filters by test and status.
	testID := r["testId"].(string)
	for q, want := range map[string]int{"?status=passed": 1, "?status=failed": 0, "?testId=" + testID: 1, "?testId=tc_aaaaaaaaaaaaaaaa": 0} {
		if got := len(f.user.do("GET", "/api/runs"+q, nil, ProjectHeader, f.o.project).want(t, 200).json()["runs"].([]any)); got != want {
			t.Errorf("runs%s: %d, want %d", q, got, want)
		}
	}
	f.user.do("GET", "/api/runs?status=done", nil, ProjectHeader, f.o.project).want(t, 422)
}
