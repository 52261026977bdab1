package dispatch

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
	"github.com/testautomation/ta/hub/auth"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// conn is one agent's WebSocket.
type conn struct {
	h        *Hub
	ws       *websocket.Conn
	agent    store.Agent
	parallel int
	paused   bool   // takes no new runs (the agent's Pause); guarded by h.mu
	picked   uint64 // when it was last given a run, by h.picks; guarded by h.mu
	// live is closed once the connection is registered: an approval
	// answers when its agent shows as connected.
	live    chan struct{}
	writeMu sync.Mutex // serialises writes
	// runs the agent holds, with their secrets for masking; guarded by h.mu
	runs map[string]*heldRun
	// approved receives the agent and token when a user approves the
	// pairing code this connection waits on.
	approved chan pairingResult
	// frames carries what the one reader goroutine reads, in order; it is
	// closed when the connection ends.
	frames chan frame
	// gone is closed when the connection ends, so a message waiting for
	// the database stops waiting.
	gone chan struct{}
	// told lists the runs the agent was told to cancel on this connection;
	// only the read loop uses it.
	told map[string]bool
	addr string // the client address
	// rotations are the tokens offered to the agent that it has not
	// answered yet, by request id; guarded by h.mu.
	rotations map[string]*rotation
	// waitingFor is the pairing this connection waits on; set before the
	// connection is listed in h.waiting and not changed after.
	waitingFor store.Pairing
	// pendingID names the waiting computer in pending lists in place of its
	// code (which only the computer shows); set with waitingFor.
	pendingID string
	// seen is when last_seen_at was last written for this connection;
	// guarded by h.mu.
	seen time.Time
	// registered is when the connection was registered (wall clock):
	// authoring sessions begun after it are this connection's.
	registered time.Time
	// readAt is when the reader last took a message (unix nanoseconds):
	// a busy agent's sign of life (admit).
	readAt atomic.Int64
}

type frame struct {
	typ  websocket.MessageType
	data []byte
}

// reader is the connection's only reader.
func (c *conn) reader(ctx context.Context) {
	defer close(c.frames)
	defer close(c.gone)
	for {
		typ, data, err := c.ws.Read(ctx)
		if err != nil {
			return
		}
		c.readAt.Store(time.Now().UnixNano())
		select {
		case c.frames <- frame{typ, data}:
			continue
		default:
		}
		stall := time.NewTimer(c.h.Stall)
		select {
		case c.frames <- frame{typ, data}:
			stall.Stop()
		case <-ctx.Done():
			stall.Stop()
			return
		case <-stall.C:
			c.h.log.Warn("the hub cannot take this agent's messages for now; closing its connection", "agent", c.agent.ID, "after", c.h.Stall)
			c.ws.CloseNow()
			return
		}
	}
}

type heldRun struct {
	userID string
	mask   *masker
	shape  jobShape // what the job asked for: reports are checked against it
	// finished is the agent's run.finished event, stored only once the
	// result is, so a watcher that sees it finds the run final.
	finished *protocol.Event
}

type pairingResult struct {
	agent store.Agent
	token string
}

func (c *conn) send(ctx context.Context, m protocol.Message) error {
	data, err := m.Encode()
	if err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	return c.writeData(ctx, data)
}

// write sends m; the caller holds writeMu.
func (c *conn) write(ctx context.Context, m protocol.Message) error {
	data, err := m.Encode()
	if err != nil {
		return err
	}
	return c.writeData(ctx, data)
}

func (c *conn) writeData(ctx context.Context, data []byte) error {
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return c.ws.Write(wctx, websocket.MessageText, data)
}

func (c *conn) close(reason string) {
	_ = c.send(context.Background(), protocol.Message{Type: protocol.MsgError, ErrorCode: "closed", Error: reason})
	_ = c.ws.Close(websocket.StatusPolicyViolation, truncate(reason, 120))
}

// label cleans an agent-supplied name for showing: one line without
// control or formatting (bidi) characters, at most n bytes.
func label(s string, n int) string {
	s = strings.TrimSpace(protocol.CleanLabel(s))
	for len(s) > n {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func (c *conn) hold(runID, userID string, job protocol.Job) {
	mask := newMasker(job.Secrets)
	shape := shapeOf(job, mask)
	c.h.mu.Lock()
	defer c.h.mu.Unlock()
	c.runs[runID] = &heldRun{userID: userID, mask: mask, shape: shape}
	c.h.loadChanged(c.agent.ID)
}

func (c *conn) release(runID string) {
	c.h.mu.Lock()
	defer c.h.mu.Unlock()
	c.releaseLocked(runID)
}

func (c *conn) releaseLocked(runID string) {
	if _, ok := c.runs[runID]; ok {
		delete(c.runs, runID)
		c.h.loadChanged(c.agent.ID)
	}
}

// runsLocked is c's runs, or none for a nil conn; h.mu must be held.
func (c *conn) runsLocked() map[string]*heldRun {
	if c == nil {
		return nil
	}
	return c.runs
}

// held returns the run if this agent holds it, learning it (and its
// secrets, for masking) from the database after a hub restart. An error
// means the database could not say: the caller tries again later.
func (c *conn) held(ctx context.Context, runID string) (*heldRun, bool, error) {
	c.h.mu.Lock()
	hr, ok := c.runs[runID]
	c.h.mu.Unlock()
	if ok {
		return hr, true, nil
	}
	if runID == "" {
		return nil, false, nil
	}
	r, err := c.h.Store.Run(ctx, runID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if r.AgentID != c.agent.ID || protocol.Final(r.Status) {
		return nil, false, nil
	}
	job, err := c.h.jobs.Build(ctx, r)
	if err != nil && store.Transient(err) {
		return nil, false, err
	}
	if err != nil {
		// Without its secrets the hub could not mask what the run sends.
		_, ferr := c.h.finish(ctx, runID, c.agent.ID, protocol.RunResult{Status: protocol.RunError,
			Error: "the hub can no longer prepare this run: " + err.Error()})
		return nil, false, ferr
	}
	c.hold(runID, r.UserID, job)
	c.h.mu.Lock()
	defer c.h.mu.Unlock()
	return c.runs[runID], true, nil
}

// ServeAgent is the handler of /api/agent/connect: the agent authenticates
// in its first message, with its token or by asking to pair.
func (h *Hub) ServeAgent(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	if h.draining.Load() {
		ws.Close(websocket.StatusServiceRestart, drainReason) //nolint:errcheck
		return
	}
	ws.SetReadLimit(helloLimit) // raised once the agent is known
	c := &conn{h: h, ws: ws, runs: map[string]*heldRun{}, parallel: 1, told: map[string]bool{}, addr: ClientAddress(r.RemoteAddr),
		live: make(chan struct{})}
	ctx := r.Context()
	defer ws.CloseNow()
	hello, err := c.readHello(ctx)
	if err != nil {
		c.close(err.Error())
		return
	}
	c.frames = make(chan frame, 2)
	c.gone = make(chan struct{})
	go c.reader(ctx)
	if hello.Parallel > 0 {
		c.parallel = min(hello.Parallel, 16)
	}
	c.paused = hello.Paused
	if hello.Token != "" {
		c.agent, err = h.Store.AgentByToken(ctx, auth.Digest(hello.Token), h.Now())
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			// The database is away: not a reason to make the agent pair again.
			h.noteOutage()
			h.log.Warn("agent connect: cannot check its token", "err", err)
			c.close("the hub cannot check this computer's token right now; it will try again")
			return
		}
		if err != nil {
			c.send(ctx, protocol.Message{Type: protocol.MsgError, ErrorCode: "unauthorized", //nolint:errcheck
				Error: "this computer's token is not valid (it was disconnected or the hub was reset): pair it again"})
			ws.Close(websocket.StatusPolicyViolation, "unauthorized") //nolint:errcheck
			return
		}
		if !c.admit(ctx) {
			return
		}
		defer h.unreserve(c)
	} else if hello.Pair.APIToken != "" {
		if !c.ciPair(ctx, hello.Pair, ClientAddress(r.RemoteAddr)) {
			return
		}
	} else if !c.pair(ctx, hello.Pair, r.RemoteAddr) {
		return
	}
	c.agent.Headless = hello.Headless
	c.agent.BrowserVersion = label(hello.Browser, 80)
	if err := h.Store.SetAgentHello(ctx, c.agent.ID, hello.Headless, label(hello.OS, 40), c.agent.BrowserVersion); err != nil {
		h.log.Warn("agent connect: cannot store its display and browser", "agent", c.agent.ID, "err", err)
	}
	ws.SetReadLimit(protocol.MaxArtifact + 1024)
	// Before the connection can be given new runs: take back the ones the
	// agent no longer has.
	if err := h.reconcile(ctx, c, hello.Runs); err != nil {
		h.noteOutage()
		h.log.Warn("agent connect: cannot reconcile its runs", "agent", c.agent.ID, "err", err)
		c.close("the hub cannot take this computer's runs right now; it will try again")
		return
	}
	// Listed before the welcome is written, and under the write lock: an
	// agent (or its user) acting on the welcome finds it connected, and
	// nothing another goroutine sends it goes out before the welcome.
	c.writeMu.Lock()
	h.register(c)
	defer h.unregister(c)
	err = c.write(ctx, protocol.Message{Type: protocol.MsgWelcome, AgentID: c.agent.ID, Name: c.agent.Name,
		Update: h.update(hello)})
	c.writeMu.Unlock()
	if err != nil {
		return
	}
	h.log.Info("agent connected", "agent", c.agent.ID, "user", c.agent.UserID, "parallel", c.parallel, "paused", hello.Paused,
		"version", hello.Agent)
	h.present(ctx, c)
	go h.kickLocal(context.WithoutCancel(ctx), c.agent.UserID)
	if c.agent.Ephemeral {
		h.watchCI() // it lives no longer than its API token (ci.go)
	}
	c.readLoop(ctx)
	h.log.Info("agent disconnected", "agent", c.agent.ID)
}

func (c *conn) readHello(ctx context.Context) (protocol.Message, error) {
	hctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	typ, data, err := c.ws.Read(hctx)
	if err != nil {
		return protocol.Message{}, errors.New("no hello")
	}
	var m protocol.Message
	if typ != websocket.MessageText || json.Unmarshal(data, &m) != nil || m.Type != protocol.MsgHello {
		return m, errors.New("the first message must be hello")
	}
	if m.Protocol != protocol.Version {
		return m, fmt.Errorf("this agent speaks protocol %d but the hub at %s speaks %d: install the hub's agent: "+
			"its Agents page, %s/agents, offers the download for your system",
			m.Protocol, c.h.BaseURL, protocol.Version, strings.TrimRight(c.h.BaseURL, "/"))
	}
	if m.Token == "" && (m.Pair == nil || label(m.Pair.Hostname, 100) == "") {
		return m, errors.New("hello needs a token or a pairing request with the hostname")
	}
	return m, nil
}

func (h *Hub) register(c *conn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if old := h.agents[c.agent.ID]; old != nil {
		// The same agent reconnected; reconcile gave the new connection the
		// runs the agent still has.
		go old.ws.Close(websocket.StatusGoingAway, "replaced by a new connection") //nolint:errcheck
	}
	if h.admitting[c.agent.ID] == c {
		delete(h.admitting, c.agent.ID)
	}
	c.seen = h.Now() // the token check or the approval has just written it
	c.registered = time.Now()
	h.agents[c.agent.ID] = c
	close(c.live)
}

// unregister forgets the connection and records when its agent was last
// seen: now, as it goes.
func (h *Hub) unregister(c *conn) {
	// Forgotten first, so no run goes to it while the database is slow.
	now := h.Now()
	h.mu.Lock()
	before := time.Now().Add(time.Hour) // all of them
	current := false
	if cur := h.agents[c.agent.ID]; cur == c {
		delete(h.agents, c.agent.ID)
		current = true
	} else if cur != nil {
		before = cur.registered // a newer connection keeps its own
	}
	a := h.authoring
	h.mu.Unlock()
	// The agent ends its authoring sessions with the connection; so does
	// the hub.
	if a != nil {
		a.AgentGone(c.agent.ID, before)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if current {
		h.absent(ctx, c.agent.ID)
	}
	if err := h.Store.TouchAgent(ctx, c.agent.ID, now); err != nil {
		h.log.Warn("record when an agent was last seen", "agent", c.agent.ID, "err", err)
	}
}

// seenEvery is how often a connected agent's last_seen_at is written.
const seenEvery = time.Minute

// touchConnected moves last_seen_at of the agents connected for another
// seenEvery since it was last written.
func (h *Hub) touchConnected(ctx context.Context, now time.Time) {
	var due []string
	h.mu.Lock()
	for id, c := range h.agents {
		if now.Sub(c.seen) >= seenEvery {
			c.seen = now
			due = append(due, id)
		}
	}
	h.mu.Unlock()
	if len(due) == 0 {
		return
	}
	if err := h.Store.TouchAgents(ctx, due, now); err != nil {
		h.log.Warn("record when agents were last seen", "agents", len(due), "err", err)
	}
}

// helloLimit bounds what an unauthenticated connection may send.
const helloLimit = 64 << 10

// Waiting pairing connections are capped overall and per address.
const (
	maxPairings        = 200
	maxPairingsPerAddr = 10
)

// pairing codes: unambiguous letters and digits, shown as XXX-XXX.
const codeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

func newCode() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	out := make([]byte, 0, 7)
	for i, x := range b {
		if i == 3 {
			out = append(out, '-')
		}
		out = append(out, codeAlphabet[int(x)%len(codeAlphabet)])
	}
	return string(out)
}

// NormalizeCode makes a typed code comparable: upper case, with the dash.
func NormalizeCode(s string) string {
	s = strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), "-", ""))
	if len(s) != 6 {
		return ""
	}
	for _, r := range s {
		if !strings.ContainsRune(codeAlphabet, r) {
			return ""
		}
	}
	return s[:3] + "-" + s[3:]
}

// pair gives the connection a code and waits for a user to approve it.
func (c *conn) pair(ctx context.Context, req *protocol.PairRequest, remote string) bool {
	addr := ClientAddress(remote)
	c.h.mu.Lock()
	perAddr := 0
	for _, w := range c.h.waiting {
		if w.addr == addr {
			perAddr++
		}
	}
	full := c.h.pairings >= maxPairings || perAddr >= maxPairingsPerAddr
	if !full {
		c.h.pairings++
		c.addr = addr
	}
	c.h.mu.Unlock()
	if full {
		c.close("too many computers are waiting to be paired; try again in a few minutes")
		return false
	}
	defer func() {
		c.h.mu.Lock()
		c.h.pairings--
		c.h.mu.Unlock()
	}()
	now := c.h.Now()
	// Shown on the approval page and in agent lists: one plain line.
	p := store.Pairing{Hostname: label(req.Hostname, 100), OS: label(req.OS, 40),
		CreatedAt: now, ExpiresAt: now.Add(c.h.PairingTTL)}
	var err error
	for range 5 {
		p.Code = newCode()
		if err = c.h.Store.CreatePairing(ctx, p); !errors.Is(err, store.ErrConflict) {
			break
		}
	}
	if err != nil {
		c.close("the hub could not make a pairing code")
		return false
	}
	c.approved = make(chan pairingResult, 1)
	c.waitingFor = p
	c.pendingID = ids.New("pnd")
	c.h.mu.Lock()
	c.h.waiting[p.Code] = c
	c.h.mu.Unlock()
	if err := c.h.Store.WaitOnPairing(ctx, p.Code, c.h.HubID, addr, c.pendingID); err != nil {
		c.h.log.Warn("record where a pairing code waits", "err", err) // approvals made on this hub still work
	}
	defer func() {
		c.h.mu.Lock()
		delete(c.h.waiting, p.Code)
		c.h.mu.Unlock()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = c.h.Store.StopWaitingOnPairing(sctx, p.Code, c.h.HubID)
	}()
	if err := c.send(ctx, protocol.Message{Type: protocol.MsgPairing, Code: p.Code, URL: c.h.BaseURL + "/pair/" + p.Code}); err != nil {
		return false
	}
	select {
	case res := <-c.approved:
		c.agent = res.agent
		return c.send(ctx, protocol.Message{Type: protocol.MsgPaired, AgentID: res.agent.ID, Name: res.agent.Name, Token: res.token}) == nil
	case <-time.After(c.h.PairingTTL):
		c.close("the pairing code expired: start the agent again for a new one")
	case _, open := <-c.frames:
		if open {
			c.close("the agent sent a message before its pairing was approved")
		}
	case <-ctx.Done():
	}
	return false
}

// ClientAddress is the host part of a request's RemoteAddr, the address
// pairing requests are counted and shown by (as the API's sign-in limit
// takes it).
func ClientAddress(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		return remote
	}
	return host
}

// Waiting is a computer waiting for its pairing code to be approved. It
// carries no code: approving takes the code the computer shows, so that
// sharing an address (NAT, a proxy) with a computer is not enough to take
// it. ID is an opaque handle that tells entries apart.
type Waiting struct {
	ID       string
	Hostname string
	OS       string
	Since    time.Time
}

// WaitingFrom lists the computers waiting on a pairing code whose
// connection comes from addr, oldest first: the ones near a user whose
// browser has that address.
func (h *Hub) WaitingFrom(addr string) []Waiting {
	h.mu.Lock()
	out := []Waiting{}
	for _, c := range h.waiting {
		if c.addr == addr {
			out = append(out, Waiting{ID: c.pendingID, Hostname: c.waitingFor.Hostname, OS: c.waitingFor.OS, Since: c.waitingFor.CreatedAt})
		}
	}
	h.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	remote, err := h.Store.RemoteWaiters(ctx, h.HubID, addr, "", h.Now())
	if err != nil {
		h.log.Warn("computers waiting at other hubs", "err", err)
	}
	for _, w := range remote {
		out = append(out, Waiting{ID: w.PendingID, Hostname: w.Hostname, OS: w.OS, Since: w.CreatedAt})
	}
	slices.SortFunc(out, func(a, b Waiting) int { return cmp.Or(a.Since.Compare(b.Since), strings.Compare(a.ID, b.ID)) })
	return out
}

// ErrPairingGone says a code is still open but its computer no longer
// waits on it (its agent exited, or the hub restarted).
var ErrPairingGone = errors.New("the computer no longer waits on this code")

// ErrNoPairing says a code is unknown, used, expired, or its computer is no
// longer waiting.
var ErrNoPairing = errors.New("no such pairing code")

// Pairing returns the computer waiting on a code.
func (h *Hub) Pairing(ctx context.Context, code string) (store.Pairing, error) {
	p, err := h.Store.OpenPairing(ctx, code, h.Now())
	if errors.Is(err, store.ErrNotFound) {
		return p, ErrNoPairing
	}
	if err != nil {
		return p, err
	}
	h.mu.Lock()
	c := h.waiting[code]
	h.mu.Unlock()
	if c == nil {
		if remote, err := h.Store.RemoteWaiters(ctx, h.HubID, "", code, h.Now()); err != nil || len(remote) == 0 {
			return p, ErrPairingGone
		}
	}
	return p, nil
}

// Approve pairs the computer waiting on code with the user: the agent gets
// its token over its waiting connection.
func (h *Hub) Approve(ctx context.Context, code, userID string) (store.Agent, error) {
	h.mu.Lock()
	_, here := h.waiting[code]
	h.mu.Unlock()
	if !here {
		return h.approveElsewhere(ctx, code, userID)
	}
	return h.approveLocal(ctx, code, userID)
}

// approveElsewhere passes an approval to the hub whose connection waits
// on the code.
func (h *Hub) approveElsewhere(ctx context.Context, code, userID string) (store.Agent, error) {
	remote, err := h.Store.RemoteWaiters(ctx, h.HubID, "", code, h.Now())
	if err != nil {
		return store.Agent{}, err
	}
	if len(remote) == 0 {
		return store.Agent{}, ErrNoPairing
	}
	r, err := h.request(ctx, remote[0].HubID, peerMsg{Kind: peerApprove, Code: code, User: userID}, approveWait+5*time.Second)
	if errors.Is(err, errPeerSilent) {
		return store.Agent{}, ErrNoPairing
	}
	if err == nil {
		err = replyErr(r)
	}
	if err != nil {
		return store.Agent{}, err
	}
	return h.Store.UserAgent(ctx, r.Agent, userID)
}

func (h *Hub) approveLocal(ctx context.Context, code, userID string) (store.Agent, error) {
	h.mu.Lock()
	c := h.waiting[code]
	h.mu.Unlock()
	if c == nil {
		return store.Agent{}, ErrNoPairing
	}
	token, digest := auth.NewToken()
	a, err := h.Store.ApprovePairing(ctx, code, ids.New("agt"), userID, digest, h.Now())
	if errors.Is(err, store.ErrNotFound) {
		return a, ErrNoPairing
	}
	if err != nil {
		return a, err
	}
	c.approved <- pairingResult{agent: a, token: token}
	// The approval answers once the agent is connected (or could not be),
	// so that the Agents page the browser shows next finds it connected
	// rather than offline until its next refresh.
	select {
	case <-c.live:
	case <-c.gone:
	case <-ctx.Done():
	case <-time.After(approveWait):
	}
	return a, nil
}

// approveWait bounds how long an approval waits for its agent to connect.
const approveWait = 5 * time.Second
