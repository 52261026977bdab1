package author

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/agent/runner"
	"github.com/testautomation/ta/protocol"
)

// The editor's live session (protocol/authoring_live.go): a page of the
// authoring browser kept open between runs, so pickers and the live view
// reach it, on which the runner runs steps through a DevTools connection
// of its own (runner.Attach): the same engine and guards as a run's.

// liveState is what a live session adds to a session.
type liveState struct {
	mu   sync.Mutex       // held while steps run: one run at a time
	page *runner.LivePage // guarded by mu: attached to on, nil until the first run
	on   *pageState       // guarded by mu: the page page is attached to
}

// startLive opens a live session: a fresh incognito context at
// about:blank, nothing captured (mode off); status ready once open.
func (m *Manager) startLive(id string, s protocol.AuthorStart, out client.AuthorSink) error {
	m.mu.Lock()
	if _, dup := m.sessions[id]; dup {
		m.mu.Unlock()
		return fmt.Errorf("session %s is already open", id)
	}
	ss := &session{m: m, id: id, kind: protocol.AuthorLive, sink: out, mode: protocol.ModeOff, done: make(chan struct{}), live: &liveState{}}
	m.sessions[id] = ss
	m.mu.Unlock()
	out.Status(id, protocol.SessionStarting, "", "")
	b, err := m.browserFor(s.Headed && m.opts.CanHead)
	if err != nil {
		ss.end(protocol.SessionError, err.Error())
		return nil
	}
	go ss.open(b, "about:blank")
	return nil
}

// runnerBrowser is the runner's connection to the browser, made on first use.
func (b *browser) runnerBrowser(ctx context.Context, log runner.Options) (*runner.Browser, error) {
	b.attachMu.Lock()
	defer b.attachMu.Unlock()
	if b.attached != nil {
		return b.attached, nil
	}
	rb, err := runner.Attach(ctx, b.controlURL, log)
	if err != nil {
		return nil, err
	}
	b.attached = rb
	return rb, nil
}

// RunLive implements client.Author: the steps run on the session's page
// as it is, or on a fresh one when req.Fresh.
func (m *Manager) RunLive(ctx context.Context, id string, req protocol.LiveRun, out client.LiveSink) error {
	s, err := m.session(id)
	if err != nil {
		return err
	}
	if s.kind != protocol.AuthorLive || s.live == nil {
		return fmt.Errorf("session %s is not a live session", id)
	}
	l := s.live
	l.mu.Lock()
	defer l.mu.Unlock()
	if req.Fresh {
		if err := s.reopen(); err != nil {
			return err
		}
	}
	s.mu.Lock()
	pg := s.pg
	s.mu.Unlock()
	if pg == nil {
		return errors.New("the session's page is not open yet: try again in a moment")
	}
	if l.page == nil || l.on != pg {
		if l.page != nil {
			l.page.Close()
		}
		rb, err := pg.b.runnerBrowser(ctx, runner.Options{Logger: m.log, CanHead: m.opts.CanHead})
		if err != nil {
			return err
		}
		lp, err := rb.AttachPage(ctx, string(pg.page.TargetID))
		if err != nil {
			return err
		}
		l.page, l.on = lp, pg
	}
	job := protocol.Job{RunID: id, Document: req.Document, Variables: req.Variables, Secrets: req.Secrets, Screenshots: req.Screenshots}
	l.page.Run(ctx, job, out)
	// Where the steps left the page, for the session's view (the hub keeps
	// the status itself).
	s.status(protocol.SessionReady, pg.url(), "")
	return nil
}

// reopen replaces a live session's page with a fresh incognito context
// at about:blank: "Run to here" starts from nothing. Pickers on the old
// page end.
func (s *session) reopen() error {
	s.mu.Lock()
	old := s.pg
	s.pg = nil
	s.mu.Unlock()
	if l := s.live; l.page != nil {
		l.page.Close()
		l.page, l.on = nil, nil
	}
	if old == nil {
		return errors.New("the session's page is not open yet: try again in a moment")
	}
	for _, p := range old.pickers() {
		p.end(protocol.SessionClosed, "the page was replaced by a fresh one")
	}
	old.close()
	s.open(old.b, "about:blank")
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pg == nil || s.ended {
		return errors.New("a fresh page could not be opened")
	}
	return nil
}

// closeLive detaches the runner from an ending live session's page.
func (s *session) closeLive() {
	if s.live == nil {
		return
	}
	go func() {
		s.live.mu.Lock() // after the run in flight, which the page's end stops
		defer s.live.mu.Unlock()
		if s.live.page != nil {
			s.live.page.Close()
			s.live.page, s.live.on = nil, nil
		}
	}()
}
