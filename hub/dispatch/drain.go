package dispatch

import (
	"context"
	"time"

	"github.com/coder/websocket"
)

// drainReason is what a stopping hub tells its agents as it closes their
// connections with 1012 (service restart): connect to another hub now.
const drainReason = "this hub is stopping: connect to another"

// Drain stops this hub taking agents and runs and sends its agents to
// the other hubs: each connection is closed with 1012, which the agent
// takes as "reconnect now, elsewhere" (docs/several-hubs.md). The runs
// they hold go on: they reconnect, and the hub they reach takes them
// over. Drain returns once no agent is connected here, or when ctx ends.
// Afterwards the hub is listed as gone, so the others stop counting on
// it at once instead of after HubStale.
func (h *Hub) Drain(ctx context.Context) {
	h.draining.Store(true)
	_ = h.Store.BeatHub(ctx, h.HubID, h.HubURL, true)
	h.mu.Lock()
	conns := make([]*conn, 0, len(h.agents)+len(h.waiting))
	for _, c := range h.agents {
		conns = append(conns, c)
	}
	for _, c := range h.waiting {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	if len(conns) > 0 {
		h.log.Info("draining: closing the agents' connections so they reconnect to another hub", "agents", len(conns))
	}
	for _, c := range conns {
		go c.ws.Close(websocket.StatusServiceRestart, drainReason) //nolint:errcheck
	}
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		h.mu.Lock()
		n := len(h.agents)
		h.mu.Unlock()
		if n == 0 {
			break
		}
		select {
		case <-ctx.Done():
			h.log.Warn("draining: agents still connected at the end of the drain time", "agents", n)
			for _, c := range conns {
				c.ws.CloseNow()
			}
			n = 0
		case <-t.C:
		}
		if n == 0 {
			break
		}
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := h.Store.RemoveHub(rctx, h.HubID); err != nil {
		h.log.Warn("draining: remove this hub from the list", "err", err)
	}
	h.publish(rctx, peerMsg{Kind: peerPresence})
}

// Draining reports whether this hub is stopping (its health check says
// so, for load balancers).
func (h *Hub) Draining() bool { return h.draining.Load() }

// Ready is closed once this hub listens to the others (tests wait on it).
func (h *Hub) Ready() <-chan struct{} { return h.peers.ready }
