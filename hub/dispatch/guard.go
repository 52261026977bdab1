package dispatch

// One token, one connection (protocol/agent.go). An agent's token is all a
// connection needs to become that agent and be handed its owner's runs,
// with their secrets; one copied off the computer must not take the place
// of the real agent. So a connection with the token of an agent that is
// connected and answering is refused, the attempt is kept for the owner's
// Agents page, and the owner can rotate the token over the live
// connection (RotateToken).

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/testautomation/ta/hub/auth"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/protocol"
)

// answerWait is how long a connected agent that holds no run has to
// answer the ping a second connection with its token sets off. An agent
// whose network dropped without the hub noticing does not answer, and its
// reconnection takes over after this long. One that holds runs may be busy
// sending a large artifact, with the pong queued behind it: it counts as
// alive while it sent anything within Stall, and else gets Stall to answer.
const answerWait = 2 * time.Second

// admit says whether a connection that showed its agent's token may
// become that agent's connection: yes when the agent has no connection
// here, or the one it has does not answer a ping (it is dead). Otherwise
// the newcomer is refused with agent_connected, the attempt is recorded on
// the agent and logged, and the first connection is not touched. One
// connection at a time is admitted per agent (h.admitting, until
// register or unreserve): two hellos with the same token cannot both pass.
func (c *conn) admit(ctx context.Context) bool {
	h := c.h
	h.mu.Lock()
	if other := h.admitting[c.agent.ID]; other != nil && other != c {
		h.mu.Unlock()
		c.refuseSecond(ctx, other.addr)
		return false
	}
	old := h.agents[c.agent.ID]
	busy := old != nil && len(old.runs) > 0
	h.admitting[c.agent.ID] = c
	h.mu.Unlock()
	if old == nil {
		if from, alive := c.connectedElsewhere(ctx); alive {
			h.unreserve(c)
			c.refuseSecond(ctx, from)
			return false
		}
		return true
	}
	wait := answerWait
	if busy {
		wait = h.Stall
	}
	if !(busy && time.Since(old.lastRead()) < h.Stall) && !old.answers(ctx, wait) {
		if ctx.Err() != nil {
			h.unreserve(c)
			return false // the newcomer left while the hub waited
		}
		h.log.Info("agent reconnected; its previous connection no longer answers", "agent", c.agent.ID, "from", c.addr)
		return true
	}
	h.unreserve(c)
	c.refuseSecond(ctx, old.addr)
	return false
}

// refuseSecond refuses a connection with the token of an agent that is
// connected (from connected) or being admitted, and records the attempt.
func (c *conn) refuseSecond(ctx context.Context, connected string) {
	h := c.h
	h.log.Warn("refused a second connection with the token of a connected agent", "agent", c.agent.ID, "user", c.agent.UserID,
		"from", c.addr, "connected from", connected)
	if err := h.Store.RefuseAgentConnection(ctx, c.agent.ID, h.Now(), c.addr); err != nil {
		h.log.Warn("record a refused agent connection", "agent", c.agent.ID, "err", err)
	}
	c.refuse(ctx, protocol.ErrAgentConnected, "this computer's agent is already connected to the hub with this token and answering, "+
		"so this connection was refused (its owner sees the attempt on the Agents page). If another copy of the agent runs on this "+
		"computer, stop one of them; this one keeps trying and gets in once the other connection ends")
}

// unreserve ends c's admission (register ends it too).
func (h *Hub) unreserve(c *conn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.admitting[c.agent.ID] == c {
		delete(h.admitting, c.agent.ID)
	}
}

// answers reports whether the connection answers a ping within wait.
func (c *conn) answers(ctx context.Context, wait time.Duration) bool {
	pctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	return c.ws.Ping(pctx) == nil
}

// lastRead is when the connection's reader last took a message.
func (c *conn) lastRead() time.Time { return time.Unix(0, c.readAt.Load()) }

// ErrAgentAway says an agent is not connected to this hub (or left during
// the rotation of its token).
var ErrAgentAway = errors.New("the agent is not connected")

// ErrTokenNotSaved wraps why an agent did not store its new token.
var ErrTokenNotSaved = errors.New("the agent did not store its new token")

// ErrRotationReplaced says a newer rotation of the same agent's token was
// asked for while this one waited: the newer one counts.
var ErrRotationReplaced = errors.New("a newer rotation of this token replaced this one")

// rotateWait is how long RotateToken waits for the agent to confirm.
const rotateWait = 10 * time.Second

// rotation is a token offered to a connected agent; done gets the outcome
// once the agent answers.
type rotation struct {
	digest []byte
	done   chan error // buffered: the answer never waits for the caller
}

// RotateToken gives a connected agent a new token over its connection
// and, once the agent has stored it, makes it the only one: the old token
// stops working. Until then the old token works (the new one too: an
// agent whose answer is lost confirms by connecting with it).
func (h *Hub) RotateToken(ctx context.Context, agentID string) error {
	if h.local(agentID) == nil {
		p, ok := h.remote(agentID)
		if !ok {
			return ErrAgentAway
		}
		r, err := h.request(ctx, p.HubID, peerMsg{Kind: peerRotate, Agent: agentID}, rotateWait+5*time.Second)
		if errors.Is(err, errPeerSilent) {
			return ErrAgentAway
		}
		if err != nil {
			return err
		}
		return replyErr(r)
	}
	return h.rotateLocal(ctx, agentID)
}

func (h *Hub) rotateLocal(ctx context.Context, agentID string) error {
	h.mu.Lock()
	c := h.agents[agentID]
	h.mu.Unlock()
	if c == nil {
		return ErrAgentAway
	}
	token, digest := auth.NewToken()
	if err := h.Store.OfferAgentToken(ctx, agentID, digest); err != nil {
		return err
	}
	reqID := ids.New("rot")
	r := &rotation{digest: digest, done: make(chan error, 1)}
	h.mu.Lock()
	if c.rotations == nil {
		c.rotations = map[string]*rotation{}
	}
	c.rotations[reqID] = r
	h.mu.Unlock()
	if err := c.send(ctx, protocol.Message{Type: protocol.MsgToken, ReqID: reqID, AgentID: agentID, Token: token}); err != nil {
		return ErrAgentAway
	}
	select {
	case err := <-r.done:
		return err
	case <-c.gone:
		return ErrAgentAway
	case <-time.After(rotateWait):
		return fmt.Errorf("%w: it did not answer within %s; its old token works until it does", ErrTokenNotSaved, rotateWait)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// tokenSaved takes an agent's answer to a rotation: the offered token
// becomes its only one. A late answer (RotateToken stopped waiting) still
// counts.
func (c *conn) tokenSaved(ctx context.Context, m protocol.Message) {
	h := c.h
	h.mu.Lock()
	r := c.rotations[m.ReqID]
	delete(c.rotations, m.ReqID)
	h.mu.Unlock()
	if r == nil {
		return
	}
	var err error
	if m.Error != "" {
		err = fmt.Errorf("%w: %s", ErrTokenNotSaved, label(m.Error, 300))
	} else if ok, serr := h.Store.ConfirmAgentToken(ctx, c.agent.ID, r.digest); serr != nil {
		err = serr
	} else if !ok {
		err = ErrRotationReplaced
	} else {
		h.log.Info("agent token rotated: the old one no longer works", "agent", c.agent.ID, "user", c.agent.UserID)
	}
	r.done <- err
}
