package api

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	agentclient "github.com/testautomation/ta/agent/client"
)

// clientFrom is a browser whose connections come from another local
// address (127.0.0.2 is loopback too on Linux): another person's computer.
func (h *harness) clientFrom(t *testing.T, ip, name string) *client {
	t.Helper()
	c := h.client()
	c.http.Transport = &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}).DialContext}
	c.do("POST", "/api/auth/register", map[string]string{"name": name, "email": strings.ToLower(name) + "@far.example.com",
		"password": "correct horse battery"}).want(t, 201)
	return c
}

// startHeadlessAgent is startAgent for a computer without a display.
func (h *harness) startHeadlessAgent(t *testing.T) *agentProc {
	t.Helper()
	a := &agentProc{dir: t.TempDir(), done: make(chan struct{})}
	a.cl = agentclient.New(agentclient.Config{HubURL: h.srv.URL, ConfigDir: a.dir, Hostname: "ci-runner", OS: "linux", Version: "test",
		Headless: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), MinBackoff: 50 * time.Millisecond, MaxBackoff: 200 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	a.cancel = cancel
	go func() { defer close(a.done); _ = a.cl.Run(ctx) }()
	t.Cleanup(a.stop)
	return a
}

// agentsByName is GET /api/agent's agents by name.
func agentsByName(t *testing.T, c *client) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, a := range c.do("GET", "/api/agent", nil).want(t, 200).json()["agents"].([]any) {
		m := a.(map[string]any)
		out[m["name"].(string)] = m
	}
	return out
}

// Last seen moves while an agent stays connected (at most once a minute)
// and is set when it goes; hello's headless is stored and listed.
func TestAgentLastSeenAndHeadless(t *testing.T) {
	h := newHarness(t)
	ann, _ := h.register("Ann")
	t0 := time.Unix(0, h.clock.Load()).UTC()
	at := func(d time.Duration) string { return t0.Add(d).Format(timeFormat) }
	a := h.pairAgent(t, ann, nil)
	if got := agentsByName(t, ann)["build-box"]; got["lastSeen"] != at(0) || got["headless"] != false {
		t.Fatalf("after pairing: %v", got)
	}

	h.advance(30 * time.Second)
	h.dispatch.Sweep(t.Context())
	if got := agentsByName(t, ann)["build-box"]["lastSeen"]; got != at(0) {
		t.Errorf("after 30 s: last seen %v, want %v (written at most once a minute)", got, at(0))
	}
	h.advance(45 * time.Second)
	h.dispatch.Sweep(t.Context())
	if got := agentsByName(t, ann)["build-box"]["lastSeen"]; got != at(75*time.Second) {
		t.Errorf("after 75 s connected: last seen %v, want %v", got, at(75*time.Second))
	}

	h.advance(20 * time.Second)
	a.stop()
	// The agent goes offline, then its last seen time is written.
	deadline := time.Now().Add(10 * time.Second)
	got := agentsByName(t, ann)["build-box"]
	for (got["connected"] != false || got["lastSeen"] != at(95*time.Second)) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		got = agentsByName(t, ann)["build-box"]
	}
	if got["connected"] != false || got["lastSeen"] != at(95*time.Second) {
		t.Errorf("after disconnecting: %v, want last seen %v", got, at(95*time.Second))
	}
	h.advance(5 * time.Minute)
	h.dispatch.Sweep(t.Context())
	if got := agentsByName(t, ann)["build-box"]["lastSeen"]; got != at(95*time.Second) {
		t.Errorf("a disconnected agent's last seen moved to %v", got)
	}

	// A computer without a display says so; the hub keeps it on its row.
	b := h.startHeadlessAgent(t)
	st := b.waitFor(t, "a pairing code", func(s agentclient.State) bool { return s.Phase == "pairing" && s.Code != "" })
	ann.do("POST", "/api/agent/pair/"+st.Code, nil).want(t, 201)
	b.waitFor(t, "a connection", func(s agentclient.State) bool { return s.Phase == "connected" })
	if got := agentsByName(t, ann)["ci-runner"]; got["headless"] != true || got["connected"] != true {
		t.Errorf("headless agent listed as %v", got)
	}
	var stored bool
	_ = h.store.Pool().QueryRow(t.Context(), `SELECT headless FROM agents WHERE name = 'ci-runner'`).Scan(&stored)
	if !stored {
		t.Errorf("headless not stored on the agent's row")
	}
}

// Computers waiting for approval are listed only to users whose browser
// comes from the same address, by name and never by code: anyone sharing
// the address (NAT, a proxy) sees the list, so approving still takes the
// code the computer shows, and the list's id does not stand in for it. A
// code whose computer stopped waiting answers 410 pairing_gone.
func TestPendingAgentsAndGoneCodes(t *testing.T) {
	h := newHarness(t)
	ann, _ := h.register("Ann")
	far := h.clientFrom(t, "127.0.0.2", "Farah")
	pending := func(c *client) []any {
		return c.do("GET", "/api/agent/pending", nil).want(t, 200).json()["pending"].([]any)
	}
	if p := pending(ann); len(p) != 0 {
		t.Fatalf("pending before any agent: %v", p)
	}
	h.client().do("GET", "/api/agent/pending", nil).want(t, 401)

	a := h.startAgent(t, t.TempDir(), nil)
	st := a.waitFor(t, "a pairing code", func(s agentclient.State) bool { return s.Phase == "pairing" && s.Code != "" })
	p := pending(ann)
	if len(p) != 1 {
		t.Fatalf("Ann, beside the computer, sees %v", p)
	}
	w := p[0].(map[string]any)
	id, _ := w["id"].(string)
	if !strings.HasPrefix(id, "pnd_") || w["hostname"] != "build-box" || w["os"] != "linux" || w["since"] != time.Unix(0, h.clock.Load()).UTC().Format(timeFormat) {
		t.Errorf("pending computer %v", w)
	}
	compact := strings.ReplaceAll(st.Code, "-", "")
	if body := string(ann.do("GET", "/api/agent/pending", nil).body); strings.Contains(body, st.Code) || strings.Contains(body, compact) ||
		strings.Contains(body, `"code"`) {
		t.Errorf("the pending list gives away the pairing code %s: %s", st.Code, body)
	}
	if again := pending(ann)[0].(map[string]any)["id"]; again != id {
		t.Errorf("the id changed between two reads: %v, %v", id, again)
	}
	if p := pending(far); len(p) != 0 {
		t.Errorf("Farah, at another address, sees Ann's computer: %v", p)
	}
	// Someone else behind the same address sees the computer, but its id
	// is no code: it approves nothing.
	neighbour, _ := h.register("Neighbour")
	if p := pending(neighbour); len(p) != 1 {
		t.Fatalf("a neighbour at the same address sees %v", p)
	}
	neighbour.do("POST", "/api/agent/pair/"+id, nil).wantCode(t, 404, codeNotFound)
	neighbour.do("GET", "/api/agent/pair/"+id, nil).wantCode(t, 404, codeNotFound)
	if len(agentsByName(t, neighbour)) != 0 {
		t.Fatal("the neighbour paired a computer without its code")
	}
	ann.do("POST", "/api/agent/pair/"+st.Code, nil).want(t, 201)
	a.waitFor(t, "a connection", func(s agentclient.State) bool { return s.Phase == "connected" })
	if p := pending(ann); len(p) != 0 {
		t.Errorf("still pending after approval: %v", p)
	}

	// An agent that exits while waiting: its code is gone, not approvable.
	b := h.startAgent(t, t.TempDir(), nil)
	st = b.waitFor(t, "a pairing code", func(s agentclient.State) bool { return s.Phase == "pairing" && s.Code != "" })
	ann.do("GET", "/api/agent/pair/"+st.Code, nil).want(t, 200)
	b.stop()
	deadline := time.Now().Add(10 * time.Second)
	r := ann.do("GET", "/api/agent/pair/"+st.Code, nil)
	for r.status == 200 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		r = ann.do("GET", "/api/agent/pair/"+st.Code, nil)
	}
	if r.status != http.StatusGone || r.str("code") != "pairing_gone" || !strings.Contains(r.str("error"), "start the agent again") {
		t.Fatalf("code of an exited agent: %d %s", r.status, r.body)
	}
	if r := ann.do("POST", "/api/agent/pair/"+st.Code, nil); r.status != http.StatusGone || r.str("code") != "pairing_gone" {
		t.Errorf("approving a gone code: %d %s", r.status, r.body)
	}
	if p := pending(ann); len(p) != 0 {
		t.Errorf("an exited agent is still pending: %v", p)
	}
	// Right but gone codes do not count towards the wrong-code limit.
	for range 12 {
		ann.do("GET", "/api/agent/pair/"+st.Code, nil).want(t, http.StatusGone)
	}
}

// The profile edits the user's name, checked as registration checks it.
func TestProfileName(t *testing.T) {
	h := newHarness(t)
	ann, _ := h.register("Ann")
	r := ann.do("PUT", "/api/profile", map[string]string{"name": "  Ann Smith "}).want(t, 200).json()
	if r["user"].(map[string]any)["name"] != "Ann Smith" {
		t.Errorf("saved profile %v", r)
	}
	if got := ann.do("GET", "/api/auth/session", nil).want(t, 200).str("name"); got != "Ann Smith" {
		t.Errorf("session name %q", got)
	}
	for _, tc := range []struct {
		body any
		code string
	}{
		{map[string]string{"name": "   "}, "required"},
		{map[string]any{}, "required"},
		{map[string]string{"name": strings.Repeat("n", 101)}, "too_long"},
		{map[string]string{"name": "Ann\u202eevil"}, "format"},
	} {
		r := ann.do("PUT", "/api/profile", tc.body).want(t, 422)
		var body struct {
			Issues []Issue `json:"issues"`
		}
		_ = json.Unmarshal(r.body, &body)
		if len(body.Issues) != 1 || body.Issues[0].Path != "name" || body.Issues[0].Code != tc.code {
			t.Errorf("%v: %s", tc.body, r.body)
		}
	}
	ann.do("PUT", "/api/profile", `{"name": 5}`).want(t, 422)
	ann.do("PUT", "/api/profile", `{"name": "x"`).want(t, 400)
	ann.do("PUT", "/api/profile", `{"name":"x"}`, "Content-Type", "text/plain").want(t, 415)
	h.client().do("PUT", "/api/profile", map[string]string{"name": "Nobody"}).want(t, 401)
	if got := ann.do("GET", "/api/auth/session", nil).want(t, 200).str("name"); got != "Ann Smith" {
		t.Errorf("a refused change changed the name to %q", got)
	}
}
