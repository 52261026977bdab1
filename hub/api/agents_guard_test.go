package api

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	agentclient "github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// helloWith connects to the agents' WebSocket with a token, as anyone
// holding a copy of it could, and returns the hub's first answer.
func (h *harness) helloWith(t *testing.T, token string) protocol.Message {
	t.Helper()
	url := "ws" + strings.TrimPrefix(h.srv.URL, "http") + "/api/agent/connect"
	ctx, cancel := context.WithTimeout(t.Context(), 15*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	data, _ := protocol.Message{Type: protocol.MsgHello, Protocol: protocol.Version, Token: token, Parallel: 4}.Encode()
	if err := ws.Write(ctx, websocket.MessageText, data); err != nil {
		t.Fatal(err)
	}
	_, data, err = ws.Read(ctx)
	if err != nil {
		t.Fatalf("no answer to a hello: %v", err)
	}
	var m protocol.Message
	_ = json.Unmarshal(data, &m)
	return m
}

// agentRow is the caller's agent as GET /api/agent lists it.
func agentRow(t *testing.T, c *client, id string) map[string]any {
	t.Helper()
	for _, a := range c.do("GET", "/api/agent", nil).want(t, 200).json()["agents"].([]any) {
		if row := a.(map[string]any); row["id"] == id {
			return row
		}
	}
	t.Fatalf("agent %s is not listed", id)
	return nil
}

// Issue 26: a connection with the token of an agent that is connected and
// answering is refused (agent_connected); the real agent is not disturbed
// and keeps getting its owner's runs, with the protected environment's
// secret; the owner sees the attempt.
func TestSecondConnectionWithAgentTokenRefused(t *testing.T) {
	f := newRunFixture(t)
	agentID := f.agent.cl.State().AgentID
	f.agent.mu.Lock()
	before := len(f.agent.states)
	f.agent.mu.Unlock()

	m := f.h.helloWith(t, f.agent.cl.Token())
	if m.Type != protocol.MsgError || m.ErrorCode != protocol.ErrAgentConnected || !strings.Contains(m.Error, "already connected") {
		t.Fatalf("a second connection with the agent's token got %+v", m)
	}
	row := agentRow(t, f.user, agentID)
	if row["connected"] != true || row["refusedAt"] != "2026-11-01T09:00:00.000Z" || row["refusedFrom"] != "127.0.0.1" ||
		row["connectedFrom"] != "127.0.0.1" {
		t.Errorf("the Agents page shows %v", row)
	}
	if logs := f.h.logs.String(); !strings.Contains(logs, "refused a second connection with the token of a connected agent") ||
		!strings.Contains(logs, agentID) {
		t.Errorf("no warning names the agent: %s", logs)
	}
	runID := f.start(t, signInDoc("", "Welcome, ann@example.com"), nil)
	if r := f.user.waitStatus(t, runID, "passed"); num(r["passed"]) != 5 {
		t.Errorf("the run after the attempt: %v", r)
	}
	var ranOn string
	_ = f.h.store.Pool().QueryRow(t.Context(), `SELECT agent_id FROM runs WHERE id = $1`, runID).Scan(&ranOn)
	if ranOn != agentID {
		t.Errorf("the run went to %s, not the real agent %s", ranOn, agentID)
	}
	f.agent.mu.Lock()
	defer f.agent.mu.Unlock()
	for _, st := range f.agent.states[before:] {
		if st.Phase != "connected" {
			t.Fatalf("the real agent was disturbed: %+v", st)
		}
	}
}

// A first connection that no longer answers pings (its network dropped
// without the hub noticing) is replaced by the agent's new one.
func TestDeadAgentConnectionIsReplaced(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	dead := h.rawAgent(t, mgr, "") // nobody reads it from now on: it answers no ping
	start := time.Now()
	again := h.rawAgent(t, mgr, dead.token)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the reconnection took %s", d)
	}
	id := mgr.createTest(t, o.project, doc("After", 1))
	runID := mgr.do("POST", "/api/runs", map[string]any{"testId": id}, ProjectHeader, o.project).want(t, 201).str("runId")
	if job := again.assigned(); job.RunID != runID {
		t.Errorf("the new connection got %s, want %s", job.RunID, runID)
	}
	if row := agentRow(t, mgr, agentID(t, mgr)); row["refusedAt"] != nil {
		t.Errorf("a reconnection was shown as a refused attempt: %v", row)
	}
}

// An agent refused because its token is connected elsewhere says so and
// tries again slowly, not in a tight loop; once the other connection is
// gone it gets in.
func TestRefusedAgentBacksOffAndGetsIn(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	other := h.rawAgent(t, mgr, "")
	go func() { // reading, it answers the hub's pings
		for {
			if _, _, err := other.ws.Read(context.Background()); err != nil {
				return
			}
		}
	}()
	dir := t.TempDir()
	data, _ := json.Marshal(map[string]string{"hub": h.srv.URL, "agentId": agentID(t, mgr), "token": other.token})
	if err := os.WriteFile(filepath.Join(dir, "agent.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	cl := agentclient.New(agentclient.Config{HubURL: h.srv.URL, ConfigDir: dir, Hostname: "copy", OS: "linux", Version: "test",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), MinBackoff: 20 * time.Millisecond, MaxBackoff: 3 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = cl.Run(ctx) }()
	defer func() { cancel(); <-done }()

	deadline := time.Now().Add(10 * time.Second)
	for st := cl.State(); st.Err == nil || !strings.Contains(st.Err.Error(), "another connection with this computer's token"); st = cl.State() {
		if st.Phase == "connected" || time.Now().After(deadline) {
			t.Fatalf("the agent was not refused: %+v", st)
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(1200 * time.Millisecond)
	if n := strings.Count(h.logs.String(), "refused a second connection"); n != 1 {
		t.Errorf("%d attempts in the first 1.2 s after a refusal, want 1 (backing off)", n)
	}
	other.ws.CloseNow()
	for cl.State().Phase != "connected" {
		if time.Now().After(deadline.Add(5 * time.Second)) {
			t.Fatalf("the agent did not get in after the other connection ended: %+v", cl.State())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// tokenOnDisk reads the token the agent keeps in its config folder, and
// the file's permissions.
func tokenOnDisk(t *testing.T, dir string) (string, os.FileMode) {
	t.Helper()
	path := filepath.Join(dir, "agent.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Token string }
	_ = json.Unmarshal(data, &f)
	info, _ := os.Stat(path)
	return f.Token, info.Mode().Perm()
}

// The owner rotates a connected agent's token from the Agents page, end to
// end with the real agent: it stores the new token (owner-only), keeps
// running runs, and the old token is refused from then on. Another user
// cannot rotate it; a computer that is not connected cannot be rotated.
func TestRotateAgentToken(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.Tester]
	stranger := o.members[access.Admin]
	dir := t.TempDir()
	cmd, codes := startAgentProcess(t, h.srv.URL, dir)
	select {
	case code := <-codes:
		c.do("POST", "/api/agent/pair/"+code, nil).want(t, 201)
	case <-time.After(30 * time.Second):
		t.Fatal("the agent printed no pairing code")
	}
	id := agentID(t, c)
	for deadline := time.Now().Add(30 * time.Second); agentRow(t, c, id)["connected"] != true; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the agent did not connect")
		}
	}
	old, _ := tokenOnDisk(t, dir)
	base := site(t)
	titled := map[string]any{"dsl": 2, "name": "Title", "steps": []map[string]any{
		{"id": "open", "type": "navigate", "url": base + "/login.html"},
		{"id": "check", "type": "assertTitle", "expected": "Shop sign-in"}}}
	test := c.createTest(t, o.project, titled)
	run := func() {
		t.Helper()
		id := c.do("POST", "/api/runs", map[string]any{"testId": test}, ProjectHeader, o.project).want(t, 201).str("runId")
		c.waitStatus(t, id, "passed")
	}
	run()
	// Someone with a copy of the token tries: refused, and shown.
	if m := h.helloWith(t, old); m.ErrorCode != protocol.ErrAgentConnected {
		t.Fatalf("a copy of the token got %+v", m)
	}
	if agentRow(t, c, id)["refusedAt"] == nil {
		t.Fatal("the attempt is not shown")
	}

	wantCode(t, stranger.do("POST", "/api/agent/"+id+"/token", nil), 404, codeNotFound)
	c.do("POST", "/api/agent/"+id+"/token", nil).want(t, 204)
	fresh, mode := tokenOnDisk(t, dir)
	if fresh == old || fresh == "" || mode != 0o600 {
		t.Fatalf("after the rotation the agent keeps %q (was %q), mode %v", fresh, old, mode)
	}
	if m := h.helloWith(t, old); m.Type != protocol.MsgError || m.ErrorCode != "unauthorized" {
		t.Errorf("the old token after the rotation got %+v", m)
	}
	if row := agentRow(t, c, id); row["refusedAt"] != nil || row["connected"] != true {
		t.Errorf("after the rotation the Agents page shows %v", row)
	}
	run()

	// Restarted, the agent connects with the token it stored.
	killAgent(cmd)
	waitDisconnected(t, c)
	wantCode(t, c.do("POST", "/api/agent/"+id+"/token", nil), 409, codeAgentNotConnected)
	startAgentProcess(t, h.srv.URL, dir)
	run()
	if again, _ := tokenOnDisk(t, dir); again != fresh {
		t.Errorf("the restarted agent paired again instead of using its rotated token")
	}
}

// An agent busy with a run (say, sending a large screenshot, with the pong
// queued behind it) does not answer a ping at once: a copy of its token
// must not take its place then. It sent a message a moment ago, so it is
// alive, and the newcomer is refused even though no pong comes.
func TestBusyAgentNotReplaced(t *testing.T) {
	h := newHarness(t)
	_, a, runID := rawRun(t, h)
	a.event(runID, 1, 1, protocol.RunStarted, nil)
	a.acked(1)
	// From here the raw agent reads nothing: it answers no ping.
	if m := h.helloWith(t, a.token); m.Type != protocol.MsgError || m.ErrorCode != protocol.ErrAgentConnected {
		t.Fatalf("a second connection while the agent is busy with a run got %+v", m)
	}
}

// While one connection with an agent's token is being admitted (the hub
// is pinging the old one), a second with the same token is refused: two
// copies cannot both get in and the later one push the earlier out.
func TestOneAdmissionAtATime(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dead := h.rawAgent(t, o.members[access.TestManager], "") // reads nothing from now on
	first := make(chan protocol.Message, 1)
	go func() { first <- h.helloWith(t, dead.token) }()
	time.Sleep(500 * time.Millisecond) // the first is waiting for the dead one's pong
	if m := h.helloWith(t, dead.token); m.Type != protocol.MsgError || m.ErrorCode != protocol.ErrAgentConnected {
		t.Errorf("a second connection during the first one's admission got %+v", m)
	}
	if m := <-first; m.Type != protocol.MsgWelcome {
		t.Errorf("the first reconnection got %+v, want welcome", m)
	}
}
