package dispatch

// CI agents. `agent ci` joins the hub as an ephemeral agent: its hello
// asks to pair with an API token instead of a code (PairRequest.APIToken),
// the hub checks the token (Config.APITokens), creates the agent for the
// token's user at once and answers paired (id and agent token: the
// command reconnects with it after a network break) and welcome. Such an
// agent takes only the runs pinned to it (POST /api/runs agentId), never
// another run of its user nor an authoring session; the command deletes it
// when it ends (DELETE /api/agent/:id), and the sweep removes the ones
// whose command vanished.
//
// A CI agent lives no longer than its API token (DESIGN.md: "CI agents end
// with the API token that made them"): while CI agents are connected, the
// hub checks their tokens every ciRecheck against the database (so a
// revocation on any hub counts) and ends those whose token was revoked or
// expired: disconnected with the reason, removed (their agent token stops
// working), their runs ended as errors. One token has at most
// MaxCIAgentsPerToken agents, and one that ran nothing for ciIdle goes.

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/testautomation/ta/hub/auth"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// ErrTokenRefused is what Config.APITokens returns, wrapped with the
// reason a person can act on, for a token it does not accept.
var ErrTokenRefused = errors.New("API token refused")

// CIToken is an API token Config.APITokens accepted.
type CIToken struct {
	UserID  string
	TokenID string
}

// MaxCIAgentsPerToken bounds the CI agents one API token has at once (its
// agents seen within store.CIAgentActive: connected, or left a moment ago
// without being deleted): room for a pipeline's parallel jobs, not for a
// flood.
const MaxCIAgentsPerToken = 20

// CodeTooManyCIAgents refuses a CI agent beyond MaxCIAgentsPerToken.
const CodeTooManyCIAgents = "too_many_ci_agents"

// ciAgentTTL is how long a CI agent that left without being deleted is
// kept (its command may still come back after a network break).
const ciAgentTTL = time.Hour

// ciIdle is how long a connected CI agent may hold no run before it is
// removed: its command pins its runs right after joining and deletes it
// right after they end.
const ciIdle = 10 * time.Minute

// ciRecheck is how often connected CI agents' tokens are checked.
var ciRecheck = 500 * time.Millisecond

// ciState is what the hub keeps about its CI agents.
type ciState struct {
	mu       sync.Mutex
	watching bool                 // guarded by mu: the token check loop runs
	nudged   chan struct{}        // buffered: check now
	idle     map[string]time.Time // guarded by mu: agent id → first seen without a run
}

// ciPair makes the connection a CI command's agent, authorized by the API
// token in its pairing request.
func (c *conn) ciPair(ctx context.Context, req *protocol.PairRequest, from string) bool {
	h := c.h
	if h.APITokens == nil {
		c.refuse(ctx, "unauthorized", "this hub does not take API tokens from agents")
		return false
	}
	tok, err := h.APITokens(ctx, req.APIToken, from)
	if errors.Is(err, ErrTokenRefused) {
		c.refuse(ctx, "unauthorized", err.Error())
		return false
	}
	if err != nil {
		h.noteOutage()
		h.log.Warn("ci agent: cannot check its API token", "err", err)
		c.close("the hub cannot check this API token right now; it will try again")
		return false
	}
	token, digest := auth.NewToken()
	a, err := h.Store.CreateCIAgent(ctx, store.NewCIAgent{ID: ids.New("agt"), UserID: tok.UserID, TokenID: tok.TokenID,
		Name: "CI on " + label(req.Hostname, 90), OS: label(req.OS, 40), Digest: digest, Now: h.Now(), Max: MaxCIAgentsPerToken})
	switch {
	case errors.Is(err, store.ErrTokenRevoked):
		c.refuse(ctx, "unauthorized", ErrTokenRefused.Error()+": this API token was revoked or expired; create a new one in your profile")
		return false
	case errors.Is(err, store.ErrTooManyCIAgents):
		h.log.Warn("ci agent refused: its API token has too many", "user", tok.UserID, "token", tok.TokenID, "host", label(req.Hostname, 90))
		c.refuse(ctx, CodeTooManyCIAgents, "this API token already has the most CI agents one token may have at once (20): "+
			"wait for its other CI commands to end, or remove their agents on the hub's Agents page")
		return false
	case err != nil:
		h.log.Error("ci agent: create", "err", err)
		c.close("the hub could not register this CI agent")
		return false
	}
	c.agent = a
	h.log.Info("ci agent joined", "agent", a.ID, "user", tok.UserID, "token", tok.TokenID, "host", a.Name)
	return c.send(ctx, protocol.Message{Type: protocol.MsgPaired, AgentID: a.ID, Name: a.Name, Token: token}) == nil
}

// refuse tells the agent why it may not connect and closes.
func (c *conn) refuse(ctx context.Context, code, why string) {
	c.send(ctx, protocol.Message{Type: protocol.MsgError, ErrorCode: code, Error: why}) //nolint:errcheck
	c.close(why)
}

// watchCI starts checking the tokens of the CI agents connected here,
// unless that runs already; it stops when none is connected.
func (h *Hub) watchCI() {
	h.ci.mu.Lock()
	defer h.ci.mu.Unlock()
	if h.ci.nudged == nil {
		h.ci.nudged = make(chan struct{}, 1)
	}
	if !h.ci.watching {
		h.ci.watching = true
		go h.checkCITokens()
	}
}

// CITokensChanged makes the hub check its CI agents' tokens at once: an
// API token was just revoked here.
func (h *Hub) CITokensChanged() {
	h.ci.mu.Lock()
	defer h.ci.mu.Unlock()
	if h.ci.nudged == nil {
		return
	}
	select {
	case h.ci.nudged <- struct{}{}:
	default:
	}
}

func (h *Hub) checkCITokens() {
	t := time.NewTicker(ciRecheck)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-h.ci.nudged:
		}
		connected := h.connectedCI()
		if len(connected) == 0 {
			h.ci.mu.Lock()
			// Checked again under the lock: a CI agent registering now
			// calls watchCI after it is listed, and finds this loop gone.
			if connected = h.connectedCI(); len(connected) == 0 {
				h.ci.watching = false
				h.ci.mu.Unlock()
				return
			}
			h.ci.mu.Unlock()
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		ended, err := h.Store.EndedCIAgents(ctx, connected, h.Now())
		if err != nil {
			h.log.Warn("check the API tokens of connected CI agents", "agents", len(connected), "err", err)
		}
		for _, id := range ended {
			h.endCIAgent(ctx, id, "the API token that started this CI agent was revoked or expired: create a new one in your profile")
		}
		cancel()
	}
}

// connectedCI lists the CI agents connected here.
func (h *Hub) connectedCI() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for id, c := range h.agents {
		if c.agent.Ephemeral {
			out = append(out, id)
		}
	}
	return out
}

// endCIAgent ends a CI agent's runs as errors (nothing else may run
// them), removes it, so its agent token stops working, and then
// disconnects it with the reason: what it hears is already true.
func (h *Hub) endCIAgent(ctx context.Context, id, why string) {
	h.mu.Lock()
	c := h.agents[id]
	h.mu.Unlock()
	if c != nil {
		defer func() { go c.refuse(context.Background(), "unauthorized", why) }()
	}
	h.log.Info("ci agent ended", "agent", id, "why", why)
	runs, err := h.Store.CIAgentRuns(ctx, id)
	if err != nil {
		h.log.Error("runs of an ended CI agent", "agent", id, "err", err)
	}
	for _, r := range runs {
		if c != nil {
			c.release(r.ID)
		}
		h.finishLogged(ctx, r.ID, r.AgentID, protocol.RunResult{Status: protocol.RunError, Error: why})
	}
	if err := h.Store.DeleteCIAgent(ctx, id); err != nil {
		h.log.Error("remove an ended CI agent", "agent", id, "err", err)
	}
	h.ci.mu.Lock()
	delete(h.ci.idle, id)
	h.ci.mu.Unlock()
}

// sweepCI ends queued runs whose CI agent went away for good, removes CI
// agents whose command vanished without deleting them, and ends connected
// ones that ran nothing for ciIdle.
func (h *Hub) sweepCI(ctx context.Context, now time.Time) {
	runs, err := h.Store.OrphanedPinnedRuns(ctx, now.Add(-2*h.Lease))
	if err != nil {
		h.log.Error("orphaned pinned runs", "err", err)
	}
	for _, r := range runs {
		if _, elsewhere := h.remote(r.AgentPin); elsewhere || h.Connected(r.AgentPin) {
			continue
		}
		h.finishLogged(ctx, r.ID, r.AgentID, protocol.RunResult{Status: protocol.RunError,
			Error: "the CI command that started this run (agent ci) went away before running it"})
	}
	keep := h.connectedCI()
	h.remoteAgents(func(m map[string]store.Presence) {
		for id, p := range m {
			if p.Ephemeral {
				keep = append(keep, id) // connected to another hub
			}
		}
	})
	gone, err := h.Store.DeleteEphemeralAgents(ctx, now.Add(-ciAgentTTL), keep)
	if err != nil {
		h.log.Warn("delete CI agents that left", "err", err)
	}
	if len(gone) > 0 {
		h.log.Info("removed CI agents that left without saying so", "agents", len(gone))
	}
}

// sweepIdleCI ends the connected CI agents that have held no run for
// ciIdle: a command that hangs, or a token used to park agents.
func (h *Hub) sweepIdleCI(ctx context.Context, now time.Time, connected []string) {
	if len(connected) == 0 {
		return
	}
	idle, err := h.Store.IdleCIAgents(ctx, connected)
	if err != nil {
		h.log.Warn("idle CI agents", "err", err)
		return
	}
	var due []string
	h.ci.mu.Lock()
	was := h.ci.idle
	h.ci.idle = make(map[string]time.Time, len(idle))
	for _, id := range idle {
		since, ok := was[id]
		if !ok {
			since = now
		}
		h.ci.idle[id] = since
		if now.Sub(since) >= ciIdle {
			due = append(due, id)
		}
	}
	h.ci.mu.Unlock()
	for _, id := range due {
		h.endCIAgent(ctx, id, "this CI agent ran nothing for "+ciIdle.String()+" and was removed: start the CI command again")
	}
}
