package api

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	agentclient "github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// ciAgent is a CI command's agent spoken by hand: it joins with an API
// token as `agent ci` does.
type ciAgent struct {
	ws      *websocket.Conn
	id      string // once paired
	token   string // its own agent token, once paired
	refusal *protocol.Message
}

// joinCI joins as a CI agent with the API token (or, with agentToken, as
// the agent it was given) and reads until welcome or a refusal.
func (h *harness) joinCI(t *testing.T, apiToken, agentToken string) *ciAgent {
	t.Helper()
	ws, _, err := websocket.Dial(t.Context(), "ws"+strings.TrimPrefix(h.srv.URL, "http")+"/api/agent/connect", nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(protocol.MaxMessage)
	t.Cleanup(func() { ws.CloseNow() })
	hello := protocol.Message{Type: protocol.MsgHello, Protocol: protocol.Version, Token: agentToken, Parallel: 1, Headless: true}
	if agentToken == "" {
		hello.Pair = &protocol.PairRequest{Hostname: "ci-box", OS: "linux", APIToken: apiToken}
	}
	data, _ := hello.Encode()
	if err := ws.Write(t.Context(), websocket.MessageText, data); err != nil {
		t.Fatal(err)
	}
	a := &ciAgent{ws: ws, token: agentToken}
	for {
		m, err := a.next(10 * time.Second)
		if err != nil {
			t.Fatalf("joining as a CI agent: %v", err)
		}
		switch m.Type {
		case protocol.MsgPaired:
			a.id, a.token = m.AgentID, m.Token
		case protocol.MsgWelcome:
			a.id = m.AgentID
			return a
		case protocol.MsgError:
			a.refusal = &m
			return a
		}
	}
}

func (a *ciAgent) next(d time.Duration) (protocol.Message, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	_, data, err := a.ws.Read(ctx)
	var m protocol.Message
	if err == nil {
		err = json.Unmarshal(data, &m)
	}
	return m, err
}

// endedWithin fails unless the hub tells the agent it is refused and
// closes its connection within d of since; it returns the reason.
func (a *ciAgent) endedWithin(t *testing.T, since time.Time, d time.Duration) string {
	t.Helper()
	why := ""
	for {
		m, err := a.next(time.Until(since.Add(d + 2*time.Second)))
		if err != nil {
			if took := time.Since(since); took > d || why == "" {
				t.Errorf("CI agent %s: closed after %s saying %q (%v); want a refusal within %s", a.id, took.Round(time.Millisecond), why, err, d)
			}
			return why
		}
		if m.Type == protocol.MsgError && m.ErrorCode == "unauthorized" {
			why = m.Error
		}
	}
}

// stillConnected fails unless the agent's connection is still open.
func (a *ciAgent) stillConnected(t *testing.T, h *harness) {
	t.Helper()
	if !h.dispatch.Status(a.id).Connected {
		t.Errorf("CI agent %s was disconnected", a.id)
	}
}

func ciAgentRows(t *testing.T, h *harness) int {
	t.Helper()
	var n int
	if err := h.store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM agents WHERE ephemeral`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A revoked token's CI agent is told why and disconnected within a second,
// its run ends as an error, and neither its agent token nor the API token
// get it back in; another token's CI agent stays. An expired token's CI
// agent ends the same way.
func TestCIAgentEndsWithItsToken(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev := o.members[access.TestDeveloper]
	tokID, token := dev.newToken(t, map[string]any{"name": "pipeline"})
	_, other := dev.newToken(t, map[string]any{"name": "other pipeline"})
	a := h.joinCI(t, token, "")
	b := h.joinCI(t, other, "")
	if a.refusal != nil || b.refusal != nil {
		t.Fatalf("refused: %+v %+v", a.refusal, b.refusal)
	}
	test := dev.createTest(t, o.project, signInDoc("http://site.test", "Welcome"))
	runID := h.bearer(token).do("POST", "/api/runs", map[string]any{"testId": test, "agentId": a.id}, ProjectHeader, o.project).want(t, 201).str("runId")
	if m, err := a.next(10 * time.Second); err != nil || m.Type != protocol.MsgAssign {
		t.Fatalf("the CI agent was not given its run: %+v %v", m, err)
	}

	dev.do("DELETE", "/api/tokens/"+tokID, nil).want(t, 204)
	why := a.endedWithin(t, time.Now(), time.Second)
	if !strings.Contains(why, "API token") || !strings.Contains(why, "revoked") {
		t.Errorf("reason %q", why)
	}
	run := dev.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
	if run["status"] != "error" || !strings.Contains(run["error"].(string), "revoked") {
		t.Errorf("the revoked CI agent's run: %v %v", run["status"], run["error"])
	}
	if again := h.joinCI(t, "", a.token); again.refusal == nil || again.refusal.ErrorCode != "unauthorized" {
		t.Errorf("reconnecting with its agent token: %+v", again.refusal)
	}
	if again := h.joinCI(t, token, ""); again.refusal == nil || !strings.Contains(again.refusal.Error, "this API token was revoked") {
		t.Errorf("joining again with the revoked token: %+v", again.refusal)
	}
	b.stillConnected(t, h)
	if n := ciAgentRows(t, h); n != 1 {
		t.Errorf("%d CI agents kept, want only the other token's", n)
	}

	// A token that expires: its CI agent ends when it does.
	_, brief := dev.newToken(t, map[string]any{"name": "brief", "expiresAt": "2026-11-02T09:00:00Z"})
	c := h.joinCI(t, brief, "")
	if c.refusal != nil {
		t.Fatalf("refused: %+v", c.refusal)
	}
	h.advance(25 * time.Hour)
	if why := c.endedWithin(t, time.Now(), time.Second); !strings.Contains(why, "expired") {
		t.Errorf("reason %q", why)
	}
}

// One token has at most 20 CI agents; the 21st is refused with
// too_many_ci_agents (and the CI command's agent stops trying, saying
// so), another token of the user is not affected, and once one goes
// there is room again.
func TestCIAgentsPerTokenCapped(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev := o.members[access.TestDeveloper]
	_, token := dev.newToken(t, map[string]any{"name": "pipeline"})
	var joined []*ciAgent
	for range 20 {
		a := h.joinCI(t, token, "")
		if a.refusal != nil {
			t.Fatalf("CI agent %d refused: %+v", len(joined)+1, a.refusal)
		}
		joined = append(joined, a)
	}
	extra := h.joinCI(t, token, "")
	if extra.refusal == nil || extra.refusal.ErrorCode != "too_many_ci_agents" || !strings.Contains(extra.refusal.Error, "20") {
		t.Fatalf("the 21st CI agent: %+v", extra.refusal)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	err := agentclient.New(agentclient.Config{HubURL: h.srv.URL, ConfigDir: t.TempDir(), Hostname: "ci-box", OS: "linux", APIToken: token}).Run(ctx)
	cancel()
	var refused *agentclient.RefusedError
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "the most CI agents one token may have") {
		t.Errorf("the agent client: %v, want it to stop with the refusal", err)
	}
	_, other := dev.newToken(t, map[string]any{"name": "other pipeline"})
	if a := h.joinCI(t, other, ""); a.refusal != nil {
		t.Errorf("another token's CI agent: %+v", a.refusal)
	}
	if n := ciAgentRows(t, h); n != 21 {
		t.Errorf("%d CI agents, want 21", n)
	}
	dev.do("DELETE", "/api/agent/"+joined[0].id, nil).want(t, 204)
	last := h.joinCI(t, token, "")
	if last.refusal != nil {
		t.Errorf("after one went: %+v", last.refusal)
	}
	// Killed commands (a cancelled pipeline) never delete their agents:
	// those stop taking a place a few minutes after they left.
	killed := append(joined[1:], last)
	for _, a := range killed {
		a.ws.CloseNow()
	}
	for _, a := range killed {
		for deadline := time.Now().Add(10 * time.Second); h.dispatch.Status(a.id).Connected && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if a := h.joinCI(t, token, ""); a.refusal == nil || a.refusal.ErrorCode != "too_many_ci_agents" {
		t.Errorf("a moment after 20 commands were killed: %+v", a.refusal)
	}
	h.advance(6 * time.Minute)
	if a := h.joinCI(t, token, ""); a.refusal != nil {
		t.Errorf("minutes after 20 commands were killed: %+v", a.refusal)
	}
}

// A connected CI agent that holds no run for ten minutes is removed by the
// sweep; one with a run waiting stays; one that left without saying so is
// removed after an hour.
func TestIdleCIAgentsRemoved(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev := o.members[access.TestDeveloper]
	_, token := dev.newToken(t, map[string]any{"name": "pipeline"})
	idle := h.joinCI(t, token, "")
	busy := h.joinCI(t, token, "")
	left := h.joinCI(t, token, "")
	left.ws.Close(websocket.StatusNormalClosure, "") //nolint:errcheck
	waitFor(t, func() bool { return !h.dispatch.Status(left.id).Connected })
	// busy's run is given to it and stays with it.
	test := dev.createTest(t, o.project, signInDoc("http://site.test", "Welcome"))
	h.bearer(token).do("POST", "/api/runs", map[string]any{"testId": test, "agentId": busy.id}, ProjectHeader, o.project).want(t, 201)

	h.dispatch.Sweep(t.Context())
	h.advance(5 * time.Minute)
	h.dispatch.Sweep(t.Context())
	idle.stillConnected(t, h)
	h.advance(6 * time.Minute)
	h.dispatch.Sweep(t.Context())
	if why := idle.endedWithin(t, time.Now(), time.Second); !strings.Contains(why, "ran nothing") {
		t.Errorf("reason %q", why)
	}
	busy.stillConnected(t, h)
	h.advance(50 * time.Minute)
	h.dispatch.Sweep(t.Context())
	var ids []string
	rows, _ := h.store.Pool().Query(t.Context(), `SELECT id FROM agents WHERE ephemeral`)
	for rows.Next() {
		var id string
		_ = rows.Scan(&id)
		ids = append(ids, id)
	}
	if len(ids) != 1 || ids[0] != busy.id {
		t.Errorf("CI agents left %v, want only the busy one %s", ids, busy.id)
	}
}

// The CI command whose token is revoked while its test runs: its agent is
// disconnected within a second, the run ends as an error, and the command
// exits 2 at once saying the token was revoked (it used to run on to the
// end and report the test's result).
func TestCICommandEndsWhenTokenRevoked(t *testing.T) {
	h := newHarness(t)
	w := newCIWorld(t, h)
	tokID, token := w.dev.newToken(t, map[string]any{"name": "pipeline"})
	slow := w.neverTest(t, "Slow", 20000)
	var code int
	var out string
	done := make(chan struct{})
	go func() {
		defer close(done)
		code, out = runCI(t, t.Context(), h, "--token", token, "--suite", "Slow", "--environment", "Local")
	}()
	waitRunning(t, h, slow)
	waitFor(t, func() bool { return h.api.sseSubscribers.Load() == 1 }) // the command follows the run
	var agentID string
	if err := h.store.Pool().QueryRow(t.Context(), `SELECT id FROM agents WHERE ephemeral`).Scan(&agentID); err != nil {
		t.Fatal(err)
	}

	w.dev.do("DELETE", "/api/tokens/"+tokID, nil).want(t, 204)
	start := time.Now()
	for h.dispatch.Status(agentID).Connected && time.Since(start) < 3*time.Second {
		time.Sleep(10 * time.Millisecond)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("the CI agent was disconnected %s after its token was revoked, want within a second", took.Round(time.Millisecond))
	}
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("the command did not end after its token was revoked")
	}
	if code != 2 || !strings.Contains(out, "this API token was revoked") {
		t.Errorf("exit %d after %s, want 2 saying the token was revoked:\n%s", code, time.Since(start).Round(time.Millisecond), out)
	}
	var status string
	_ = h.store.Pool().QueryRow(t.Context(), `SELECT status FROM runs WHERE test_id = $1`, slow).Scan(&status)
	if status != "error" {
		t.Errorf("the run is %s, want error", status)
	}
	if n := ciAgentRows(t, h); n != 0 {
		t.Errorf("%d CI agents left", n)
	}
}
