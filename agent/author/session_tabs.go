package author

import (
	"context"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/protocol"
)

// Tabs in a recording: a tab or popup a page of the session opens (a link
// with target=_blank, window.open) gets the in-page script and the guard
// like the first page, and its actions are recorded too. An action in
// another tab than the last one is preceded by a switchTab step: "new"
// the first time a tab opened during the recording is acted in, "opener"
// back to the tab that opened the current one, else its index in opening
// order (the first page is 0). Closing the current tab is a closeTab
// step, after which the recording is back in its opener.

// watchTabs follows the tabs the session's pages open, until it ends.
//
// Every page of the session's browser context is the session's: open
// makes a context of its own for each session (Incognito), and nothing
// else opens pages in it. So a new page there is followed whether or not
// the browser names its opener. It names none for a link a person opens
// in a new tab (middle click, Ctrl+click), nor did Chromium before 2021
// for target=_blank rel=noopener and window.open(.., "noopener"): such a
// tab's opener is the tab the person acted in last (lastTab).
func (s *session) watchTabs(pg *pageState) {
	wait := pg.b.rod.Context(pg.ctx).EachEvent(func(e *proto.TargetTargetCreated) {
		ti := e.TargetInfo
		if ti.Type != proto.TargetTargetInfoTypePage || ti.BrowserContextID != pg.inc.BrowserContextID {
			return
		}
		if s.tabOf(ti.TargetID) != nil {
			return
		}
		opener := s.tabOf(ti.OpenerID)
		if opener == nil {
			opener = s.lastTab()
		}
		if opener != nil {
			go s.followTab(opener, ti.TargetID)
		}
	})
	wait()
}

// lastTab is the open tab the person acted in last: that of the last
// recorded step, else the one the view shows, else the first page.
func (s *session) lastTab() *pageState {
	s.rec.mu.Lock()
	cur := s.rec.cur
	s.rec.mu.Unlock()
	for cur != nil && cur.isClosed() {
		cur = cur.opener
	}
	if cur != nil {
		return cur
	}
	if pg := s.pageState(); pg != nil && !pg.isClosed() {
		return pg
	}
	return s.mainPage()
}

// tabOf is the session's page of a target, or nil.
func (s *session) tabOf(id proto.TargetTargetID) *pageState {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pg != nil && s.pg.page.TargetID == id {
		return s.pg
	}
	for _, t := range s.tabs {
		if t.page.TargetID == id {
			return t
		}
	}
	return nil
}

// followTab attaches to a new tab and installs what the first page has.
func (s *session) followTab(opener *pageState, id proto.TargetTargetID) {
	page, err := opener.inc.PageFromTarget(id)
	if err != nil {
		s.m.log.Debug("new tab", "err", err)
		return
	}
	tab := newPageState(s.m, opener.b, opener.inc, page, s)
	tab.opener = opener
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return
	}
	s.tabs = append(s.tabs, tab)
	s.mu.Unlock()
	if err := tab.install(); err != nil {
		s.m.log.Debug("new tab", "err", err)
		return
	}
	tab.setStarted()
	// The browser shows the new tab: so does the session's view (a person
	// recording through it acts there next).
	s.mu.Lock()
	s.front = tab
	s.mu.Unlock()
	s.m.moveView(s)
}

// moveView moves the session's view, if it has one, to the page it shows
// now (pageState).
func (m *Manager) moveView(s *session) {
	v := &m.views
	v.mu.Lock()
	var out client.FrameSink
	for _, c := range v.of {
		if o, ok := c.viewers[s.id]; ok {
			out = o
			break
		}
	}
	v.mu.Unlock()
	if out == nil {
		return
	}
	m.unwatch(s)
	if pg := s.pageState(); pg != nil && !pg.isClosed() {
		if !pg.b.headed {
			// A hidden page draws no frames: the page the view shows is
			// the browser's front one, as it would be in a window.
			ctx, cancel := context.WithTimeout(pg.ctx, 5*time.Second)
			_ = proto.PageBringToFront{}.Call(pg.page.Context(ctx))
			cancel()
		}
		m.watch(s, pg, out)
	}
}

// tabIndex is pg's place in opening order (the first page is 0).
func (s *session) tabIndex(pg *pageState) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, t := range s.tabs {
		if t == pg {
			return i + 1
		}
	}
	return 0
}

// closeTabs ends the watching of the tabs (their context closes with the
// first page's).
func (s *session) closeTabs() {
	s.mu.Lock()
	tabs := s.tabs
	s.tabs = nil
	s.mu.Unlock()
	for _, t := range tabs {
		t.cancel()
	}
}

// tabClosed handles a tab of the session the user closed: the current
// one is a closeTab step.
func (pg *pageState) tabClosed() {
	pg.mu.Lock()
	pg.closed = true
	pg.mu.Unlock()
	// The view goes back to the tab that opened it (before the view of
	// this one ends with it).
	s := pg.owner
	s.mu.Lock()
	shown := s.front == pg
	if shown {
		s.front = pg.opener
		for s.front != nil && s.front.isClosed() {
			s.front = s.front.opener
		}
		if s.front == s.pg {
			s.front = nil
		}
	}
	s.mu.Unlock()
	if shown {
		s.m.moveView(s)
	}
	pg.cancel()
	if pg.owner.kind == protocol.AuthorRecord {
		pg.owner.rec.closed(pg)
	}
}

// switchTo is the switchTab step that comes before a step in pg, when pg
// is not the current tab, and makes pg the current one. Called with r.mu
// held.
func (r *recorder) switchTo(pg *pageState) (protocol.Step, bool) {
	cur := r.cur
	if cur == nil {
		cur = r.s.mainPage()
	}
	if pg == nil || pg == cur {
		return protocol.Step{}, false
	}
	r.cur = pg
	if r.visited == nil {
		r.visited = map[*pageState]bool{}
	}
	switch {
	case pg.opener != nil && !r.visited[pg]:
		r.visited[pg] = true
		return protocol.Step{Type: "switchTab", To: "new"}, true
	case cur.opener == pg:
		return protocol.Step{Type: "switchTab", To: "opener"}, true
	}
	i := r.s.tabIndex(pg)
	return protocol.Step{Type: "switchTab", To: "index", Index: &i}, true
}

// selfClose is how soon after a step in a tab its closing counts as the
// page's own doing (a popup's window.close() after its button was
// clicked) rather than the person's: a person reads a page before
// closing it.
const selfClose = 1500 * time.Millisecond

// closed records closeTab when the person closed the current tab. A tab
// that closed itself right after a step in it is no step: a replay goes
// on in its opener as the recording does.
func (r *recorder) closed(pg *pageState) {
	r.mu.Lock()
	if r.s == nil || r.cur != pg || r.s.isEnded() {
		r.mu.Unlock()
		return
	}
	r.cur = pg.opener
	itself := len(r.last) > 0 && r.last[len(r.last)-1].pg == pg && time.Since(r.lastAt) < selfClose
	r.mu.Unlock()
	if !itself {
		r.add(protocol.Step{Type: "closeTab"}, 0, 0)
	}
}

// mainPage is the session's first page.
func (s *session) mainPage() *pageState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pg
}

func (s *session) isEnded() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ended
}
