package client

import (
	"context"
	"time"

	"github.com/testautomation/ta/protocol"
)

// Author drives authoring sessions (recording, picking, trying scripts);
// agent/author.Manager is the real one. Sessions are named by the hub
// (rec_..., pck_...). Start returns once the session's page is opening;
// what happens next reaches the hub through the AuthorSink. A method given
// an unknown session returns an error.
type Author interface {
	// Start opens a session; its statuses, captured steps and picks go
	// to out until it ends.
	Start(ctx context.Context, session string, s protocol.AuthorStart, out AuthorSink) error
	// Mode sets a picker's mode: pick, inspect or off.
	Mode(session, mode string) error
	// Preview is a PNG screenshot of the session's page now.
	Preview(ctx context.Context, session string) ([]byte, error)
	// Stop ends a session: a recording sends its last steps, then the
	// status stopped (a picker: closed), and its browser context closes.
	Stop(session string) error
	// Try runs a snippet of JavaScript (see protocol.TryRequest).
	Try(ctx context.Context, req protocol.TryRequest) protocol.TryResult
	// Ground reads a page's snapshot or checks drafted targets on it
	// (see protocol.GroundRequest).
	Ground(ctx context.Context, req protocol.GroundRequest) (protocol.GroundResult, error)
	// View starts (on) or stops the screencast of a session's page; its
	// frames go to out (protocol/authoring_view.go).
	View(session string, on bool, out FrameSink) error
	// Input queues an input through a session's view, sent as real input
	// in the order queued; it does not wait for it.
	Input(ctx context.Context, session string, in protocol.ViewInput) error
	// RunLive runs steps on a live session's page (protocol.LiveRun),
	// sending their events to out; it returns once they ran. An error
	// says they could not run at all.
	RunLive(ctx context.Context, session string, req protocol.LiveRun, out LiveSink) error
	// CloseAll ends every session without telling the hub (its connection
	// is gone: the hub has ended them already).
	CloseAll()
}

// AuthorSink receives what a session reports.
type AuthorSink interface {
	// Status reports a session's status (protocol.Session...), the page's
	// URL, and for status error the reason.
	Status(session, status, url, errText string)
	// Step reports a captured step; a Seq sent before replaces that step.
	Step(session string, c protocol.Captured)
	// Picked reports the element a picker picked.
	Picked(session string, p protocol.Picked)
}

// AuthorFiles is offered by an AuthorSink that can make a file a person
// chose in a recorded page a project file, for the upload step that
// replays the choice: it asks the person first, then stores the file
// (/api/files) and answers its id (fil_...); an error when the person
// declined or the file was refused. Without it a chosen file records no
// step (an upload step needs project files).
type AuthorFiles interface {
	OfferFile(ctx context.Context, session, name string, data []byte) (string, error)
}

// FrameSink receives a session's view frames.
type FrameSink interface {
	Frame(session string, f protocol.ViewFrame)
}

// liveSink sends a session's reports on the current connection. Authoring
// messages are not kept for a later connection: a session ends with its
// connection.
type liveSink struct {
	c   *Client
	ctx context.Context
}

func (s liveSink) Status(session, status, url, errText string) {
	s.c.sendLive(s.ctx, protocol.Message{Type: protocol.MsgAuthorStatus, Session: session, Status: status, URL: url, Error: errText}, nil)
	if sessionEnded(status) {
		s.c.dropSessionFiles(session, false)
		s.c.sessionGone(session)
	}
}

func (s liveSink) Step(session string, c protocol.Captured) {
	s.c.sendLive(s.ctx, protocol.Message{Type: protocol.MsgAuthorStep, Session: session, Captured: &c}, nil)
}

func (s liveSink) Picked(session string, p protocol.Picked) {
	s.c.sendLive(s.ctx, protocol.Message{Type: protocol.MsgAuthorPicked, Session: session, Picked: &p}, nil)
}

// Frame sends a view frame unless the connection's queue is full: a
// picture is worth sending only while it is fresh, and never ahead of
// steps and statuses.
func (s liveSink) Frame(session string, f protocol.ViewFrame) {
	select {
	case s.c.live <- outMsg{msg: protocol.Message{Type: protocol.MsgAuthorFrame, Session: session, Frame: &f}}:
	default:
	}
}

// sendLive queues an authoring message for the current connection's
// writer, waiting while the queue is full (a burst of captured steps) until
// the connection ends.
func (c *Client) sendLive(ctx context.Context, m protocol.Message, data []byte) {
	c.authored("", false)
	select {
	case c.live <- outMsg{msg: m, data: data}:
	case <-ctx.Done():
	}
}

// authoring handles one authoring message from the hub. Slow work (opening
// a page, a screenshot, a script) runs in its own goroutine so the read
// loop goes on.
func (c *Client) authoring(ctx context.Context, m protocol.Message) {
	a := c.cfg.Author
	if a == nil {
		c.authorUnsupported(ctx, m)
		return
	}
	switch m.Type {
	case protocol.MsgAuthorStart:
		if m.Start == nil || m.Session == "" {
			return
		}
		go func() {
			if err := a.Start(ctx, m.Session, *m.Start, liveSink{c, ctx}); err != nil {
				c.sendLive(ctx, protocol.Message{Type: protocol.MsgAuthorStatus, Session: m.Session, Status: protocol.SessionError, Error: err.Error()}, nil)
			}
		}()
	case protocol.MsgAuthorMode:
		if err := a.Mode(m.Session, m.Mode); err != nil {
			c.log.Warn("picker mode", "session", m.Session, "err", err)
		}
	case protocol.MsgAuthorStop:
		go func() {
			if err := a.Stop(m.Session); err != nil {
				// Unknown here (it ended already): say it is over.
				c.sendLive(ctx, protocol.Message{Type: protocol.MsgAuthorStatus, Session: m.Session, Status: protocol.SessionError, Error: err.Error()}, nil)
			}
		}()
	case protocol.MsgAuthorPreview:
		go func() {
			pctx, cancel := context.WithTimeout(ctx, 20*time.Second)
			defer cancel()
			png, err := a.Preview(pctx, m.Session)
			reply := protocol.Message{Type: protocol.MsgAuthorPreview, Session: m.Session, ReqID: m.ReqID}
			if err != nil {
				reply.Error = err.Error()
				c.sendLive(ctx, reply, nil)
				return
			}
			reply.Artifact = &protocol.ArtifactInfo{Name: "preview.png", ContentType: "image/png", Size: int64(len(png))}
			c.sendLive(ctx, reply, png)
		}()
	case protocol.MsgAuthorView:
		if m.View == nil {
			return
		}
		if err := a.View(m.Session, m.View.On, liveSink{c, ctx}); err != nil {
			c.log.Info("session view", "session", m.Session, "on", m.View.On, "err", err)
		}
	case protocol.MsgAuthorInput:
		if m.Input == nil {
			return
		}
		if m.ReqID != "" { // a tab input: answered once done
			go func() {
				reply := protocol.Message{Type: protocol.MsgAuthorInputDone, Session: m.Session, ReqID: m.ReqID}
				if err := a.Input(ctx, m.Session, *m.Input); err != nil {
					reply.Error = err.Error()
				}
				c.sendLive(ctx, reply, nil)
			}()
			return
		}
		// Queued in order by the Author (text, then Enter), not run here.
		if err := a.Input(ctx, m.Session, *m.Input); err != nil {
			c.log.Info("session input", "session", m.Session, "kind", m.Input.Kind, "err", err)
		}
	case protocol.MsgScriptTry:
		if m.Try == nil {
			return
		}
		go func() {
			res := a.Try(ctx, *m.Try)
			c.sendLive(ctx, protocol.Message{Type: protocol.MsgScriptResult, ReqID: m.ReqID, Tried: &res}, nil)
		}()
	case protocol.MsgLiveRun:
		c.liveRun(ctx, a, m)
	case protocol.MsgPageGround:
		if m.Ground == nil {
			return
		}
		go func() {
			res, err := a.Ground(ctx, *m.Ground)
			reply := protocol.Message{Type: protocol.MsgPageGrounded, ReqID: m.ReqID, Grounded: &res}
			if err != nil {
				reply.Grounded, reply.Error = nil, err.Error()
			}
			c.sendLive(ctx, reply, nil)
		}()
	}
}

// authorUnsupported answers an agent built without authoring.
func (c *Client) authorUnsupported(ctx context.Context, m protocol.Message) {
	const why = "this agent cannot record, pick or try scripts"
	switch m.Type {
	case protocol.MsgAuthorStart, protocol.MsgAuthorStop:
		c.sendLive(ctx, protocol.Message{Type: protocol.MsgAuthorStatus, Session: m.Session, Status: protocol.SessionError, Error: why}, nil)
	case protocol.MsgAuthorPreview:
		c.sendLive(ctx, protocol.Message{Type: protocol.MsgAuthorPreview, Session: m.Session, ReqID: m.ReqID, Error: why}, nil)
	case protocol.MsgPageGround:
		c.sendLive(ctx, protocol.Message{Type: protocol.MsgPageGrounded, ReqID: m.ReqID, Error: why}, nil)
	case protocol.MsgLiveRun:
		c.sendLive(ctx, protocol.Message{Type: protocol.MsgLiveEvent, Session: m.Session, Error: why}, nil)
	case protocol.MsgScriptTry:
		c.sendLive(ctx, protocol.Message{Type: protocol.MsgScriptResult, ReqID: m.ReqID,
			Tried: &protocol.TryResult{Value: []byte("null"), Console: []protocol.ConsoleLine{}, Error: &protocol.TryError{Message: why}}}, nil)
	}
}
