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

import (
	"context"
	"errors"
	"time"

	"github.com/testautomation/ta/hub/auth"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/protocol"
)

// ErrTokenRefused is what Config.APITokens returns, wrapped with the
// reason a person can act on, for a token it does not accept.
var ErrTokenRefused = errors.New("API token refused")

// ciAgentTTL is how long a CI agent that left without being deleted is
// kept (its command may still come back after a network break).
const ciAgentTTL = time.Hour

// ciPair makes the connection a CI command's agent, authorized by the API
// token in its pairing request.
func (c *conn) ciPair(ctx context.Context, req *protocol.PairRequest, from string) bool {
	h := c.h
	if h.APITokens == nil {
		c.refuse(ctx, "unauthorized", "this hub does not take API tokens from agents")
		return false
	}
	userID, err := h.APITokens(ctx, req.APIToken, from)
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
	a, err := h.Store.CreateEphemeralAgent(ctx, ids.New("agt"), userID, "CI on "+label(req.Hostname, 90), label(req.OS, 40), digest, h.Now())
	if err != nil {
		h.log.Error("ci agent: create", "err", err)
		c.close("the hub could not register this CI agent")
		return false
	}
	c.agent = a
	h.log.Info("ci agent joined", "agent", a.ID, "user", userID, "host", a.Name)
	return c.send(ctx, protocol.Message{Type: protocol.MsgPaired, AgentID: a.ID, Name: a.Name, Token: token}) == nil
}

// refuse tells the agent why it may not connect and closes.
func (c *conn) refuse(ctx context.Context, code, why string) {
	c.send(ctx, protocol.Message{Type: protocol.MsgError, ErrorCode: code, Error: why}) //nolint:errcheck
	c.close(why)
}

// sweepCI ends queued runs whose CI agent went away for good and removes
// CI agents whose command vanished without deleting them.
func (h *Hub) sweepCI(ctx context.Context, now time.Time) {
	runs, err := h.Store.OrphanedPinnedRuns(ctx, now.Add(-2*h.Lease))
	if err != nil {
		h.log.Error("orphaned pinned runs", "err", err)
	}
	for _, r := range runs {
		if h.Connected(r.AgentPin) {
			continue
		}
		h.finishLogged(ctx, r.ID, r.AgentID, protocol.RunResult{Status: protocol.RunError,
			Error: "the CI command that started this run (agent ci) went away before running it"})
	}
	h.mu.Lock()
	keep := make([]string, 0, len(h.agents))
	for id, c := range h.agents {
		if c.agent.Ephemeral {
			keep = append(keep, id)
		}
	}
	h.mu.Unlock()
	gone, err := h.Store.DeleteEphemeralAgents(ctx, now.Add(-ciAgentTTL), keep)
	if err != nil {
		h.log.Warn("delete CI agents that left", "err", err)
	}
	if len(gone) > 0 {
		h.log.Info("removed CI agents that left without saying so", "agents", len(gone))
	}
}
