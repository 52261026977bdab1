// Package dispatch coordinates runs and agents: it keeps the connected
// agents, hands queued runs to them (least busy first) with a lease, stores
// what they stream back (events, artifacts, results), wakes live event
// watchers, and ends runs whose agent vanished: queued again once, then
// error. The database is the source of truth for every run; this package
// holds only the live connections, so a restarted hub picks up where it
// was when its agents reconnect.
package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/metrics"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// Config holds the dispatcher's dependencies.
type Config struct {
	Store     *store.Store
	Artifacts artifacts.Store
	Logger    *slog.Logger
	BaseURL   string
	Now       func() time.Time
	// Lease is how long an assigned run survives without a renewal.
	Lease time.Duration
	// QueueTimeout ends runs that no agent picked up in this time.
	QueueTimeout time.Duration
	// PairingTTL is how long a pairing code can be approved.
	PairingTTL time.Duration
	// MaxRunTime ends a run still running after this long (a hung agent).
	MaxRunTime time.Duration
	// Limits bound what one run may store; a run that goes over ends as
	// error. Zero fields take DefaultLimits'.
	Limits store.RunLimits
	// Stall is how long a connection's reader waits for its messages to be
	// taken (while the database is away, say) before it closes the
	// connection: not reading would mean not answering the agent's pings
	// nor noticing it left. The agent sends what was not acknowledged
	// again when it reconnects. Default 15 s, under the agent's ping
	// time-out.
	Stall time.Duration
	// Latest is the newest agent version the hub serves for an OS (linux,
	// windows, macos) and architecture, "" for none: a connecting agent
	// that is older is told (welcome's update). Nil: never.
	Latest func(os, arch string) string
	// Secrets decrypts secret values for the runs that use them (Jobs);
	// they are masked again in everything an agent sends back.
	Secrets Opener
	// APITokens checks the API token a CI command's agent joins with
	// (ci.go) and returns it with its user; a token it refuses gives an error
	// wrapping ErrTokenRefused with the reason. Nil: CI agents are refused.
	// from is the connection's client address (for the bad-token limit).
	APITokens func(ctx context.Context, token, from string) (CIToken, error)
	// Metrics records runs, queue waits and steps; nil records nothing.
	Metrics *metrics.Metrics
	// HubID names this hub among the hubs sharing the database (peers.go);
	// default a new id. HubURL is where the other hubs reach it.
	HubID  string
	HubURL string
}

// Hub is the dispatcher.
type Hub struct {
	Config
	log  *slog.Logger
	jobs Jobs

	mu        sync.Mutex
	agents    map[string]*conn                      // guarded by mu: connected agents by id
	admitting map[string]*conn                      // guarded by mu: the connection being admitted per agent id (guard.go)
	waiting   map[string]*conn                      // guarded by mu: pairing code → waiting connection
	watchers  map[string]map[chan struct{}]struct{} // guarded by mu: run id → wake-up channels
	kicking   map[string]*sync.Mutex                // guarded by mu: one assignment pass per user at a time
	pairings  int                                   // guarded by mu: connections waiting on a pairing code
	picks     uint64                                // guarded by mu: runs handed out, numbering conn.picked
	authoring AuthoringSink                         // guarded by mu: where authoring messages go
	ci        ciState                               // CI agents' token checks and idleness (ci.go)
	// outageAt is when the database last failed the dispatcher (unix
	// nanoseconds by Now): leases are not judged for a while after, since
	// renewals could not be stored and agents are still reconnecting.
	outageAt atomic.Int64
	// peers is the conversation with the other hubs (peers.go).
	peers *peers
	// draining: this hub is stopping; it sends its agents elsewhere
	// (drain.go).
	draining atomic.Bool
}

// outageGrace is how long after a database outage lapsed leases are left
// alone, in leases: room for agents to reconnect (their backoff reaches
// 30 s) and renew.
const outageGrace = 2

// noteOutage records that the database failed just now.
func (h *Hub) noteOutage() { h.outageAt.Store(h.Now().UnixNano()) }

// recovering reports whether the database failed within the grace period.
func (h *Hub) recovering(now time.Time) bool {
	at := h.outageAt.Load()
	return at != 0 && now.Sub(time.Unix(0, at)) < outageGrace*h.Lease
}

// DefaultLimits bound one run: room for a 500-step test with retries and
// logs many times over, and a full-page screenshot of every step; its
// trace has a budget of its own (trace.go).
var DefaultLimits = store.RunLimits{Events: 20000, EventBytes: 32 << 20, ArtifactBytes: 1 << 30, TraceBytes: 512 << 20}

// New returns a dispatcher; call Run to start its housekeeping.
func New(cfg Config) *Hub {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Lease == 0 {
		cfg.Lease = 30 * time.Second
	}
	if cfg.QueueTimeout == 0 {
		cfg.QueueTimeout = time.Hour
	}
	if cfg.PairingTTL == 0 {
		cfg.PairingTTL = 10 * time.Minute
	}
	if cfg.MaxRunTime == 0 {
		cfg.MaxRunTime = 2 * time.Hour
	}
	if cfg.Stall == 0 {
		cfg.Stall = 15 * time.Second
	}
	if cfg.Limits.Events == 0 {
		cfg.Limits.Events = DefaultLimits.Events
	}
	if cfg.Limits.EventBytes == 0 {
		cfg.Limits.EventBytes = DefaultLimits.EventBytes
	}
	if cfg.Limits.ArtifactBytes == 0 {
		cfg.Limits.ArtifactBytes = DefaultLimits.ArtifactBytes
	}
	if cfg.Limits.TraceBytes == 0 {
		cfg.Limits.TraceBytes = DefaultLimits.TraceBytes
	}
	if cfg.HubID == "" {
		cfg.HubID = ids.New("hub")
	}
	h := &Hub{Config: cfg, log: cfg.Logger, jobs: Jobs{Source: cfg.Store, Secrets: cfg.Secrets}, agents: map[string]*conn{}, admitting: map[string]*conn{}, waiting: map[string]*conn{},
		watchers: map[string]map[chan struct{}]struct{}{}, kicking: map[string]*sync.Mutex{}, peers: newPeers()}
	h.gauges()
	return h
}

// gauges registers the dispatcher's state as gauges read at scrape time.
func (h *Hub) gauges() {
	h.Metrics.Gauge("ta_agents_connected", "Agents connected to this hub now.", func() float64 {
		h.mu.Lock()
		defer h.mu.Unlock()
		return float64(len(h.agents))
	})
	h.Metrics.Gauge("ta_runs_queued", "Runs waiting for an agent now.", func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		n, err := h.Store.CountQueuedRuns(ctx)
		if err != nil {
			h.log.Warn("metrics: count queued runs", "err", err)
			return math.NaN()
		}
		return float64(n)
	})
	h.Metrics.HubAgents(func() map[string]int {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		hubs, err := h.Store.LiveHubs(ctx)
		if err != nil {
			h.log.Warn("metrics: live hubs", "err", err)
			return nil
		}
		out := make(map[string]int, len(hubs))
		for _, x := range hubs {
			out[x.ID] = x.Agents
		}
		return out
	})
}

// Run does the housekeeping until ctx ends: lapsed leases, stale queues,
// and assignment of runs queued while no agent was around; and it keeps
// this hub in touch with the others sharing its database (peers.go).
func (h *Hub) Run(ctx context.Context) {
	go h.runPeers(ctx)
	t := time.NewTicker(h.Lease / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		h.Sweep(ctx)
	}
}

// AgentStatus says whether an agent is connected and how many runs it has.
type AgentStatus struct {
	Connected bool
	Busy      int
	// Headless: the connected agent has no display (its hello said so).
	Headless bool
	// Paused: it takes no new runs for now (its tray's Pause).
	Paused bool
	// From is the client address of its connection.
	From string
}

// Status reports an agent's live state.
func (h *Hub) Status(agentID string) AgentStatus {
	h.mu.Lock()
	defer h.mu.Unlock()
	c, ok := h.agents[agentID]
	if !ok {
		p, ok := h.remote(agentID)
		if !ok {
			return AgentStatus{}
		}
		return AgentStatus{Connected: true, Busy: p.Busy, Headless: p.Headless, Paused: p.Paused, From: p.Addr}
	}
	return AgentStatus{Connected: true, Busy: len(c.runs), Headless: c.agent.Headless, Paused: c.paused, From: c.addr}
}

// UserConnected reports whether the user has a connected agent that takes
// any of their runs (a CI command's agent takes only its own).
func (h *Hub) UserConnected(userID string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range h.agents {
		if c.agent.UserID == userID && !c.agent.Ephemeral {
			return true
		}
	}
	return slices.ContainsFunc(h.remoteCandidates(userID), func(c candidate) bool { return !c.ephemeral })
}

// Disconnect closes a revoked agent's connection. It does not wait for the
// agent to answer the close: an agent that never does cannot hold up the
// caller.
func (h *Hub) Disconnect(agentID string) {
	if !h.disconnectLocal(agentID) {
		go h.publish(context.Background(), peerMsg{Kind: peerDrop, Agent: agentID})
	}
}

func (h *Hub) disconnectLocal(agentID string) bool {
	c := h.local(agentID)
	if c != nil {
		go c.close("this computer was disconnected from the hub; pair it again to use it")
	}
	return c != nil
}

// Watch returns a channel that receives a signal whenever the run gets a
// new event; stop releases it.
func (h *Hub) Watch(runID string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	h.mu.Lock()
	if h.watchers[runID] == nil {
		h.watchers[runID] = map[chan struct{}]struct{}{}
	}
	h.watchers[runID][ch] = struct{}{}
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		delete(h.watchers[runID], ch)
		if len(h.watchers[runID]) == 0 {
			delete(h.watchers, runID)
		}
		h.mu.Unlock()
	}
}

// wake wakes the run's watchers, here and on the other hubs.
func (h *Hub) wake(runID string) {
	h.wakeLocal(runID)
	h.wakeElsewhere(runID)
}

func (h *Hub) wakeLocal(runID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.watchers[runID] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// Kick hands the user's queued runs to their connected agents that serve
// them (pickAgent), as long as they have room: the agents here, and
// through the other hubs theirs.
func (h *Hub) Kick(ctx context.Context, userID string) {
	h.publish(ctx, peerMsg{Kind: peerKick, User: userID})
	h.kickLocal(ctx, userID)
}

// kickLocal is Kick for the agents connected to this hub.
func (h *Hub) kickLocal(ctx context.Context, userID string) {
	if h.draining.Load() {
		return // its agents are moving to other hubs
	}
	h.mu.Lock()
	lock := h.kicking[userID]
	if lock == nil {
		lock = &sync.Mutex{}
		h.kicking[userID] = lock
	}
	h.mu.Unlock()
	lock.Lock()
	defer lock.Unlock()
	runs, err := h.Store.QueuedRuns(ctx, userID)
	if err != nil {
		h.log.Error("queued runs", "user", userID, "err", err)
		return
	}
	full := false // no agent of the user has room for a run any of them serves
	for _, r := range runs {
		if !constrained(r) && full {
			continue
		}
		c := h.pickAgent(r)
		if c == nil {
			full = full || !constrained(r)
			continue
		}
		h.assign(ctx, c, r)
	}
}

// pickAgent chooses the agent for a queued run (decideAgent): the one it
// is pinned to, else an agent of its user that serves it (a display for a
// headed run, its labels), the least busy and least recently given a run.
func (h *Hub) pickAgent(r store.Run) *conn {
	h.mu.Lock()
	defer h.mu.Unlock()
	conns, cs := h.candidatesLocked(r.UserID)
	i := decideAgent(r, cs)
	if i < 0 {
		return nil
	}
	h.picks++
	conns[i].picked = h.picks
	return conns[i]
}

// candidatesLocked lists a user's connected agents for decideAgent; h.mu
// must be held.
func (h *Hub) candidatesLocked(userID string) ([]*conn, []candidate) {
	var conns []*conn
	var cs []candidate
	for _, c := range h.agents {
		if c.agent.UserID != userID {
			continue
		}
		conns = append(conns, c)
		cs = append(cs, candidate{id: c.agent.ID, userID: c.agent.UserID, ephemeral: c.agent.Ephemeral, paused: c.paused,
			display: !c.agent.Headless, labels: c.agent.Labels, busy: len(c.runs), parallel: c.parallel, picked: c.picked})
	}
	return conns, cs
}

// Waiting says why a queued run waits although its user has an agent
// connected: none of them can serve it ("waiting for an agent with a
// display"). "" when one can (it is busy) or none is connected.
func (h *Hub) Waiting(r store.Run, pinName string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, cs := h.candidatesLocked(r.UserID)
	return decideWaiting(r, append(cs, h.remoteCandidates(r.UserID)...), pinName)
}

// served reports whether a connected agent serves the run, busy or not.
func (h *Hub) served(r store.Run) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, cs := h.candidatesLocked(r.UserID)
	cs = append(cs, h.remoteCandidates(r.UserID)...)
	return slices.ContainsFunc(cs, func(c candidate) bool { return c.serves(r) })
}

// SetAgentInfo gives a connected agent the name and labels its owner just
// stored, and hands it the runs that waited for those labels.
func (h *Hub) SetAgentInfo(ctx context.Context, a store.Agent) {
	if !h.setInfoLocal(ctx, a.ID, a.Name, a.Labels) {
		h.publish(ctx, peerMsg{Kind: peerInfo, Agent: a.ID, Name: a.Name, Labels: a.Labels})
	}
}

func (h *Hub) setInfoLocal(ctx context.Context, agentID, name string, labels []string) bool {
	h.mu.Lock()
	c := h.agents[agentID]
	if c != nil {
		c.agent.Name, c.agent.Labels = name, labels
	}
	h.mu.Unlock()
	if c != nil {
		go h.kickLocal(context.WithoutCancel(ctx), c.agent.UserID)
	}
	return c != nil
}

func (h *Hub) assign(ctx context.Context, c *conn, r store.Run) {
	job, err := h.jobs.Build(ctx, r)
	if err != nil && store.Transient(err) {
		h.noteOutage()
		h.log.Warn("build job: trying again later", "run", r.ID, "err", err)
		return
	}
	if err != nil {
		why := "the hub could not prepare this run: " + err.Error()
		if errors.Is(err, ErrRefused) { // the run's own doing (an empty pool, say), not the hub's
			why = "this run cannot start: " + strings.TrimPrefix(err.Error(), ErrRefused.Error()+": ")
			h.log.Info("run refused", "run", r.ID, "why", why)
		} else {
			h.log.Error("build job", "run", r.ID, "err", err)
		}
		h.finishLogged(ctx, r.ID, "", protocol.RunResult{Status: protocol.RunError, Error: why})
		return
	}
	ok, last, err := h.Store.AssignRunSeq(ctx, r.ID, c.agent.ID, h.Now().Add(h.Lease))
	if err != nil {
		h.log.Error("assign run", "run", r.ID, "err", err)
	}
	if err != nil || !ok {
		return
	}
	if r.Attempts == 0 {
		h.Metrics.RunAssigned(h.Now().Sub(r.CreatedAt))
	}
	if r.Attempts > 0 {
		// A started run whose agent was lost starts over: say so in its
		// events, once, before the new attempt's.
		h.hubEventOnce(ctx, r.ID, protocol.Event{Kind: protocol.LogLine, Level: "warn",
			Message: "attempt " + strconv.Itoa(r.Attempts) + " was lost with its agent (it stopped answering or restarted); the run was queued again and starts over"})
		// That event came after the sequence number read at assignment.
		if last, err = h.Store.LastSeq(ctx, r.ID); err != nil {
			h.log.Error("last seq", "run", r.ID, "err", err)
			if _, err := h.Store.Requeue(ctx, r.ID, c.agent.ID); err != nil {
				h.log.Error("requeue", "run", r.ID, "err", err)
			}
			return
		}
	}
	job.FirstSeq = last + 1
	job.LeaseMs = h.Lease.Milliseconds()
	c.hold(r.ID, r.UserID, job)
	if err := c.send(ctx, protocol.Message{Type: protocol.MsgAssign, RunID: r.ID, Job: &job}); err != nil {
		c.release(r.ID)
		if _, err := h.Store.Requeue(ctx, r.ID, c.agent.ID); err != nil {
			h.log.Error("requeue", "run", r.ID, "err", err)
		}
		return
	}
	h.log.Info("run assigned", "run", r.ID, "agent", c.agent.ID, "attempt", r.Attempts+1)
}

// Cancel stops a run: at once when no agent holds it, else by telling the
// agent (or, if it is gone, when its lease lapses).
func (h *Hub) Cancel(ctx context.Context, r store.Run) error {
	if err := h.Store.RequestCancel(ctx, r.ID); err != nil {
		return err
	}
	if r.AgentID == "" {
		done, err := h.finish(ctx, r.ID, "", protocol.RunResult{Status: protocol.RunCancelled, Error: "cancelled before an agent started it"})
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		// Assigned meanwhile: tell the agent that has it now.
		if cur, err := h.Store.Run(ctx, r.ID); err == nil {
			r = cur
		}
	}
	if c := h.local(r.AgentID); c != nil {
		return c.send(ctx, protocol.Message{Type: protocol.MsgCancel, RunID: r.ID})
	}
	if r.AgentID != "" {
		// Its agent is connected to another hub, or to none: that hub
		// tells it; else the agent's next renewal finds the request.
		h.publish(ctx, peerMsg{Kind: peerCancel, Agent: r.AgentID, Run: r.ID})
	}
	return nil
}

// finishLogged is finish for the hub's own decisions, which have nobody to
// report an error to but the log (the sweep tries again later).
func (h *Hub) finishLogged(ctx context.Context, runID, agentID string, res protocol.RunResult) {
	if _, err := h.finish(ctx, runID, agentID, res); err != nil {
		h.log.Error("finish run", "run", runID, "status", res.Status, "err", err)
	}
}

// finish records a run's end once, then its run.finished event: the
// agent's (final) when it sent one, else one the hub makes. It reports
// false when the run had already ended or another agent holds it.
func (h *Hub) finish(ctx context.Context, runID, agentID string, res protocol.RunResult, final ...*protocol.Event) (bool, error) {
	steps := res.Steps
	if steps == nil {
		steps = []protocol.StepResult{}
	}
	e := protocol.Event{Kind: protocol.RunFinished}
	if len(final) > 0 && final[0] != nil {
		e = *final[0] // keeps the agent's time
	}
	// The event says what is stored, whatever the agent's event said.
	d := res.DurationMs
	e.RunID, e.Status, e.Passed, e.Total, e.DurationMs, e.Error = runID, res.Status, &res.Passed, &res.Total, &d, res.Error
	if e.Time.IsZero() {
		e.Time = h.Now().UTC()
	}
	var rows any
	if res.Rows != nil {
		rows = res.Rows
	}
	var attempts any
	if len(res.Attempts) > 0 {
		attempts = res.Attempts
	}
	// Flaky from the checked attempts, never from the agent's word.
	ok, err := h.Store.FinishRun(ctx, runID, agentID, store.RunOutcome{Status: res.Status, Passed: res.Passed, Total: res.Total,
		DurationMs: res.DurationMs, Error: res.Error, Steps: steps, Rows: rows, Flaky: flakyOf(res), Attempts: attempts}, h.Now(), func(seq int64) []byte {
		e.Seq = seq
		data, _ := json.Marshal(e)
		return data
	})
	if err != nil || !ok {
		return false, err
	}
	h.log.Info("run finished", "run", runID, "status", res.Status)
	h.Metrics.RunFinished(res.Status, time.Duration(res.DurationMs)*time.Millisecond)
	h.wake(runID)
	return true, nil
}

// hubEvent appends an event the hub itself reports (a requeue, a lost
// agent, a cancel before start).
func (h *Hub) hubEvent(ctx context.Context, runID string, e protocol.Event) {
	for range 3 {
		last, err := h.Store.LastSeq(ctx, runID)
		if err != nil {
			break
		}
		e.RunID, e.Seq = runID, last+1
		if e.Time.IsZero() {
			e.Time = h.Now().UTC()
		}
		data, _ := json.Marshal(e)
		ok, err := h.Store.AddEvent(ctx, runID, e.Seq, string(e.Kind), data)
		if err != nil {
			h.log.Error("store a hub event", "run", runID, "err", err)
		}
		if err != nil || ok {
			break
		}
	}
	h.wake(runID)
}

// hubEventOnce is hubEvent unless the run's last event already says the
// same (the same lost attempt handed over again).
func (h *Hub) hubEventOnce(ctx context.Context, runID string, e protocol.Event) {
	if last, err := h.Store.LastSeq(ctx, runID); err == nil && last > 0 {
		if rows, err := h.Store.Events(ctx, runID, last-1, 1); err == nil && len(rows) == 1 {
			var prev protocol.Event
			if json.Unmarshal(rows[0].Data, &prev) == nil && prev.Kind == e.Kind && prev.Message == e.Message {
				return
			}
		}
	}
	h.hubEvent(ctx, runID, e)
}

// Sweep ends or requeues runs whose agent stopped renewing, ends runs that
// waited too long for an agent, moves connected agents' last seen time, and
// retries assignment. Run calls it every lease/3. A hub judges the runs of
// the agents connected to it; the runs of agents connected nowhere, and
// the rest of the housekeeping, are judged by one hub at a time
// (sweepShared).
func (h *Hub) Sweep(ctx context.Context) {
	now := h.Now()
	var lapsed, orphans []store.Run
	var err error
	if h.recovering(now) {
		h.log.Info("the database was away a moment ago: lapsed leases wait until agents have reconnected")
	} else if lapsed, err = h.Store.LapsedRuns(ctx, now); err != nil {
		h.noteOutage()
		h.log.Error("lapsed runs", "err", err)
	}
	for _, r := range lapsed {
		h.mu.Lock()
		c := h.agents[r.AgentID]
		_, holding := c.runsLocked()[r.ID]
		if c != nil && !holding {
			c.releaseLocked(r.ID)
		}
		h.mu.Unlock()
		if c == nil {
			if _, elsewhere := h.remote(r.AgentID); !elsewhere {
				orphans = append(orphans, r)
			}
			continue // else the hub holding its agent judges it
		}
		if holding {
			// Still connected and running it: its renewals are late (a slow
			// uplink, or its messages wait for the database), not lost.
			// MaxRunTime bounds a hung agent.
			if _, err := h.Store.RenewLease(ctx, r.ID, r.AgentID, now.Add(h.Lease)); err != nil {
				h.log.Error("renew the lease of a connected agent's run", "run", r.ID, "err", err)
			}
			continue
		}
		h.lost(ctx, r, "the agent stopped answering")
	}
	h.touchConnected(ctx, now)
	h.sweepIdleCI(ctx, now, h.connectedCI()) // the CI agents connected here
	if _, err := h.Store.OnceAcrossHubs(ctx, "dispatch.sweep", func(ctx context.Context) error {
		h.sweepShared(ctx, now, orphans)
		return nil
	}); err != nil && ctx.Err() == nil {
		h.log.Warn("sweep", "err", err)
	}
	users, err := h.Store.UsersWithQueuedRuns(ctx)
	if err != nil {
		h.log.Error("queued users", "err", err)
	}
	for _, u := range users {
		h.kickLocal(ctx, u)
	}
}

// sweepShared is the part of the sweep one hub does for all: runs whose
// agent is connected to no hub, runs over their time, CI agents that
// left, old pairing codes, runs that waited too long, hubs that died.
func (h *Hub) sweepShared(ctx context.Context, now time.Time, orphans []store.Run) {
	for _, r := range orphans {
		h.lost(ctx, r, "the agent stopped answering")
	}
	overdue, err := h.Store.OverdueRuns(ctx, now.Add(-h.MaxRunTime))
	if err != nil {
		h.log.Error("overdue runs", "err", err)
	}
	for _, r := range overdue {
		h.mu.Lock()
		c := h.agents[r.AgentID]
		if c != nil {
			c.releaseLocked(r.ID)
			go c.send(context.WithoutCancel(ctx), protocol.Message{Type: protocol.MsgCancel, RunID: r.ID}) //nolint:errcheck
		}
		h.mu.Unlock()
		if c == nil {
			h.publish(ctx, peerMsg{Kind: peerCancel, Agent: r.AgentID, Run: r.ID})
		}
		h.finishLogged(ctx, r.ID, r.AgentID, protocol.RunResult{Status: protocol.RunError,
			Error: "the run took longer than " + h.MaxRunTime.String() + " and was stopped"})
	}
	h.sweepCI(ctx, now)
	if err := h.Store.DeletePairings(ctx, now.Add(-time.Hour)); err != nil {
		h.log.Warn("delete old pairing codes", "err", err)
	}
	h.expireQueued(ctx, now)
	if err := h.Store.PruneSessionRoutes(ctx, 24*time.Hour); err != nil {
		h.log.Warn("forget old authoring session routes", "err", err)
	}
	if dead, err := h.Store.PruneDeadHubs(ctx); err != nil {
		h.log.Warn("remove hubs that stopped", "err", err)
	} else if len(dead) > 0 {
		h.log.Warn("hubs stopped without saying so; forgot them", "hubs", dead)
	}
}

// lost takes a run back from an agent that no longer runs it, as
// decideLost says.
func (h *Hub) lost(ctx context.Context, r store.Run, why string) {
	switch f, msg := decideLost(r, why); f {
	case fateRequeue, fateRetry:
		// The run's own "queued again" line is written when its next
		// attempt is assigned (assign): until then its agent may come back
		// and take it over, numbering its events on from where it was.
		ok, err := h.Store.Requeue(ctx, r.ID, r.AgentID)
		if err != nil {
			h.log.Error("requeue a lost run", "run", r.ID, "err", err)
		}
		if ok && f == fateRetry {
			h.log.Warn("run lost with its agent", "run", r.ID, "agent", r.AgentID, "why", msg)
		}
	case fateCancelled:
		h.finishLogged(ctx, r.ID, r.AgentID, protocol.RunResult{Status: protocol.RunCancelled, Error: msg})
	case fateError:
		h.finishLogged(ctx, r.ID, r.AgentID, protocol.RunResult{Status: protocol.RunError, Error: msg})
	}
}

// reconcile runs when an agent (re)connects: runs assigned to it that it
// does not say it holds are lost; runs it holds that the hub queued again
// meanwhile (it was away longer than its lease) are taken back, so what
// it ran is kept, not run twice.
func (h *Hub) reconcile(ctx context.Context, c *conn, running []string) error {
	runs, err := h.Store.AgentRuns(ctx, c.agent.ID)
	if err != nil {
		return err
	}
	for _, id := range running {
		if slices.ContainsFunc(runs, func(r store.Run) bool { return r.ID == id }) {
			continue
		}
		r, err := h.Store.Run(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		if !decideTakeBack(r, c.agent.UserID) {
			// Someone else's now, cancelled, or over: the agent stops it
			// (a no-op for one it has finished).
			_ = c.send(ctx, protocol.Message{Type: protocol.MsgCancel, RunID: id})
			continue
		}
		ok, err := h.Store.AssignRun(ctx, id, c.agent.ID, h.Now().Add(h.Lease))
		if err != nil {
			return err
		}
		if ok {
			h.log.Info("took back a run its agent still held", "run", id, "agent", c.agent.ID)
			runs = append(runs, r)
			if r.Attempts > 0 {
				if err := h.Store.ResumeRun(ctx, id, c.agent.ID); err != nil {
					return err
				}
			}
		}
	}
	for _, r := range runs {
		if slices.Contains(running, r.ID) {
			// learn it, with its secrets for masking
			if _, _, err := c.held(ctx, r.ID); err != nil {
				return err
			}
			if r.CancelRequested {
				_ = c.send(ctx, protocol.Message{Type: protocol.MsgCancel, RunID: r.ID})
			}
			continue
		}
		h.lost(ctx, r, "the agent restarted")
	}
	return nil
}

func (h *Hub) expireQueued(ctx context.Context, now time.Time) {
	stale, err := h.Store.StaleQueuedRuns(ctx, now.Add(-h.QueueTimeout))
	if err != nil {
		h.log.Error("stale queued runs", "err", err)
		return
	}
	for _, r := range stale {
		if !decideStale(h.served(r), r.AgentID != "") {
			continue // waiting for a busy agent that serves it, not for none
		}
		h.finishLogged(ctx, r.ID, r.AgentID, protocol.RunResult{Status: protocol.RunError,
			Error: "no agent started this run in time: pair a computer and keep its agent running"})
	}
}
