package api

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	agentclient "github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/protocol"
)

// agentProc is a real agent client connected to the harness hub.
type agentProc struct {
	cl     *agentclient.Client
	dir    string
	cancel context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	states []agentclient.State
}

func (h *harness) startAgent(t testing.TB, dir string, runner agentclient.Runner) *agentProc {
	t.Helper()
	a := &agentProc{dir: dir, done: make(chan struct{})}
	a.cl = agentclient.New(agentclient.Config{HubURL: h.srv.URL, ConfigDir: dir, Hostname: "build-box", OS: "linux", Version: "test",
		Runner: runner, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), MinBackoff: 50 * time.Millisecond, MaxBackoff: 200 * time.Millisecond,
		OnState: func(s agentclient.State) { a.mu.Lock(); a.states = append(a.states, s); a.mu.Unlock() }})
	ctx, cancel := context.WithCancel(context.Background())
	a.cancel = cancel
	go func() { defer close(a.done); _ = a.cl.Run(ctx) }()
	t.Cleanup(a.stop)
	return a
}

func (a *agentProc) stop() {
	a.cancel()
	<-a.done
}

// waitFor polls the agent's state until cond holds.
func (a *agentProc) waitFor(t testing.TB, what string, cond func(agentclient.State) bool) agentclient.State {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if st := a.cl.State(); cond(st) {
			return st
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("agent never got %s; state %+v", what, a.cl.State())
	return agentclient.State{}
}

// pairAgent starts an agent and approves it as the client c.
func (h *harness) pairAgent(t testing.TB, c *client, runner agentclient.Runner) *agentProc {
	t.Helper()
	a := h.startAgent(t, t.TempDir(), runner)
	st := a.waitFor(t, "a pairing code", func(s agentclient.State) bool { return s.Phase == "pairing" && s.Code != "" })
	c.do("POST", "/api/agent/pair/"+st.Code, nil).want(t, 201)
	a.waitFor(t, "a connection", func(s agentclient.State) bool { return s.Phase == "connected" })
	return a
}

func TestAgentPairing(t *testing.T) {
	h := newHarness(t)
	ann, _ := h.register("Ann")
	bob, _ := h.register("Bob")
	if r := ann.do("GET", "/api/agent", nil).want(t, 200).json(); r["needed"] != true || len(r["agents"].([]any)) != 0 {
		t.Fatalf("before pairing: %v", r)
	}
	a := h.startAgent(t, t.TempDir(), nil)
	st := a.waitFor(t, "a pairing code", func(s agentclient.State) bool { return s.Phase == "pairing" && s.Code != "" })
	if len(st.Code) != 7 || st.Code[3] != '-' || st.PairURL != "http://hub.test/pair/"+st.Code {
		t.Fatalf("pairing code %q url %q", st.Code, st.PairURL)
	}
	p := ann.do("GET", "/api/agent/pair/"+strings.ToLower(st.Code), nil).want(t, 200).json()
	if p["hostname"] != "build-box" || p["os"] != "linux" || p["requestedAt"] == "" {
		t.Errorf("pairing shows %v", p)
	}
	h.client().do("POST", "/api/agent/pair/"+st.Code, nil).want(t, 401)
	ann.do("POST", "/api/agent/pair/"+st.Code, nil).want(t, 201)
	st = a.waitFor(t, "a connection", func(s agentclient.State) bool { return s.Phase == "connected" })
	ann.do("POST", "/api/agent/pair/"+st.Code, nil).want(t, 404) // single use
	bob.do("GET", "/api/agent/pair/"+st.Code, nil).want(t, 404)

	// The token is kept 0600 in the config folder; the hub has only its digest.
	info, err := os.Stat(filepath.Join(a.dir, "agent.json"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v %v", info, err)
	}
	token := a.cl.Token()
	var n int
	_ = h.store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM agents WHERE token_hash = convert_to($1, 'UTF8')`, token).Scan(&n)
	if token == "" || n != 0 {
		t.Errorf("token %q stored in the clear (%d)", token, n)
	}
	list := ann.do("GET", "/api/agent", nil).want(t, 200).json()
	agents := list["agents"].([]any)
	if list["needed"] != false || len(agents) != 1 {
		t.Fatalf("after pairing: %v", list)
	}
	ag := agents[0].(map[string]any)
	if ag["connected"] != true || ag["name"] != "build-box" || !strings.HasPrefix(ag["id"].(string), "agt_") || num(ag["busy"]) != 0 {
		t.Errorf("agent: %v", ag)
	}
	if r := bob.do("GET", "/api/agent", nil).want(t, 200).json(); r["needed"] != true || len(r["agents"].([]any)) != 0 {
		t.Errorf("Bob sees Ann's agent: %v", r)
	}
	bob.do("DELETE", "/api/agent/"+ag["id"].(string), nil).want(t, 404)

	// The agent reconnects with its token after losing the connection.
	a.stop()
	a = h.startAgent(t, a.dir, nil)
	a.waitFor(t, "a connection with its token", func(s agentclient.State) bool { return s.Phase == "connected" })

	// Revoking closes the connection at once; the agent asks to pair again.
	ann.do("DELETE", "/api/agent/"+ag["id"].(string), nil).want(t, 204)
	a.waitFor(t, "a new pairing code", func(s agentclient.State) bool { return s.Phase == "pairing" && s.Code != st.Code })
	if r := ann.do("GET", "/api/agent", nil).want(t, 200).json(); r["needed"] != true {
		t.Errorf("after revoking: %v", r)
	}

	// Guessing codes is limited.
	for i := range 10 {
		bob.do("POST", "/api/agent/pair/ZZZ-ZZ"+string(rune('2'+i%7)), nil).want(t, 404)
	}
	bob.do("GET", "/api/agent/pair/ABC-DEF", nil).want(t, 429)
}

// The hub refuses an agent that speaks another protocol version, or sends
// no credentials, saying why.
func TestAgentHelloRefused(t *testing.T) {
	h := newHarness(t)
	url := "ws" + strings.TrimPrefix(h.srv.URL, "http") + "/api/agent/connect"
	for _, tc := range []struct {
		hello protocol.Message
		want  string
	}{
		{protocol.Message{Type: protocol.MsgHello, Protocol: protocol.Version + 1, Pair: &protocol.PairRequest{Hostname: "x", OS: "linux"}}, "its Agents page, http://hub.test/agents, offers the download"},
		{protocol.Message{Type: protocol.MsgHello, Protocol: protocol.Version}, "needs a token or a pairing request"},
		{protocol.Message{Type: protocol.MsgHello, Protocol: protocol.Version, Token: "made-up"}, "pair it again"},
		{protocol.Message{Type: "event", Protocol: protocol.Version}, "first message must be hello"},
	} {
		ws, _, err := websocket.Dial(t.Context(), url, nil)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := tc.hello.Encode()
		if err := ws.Write(t.Context(), websocket.MessageText, data); err != nil {
			t.Fatal(err)
		}
		_, reply, err := ws.Read(t.Context())
		if err != nil {
			t.Fatalf("no answer to %+v: %v", tc.hello, err)
		}
		var m protocol.Message
		_ = json.Unmarshal(reply, &m)
		if m.Type != protocol.MsgError || !strings.Contains(m.Error, tc.want) {
			t.Errorf("hello %+v answered %s", tc.hello, reply)
		}
		if _, _, err := ws.Read(t.Context()); err == nil {
			t.Errorf("connection stays open after a refused hello")
		}
		ws.CloseNow()
	}
}
