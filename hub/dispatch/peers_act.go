package dispatch

// What a hub does when another hub tells it something (peers.go), and
// the presence this hub keeps for the others to read.

import (
	"context"
	"time"

	"github.com/coder/websocket"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

func (h *Hub) onPeer(ctx context.Context, m peerMsg) {
	switch m.Kind {
	case peerKick:
		h.kickLocal(ctx, m.User)
	case peerEvents:
		for _, id := range m.Runs {
			h.wakeLocal(id)
		}
	case peerCancel:
		if c := h.local(m.Agent); c != nil {
			_ = c.send(ctx, protocol.Message{Type: protocol.MsgCancel, RunID: m.Run})
		}
	case peerDrop:
		h.disconnectLocal(m.Agent)
	case peerInfo:
		h.setInfoLocal(ctx, m.Agent, m.Name, m.Labels)
	case peerPresence:
		h.askPresence()
	case peerTaken:
		h.mu.Lock()
		c := h.agents[m.Agent]
		h.mu.Unlock()
		// A connection registered here after the other hub's is the newer
		// one: the agent came back.
		if c != nil && c.registered.Before(time.Unix(0, m.At)) {
			h.log.Info("agent connected to another hub: closing its old connection here", "agent", m.Agent, "hub", m.From)
			go c.ws.Close(websocket.StatusGoingAway, "replaced by a connection to another hub") //nolint:errcheck
		}
		h.askPresence()
	case peerProbe:
		h.reply(ctx, m, h.probeLocal(ctx, m.Agent), nil)
	case peerApprove:
		a, err := h.approveLocal(ctx, m.Code, m.User)
		r := peerMsg{Kind: peerReply, To: m.From, Req: m.Req, OK: err == nil, Agent: a.ID}
		if err != nil {
			r.Err, r.ErrCode = err.Error(), codeOfErr(err)
		}
		h.publish(ctx, r)
	case peerRotate:
		err := h.rotateLocal(ctx, m.Agent)
		h.reply(ctx, m, err == nil, err)
	case peerReply:
		h.peers.mu.Lock()
		ch := h.peers.replies[m.Req]
		h.peers.mu.Unlock()
		if ch != nil {
			select {
			case ch <- m:
			default:
			}
		}
	}
}

// local is the agent's connection on this hub, or nil.
func (h *Hub) local(agentID string) *conn {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.agents[agentID]
}

// remote is where another live hub holds the agent, if one does.
func (h *Hub) remote(agentID string) (store.Presence, bool) {
	h.peers.mu.Lock()
	defer h.peers.mu.Unlock()
	p, ok := h.peers.remote[agentID]
	return p, ok
}

// probeLocal says whether the agent is connected here and answering; a
// connection that does not answer is closed, as the other hub's admission
// of the agent's new connection is about to replace it.
func (h *Hub) probeLocal(ctx context.Context, agentID string) bool {
	c := h.local(agentID)
	if c == nil {
		return false
	}
	h.mu.Lock()
	busy := len(c.runs) > 0
	h.mu.Unlock()
	if busy && time.Since(c.lastRead()) < h.Stall {
		return true
	}
	wait := answerWait
	if busy {
		wait = h.Stall
	}
	if c.answers(ctx, wait) {
		return true
	}
	go c.ws.Close(websocket.StatusGoingAway, "no answer; replaced by a new connection") //nolint:errcheck
	return false
}

// connectedElsewhere is admit's question to the other hubs: is this agent
// connected to one of them and answering? A hub that does not answer in
// time is dead (killed, cut off): the newcomer is admitted.
func (c *conn) connectedElsewhere(ctx context.Context) (string, bool) {
	h := c.h
	h.readPresence(ctx) // the snapshot may be a beat old: the agent may have just left that hub
	p, ok := h.remote(c.agent.ID)
	if !ok {
		return "", false
	}
	r, err := h.request(ctx, p.HubID, peerMsg{Kind: peerProbe, Agent: c.agent.ID}, h.Stall+answerWait)
	if err != nil {
		h.log.Info("agent reconnected; the hub it was connected to does not answer", "agent", c.agent.ID, "hub", p.HubID)
		return "", false
	}
	return p.Addr, r.OK
}

// Presence: what the other hubs read of the agents connected here.

// present records the agent's new connection here, and tells the hub
// that held it before, if another one did, that its connection is stale.
func (h *Hub) present(ctx context.Context, c *conn) {
	h.mu.Lock()
	p := store.Presence{AgentID: c.agent.ID, HubID: h.HubID, UserID: c.agent.UserID, Headless: c.agent.Headless, Paused: c.paused,
		Ephemeral: c.agent.Ephemeral, Busy: len(c.runs), Parallel: c.parallel, Addr: c.addr}
	h.mu.Unlock()
	if err := h.Store.PutPresence(ctx, p); err != nil {
		h.log.Warn("record where an agent is connected", "agent", c.agent.ID, "err", err)
	}
	h.publish(ctx, peerMsg{Kind: peerTaken, Agent: c.agent.ID})
}

// absent forgets the agent's connection here.
func (h *Hub) absent(ctx context.Context, agentID string) {
	if err := h.Store.DropPresence(ctx, agentID, h.HubID); err != nil {
		h.log.Warn("record that an agent left", "agent", agentID, "err", err)
	}
	h.publish(ctx, peerMsg{Kind: peerPresence, Agent: agentID})
}

// loadChanged has the agent's load (runs held, paused) written for the
// other hubs soon; several changes close together make one write.
func (h *Hub) loadChanged(agentID string) {
	if !h.peers.running.Load() {
		return
	}
	h.peers.mu.Lock()
	if h.peers.load == nil {
		h.peers.load = map[string]bool{}
	}
	h.peers.load[agentID] = true
	h.peers.mu.Unlock()
	select {
	case h.peers.loadUp <- struct{}{}:
	default:
	}
}

func (h *Hub) flushLoads(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-h.peers.loadUp:
		}
		time.Sleep(wakeBatch)
		h.peers.mu.Lock()
		due := h.peers.load
		h.peers.load = nil
		h.peers.mu.Unlock()
		for id := range due {
			h.mu.Lock()
			c := h.agents[id]
			busy, paused := 0, false
			if c != nil {
				busy, paused = len(c.runs), c.paused
			}
			h.mu.Unlock()
			if c == nil {
				continue
			}
			if err := h.Store.SetPresenceLoad(ctx, id, h.HubID, busy, paused); err != nil && ctx.Err() == nil {
				h.log.Warn("record an agent's load", "agent", id, "err", err)
			}
		}
		if len(due) > 0 {
			h.publish(ctx, peerMsg{Kind: peerPresence})
		}
	}
}

// remoteCandidates adds the user's agents on other hubs to decideAgent's
// candidates, for the answers that concern every hub (why a run waits,
// whether an agent anywhere serves it); runs are handed out by the hub
// holding the agent.
func (h *Hub) remoteCandidates(userID string) []candidate {
	var cs []candidate
	h.remoteAgents(func(m map[string]store.Presence) {
		for _, p := range m {
			if p.UserID == userID {
				cs = append(cs, candidate{id: p.AgentID, userID: p.UserID, ephemeral: p.Ephemeral, paused: p.Paused,
					display: !p.Headless, labels: p.Labels, busy: p.Busy, parallel: max(p.Parallel, 1)})
			}
		}
	})
	return cs
}

// AuthorHub says where a new authoring session of the user goes: here
// (local) when an agent of the user is connected here, else the address
// of a live hub holding one (the one with a display first, then the least
// busy); ok is false when none is connected anywhere.
func (h *Hub) AuthorHub(userID string) (url string, local, ok bool) {
	if _, ok := h.AuthorAgent(userID); ok {
		return "", true, true
	}
	var best *store.Presence
	h.remoteAgents(func(m map[string]store.Presence) {
		for _, p := range m {
			if p.UserID != userID || p.Ephemeral {
				continue
			}
			if best == nil || (best.Headless && !p.Headless) || (best.Headless == p.Headless && p.Busy < best.Busy) {
				p := p
				best = &p
			}
		}
	})
	if best == nil {
		return "", false, false
	}
	return best.HubURL, false, true
}
