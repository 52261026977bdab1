package api

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	agentclient "github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// steppingRunner starts two of a run's three steps, then waits for release.
type steppingRunner struct{ release chan struct{} }

func (r steppingRunner) Run(ctx context.Context, job protocol.Job, emit agentclient.Emitter) protocol.RunResult {
	total := 3
	emit.Event(protocol.Event{Kind: protocol.RunStarted, Total: &total})
	for i := range 2 {
		emit.Event(protocol.Event{Kind: protocol.StepStarted, Index: &i, StepID: job.Document.Steps[i].ID})
	}
	select {
	case <-r.release:
	case <-ctx.Done():
	}
	passed := 3
	emit.Event(protocol.Event{Kind: protocol.RunFinished, Status: protocol.RunPassed, Passed: &passed, Total: &total})
	return protocol.RunResult{Status: protocol.RunPassed, Passed: 3, Total: 3}
}

// What the tray shows comes from the client: a newer agent the hub serves,
// the run in progress with its step, the last runs; Pause keeps new runs
// away from the agent (the hub shows it paused) until Resume.
func TestAgentPauseProgressAndUpdate(t *testing.T) {
	h := newHarness(t)
	h.dispatch.Latest = func(osName, arch string) string {
		if osName == "linux" && arch == "amd64" {
			return "0.2.0"
		}
		return ""
	}
	o := h.org(t)
	dev := o.members[access.TestDeveloper]
	run := steppingRunner{release: make(chan struct{})}
	cl := agentclient.New(agentclient.Config{HubURL: h.srv.URL, ConfigDir: t.TempDir(), Hostname: "laptop", OS: "linux", Arch: "amd64",
		Version: "0.1.0", Runner: run, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), MinBackoff: 50 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = cl.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	state := func(what string, cond func(agentclient.State) bool) agentclient.State {
		t.Helper()
		for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			if st := cl.State(); cond(st) {
				return st
			}
		}
		t.Fatalf("the agent never showed %s: %+v", what, cl.State())
		return agentclient.State{}
	}
	st := state("a pairing code", func(s agentclient.State) bool { return s.Code != "" })
	dev.do("POST", "/api/agent/pair/"+st.Code, nil).want(t, 201)
	st = state("a connection", func(s agentclient.State) bool { return s.Phase == "connected" })
	if st.Update == nil || st.Update.Version != "0.2.0" || st.Update.URL != "http://hub.test/agents" {
		t.Fatalf("update notice: %+v", st.Update)
	}

	cl.SetPaused(true)
	waitFor(t, func() bool {
		a := dev.do("GET", "/api/agent", nil).json()["agents"].([]any)
		return len(a) == 1 && a[0].(map[string]any)["paused"] == true
	})
	test := dev.createTest(t, o.project, map[string]any{"name": "Checkout", "steps": []map[string]any{
		{"id": "a", "type": "navigate", "url": "https://shop.example/"},
		{"id": "b", "type": "assertTitle", "expected": "Shop"},
		{"id": "c", "type": "assertTitle", "expected": "Shop"}}})
	runID := dev.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": test}).want(t, 201).str("runId")
	time.Sleep(300 * time.Millisecond)
	if s := dev.do("GET", "/api/runs/"+runID, nil).json()["status"]; s != "queued" {
		t.Fatalf("a paused agent's run is %v", s)
	}
	cl.SetPaused(false)
	st = state("the run at its second step", func(s agentclient.State) bool {
		return len(s.Current) == 1 && s.Current[0].Done == 2
	})
	if c := st.Current[0]; c.RunID != runID || c.Test != "Checkout" || c.Total != 3 || st.Paused || st.Runs != 1 {
		t.Fatalf("in progress: %+v", st)
	}
	close(run.release)
	st = state("the run finished", func(s agentclient.State) bool { return len(s.Recent) == 1 && len(s.Current) == 0 })
	if r := st.Recent[0]; r.RunID != runID || r.Status != "passed" || r.Test != "Checkout" {
		t.Fatalf("recent: %+v", st.Recent)
	}
	// An agent as new as the hub's downloads hears of no update.
	if h.dispatch.Latest("linux", "arm64") != "" || protocol.NewerVersion("0.1.0", "0.1.0") {
		t.Fatal("update for the same version")
	}
}
