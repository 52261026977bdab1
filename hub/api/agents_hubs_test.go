package api

// Issue 32, agents follow hubs (docs/several-hubs-agent.md): two real hubs
// over one database, and a real agent given both, or one load-balanced
// URL in front of them.

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	agentclient "github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/dbtest"
	"github.com/testautomation/ta/hub/store"
)

// conns is a listener that keeps what it accepted, so a test can end a
// hub as a killed process does: every connection drops at once.
type conns struct {
	net.Listener
	mu  sync.Mutex
	all []net.Conn
}

func (l *conns) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.mu.Lock()
		l.all = append(l.all, c)
		l.mu.Unlock()
	}
	return c, err
}

func (l *conns) kill() {
	_ = l.Listener.Close()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.all {
		_ = c.Close()
	}
}

// hubBeside starts another hub on the database and data folder of h (its
// secrets key too), at addr ("" for any port), and returns it with its
// listener. h nil starts the first hub on a fresh database.
func hubBeside(t *testing.T, h *harness, addr string) (*harness, *conns) {
	t.Helper()
	n := &harness{t: t, logs: &syncBuffer{}}
	if h == nil {
		n.dataDir, n.store = t.TempDir(), store.New(dbtest.Pool(t))
	} else {
		n.dataDir, n.store = h.dataDir, h.store
	}
	n.clock.Store(time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC).UnixNano())
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	n.listen(t, addr)
	t.Cleanup(n.close)
	return n, n.ln
}

// freeAddr is an address nothing listens on (yet).
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}

// on is the client's browser session on another hub: the session lives in
// the shared database, and cookies do not tell ports apart.
func (c *client) on(h *harness) *client { return &client{h: h, http: c.http} }

// startAgentOn starts a real agent given several hubs; its log is shown
// when the test fails.
func startAgentOn(t *testing.T, dir string, runner agentclient.Runner, backoff, returnEvery time.Duration, hubs ...string) *agentProc {
	t.Helper()
	a := &agentProc{dir: dir, done: make(chan struct{})}
	logs := &syncBuffer{}
	a.cl = agentclient.New(agentclient.Config{Hubs: hubs, ConfigDir: a.dir, Hostname: "build-box", OS: "linux", Version: "test",
		Runner: runner, Logger: slog.New(slog.NewTextHandler(logs, nil)), MinBackoff: backoff, MaxBackoff: backoff, ReturnEvery: returnEvery,
		OnState: func(s agentclient.State) { a.mu.Lock(); a.states = append(a.states, s); a.mu.Unlock() }})
	ctx, cancel := context.WithCancel(context.Background())
	a.cancel = cancel
	go func() { defer close(a.done); _ = a.cl.Run(ctx) }()
	t.Cleanup(func() {
		a.stop()
		if t.Failed() {
			t.Logf("agent log:\n%s", logs.String())
		}
	})
	return a
}

// pairOn approves the agent's pairing code as c (on whichever hub c uses).
func pairOn(t *testing.T, a *agentProc, c *client) {
	t.Helper()
	st := a.waitFor(t, "a pairing code", func(s agentclient.State) bool { return s.Phase == "pairing" && s.Code != "" })
	c.do("POST", "/api/agent/pair/"+st.Code, nil).want(t, 201)
}

// connectedTo waits until the agent is connected to the hub at base.
func (a *agentProc) connectedTo(t *testing.T, base string) {
	t.Helper()
	a.waitFor(t, "a connection to "+base, func(s agentclient.State) bool { return s.Phase == "connected" && s.Hub == base })
}

// stateCount is how many states the agent has gone through.
func (a *agentProc) stateCount() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.states)
}

// waitReconnect waits until the agent, since its state number from, lost
// its connection and is connected again.
func (a *agentProc) waitReconnect(t testing.TB, from int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		a.mu.Lock()
		dropped := slices.ContainsFunc(a.states[from:], func(s agentclient.State) bool { return s.Phase != "connected" })
		a.mu.Unlock()
		if dropped && a.cl.State().Phase == "connected" {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the agent did not reconnect; state %+v", a.cl.State())
}

// pauseDoc opens the fixture site, waits, and checks the page: a run long
// enough to lose its hub in the middle of.
func pauseDoc(base string, ms int) map[string]any {
	return map[string]any{"dsl": 2, "name": "Pause", "steps": []map[string]any{
		{"id": "open", "type": "navigate", "url": base + "/login.html"},
		{"id": "pause", "type": "wait", "ms": ms},
		{"id": "check", "type": "assertTitle", "expected": "Shop sign-in"},
	}}
}

// passedWhole waits for the run to pass on c's hub and checks it kept
// every event once: seq 1, 2, 3 ... with no gap or repeat.
func passedWhole(t *testing.T, c *client, runID string) {
	t.Helper()
	r := c.waitStatus(t, runID, "passed")
	if num(r["passed"]) != 3 || num(r["attempts"]) != 1 {
		t.Errorf("run: %v", r)
	}
	events := c.sse(t, runID)
	for i, e := range events {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d: events lost or repeated across hubs (%s)", i, e.Seq, kinds(events))
		}
	}
	if n := strings.Count(kinds(events), "run.finished"); n != 1 || events[len(events)-1].Kind != "run.finished" {
		t.Errorf("events: %s", kinds(events))
	}
}

// The first hub of the list is down when the agent starts: it pairs
// through the second at once, not after a backoff, and its token then
// works from the list.
func TestAgentSkipsADeadHub(t *testing.T) {
	h2, _ := hubBeside(t, nil, "")
	mgr := h2.org(t).members[access.TestManager]
	dead := "http://" + freeAddr(t)
	dir := t.TempDir()
	start := time.Now()
	a := startAgentOn(t, dir, nil, 3*time.Second, time.Hour, dead, h2.srv.URL)
	pairOn(t, a, mgr)
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Errorf("pairing through the second hub took %v: the dead first one cost a backoff", d)
	}
	a.connectedTo(t, h2.srv.URL)
	a.stop()
	// Started again, with the list the other way round: the token it
	// got through the second hub is good for the list.
	start = time.Now()
	a = startAgentOn(t, dir, nil, 3*time.Second, time.Hour, h2.srv.URL, dead)
	a.connectedTo(t, h2.srv.URL)
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Errorf("reconnecting with the stored token took %v", d)
	}
}

// The hub holding the agent dies mid-run: the agent moves to the other
// hub within a second or two, and the run finishes there with every event
// once.
func TestAgentMovesWhenItsHubDies(t *testing.T) {
	h1, l1 := hubBeside(t, nil, "")
	h2, _ := hubBeside(t, h1, "")
	o := h1.org(t)
	mgr := o.members[access.TestManager]
	a := startAgentOn(t, t.TempDir(), browserRunner{sharedBrowser(t)}, time.Second, time.Hour, h1.srv.URL, h2.srv.URL)
	pairOn(t, a, mgr)
	a.connectedTo(t, h1.srv.URL)

	id := mgr.createTest(t, o.project, pauseDoc(site(t), 2500))
	runID := mgr.do("POST", "/api/runs", map[string]any{"testId": id}, ProjectHeader, o.project).want(t, 201).str("runId")
	mgr.waitStatus(t, runID, "running")
	time.Sleep(300 * time.Millisecond) // into the pause: events on both sides of the move
	l1.kill()
	killed := time.Now()
	a.connectedTo(t, h2.srv.URL)
	if d := time.Since(killed); d > 2*time.Second {
		t.Errorf("the agent took %v to reach the other hub", d)
	}
	passedWhole(t, mgr.on(h2), runID)
}

// balancer is a load balancer in front of hubs: one URL, each connection
// to the hub it points at now. restart closes the agents' WebSockets with
// 1012 (Service Restart), as a hub that stops does, after pointing at the
// next hub.
type balancer struct {
	srv  *httptest.Server
	mu   sync.Mutex
	to   string            // guarded by mu: the hub's base URL
	open []*websocket.Conn // guarded by mu: the agents' side
	back []*websocket.Conn // guarded by mu: the hubs' side
	wg   sync.WaitGroup    // the relays
	rp   *httputil.ReverseProxy
}

func newBalancer(t *testing.T, to string) *balancer {
	b := &balancer{to: to}
	b.rp = &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		u, _ := url.Parse(b.target())
		r.SetURL(u)
	}}
	b.srv = httptest.NewServer(http.HandlerFunc(b.serve))
	t.Cleanup(func() { b.srv.Close(); b.restart(""); b.wg.Wait() })
	return b
}

func (b *balancer) target() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.to
}

func (b *balancer) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/api/agent/connect" {
		b.rp.ServeHTTP(w, r)
		return
	}
	hub, _, err := websocket.Dial(r.Context(), "ws"+strings.TrimPrefix(b.target(), "http")+r.URL.Path, nil)
	if err != nil {
		http.Error(w, "no hub", http.StatusBadGateway)
		return
	}
	agent, err := websocket.Accept(w, r, nil)
	if err != nil {
		hub.CloseNow()
		return
	}
	agent.SetReadLimit(-1)
	hub.SetReadLimit(-1)
	b.mu.Lock()
	b.open, b.back = append(b.open, agent), append(b.back, hub)
	b.mu.Unlock()
	b.wg.Add(2)
	ctx := context.WithoutCancel(r.Context())
	go b.relay(ctx, agent, hub)
	b.relay(ctx, hub, agent)
}

// relay copies messages from one side to the other until either ends.
func (b *balancer) relay(ctx context.Context, from, to *websocket.Conn) {
	defer b.wg.Done()
	defer to.CloseNow()
	for {
		typ, data, err := from.Read(ctx)
		if err != nil {
			return
		}
		if to.Write(ctx, typ, data) != nil {
			return
		}
	}
}

func (b *balancer) restart(next string) {
	b.mu.Lock()
	if next != "" {
		b.to = next
	}
	open, back := b.open, b.back
	b.open, b.back = nil, nil
	b.mu.Unlock()
	for i := range open {
		// The agent's side first: closing the hub's side ends the relays,
		// which would drop the agent's without a word.
		_ = open[i].Close(websocket.StatusServiceRestart, "the hub is restarting")
		_ = back[i].CloseNow()
	}
}

// Behind a load balancer the agent has one URL: when its hub stops (a
// 1012 close) it dials the same URL at once, not after its backoff, lands
// on the other hub, and the run in progress finishes there whole.
func TestAgentBehindABalancer(t *testing.T) {
	h1, _ := hubBeside(t, nil, "")
	h2, _ := hubBeside(t, h1, "")
	lb := newBalancer(t, h1.srv.URL)
	o := h1.org(t)
	mgr := o.members[access.TestManager]
	a := startAgentOn(t, t.TempDir(), browserRunner{sharedBrowser(t)}, 3*time.Second, time.Hour, lb.srv.URL)
	pairOn(t, a, mgr)
	a.connectedTo(t, lb.srv.URL)

	id := mgr.createTest(t, o.project, pauseDoc(site(t), 2500))
	runID := mgr.do("POST", "/api/runs", map[string]any{"testId": id}, ProjectHeader, o.project).want(t, 201).str("runId")
	mgr.waitStatus(t, runID, "running")
	time.Sleep(300 * time.Millisecond)
	lb.restart(h2.srv.URL)
	moved := time.Now()
	a.waitFor(t, "the 1012 close", func(s agentclient.State) bool { return s.Phase != "connected" })
	a.connectedTo(t, lb.srv.URL)
	if d := time.Since(moved); d > time.Second {
		t.Errorf("the agent took %v to come back after a 1012 close: it waited its backoff", d)
	}
	passedWhole(t, mgr.on(h2), runID)
	if !h2.dispatch.Connected(a.cl.State().AgentID) {
		t.Error("the agent is not on the second hub")
	}
}

// The preferred hub comes back: the agent stays on the second while its
// run goes on, then, idle, returns to the first.
func TestAgentReturnsToItsFirstHub(t *testing.T) {
	h2, _ := hubBeside(t, nil, "")
	o := h2.org(t)
	mgr := o.members[access.TestManager]
	first := freeAddr(t)
	a := startAgentOn(t, t.TempDir(), browserRunner{sharedBrowser(t)}, 50*time.Millisecond, 100*time.Millisecond, "http://"+first, h2.srv.URL)
	pairOn(t, a, mgr)
	a.connectedTo(t, h2.srv.URL)

	id := mgr.createTest(t, o.project, pauseDoc(site(t), 2000))
	runID := mgr.do("POST", "/api/runs", map[string]any{"testId": id}, ProjectHeader, o.project).want(t, 201).str("runId")
	mgr.waitStatus(t, runID, "running")
	a.mu.Lock()
	from := len(a.states)
	a.mu.Unlock()
	h1, _ := hubBeside(t, h2, first)
	passedWhole(t, mgr, runID)
	a.connectedTo(t, h1.srv.URL)
	// Not one reconnect while the run went on: the first state after it
	// that is not connected to the second hub comes after its finish.
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, s := range a.states[from:] {
		if s.Phase != "connected" || s.Hub != h2.srv.URL {
			if len(s.Current) > 0 {
				t.Fatalf("the agent left the second hub mid-run: %+v", s)
			}
			break
		}
	}
}
