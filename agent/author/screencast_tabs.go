package author

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// Tabs in the live view (protocol/authoring_view_tabs.go): a person
// recording through the picture sees no tab strip, so each frame lists
// the session's open tabs, and inputs of kind tab and closeTab show or
// close one, as clicking a browser's tab or its × does.

var errDragEnd = errors.New("a drag needs where it ends (toX, toY)")

// openTabs are the session's open tabs in opening order, its first page
// first.
func (s *session) openTabs() []*pageState {
	s.mu.Lock()
	defer s.mu.Unlock()
	var open []*pageState
	if s.pg != nil && !s.pg.isClosed() {
		open = append(open, s.pg)
	}
	for _, t := range s.tabs {
		if !t.isClosed() {
			open = append(open, t)
		}
	}
	return open
}

// viewTabs lists the session's open tabs for its frames: title and
// address as the browser has them, the one the view shows current.
func (s *session) viewTabs() []protocol.ViewTab {
	tabs := s.openTabs()
	if len(tabs) == 0 {
		return nil
	}
	shown := s.pageState()
	ctx, cancel := context.WithTimeout(tabs[0].ctx, 2*time.Second)
	defer cancel()
	infos := map[proto.TargetTargetID]*proto.TargetTargetInfo{}
	if all, err := (proto.TargetGetTargets{}).Call(tabs[0].b.rod.Context(ctx)); err == nil {
		for _, ti := range all.TargetInfos {
			infos[ti.TargetID] = ti
		}
	}
	out := make([]protocol.ViewTab, 0, len(tabs))
	for _, t := range tabs[:min(len(tabs), protocol.MaxViewTabs)] {
		v := protocol.ViewTab{Current: t == shown}
		if ti := infos[t.page.TargetID]; ti != nil {
			v.Title, v.URL = ti.Title, ti.URL
		}
		out = append(out, v.Clip())
	}
	return out
}

// withTabs is a frame for the session's viewer: with its tabs.
func (m *Manager) withTabs(id string, f protocol.ViewFrame) protocol.ViewFrame {
	if s, err := m.session(id); err == nil {
		f.Tabs = s.viewTabs()
	}
	return f
}

// tabInputs are the kinds tabInput performs; they are answered (their
// error the hub's answer to the person).
var tabInputs = map[string]bool{protocol.InputTab: true, protocol.InputCloseTab: true}

// runInput performs one queued input: tab inputs here, the others as
// input events to the page.
func (m *Manager) runInput(ctx context.Context, pg *pageState, a inputAction) error {
	if !tabInputs[a.in.Kind] {
		return dispatchInput(ctx, pg, a.in)
	}
	s, err := m.session(a.session)
	if err != nil {
		return err
	}
	// Closing the page whose queue this runs in ends ctx.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	return m.tabInput(ctx, s, a.in)
}

// tabInput shows or closes the session's open tab at the input's index.
func (m *Manager) tabInput(ctx context.Context, s *session, in protocol.ViewInput) error {
	if in.Index == nil {
		return errors.New("no tab index")
	}
	tabs := s.openTabs()
	i := *in.Index
	if i < 0 || i >= len(tabs) {
		return fmt.Errorf("there is no tab %d here any more: %d tabs are open", i+1, len(tabs))
	}
	pg := tabs[i]
	if in.Kind == protocol.InputTab {
		s.mu.Lock()
		was := s.front
		s.front = pg
		if pg == s.pg {
			s.front = nil
		}
		moved := s.front != was
		s.mu.Unlock()
		if moved {
			m.moveView(s)
		}
		return nil
	}
	if pg.opener == nil {
		return errors.New("the first tab stays open while the session lasts: stop the recording to close it")
	}
	if s.kind == protocol.AuthorRecord && pg.owner == s {
		// Steps the page still holds (a fill being typed) come first.
		pg.flush(2 * time.Second)
		s.rec.closedByPerson(pg)
	}
	if _, err := (proto.TargetCloseTarget{TargetID: pg.page.TargetID}).Call(pg.b.rod.Context(ctx)); err != nil && !pg.isClosed() {
		return fmt.Errorf("the tab did not close: %w", err)
	}
	for !pg.isClosed() { // tabClosed moves the view to its opener
		select {
		case <-ctx.Done():
			return errors.New("the tab did not close in time")
		case <-time.After(50 * time.Millisecond):
		}
	}
	m.refreshTabs(s)
	return nil
}

// closedByPerson records the person closing tab pg through the view: a
// closeTab, after a switchTab when pg was not the current tab. It is the
// person's doing however soon after a step in the tab it comes (the
// recorder's closed takes an early close for the page's own window.close):
// closed then finds the recording in pg's opener already and adds
// nothing.
func (r *recorder) closedByPerson(pg *pageState) {
	r.flushPending()
	r.mu.Lock()
	if r.s == nil || r.s.isEnded() {
		r.mu.Unlock()
		return
	}
	sw, switched := r.switchTo(pg)
	r.cur = pg.opener
	r.mu.Unlock()
	if switched {
		r.add(sw, 0, 0)
	}
	r.add(protocol.Step{Type: "closeTab"}, 0, 0)
}

// refreshTabs sends the session's view its last picture again with the
// tabs as they are now: a closed tab the view did not show changes no
// pixel, so no new frame would say it is gone.
func (m *Manager) refreshTabs(s *session) {
	m.views.mu.Lock()
	var c *cast
	for _, cc := range m.views.of {
		if _, ok := cc.viewers[s.id]; ok {
			c = cc
			break
		}
	}
	m.views.mu.Unlock()
	if c == nil {
		return
	}
	c.send.Lock() // in order with the cast's other frames (broadcast)
	defer c.send.Unlock()
	m.views.mu.Lock()
	f, out := c.last, c.viewers[s.id]
	m.views.mu.Unlock()
	if out != nil && len(f.Data) > 0 {
		out.Frame(s.id, m.withTabs(s.id, f))
	}
}
