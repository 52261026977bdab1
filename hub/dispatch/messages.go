package dispatch

import (
	"context"
	"encoding/json"
	"time"

	"github.com/coder/websocket"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

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
	case protocol.MsgAccept:
		return h.Store.StartRun(ctx, m.RunID, c.agent.ID, h.Now())
	case protocol.MsgRenew:
		_, err := h.Store.RenewLease(ctx, m.RunID, c.agent.ID, h.Now().Add(h.Lease))
		return err
	case protocol.MsgEvent:
		if m.Event == nil || m.Event.Seq <= 0 {
			return nil
		}
		e := *m.Event
		e.RunID = m.RunID
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
	if ct == "" {
		ct = "application/octet-stream"
	}
	if err := c.h.Artifacts.Put(ctx, m.RunID, name, f.data); err != nil {
		return err
	}
	return c.h.Store.AddArtifact(ctx, m.RunID, store.ArtifactRow{Name: name, ContentType: ct, Size: int64(len(f.data)), Step: a.Step})
}
