package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
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
	protocol.RowStarted: true, protocol.RowFinished: true, protocol.RunRetry: true,
}

// maxRow bounds a data-driven run's row numbers (a data set holds at most
// 10,000 rows).
const maxRow = 100_000

// badRow reports a row number an agent may not send.
func badRow(row *int) bool { return row != nil && (*row < 0 || *row > maxRow) }

// maxSeq bounds event sequence numbers from an agent.
const maxSeq = 1 << 30

// artifactTypes are the content types any artifact may be served with;
// others are stored as application/octet-stream, but for a trace's
// (artifactType, trace.go).
var artifactTypes = map[string]bool{
	"image/png": true, "image/jpeg": true, "image/webp": true, "text/plain": true, "application/zip": true,
}

// ackEvery bounds how many stored messages wait for an ack while more
// frames are queued; an idle moment acks at once.
const ackEvery = 64

// errGone says the agent's connection ended while a message waited to be
// stored: it stays unacknowledged and the agent sends it again.
var errGone = errors.New("the agent's connection ended")

// readLoop handles what a connected agent sends until it goes away, in
// order, and acknowledges each message with an ID once it is stored.
func (c *conn) readLoop(ctx context.Context) {
	var stored, acked int64
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
		var content *frame
		if m.Type == protocol.MsgArtifact || (m.Type == protocol.MsgAuthorPreview || m.Type == protocol.MsgLiveEvent) && m.Artifact != nil {
			next, ok := c.nextFrame()
			if !ok {
				return
			}
			content = &next
		}
		if m.Type == protocol.MsgPause {
			c.h.mu.Lock()
			c.paused = m.Paused
			c.h.mu.Unlock()
			c.h.loadChanged(c.agent.ID)
			c.h.log.Info("agent paused", "agent", c.agent.ID, "paused", m.Paused)
			if !m.Paused {
				go c.h.kickLocal(context.WithoutCancel(ctx), c.agent.UserID)
			}
			continue
		}
		if m.Type == protocol.MsgTokenSaved {
			c.tokenSaved(ctx, m)
			continue
		}
		if authoringFromAgent(m.Type) {
			// Authoring messages are live, kept in memory and never
			// acknowledged (protocol/authoring.go).
			if a := c.h.authoringSink(); a != nil {
				var data []byte
				if content != nil && content.typ == websocket.MessageBinary {
					data = content.data
				}
				a.FromAgent(c.agent.ID, m, data)
			}
			continue
		}
		if err := c.handleStored(ctx, m, content); err != nil {
			return // gone: nothing after it is acknowledged
		}
		if m.ID > stored {
			stored = m.ID
		}
		if stored > acked && (len(c.frames) == 0 || stored-acked >= ackEvery) {
			if c.send(ctx, protocol.Message{Type: protocol.MsgAck, Ack: stored}) != nil {
				return
			}
			acked = stored
		}
	}
}

// nextFrame waits for the binary frame that follows artifact metadata.
func (c *conn) nextFrame() (frame, bool) {
	select {
	case f, ok := <-c.frames:
		return f, ok
	case <-time.After(time.Minute):
		return frame{}, false
	}
}

// handleStored handles a message, trying again while the database cannot
// take it, until it is stored, refused for good, or the agent is gone.
func (c *conn) handleStored(ctx context.Context, m protocol.Message, content *frame) error {
	wait := 100 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := c.handle(ctx, m, content)
		if err == nil {
			return nil
		}
		if !store.Transient(err) {
			c.h.log.Error("agent message refused", "agent", c.agent.ID, "type", m.Type, "run", m.RunID, "err", err)
			return nil
		}
		c.h.noteOutage()
		if attempt == 1 || attempt%20 == 0 {
			c.h.log.Warn("cannot store an agent's message yet; trying again", "agent", c.agent.ID, "type", m.Type,
				"run", m.RunID, "attempt", attempt, "err", err)
		}
		select {
		case <-c.gone:
			return errGone
		case <-ctx.Done():
			return errGone
		case <-time.After(wait):
		}
		wait = min(wait*2, 5*time.Second)
	}
}

func (c *conn) handle(ctx context.Context, m protocol.Message, content *frame) error {
	hr, ok, err := c.held(ctx, m.RunID)
	if err != nil {
		return err
	}
	if !ok {
		// A run the hub took back (lease lapsed, cancelled, over its
		// limits): tell the agent, once per connection.
		if m.Type != protocol.MsgFinish && m.RunID != "" && !c.told[m.RunID] {
			c.told[m.RunID] = true
			return c.send(ctx, protocol.Message{Type: protocol.MsgCancel, RunID: m.RunID})
		}
		return nil
	}
	h := c.h
	switch m.Type {
	case protocol.MsgAccept:
		if err := h.Store.StartRun(ctx, m.RunID, c.agent.ID, h.Now()); err != nil {
			return err
		}
		return c.cancelIfAsked(ctx, m.RunID)
	case protocol.MsgRenew:
		if _, err := h.Store.RenewLease(ctx, m.RunID, c.agent.ID, h.Now().Add(h.Lease)); err != nil {
			return err
		}
		return c.cancelIfAsked(ctx, m.RunID)
	case protocol.MsgEvent:
		return c.event(ctx, m, hr)
	case protocol.MsgArtifact:
		return c.artifact(ctx, m, hr, content)
	case protocol.MsgFinish:
		if m.Result == nil {
			return nil
		}
		res := *m.Result
		hr.mask.result(&res)
		if !protocol.Final(res.Status) {
			res.Status = protocol.RunError
		}
		why := hr.shape.checkResult(res)
		if why == "" {
			why = hr.shape.checkRetries(res)
		}
		if why != "" {
			return c.misreport(ctx, m.RunID, hr, why)
		}
		hr.shape.fillResult(&res)
		hr.shape.fillAttempts(&res)
		c.h.mu.Lock()
		final := hr.finished
		c.h.mu.Unlock()
		if _, err := h.finish(ctx, m.RunID, c.agent.ID, res, final); err != nil {
			return err
		}
		c.release(m.RunID)
		go h.kickLocal(context.WithoutCancel(ctx), hr.userID)
	}
	return nil
}

// cancelIfAsked passes on a cancel asked for while the agent was away.
func (c *conn) cancelIfAsked(ctx context.Context, runID string) error {
	r, err := c.h.Store.Run(ctx, runID)
	if err != nil {
		return err
	}
	if r.CancelRequested {
		return c.send(ctx, protocol.Message{Type: protocol.MsgCancel, RunID: runID})
	}
	return nil
}

func (c *conn) event(ctx context.Context, m protocol.Message, hr *heldRun) error {
	if m.Event == nil || m.Event.Seq <= 0 || m.Event.Seq > maxSeq || !agentKinds[m.Event.Kind] ||
		badRow(m.Event.Row) {
		return nil // not an event this hub stores
	}
	h := c.h
	e := *m.Event
	e.RunID = m.RunID
	hr.mask.event(&e)
	if e.ContentType != "" {
		e.ContentType = artifactType(e.Name, e.ContentType)
	}
	if e.Time.IsZero() {
		e.Time = h.Now().UTC()
	}
	if why := hr.shape.checkEvent(e); why != "" {
		return c.misreport(ctx, m.RunID, hr, why)
	}
	hr.shape.fillEvent(&e)
	if e.Kind == protocol.RunFinished {
		h.mu.Lock()
		hr.finished = &e
		h.mu.Unlock()
		return nil
	}
	if e.Kind == protocol.RunStarted {
		if err := h.Store.StartRun(ctx, m.RunID, c.agent.ID, h.Now()); err != nil {
			return err
		}
	}
	data, _ := json.Marshal(e)
	got, err := h.Store.AddEventWithin(ctx, m.RunID, e.Seq, string(e.Kind), data, h.Limits)
	if err != nil {
		return err
	}
	if got == store.StoredNew && e.Kind == protocol.StepFinished && e.DurationMs != nil {
		h.Metrics.StepFinished(e.StepType, e.Status, time.Duration(*e.DurationMs)*time.Millisecond)
	}
	if got == store.StoredOver {
		return c.overLimit(ctx, m.RunID, fmt.Sprintf("the run sent more than %d events or %d MiB of them, the hub's limit for one run",
			h.Limits.Events, h.Limits.EventBytes>>20))
	}
	h.wake(m.RunID)
	return nil
}

// artifact stores the binary frame that follows artifact metadata.
func (c *conn) artifact(ctx context.Context, m protocol.Message, hr *heldRun, f *frame) error {
	a := m.Artifact
	if a == nil || f == nil || f.typ != websocket.MessageBinary || len(f.data) > protocol.MaxArtifact {
		return nil
	}
	name := hr.mask.scrub(a.Name)
	if badRow(a.Row) {
		return nil
	}
	if a.Row != nil {
		// A row's artifacts carry its prefix, so rows never overwrite
		// each other's screenshots.
		if prefix := protocol.RowArtifact(*a.Row, ""); !strings.HasPrefix(name, prefix) {
			name = prefix + name
		}
	}
	if name = hr.shape.attemptArtifactName(name, *a); name == "" {
		return c.misreport(ctx, m.RunID, hr, fmt.Sprintf("an artifact names attempt %d, but the run may make %d", a.Attempt, hr.shape.retries+1))
	}
	if why := hr.shape.checkArtifact(*a); why != "" {
		return c.misreport(ctx, m.RunID, hr, why)
	}
	if !protocol.ValidArtifactName(name) {
		c.h.log.Warn("agent sent an artifact with an unsafe name", "run", m.RunID)
		return nil
	}
	ct := artifactType(name, a.ContentType)
	if isTrace(name) {
		return c.traceArtifact(ctx, m.RunID, hr, store.ArtifactRow{Name: name, ContentType: ct, Step: a.Step}, f.data)
	}
	row := store.ArtifactRow{Name: name, ContentType: ct, Size: int64(len(f.data)), Step: a.Step}
	got, err := c.h.Store.AddArtifactWithin(ctx, m.RunID, row, c.h.Limits)
	if err != nil {
		return err
	}
	if got == store.StoredOver {
		return c.overLimit(ctx, m.RunID, fmt.Sprintf("the run's artifacts went over %d MiB, the hub's limit for one run", c.h.Limits.ArtifactBytes>>20))
	}
	return c.h.Artifacts.Put(ctx, m.RunID, name, f.data)
}

// misreport ends a run whose agent reported what its job does not allow
// (jobShape) as error, names the agent in the log, and tells it to stop
// the run.
func (c *conn) misreport(ctx context.Context, runID string, hr *heldRun, why string) error {
	c.h.log.Warn("agent reported what its run does not allow; the run ends as error", "run", runID, "agent", c.agent.ID,
		"user", c.agent.UserID, "why", why)
	total := len(hr.shape.steps)
	if hr.shape.rows != nil {
		total = len(hr.shape.rows)
	}
	res := protocol.RunResult{Status: protocol.RunError, Total: total,
		Error: "the agent's report does not match the run, so the hub did not take it: " + why}
	if _, err := c.h.finish(ctx, runID, c.agent.ID, res); err != nil {
		return err
	}
	c.release(runID)
	c.told[runID] = true
	go c.h.kickLocal(context.WithoutCancel(ctx), hr.userID)
	return c.send(ctx, protocol.Message{Type: protocol.MsgCancel, RunID: runID})
}

// overLimit ends a run that went over its limits as error and tells its
// agent to stop it.
func (c *conn) overLimit(ctx context.Context, runID, why string) error {
	c.h.log.Warn("run over its limits", "run", runID, "agent", c.agent.ID, "why", why)
	if _, err := c.h.finish(ctx, runID, c.agent.ID, protocol.RunResult{Status: protocol.RunError, Error: why + "; it was stopped"}); err != nil {
		return err
	}
	c.release(runID)
	c.told[runID] = true
	return c.send(ctx, protocol.Message{Type: protocol.MsgCancel, RunID: runID})
}
