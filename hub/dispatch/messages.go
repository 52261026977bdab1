package dispatch

import (
	"context"
	"encoding/json"
	"time"

	"github.com/coder/websocket"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// agentKinds are the event kinds an agent may send; anything else (a
// newline in a kind would forge SSE frames) is dropped.
var agentKinds = map[protocol.EventKind]bool{
	protocol.RunStarted: true, protocol.StepStarted: true, protocol.StepRetry: true, protocol.StepFinished: true,
	protocol.ArtifactMade: true, protocol.LogLine: true, protocol.RunFinished: true,
}

// maxSeq bounds event sequence numbers from an agent.
const maxSeq = 1 << 30

// artifactTypes are the content types an artifact may be served with;
// others are stored as application/octet-stream.
var artifactTypes = map[string]bool{
	"image/png": true, "image/jpeg": true, "image/webp": true, "text/plain": true, "application/json": true, "application/zip": true,
}

// readLoop handles what a connected agent sends until it goes away.
func (c *conn) readLoop(ctx context.Context) {
	for f := range c.frames {
		if f.typ != websocket.MessageText {
			c.h.log.Warn("agent sent a binary frame without artifact metadata", "agent", c.agent.ID)
			continue
		}
		var m protocol.Message
		if err := json.Unmarshal(f.data, &m); err != nil {
			c.h.log.Warn("agent sent unreadable JSON", "agent", c.agent.ID, "err", err)
			continue
		}
		if err := c.handle(ctx, m); err != nil {
			c.h.log.Error("agent message", "agent", c.agent.ID, "type", m.Type, "run", m.RunID, "err", err)
		}
	}
}

func (c *conn) handle(ctx context.Context, m protocol.Message) error {
	hr, ok := c.held(ctx, m.RunID)
	if !ok {
		if m.Type == protocol.MsgArtifact {
			<-c.frames // drop its content
		}
		// A run the hub took back (lease lapsed, cancelled): tell the agent.
		if m.Type != protocol.MsgFinish && m.RunID != "" {
			return c.send(ctx, protocol.Message{Type: protocol.MsgCancel, RunID: m.RunID})
		}
		return nil
	}
	h := c.h
	switch m.Type {
	case protocol.MsgAccept, protocol.MsgRenew:
		if m.Type == protocol.MsgAccept {
			if err := h.Store.StartRun(ctx, m.RunID, c.agent.ID, h.Now()); err != nil {
				return err
			}
		} else if _, err := h.Store.RenewLease(ctx, m.RunID, c.agent.ID, h.Now().Add(h.Lease)); err != nil {
			return err
		}
		// A cancel asked for while the agent was away reaches it now.
		if r, err := h.Store.Run(ctx, m.RunID); err == nil && r.CancelRequested {
			return c.send(ctx, protocol.Message{Type: protocol.MsgCancel, RunID: m.RunID})
		}
		return nil
	case protocol.MsgEvent:
		if m.Event == nil || m.Event.Seq <= 0 || m.Event.Seq > maxSeq || !agentKinds[m.Event.Kind] {
			return nil // not an event this hub stores
		}
		e := *m.Event
		e.RunID = m.RunID
		if !artifactTypes[e.ContentType] && e.ContentType != "" {
			e.ContentType = "application/octet-stream"
		}
		if e.Time.IsZero() {
			e.Time = h.Now().UTC()
		}
		hr.mask.event(&e)
		if e.Kind == protocol.RunFinished {
			c.h.mu.Lock()
			hr.finished = &e
			c.h.mu.Unlock()
			return nil
		}
		if e.Kind == protocol.RunStarted {
			if err := h.Store.StartRun(ctx, m.RunID, c.agent.ID, h.Now()); err != nil {
				return err
			}
		}
		data, _ := json.Marshal(e)
		if _, err := h.Store.AddEvent(ctx, m.RunID, e.Seq, string(e.Kind), data); err != nil {
			return err
		}
		_, err := h.Store.RenewLease(ctx, m.RunID, c.agent.ID, h.Now().Add(h.Lease))
		h.wake(m.RunID)
		return err
	case protocol.MsgArtifact:
		return c.artifact(ctx, m, hr)
	case protocol.MsgFinish:
		if m.Result == nil {
			return nil
		}
		res := *m.Result
		if !protocol.Final(res.Status) {
			res.Status = protocol.RunError
		}
		hr.mask.result(&res)
		c.h.mu.Lock()
		final := hr.finished
		c.h.mu.Unlock()
		h.finish(ctx, m.RunID, c.agent.ID, res, final)
		c.release(m.RunID)
		go h.Kick(context.WithoutCancel(ctx), hr.userID)
	}
	return nil
}

// artifact stores the binary frame that follows artifact metadata.
func (c *conn) artifact(ctx context.Context, m protocol.Message, hr *heldRun) error {
	var f frame
	select {
	case f = <-c.frames:
	case <-time.After(time.Minute):
		return nil
	}
	a := m.Artifact
	if a == nil || f.typ != websocket.MessageBinary || len(f.data) > protocol.MaxArtifact {
		return nil
	}
	name := hr.mask.str(a.Name)
	if !protocol.ValidArtifactName(name) {
		c.h.log.Warn("agent sent an artifact with an unsafe name", "run", m.RunID)
		return nil
	}
	ct := a.ContentType
	if !artifactTypes[ct] {
		ct = "application/octet-stream"
	}
	if err := c.h.Artifacts.Put(ctx, m.RunID, name, f.data); err != nil {
		return err
	}
	return c.h.Store.AddArtifact(ctx, m.RunID, store.ArtifactRow{Name: name, ContentType: ct, Size: int64(len(f.data)), Step: a.Step})
}
