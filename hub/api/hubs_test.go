package api

import (
	"context"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	agentclient "github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/dbtest"
	"github.com/testautomation/ta/hub/metrics"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// Several hubs on one database (docs/several-hubs.md), in one process:
// each harness is a hub with its own dispatcher and HTTP server; they
// share the database, the data folder (its secret key and artifacts, as
// hubs share HUB_SECRET_KEY and a bucket) and talk through PostgreSQL.

// slowSweeps is the lease of the hubs in these tests: their sweeps (every
// lease/3) and their agents' renewals come 20 s apart, so what happens
// sooner than that happened through the hubs' notifications.
const slowSweeps = time.Minute

// hubPair starts two hubs on one database.
func hubPair(t testing.TB, setup ...func(first *harness)) (*harness, *harness) {
	t.Helper()
	a := &harness{t: t, dataDir: t.TempDir(), logs: &syncBuffer{}, lease: slowSweeps}
	for _, f := range setup {
		f(a)
	}
	a.clock.Store(time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC).UnixNano())
	a.store = store.New(dbtest.Pool(t))
	a.srv = httptest.NewServer(a.handler(t))
	t.Cleanup(a.close)
	return a, peerHub(t, a)
}

// peerHub starts a second hub beside a.
func peerHub(t testing.TB, a *harness) *harness {
	t.Helper()
	b := &harness{t: t, dataDir: a.dataDir, logs: &syncBuffer{}, lease: a.lease}
	b.clock.Store(a.clock.Load())
	b.store = store.New(a.store.Pool())
	b.srv = httptest.NewServer(b.handler(t))
	t.Cleanup(b.close)
	return b
}

// talk starts the hubs' housekeeping and their conversation, and waits
// until each listens to the others.
func talk(t testing.TB, hubs ...*harness) {
	t.Helper()
	for _, h := range hubs {
		h.dispatch.HubURL = h.srv.URL // where the other hub passes authoring requests
		ctx, cancel := context.WithCancel(context.Background())
		go h.dispatch.Run(ctx)
		t.Cleanup(cancel)
		select {
		case <-h.dispatch.Ready():
		case <-time.After(10 * time.Second):
			t.Fatal("a hub did not start listening to the others")
		}
	}
}

// agentConnected waits until the hub's Agents list shows the agent
// connected (the other hub holds it).
func (c *client) agentConnected(t *testing.T, agentID string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		for _, a := range c.do("GET", "/api/agent", nil).want(t, 200).json()["agents"].([]any) {
			if a := a.(map[string]any); a["id"] == agentID && a["connected"] == true {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("hub %s never showed agent %s connected", c.h.srv.URL, agentID)
}

// A run started on one hub reaches an agent connected to the other; its
// events stream from either, whole and in order; a cancel made on the
// first stops a run on the second's agent; pairing approved on one hub
// reaches the computer waiting on the other.
func TestRunsAcrossHubs(t *testing.T) {
	a, b := hubPair(t, func(a *harness) {
		a.metrics = metrics.New()
		a.allow = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	})
	talk(t, a, b)
	o := a.org(t)
	mgr := o.members[access.TestManager]
	base := site(t)
	env := mgr.do("POST", "/api/environments", map[string]any{"name": "Local", "variables": map[string]string{"baseUrl": base},
		"secrets": map[string]string{"PASSWORD": "hunter2-very-secret"}}, ProjectHeader, o.project).want(t, 201).str("id")

	// The computer waits on hub B; its user approves the code on hub A.
	ag := b.startAgent(t, t.TempDir(), browserRunner{sharedBrowser(t)})
	st := ag.waitFor(t, "a pairing code", func(s agentclient.State) bool { return s.Phase == "pairing" && s.Code != "" })
	mgr.do("GET", "/api/agent/pair/"+st.Code, nil).want(t, 200)
	mgr.do("POST", "/api/agent/pair/"+st.Code, nil).want(t, 201)
	ag.waitFor(t, "a connection", func(s agentclient.State) bool { return s.Phase == "connected" })
	mgr.agentConnected(t, ag.id())

	started := time.Now()
	runID := mgr.do("POST", "/api/runs", map[string]any{"testId": mgr.createTest(t, o.project, signInDoc("", "Welcome, ann@example.com")),
		"environmentId": env}, ProjectHeader, o.project).want(t, 201).str("runId")
	fromA := mgr.sse(t, runID)
	fromB := mgr.on(b).sse(t, runID)
	for name, events := range map[string][]protocol.Event{"hub A": fromA, "hub B": fromB} {
		if len(events) < 5 || events[len(events)-1].Kind != "run.finished" || events[len(events)-1].Status != "passed" {
			t.Fatalf("%s streamed %d events, last %+v", name, len(events), events[len(events)-1])
		}
		for i, e := range events {
			if e.Seq != int64(i+1) {
				t.Fatalf("%s: event %d has seq %d: gaps or duplicates", name, i, e.Seq)
			}
		}
	}
	if d := time.Since(started); d > 10*time.Second {
		t.Errorf("the run took %v from hub A to its end on hub B's agent: the hubs' notifications did not carry it", d)
	}
	if len(fromA) != len(fromB) {
		t.Errorf("hub A streamed %d events, hub B %d", len(fromA), len(fromB))
	}

	// Hub A's metrics count the agent on hub B's line, and the
	// notifications that came from B (the run's events).
	fams := scrape(t, a.client().do("GET", "/metrics", nil))
	if v := sample(t, fams, "ta_hub_agents_connected", map[string]string{"hub": b.dispatch.ID()}).GetGauge().GetValue(); v != 1 {
		t.Errorf("ta_hub_agents_connected of hub B on hub A: %v", v)
	}
	if v := sample(t, fams, "ta_hub_agents_connected", map[string]string{"hub": a.dispatch.ID()}).GetGauge().GetValue(); v != 0 {
		t.Errorf("ta_hub_agents_connected of hub A: %v", v)
	}
	if n := sample(t, fams, "ta_hub_peer_latency_seconds", nil).GetHistogram().GetSampleCount(); n == 0 {
		t.Error("hub A counted no notification from hub B")
	}

	slow := mgr.do("POST", "/api/runs", map[string]any{"testId": mgr.createTest(t, o.project, waitDoc(base))},
		ProjectHeader, o.project).want(t, 201).str("runId")
	mgr.waitStatus(t, slow, "running")
	start := time.Now()
	mgr.do("POST", "/api/runs/"+slow+"/cancel", nil).want(t, 202)
	mgr.waitStatus(t, slow, "cancelled")
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a cancel made on hub A took %v to stop the run on hub B's agent", d)
	}
}

// A recording, a picker and a script try started on one hub go to the
// user's agent on the other, and every later request for the session,
// made on either hub, reaches it there; another member still cannot see
// it, whichever hub they ask.
func TestAuthoringAcrossHubs(t *testing.T) {
	a, b := hubPair(t)
	talk(t, a, b)
	o := a.org(t)
	owner := o.owner
	agent := b.rawAgent(t, owner, "") // approved on hub A, connected to hub B
	owner.agentConnected(t, agent.id)
	p := func(c *client, method, path string, body any) response {
		return c.do(method, path, body, ProjectHeader, o.project)
	}

	id := p(owner, "POST", "/api/record/start", obj{"url": "https://example.com/"}).want(t, 201).str("id")
	if start := agent.expect(protocol.MsgAuthorStart); start.Session != id {
		t.Fatalf("author.start %+v", start)
	}
	agent.status(id, protocol.SessionRecording, "https://example.com/", "")
	agent.captured(id, 1, protocol.Step{ID: "s1", Type: "navigate", URL: "https://example.com/"})
	for _, c := range []*client{owner, owner.on(b)} {
		waitFor(t, func() bool { return len(c.do("GET", "/api/record/"+id, nil).want(t, 200).json()["steps"].([]any)) == 1 })
	}
	other := o.members[access.TestDeveloper]
	other.do("GET", "/api/record/"+id, nil).want(t, 404)
	other.on(b).do("GET", "/api/record/"+id, nil).want(t, 404)

	pick := p(owner, "POST", "/api/pick/start", obj{"recordingId": id}).want(t, 201).str("id")
	if m := agent.expect(protocol.MsgAuthorStart); m.Session != pick {
		t.Fatalf("picker's author.start %+v", m)
	}
	p(owner, "POST", "/api/pick/"+pick+"/close", nil).want(t, 204)
	agent.expect(protocol.MsgAuthorStop)

	done := make(chan response, 1)
	go func() { done <- p(owner, "POST", "/api/scripts/try", obj{"code": "return 1"}) }()
	m := agent.expect(protocol.MsgScriptTry)
	agent.send(protocol.Message{Type: protocol.MsgScriptResult, ReqID: m.ReqID, Tried: &protocol.TryResult{Value: []byte("1")}})
	if v := (<-done).want(t, 200).json()["value"]; v != float64(1) {
		t.Errorf("script try through hub A: value %v", v)
	}
	owner.do("GET", "/api/record/rec_aaaaaaaaaaaaaaaaaaaaaa", nil).want(t, 404)
}
