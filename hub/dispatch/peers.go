package dispatch

// Several hubs on one database (docs/several-hubs.md). Each hub holds the
// connections of the agents that reached it; the database holds the
// truth of every run. What one hub does that another must act on (a run
// queued for an agent connected there, an event a watcher there waits
// for, a cancel, an approval) travels as a PostgreSQL notification on one
// channel, ta_hub. A notification is only a wake-up: a lost one delays
// (the sweeps and renewals find the same work in the rows), it never
// loses anything.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

// peerChannel is the notification channel every hub listens on.
const peerChannel = "ta_hub"

// Kinds of peer messages.
const (
	peerKick     = "kick"     // User has runs queued: hand them to agents here
	peerEvents   = "events"   // Runs have new events: wake their watchers here
	peerCancel   = "cancel"   // Run's agent, if here, must stop it
	peerDrop     = "drop"     // Agent was revoked: close its connection here
	peerInfo     = "info"     // Agent's name and labels changed
	peerPresence = "presence" // an agent came, went or changed load somewhere
	peerTaken    = "taken"    // Agent connected to hub From: a connection here is stale
	peerProbe    = "probe"    // is Agent connected here and answering? reply OK
	peerApprove  = "approve"  // approve the pairing Code waiting here for User
	peerRotate   = "rotate"   // rotate the token of Agent connected here
	peerReply    = "reply"    // the answer to request Req
)

// peerMsg is one notification. Its JSON stays far under PostgreSQL's
// 8000-byte payload limit (events carry at most maxRunsPerNote ids).
type peerMsg struct {
	From   string   `json:"from"`
	To     string   `json:"to,omitempty"`
	Kind   string   `json:"kind"`
	User   string   `json:"user,omitempty"`
	Agent  string   `json:"agent,omitempty"`
	Run    string   `json:"run,omitempty"`
	Runs   []string `json:"runs,omitempty"`
	Code   string   `json:"code,omitempty"`
	Name   string   `json:"name,omitempty"`
	Labels []string `json:"labels,omitempty"`
	Req    string   `json:"req,omitempty"`
	OK     bool     `json:"ok,omitempty"`
	Err    string   `json:"err,omitempty"`
	// ErrCode names a known error in a reply (errByCode).
	ErrCode string `json:"errCode,omitempty"`
	// At is when it was sent (unix nanoseconds): the metrics' cross-hub
	// latency.
	At int64 `json:"at"`
}

const maxRunsPerNote = 200

// peers is a hub's side of the conversation between hubs.
type peers struct {
	mu      sync.Mutex
	remote  map[string]store.Presence // guarded by mu: agents other live hubs hold, by id
	replies map[string]chan peerMsg   // guarded by mu: requests waiting for their answer
	woken   map[string]bool           // guarded by mu: runs whose watchers elsewhere are to be woken
	wakeUp  chan struct{}             // signals the events flusher
	load    map[string]bool           // guarded by mu: agents whose load changed (flushLoads)
	loadUp  chan struct{}             // signals the load flusher
	refresh chan struct{}             // asks for the presence snapshot to be read again
	ready   chan struct{}             // closed once the listener listens
	readyOn sync.Once
	running atomic.Bool // runPeers runs: there is someone to flush what is queued
}

func newPeers() *peers {
	return &peers{remote: map[string]store.Presence{}, replies: map[string]chan peerMsg{}, woken: map[string]bool{},
		wakeUp: make(chan struct{}, 1), loadUp: make(chan struct{}, 1), refresh: make(chan struct{}, 1), ready: make(chan struct{})}
}

// ID is this hub's id among the hubs sharing its database.
func (h *Hub) ID() string { return h.HubID }

// runPeers keeps this hub in the conversation until ctx ends: it listens,
// beats, keeps the snapshot of the other hubs' agents and sends the
// coalesced event wake-ups.
func (h *Hub) runPeers(ctx context.Context) {
	h.peers.running.Store(true)
	go h.listenPeers(ctx)
	go h.flushWakes(ctx)
	go h.flushLoads(ctx)
	beat := time.NewTicker(store.HubBeat)
	defer beat.Stop()
	for {
		if err := h.Store.BeatHub(ctx, h.HubID, h.HubURL, h.draining.Load()); err != nil && ctx.Err() == nil {
			h.log.Warn("hub heartbeat", "err", err)
		}
		if err := h.Store.KeepPresence(ctx, h.HubID, h.localAgentIDs()); err != nil && ctx.Err() == nil {
			h.log.Warn("tidy the list of agents connected here", "err", err)
		}
		h.readPresence(ctx)
		select {
		case <-ctx.Done():
			return
		case <-beat.C:
		case <-h.peers.refresh:
		}
	}
}

// localAgentIDs lists the agents connected here.
func (h *Hub) localAgentIDs() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]string, 0, len(h.agents))
	for id := range h.agents {
		out = append(out, id)
	}
	return out
}

// readPresence reads which agents the other live hubs hold.
func (h *Hub) readPresence(ctx context.Context) {
	rows, err := h.Store.RemotePresence(ctx, h.HubID)
	if err != nil {
		if ctx.Err() == nil {
			h.log.Warn("read the other hubs' agents", "err", err)
		}
		return
	}
	m := make(map[string]store.Presence, len(rows))
	for _, p := range rows {
		m[p.AgentID] = p
	}
	h.peers.mu.Lock()
	h.peers.remote = m
	h.peers.mu.Unlock()
}

// remoteAgents returns a copy-free view of the snapshot for f.
func (h *Hub) remoteAgents(f func(map[string]store.Presence)) {
	h.peers.mu.Lock()
	defer h.peers.mu.Unlock()
	f(h.peers.remote)
}

// listenPeers receives the other hubs' notifications on a connection of
// its own (not the pool's: it is held for good), reconnecting when it is
// lost. After a reconnection every watcher here is woken: what was said
// meanwhile was lost, and the rows have it.
func (h *Hub) listenPeers(ctx context.Context) {
	backoff := 500 * time.Millisecond
	for ctx.Err() == nil {
		err := h.listenOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		h.log.Warn("listening to the other hubs: connection lost; trying again", "err", err, "in", backoff)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 10*time.Second)
	}
}

func (h *Hub) listenOnce(ctx context.Context) error {
	cfg := h.Store.Pool().Config().ConnConfig.Copy()
	cfg.RuntimeParams["application_name"] = store.ListenerPrefix + h.HubID // how the others see this hub alive
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+peerChannel); err != nil {
		return err
	}
	h.peers.readyOn.Do(func() { close(h.peers.ready) })
	h.wakeAll()
	h.askPresence()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		var m peerMsg
		if json.Unmarshal([]byte(n.Payload), &m) != nil || m.From == h.HubID || (m.To != "" && m.To != h.HubID) {
			continue
		}
		if m.At > 0 {
			h.Metrics.PeerLatency(time.Since(time.Unix(0, m.At)))
		}
		go h.onPeer(context.WithoutCancel(ctx), m)
	}
}

// publish tells the other hubs; a failure is logged, not returned: the
// rows say the same, and the sweeps find it.
func (h *Hub) publish(ctx context.Context, m peerMsg) {
	m.From, m.At = h.HubID, time.Now().UnixNano()
	data, err := json.Marshal(m)
	if err != nil {
		return
	}
	if _, err := h.Store.Pool().Exec(ctx, `SELECT pg_notify($1, $2)`, peerChannel, string(data)); err != nil && ctx.Err() == nil {
		h.log.Warn("tell the other hubs", "kind", m.Kind, "err", err)
	}
}

// askPresence has the snapshot read again soon.
func (h *Hub) askPresence() {
	select {
	case h.peers.refresh <- struct{}{}:
	default:
	}
}

// wakeAll wakes every watcher here: they read the rows again.
func (h *Hub) wakeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, set := range h.watchers {
		for ch := range set {
			select {
			case ch <- struct{}{}:
			default:
			}
		}
	}
}

// wakeElsewhere queues a run's new events for the other hubs' watchers;
// flushWakes sends them together, a few at a time.
func (h *Hub) wakeElsewhere(runID string) {
	if !h.peers.running.Load() {
		return // a dispatcher without Run (tests): no other hub to tell
	}
	h.peers.mu.Lock()
	h.peers.woken[runID] = true
	h.peers.mu.Unlock()
	select {
	case h.peers.wakeUp <- struct{}{}:
	default:
	}
}

// wakeBatch is how long event wake-ups gather before one notification
// carries them: a run streaming steps sends one every few tens of ms, not
// one per event.
const wakeBatch = 20 * time.Millisecond

func (h *Hub) flushWakes(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-h.peers.wakeUp:
		}
		time.Sleep(wakeBatch)
		h.peers.mu.Lock()
		runs := make([]string, 0, len(h.peers.woken))
		for id := range h.peers.woken {
			runs = append(runs, id)
		}
		clear(h.peers.woken)
		h.peers.mu.Unlock()
		for len(runs) > 0 {
			n := min(len(runs), maxRunsPerNote)
			h.publish(ctx, peerMsg{Kind: peerEvents, Runs: runs[:n]})
			runs = runs[n:]
		}
	}
}

// request asks the hub `to` and waits for its reply, at most wait.
func (h *Hub) request(ctx context.Context, to string, m peerMsg, wait time.Duration) (peerMsg, error) {
	m.To, m.Req = to, ids.New("req")
	ch := make(chan peerMsg, 1)
	h.peers.mu.Lock()
	h.peers.replies[m.Req] = ch
	h.peers.mu.Unlock()
	defer func() {
		h.peers.mu.Lock()
		delete(h.peers.replies, m.Req)
		h.peers.mu.Unlock()
	}()
	h.publish(ctx, m)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case r := <-ch:
		return r, nil
	case <-t.C:
		return peerMsg{}, errPeerSilent
	case <-ctx.Done():
		return peerMsg{}, ctx.Err()
	}
}

// errPeerSilent: the other hub did not answer (it died, or is cut off).
var errPeerSilent = errors.New("the hub holding it did not answer")

// reply answers a request.
func (h *Hub) reply(ctx context.Context, req peerMsg, ok bool, err error) {
	m := peerMsg{Kind: peerReply, To: req.From, Req: req.Req, OK: ok}
	if err != nil {
		m.Err, m.ErrCode = err.Error(), codeOfErr(err)
	}
	h.publish(ctx, m)
}

// Known errors travel by code, so the asking hub's caller can tell them.
var errByCode = map[string]error{"no_pairing": ErrNoPairing, "agent_away": ErrAgentAway, "not_saved": ErrTokenNotSaved,
	"replaced": ErrRotationReplaced}

func codeOfErr(err error) string {
	for code, e := range errByCode {
		if errors.Is(err, e) {
			return code
		}
	}
	return ""
}

// replyErr turns a reply back into the error it carried.
func replyErr(r peerMsg) error {
	if r.Err == "" {
		return nil
	}
	if e := errByCode[r.ErrCode]; e != nil {
		if rest, ok := strings.CutPrefix(r.Err, e.Error()); ok {
			return fmt.Errorf("%w%s", e, rest) // the same text, and errors.Is still tells it
		}
		return fmt.Errorf("%w: %s", e, r.Err)
	}
	return errors.New(r.Err)
}
