package client

import (
	"context"

	"github.com/testautomation/ta/protocol"
)

// LiveSink receives what steps run on a live session's page emit: a run's
// events and screenshots (runner.Emitter has this shape).
type LiveSink interface {
	Event(e protocol.Event)
	Artifact(info protocol.ArtifactInfo, data []byte)
}

// liveEvents sends a live session's run events on the current
// connection (protocol/authoring_live.go).
type liveEvents struct {
	c       *Client
	ctx     context.Context
	session string
	seq     int64 // only the run's goroutine emits (runner.Emitter)
	files   *runFiles
}

// FetchFile gives the runner the session's project files
// (runner.FileFetcher), for the steps running now.
func (l *liveEvents) FetchFile(ctx context.Context, id string) (string, error) {
	return l.files.FetchFile(ctx, id)
}

func (l *liveEvents) Event(e protocol.Event) {
	l.seq++
	e.Seq = l.seq
	l.c.sendLive(l.ctx, protocol.Message{Type: protocol.MsgLiveEvent, Session: l.session, Event: &e}, nil)
}

func (l *liveEvents) Artifact(info protocol.ArtifactInfo, data []byte) {
	l.c.sendLive(l.ctx, protocol.Message{Type: protocol.MsgLiveEvent, Session: l.session, Artifact: &info}, data)
}

// liveRun runs a live.run in its own goroutine; an error that kept the
// steps from running is sent as a live.event with Error.
func (c *Client) liveRun(ctx context.Context, a Author, m protocol.Message) {
	if m.LiveRun == nil || m.Session == "" {
		return
	}
	go func() {
		files := &runFiles{c: c, for_: "session", id: m.Session}
		defer files.remove()
		if err := a.RunLive(ctx, m.Session, *m.LiveRun, &liveEvents{c: c, ctx: ctx, session: m.Session, files: files}); err != nil {
			c.sendLive(ctx, protocol.Message{Type: protocol.MsgLiveEvent, Session: m.Session, Error: err.Error()}, nil)
		}
	}()
}
