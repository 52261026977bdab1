package api

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	agentclient "github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// pairAgentShown pairs a real agent (real WebSocket, real Chromium) that
// says whether it has a display, as the desktop agent under a desktop
// (headless false) or `ta-agent --headless` does.
func (h *harness) pairAgentShown(t *testing.T, c *client, headless bool, dir string) *agentProc {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	a := &agentProc{dir: dir, done: make(chan struct{})}
	a.cl = agentclient.New(agentclient.Config{HubURL: h.srv.URL, ConfigDir: dir, Hostname: "box", OS: "linux", Version: "test",
		Headless: headless, Browser: "Chrome/131.0.6778.85", Runner: browserRunner{sharedBrowser(t)},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), MinBackoff: 50 * time.Millisecond, MaxBackoff: 200 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	a.cancel = cancel
	go func() { defer close(a.done); _ = a.cl.Run(ctx) }()
	t.Cleanup(a.stop)
	if st := a.waitFor(t, "a pairing code or a connection", func(s agentclient.State) bool {
		return s.Phase == "pairing" && s.Code != "" || s.Phase == "connected"
	}); st.Phase == "pairing" {
		c.do("POST", "/api/agent/pair/"+st.Code, nil).want(t, 201)
	}
	a.waitFor(t, "a connection", func(s agentclient.State) bool { return s.Phase == "connected" })
	return a
}

func (a *agentProc) id() string { return a.cl.State().AgentID }

// agentIDs keeps an agent's id for after its client stopped.
type agentIDs struct{ v string }

func (a agentIDs) id() string { return a.v }

// rawAgentPairing connects an agent by hand that asks to pair, and
// returns its code; the hub's messages after it are left unread.
func (h *harness) rawAgentPairing(t *testing.T) string {
	t.Helper()
	ws, _, err := websocket.Dial(t.Context(), "ws"+strings.TrimPrefix(h.srv.URL, "http")+"/api/agent/connect", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.CloseNow() })
	a := &rawAgent{t: t, ws: ws}
	a.send(protocol.Message{Type: protocol.MsgHello, Protocol: protocol.Version, Parallel: 1, Headless: true,
		Pair: &protocol.PairRequest{Hostname: "raw", OS: "linux"}})
	m := a.read()
	if m.Type != protocol.MsgPairing {
		t.Fatalf("hello answered %+v", m)
	}
	return m.Code
}

// agentOf is the agent a run went to.
func (h *harness) agentOf(t *testing.T, runID string) string {
	t.Helper()
	var id string
	if err := h.store.Pool().QueryRow(t.Context(), `SELECT coalesce(agent_id, '') FROM runs WHERE id = $1`, runID).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// titleDoc is a quick passing test on the fixture site.
func titleDoc(base string) map[string]any {
	return map[string]any{"dsl": 2, "name": "Title", "steps": []map[string]any{
		{"id": "open", "type": "navigate", "url": base + "/login.html"},
		{"id": "check", "type": "assertTitle", "expected": "Shop sign-in"},
	}}
}

// stillQueued checks a run stays queued for a moment, and returns it.
func (c *client) stillQueued(t *testing.T, runID string) map[string]any {
	t.Helper()
	var r map[string]any
	for range 10 {
		r = c.do("GET", "/api/runs/"+runID, nil).want(t, 202).json()
		if r["status"] != "queued" {
			t.Fatalf("run went ahead: %v", r)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return r
}

// Defect 1 of issue 27: with a headless agent and one with a display
// connected and idle, every headed run went to the headless one. A headed
// run goes only to an agent with a display, waiting (and saying so) while
// none is connected; ordinary runs take turns on idle agents.
func TestHeadedRunsGoToAnAgentWithDisplay(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.Tester]
	base := site(t)
	headlessAgent := h.pairAgentShown(t, c, true, "")
	shownAgent := h.pairAgentShown(t, c, false, "")
	headless, shown := agentIDs{headlessAgent.id()}, agentIDs{shownAgent.id()}
	list := c.do("GET", "/api/agent", nil).want(t, 200).json()["agents"].([]any)
	for _, v := range list {
		a := v.(map[string]any)
		if a["display"] != (a["id"] == shown.id()) || a["state"] != "idle" || a["browserVersion"] != "Chrome/131.0.6778.85" || a["os"] != "linux" {
			t.Errorf("agent listed as %v", a)
		}
	}
	quick := c.createTest(t, o.project, titleDoc(base))
	start := func(body map[string]any) string {
		t.Helper()
		body["testId"] = quick
		return c.do("POST", "/api/runs", body, ProjectHeader, o.project).want(t, 201).str("runId")
	}

	for range 3 {
		id := start(map[string]any{"headed": true})
		c.waitStatus(t, id, "passed")
		if got := h.agentOf(t, id); got != shown.id() {
			t.Fatalf("a headed run went to %s, not to the agent with a display %s", got, shown.id())
		}
	}

	// The agent with a display is busy: a headed run waits for it rather
	// than going to the idle headless one.
	slow := c.createTest(t, o.project, waitDoc(base))
	busy := c.do("POST", "/api/runs", map[string]any{"testId": slow, "agentId": shown.id()}, ProjectHeader, o.project).want(t, 201).str("runId")
	c.waitStatus(t, busy, "running")
	headed := start(map[string]any{"headed": true})
	if r := c.stillQueued(t, headed); r["waiting"] != nil {
		t.Errorf("a run waiting for a busy agent says %v", r["waiting"])
	}
	c.do("POST", "/api/runs/"+busy+"/cancel", nil).want(t, 202)
	c.waitStatus(t, headed, "passed")
	if got := h.agentOf(t, headed); got != shown.id() {
		t.Errorf("the waiting headed run went to %s", got)
	}

	// Ordinary runs, one after another, take turns on the idle agents.
	used := map[string]int{}
	for range 4 {
		id := start(map[string]any{})
		c.waitStatus(t, id, "passed")
		used[h.agentOf(t, id)]++
	}
	if used[shown.id()] != 2 || used[headless.id()] != 2 {
		t.Errorf("four runs in turn went to %v", used)
	}

	// No agent with a display connected: the headed run waits and says why.
	shownAgent.stop()
	waitAgentState(t, c, shown.id(), "offline")
	headed = start(map[string]any{"headed": true})
	r := c.stillQueued(t, headed)
	if r["waiting"] != "waiting for an agent with a display" {
		t.Errorf("waiting: %v", r["waiting"])
	}
	h.pairAgentShown(t, c, false, shownAgent.dir) // it comes back
	c.waitStatus(t, headed, "passed")
	if got := h.agentOf(t, headed); got != shown.id() {
		t.Errorf("the headed run went to %s", got)
	}
}

// waitAgentState waits until GET /api/agent shows the agent in a state.
func waitAgentState(t *testing.T, c *client, id, state string) {
	t.Helper()
	for range 300 {
		for _, v := range c.do("GET", "/api/agent", nil).json()["agents"].([]any) {
			if a := v.(map[string]any); a["id"] == id && a["state"] == state {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("agent %s never became %s", id, state)
}

// A run chosen for one agent, or for agents with labels, goes only there;
// one that no connected agent serves waits, saying what it waits for, and
// goes as soon as an agent gets the labels.
func TestRunsChooseTheirAgent(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.Tester]
	other := o.members[access.TestDeveloper]
	base := site(t)
	vpn := h.pairAgentShown(t, c, true, "")
	plain := h.pairAgentShown(t, c, true, "")
	theirs := h.pairAgentShown(t, other, false, "")
	c.do("PUT", "/api/agent/"+vpn.id(), map[string]any{"name": "Office box", "labels": []string{"vpn", "linux"}}).want(t, 200)
	c.do("PUT", "/api/agent/"+plain.id(), map[string]any{"name": "Laptop", "labels": []string{"linux"}}).want(t, 200)
	quick := c.createTest(t, o.project, titleDoc(base))
	run := func(body map[string]any) response {
		t.Helper()
		body["testId"] = quick
		return c.do("POST", "/api/runs", body, ProjectHeader, o.project)
	}

	for range 2 {
		id := run(map[string]any{"labels": []string{"vpn"}}).want(t, 201).str("runId")
		c.waitStatus(t, id, "passed")
		if got := h.agentOf(t, id); got != vpn.id() {
			t.Fatalf("a run asking for vpn went to %s", got)
		}
	}
	for range 2 {
		id := run(map[string]any{"agentId": plain.id()}).want(t, 201).str("runId")
		c.waitStatus(t, id, "passed")
		if got := h.agentOf(t, id); got != plain.id() {
			t.Fatalf("a run for %s went to %s", plain.id(), got)
		}
	}
	// A batch takes the choice too.
	b := c.do("POST", "/api/runs", map[string]any{"testIds": []string{quick}, "labels": []string{"vpn", "linux"}}, ProjectHeader, o.project).want(t, 201)
	bid := b.json()["runIds"].([]any)[0].(string)
	c.waitStatus(t, bid, "passed")
	if got := h.agentOf(t, bid); got != vpn.id() {
		t.Errorf("a batch run asking for vpn went to %s", got)
	}

	// Refused, with what to fix: both choices, someone else's agent, a
	// headed run on an agent without a display, bad labels.
	for _, tc := range []struct {
		body       map[string]any
		path, code string
	}{
		{map[string]any{"agentId": vpn.id(), "labels": []string{"vpn"}}, "labels", "exclusive"},
		{map[string]any{"agentId": theirs.id()}, "agentId", "unknown"},
		{map[string]any{"agentId": "agt_nope"}, "agentId", "unknown"},
		{map[string]any{"agentId": vpn.id(), "headed": true}, "agentId", "no_display"},
		{map[string]any{"labels": []string{"VPN"}}, "labels[0]", "format"},
		{map[string]any{"labels": []string{"a", "a"}}, "labels[1]", "duplicate"},
	} {
		r := run(tc.body).want(t, 422).json()
		is, _ := r["issues"].([]any)
		if len(is) == 0 || is[0].(map[string]any)["path"] != tc.path || is[0].(map[string]any)["code"] != tc.code {
			t.Errorf("%v: %v", tc.body, r)
		}
	}

	// Nobody has the label yet: the run waits and says so, then goes to
	// the agent that is given it.
	id := run(map[string]any{"labels": []string{"gpu", "linux"}}).want(t, 201).str("runId")
	r := c.stillQueued(t, id)
	if r["waiting"] != "waiting for an agent with labels gpu, linux" || !slices.Equal(strs(r["labels"]), []string{"gpu", "linux"}) {
		t.Errorf("waiting run: %v %v", r["waiting"], r["labels"])
	}
	c.do("PUT", "/api/agent/"+plain.id(), map[string]any{"name": "Laptop", "labels": []string{"linux", "gpu"}}).want(t, 200)
	c.waitStatus(t, id, "passed")
	if got := h.agentOf(t, id); got != plain.id() {
		t.Errorf("the gpu run went to %s", got)
	}

	// The choice is kept on the run: queued again when its agent goes, a
	// run asking for vpn waits for it rather than going to the idle
	// laptop; a run for one agent waits while that agent is offline
	// (not ended as a CI command's orphan).
	vpnID := vpn.id()
	slow := c.createTest(t, o.project, waitDoc(base))
	long := c.do("POST", "/api/runs", map[string]any{"testId": slow, "labels": []string{"vpn"}}, ProjectHeader, o.project).want(t, 201).str("runId")
	c.waitStatus(t, long, "running")
	pinned := run(map[string]any{"agentId": vpnID}).want(t, 201).str("runId")
	vpn.stop()
	waitAgentState(t, c, vpnID, "offline")
	h.advance(10 * time.Second) // past the 3 s lease
	h.dispatch.Sweep(t.Context())
	if r := c.stillQueued(t, long); r["waiting"] != "waiting for an agent with labels vpn" || num(r["attempts"]) != 1 {
		t.Errorf("the requeued run: %v %v", r["waiting"], r["attempts"])
	}
	if r := c.stillQueued(t, pinned); r["waiting"] != "waiting for Office box to connect" || r["agentId"] != vpnID {
		t.Errorf("the run for the offline agent: %v %v", r["waiting"], r["agentId"])
	}
	h.pairAgentShown(t, c, true, vpn.dir)
	c.waitStatus(t, long, "running")
	if got := h.agentOf(t, long); got != vpnID {
		t.Errorf("the requeued vpn run went to %s", got)
	}
	c.do("POST", "/api/runs/"+long+"/cancel", nil).want(t, 202)
	c.waitStatus(t, pinned, "passed")
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// Defect 16 of issue 27: right after approval the Agents page showed the
// computer Offline for a few seconds. The approval answers once the agent
// is connected, so the list asked for next shows it connected.
func TestAgentConnectedRightAfterApproval(t *testing.T) {
	h := newHarness(t)
	c, _ := h.register("Ann")
	for i := range 5 {
		a := h.rawAgentPairing(t)
		ag := c.do("POST", "/api/agent/pair/"+a, nil).want(t, 201).json()
		if ag["connected"] != true || ag["state"] != "idle" {
			t.Errorf("approval %d answered %v", i, ag)
		}
		found := false
		for _, v := range c.do("GET", "/api/agent", nil).want(t, 200).json()["agents"].([]any) {
			if x := v.(map[string]any); x["id"] == ag["id"] {
				found = true
				if x["connected"] != true || x["state"] != "idle" {
					t.Errorf("approval %d: right after it the agent is listed as %v", i, x)
				}
			}
		}
		if !found {
			t.Errorf("approval %d: the agent is not listed", i)
		}
	}
}

// Defect 15 of issue 27 (hub part): a browser that navigates away while a
// request waits for the database is not a hub error.
func TestClientGoneIsNotLoggedAsError(t *testing.T) {
	h := newHarness(t)
	c, _ := h.register("Ann")
	tx, err := h.store.Pool().Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.Background()) //nolint:errcheck
	if _, err := tx.Exec(t.Context(), `LOCK TABLE agents IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", h.srv.URL+"/api/agent", nil)
	if _, err := c.http.Do(req); err == nil {
		t.Fatal("the request did not wait for the locked table")
	}
	time.Sleep(500 * time.Millisecond) // the handler sees its query cancelled
	_ = tx.Rollback(t.Context())
	c.do("GET", "/api/agent", nil).want(t, 200)
	if logs := h.logs.String(); strings.Contains(logs, "level=ERROR") {
		t.Errorf("a client that went away was logged as an error:\n%s", logs)
	}
}
