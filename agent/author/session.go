package author

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/protocol"
)

// openTimeout bounds opening a session's start page.
const openTimeout = 30 * time.Second

// session is one recording or picker. A picker on a recording's page
// shares that recording's pageState.
type session struct {
	m    *Manager
	id   string
	kind string // protocol.AuthorRecord or AuthorPick
	sink client.AuthorSink

	mu    sync.Mutex
	mode  string     // record for a recording; the picker's mode
	pg    *pageState // nil until the page is open
	ended bool
	done  chan struct{} // closed when the session ended

	rec   recorder     // a recording's captured steps
	tabs  []*pageState // the tabs its pages opened, in opening order (session_tabs.go)
	front *pageState   // the tab its view shows; nil for its page
	live  *liveState   // a live session's runner (live.go); nil for the other kinds
}

func (s *session) page() *rod.Page {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pg == nil {
		return nil
	}
	return s.pg.page
}

// open creates the session's incognito context and page, installs the
// in-page script and opens the start URL.
func (s *session) open(b *browser, url string) {
	inc, err := b.rod.Incognito()
	if err != nil {
		s.end(protocol.SessionError, "cannot open a browser context: "+err.Error())
		return
	}
	page, err := inc.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		_ = inc.Close()
		s.end(protocol.SessionError, "cannot open a browser page: "+err.Error())
		return
	}
	pg := newPageState(s.m, b, inc, page, s)
	s.mu.Lock()
	if s.ended { // stopped while opening
		s.mu.Unlock()
		pg.close()
		return
	}
	s.pg = pg
	s.mu.Unlock()
	if err := pg.install(); err != nil {
		s.end(protocol.SessionError, "cannot prepare the page: "+err.Error())
		return
	}
	ctx, cancel := context.WithTimeout(pg.ctx, openTimeout)
	defer cancel()
	nav, err := proto.PageNavigate{URL: url}.Call(page.Context(ctx))
	if err == nil && nav.ErrorText != "" {
		err = errors.New(nav.ErrorText)
	}
	if err == nil {
		err = page.Context(ctx).WaitLoad()
	}
	if err != nil {
		s.end(protocol.SessionError, fmt.Sprintf("cannot open %s: %s", url, pg.why(err)))
		return
	}
	s.mu.Lock()
	ended := s.ended
	s.mu.Unlock()
	if ended {
		return
	}
	if s.kind == protocol.AuthorRecord {
		go s.watchTabs(pg)
		s.rec.start(s, url)
		pg.setStarted()
		s.status(protocol.SessionRecording, pg.url(), "")
	} else {
		pg.setStarted()
		s.status(protocol.SessionReady, pg.url(), "")
	}
}

// status reports a status unless the session ended.
func (s *session) status(status, url, errText string) {
	s.mu.Lock()
	ended := s.ended
	s.mu.Unlock()
	if !ended {
		s.sink.Status(s.id, status, url, errText)
	}
}

// setMode sets a picker's mode in every frame.
func (s *session) setMode(mode string) {
	s.mu.Lock()
	s.mode = mode
	pg := s.pg
	s.mu.Unlock()
	if pg != nil {
		pg.applyMode()
	}
}

func (s *session) currentMode() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mode
}

// stop ends the session on request: a recording first sends the steps the
// page reported before, then stopped; a picker says closed.
func (s *session) stop() {
	s.mu.Lock()
	pg := s.pg
	s.mu.Unlock()
	if pg != nil && pg.owner == s && s.kind == protocol.AuthorRecord {
		pg.flush(3 * time.Second)
		s.rec.flushPending()
	}
	if s.kind == protocol.AuthorRecord {
		s.end(protocol.SessionStopped, "")
	} else {
		s.end(protocol.SessionClosed, "")
	}
}

// end ends the session once: it reports status (none when ""), closes its
// page when it owns it (a picker on a recording's page detaches) and tells
// the manager.
func (s *session) end(status, errText string) {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return
	}
	s.ended = true
	pg := s.pg
	s.mu.Unlock()
	if status != "" {
		url := ""
		if pg != nil {
			url = pg.url()
		}
		s.sink.Status(s.id, status, url, errText)
	}
	if pg != nil {
		if pg.owner == s {
			for _, p := range pg.pickers() {
				p.end(protocol.SessionError, "the recording's page closed")
			}
			pg.close()
		} else {
			pg.detachPicker(s)
		}
	}
	s.closeLive()
	s.closeTabs()
	close(s.done)
	s.m.forget(s)
}

// picked reports the element a picker picked.
func (s *session) picked(ctx context.Context, pg *pageState, r report, ctxID proto.RuntimeExecutionContextID) {
	obj, frames, err := pg.element(ctx, ctxID, r.Handle)
	if err != nil {
		s.m.log.Debug("picked element gone", "err", err)
		return
	}
	target, el, err := describeTarget(ctx, pg.page, obj, frames)
	if err != nil {
		target, el = pg.minimalTarget(ctx, obj, frames)
		if len(target.Locators) == 0 {
			s.m.log.Debug("picked element's page is unloading", "err", err)
			return
		}
	}
	s.sink.Picked(s.id, protocol.Picked{Element: el, Target: target})
}

// why turns an error from opening or using the page into a reason a user
// can act on.
func (pg *pageState) why(err error) string {
	if !pg.b.alive() {
		return "the browser stopped (it crashed or was closed)"
	}
	if pg.isClosed() {
		return "the browser window was closed"
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("the page did not load within %s", openTimeout)
	}
	return strings.TrimPrefix(err.Error(), "{-32000 ")
}
