package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// A run's pages: its first page, and every page a page of its context
// opens (window.open, a target=_blank link, a middle click), attached to
// as the browser creates it and held until prepared (tabs_hold.go), so
// that its dialogs are answered and its navigations guarded as the first
// page's are from its first script on. Steps act in the current page (run.tab); switchTab changes
// it, closeTab closes it and returns to its opener.

// pageSet is the run's pages in opening order; the event reader adds to it.
type pageSet struct {
	mu      sync.Mutex
	all     []*tab
	known   map[proto.TargetTargetID]bool
	visited map[*tab]bool // pages a step switched to (or the first)
	done    bool          // the run ended: a page attached now is let go at once
}

// popup prepares a page the run's context opened as the first page was
// prepared, and then lets it run: the browser holds it until then
// (tabs_hold.go), so its first script already meets the guard and the
// run's emulation. Called on its own goroutine.
func (r *run) popup(held *proto.TargetAttachedToTarget) {
	info := held.TargetInfo
	b := r.browser
	ps := &r.pages
	ps.mu.Lock()
	if ps.known[info.TargetID] {
		ps.mu.Unlock()
		b.letGo(held.SessionID, true)
		return
	}
	ps.known[info.TargetID] = true
	ps.mu.Unlock()
	ctx, cancel := context.WithTimeout(b.bg, 10*time.Second)
	defer cancel()
	opener := info.OpenerID
	if opener == "" {
		if cur := r.curTab.Load(); cur != nil {
			opener = cur.target // a noopener link: it opened from the page in use
		}
	}
	gone := make(chan struct{})
	t := &tab{ctxID: info.BrowserContextID, target: info.TargetID, opener: opener, gone: gone,
		sess: session{c: b.root.c, w: b.root.w, id: held.SessionID, gone: gone}, drags: make(chan *proto.InputDragData, 1)}
	b.tabs.Store(string(held.SessionID), t)
	b.watch(t, func(err error) {
		if errors.Is(err, errPageClosed) {
			t.close() // the page closed itself: the run goes on (see pageGone)
			return
		}
		r.stop(err)
	}, r.dialog, r.popup)
	// One pipeline, the page let go last: a held page answers some
	// requests (Page.enable) only once it runs, and the browser applies a
	// session's requests in order, so the guard and the emulation are on
	// before the page's first request and script.
	var reqs []wireRequest
	for _, req := range append(append([]setupRequest{proto.PageEnable{}, proto.InspectorEnable{},
		proto.EmulationSetFocusEmulationEnabled{Enabled: true}}, guardRequests()...), r.emulation()...) {
		reqs = append(reqs, wireRequest{req.ProtoReq(), req})
	}
	if tr := r.first.trace.Load(); tr != nil { // a traced run's pages are all traced
		t.trace.Store(tr)
		reqs = append(reqs, traceRequests()...)
	}
	reqs = append(reqs, wireRequest{"Runtime.runIfWaitingForDebugger", proto.RuntimeRunIfWaitingForDebugger{}})
	if err := b.root.w.pipeline(ctx, string(held.SessionID), reqs...); err != nil {
		b.log.Debug("preparing a new tab", "err", err)
	}
	ps.mu.Lock()
	done := ps.done
	if !done {
		ps.all = append(ps.all, t)
	}
	ps.mu.Unlock()
	if done {
		t.clock.halt()
		b.unwatch(t)
		b.tabs.Delete(string(t.sess.id))
		if r.live != nil { // a live page's context stays: so would the tab (closePages)
			r.closeLiveTabs([]*tab{t})
		}
	}
}

// close marks a popup gone: calls waiting on its page end.
func (t *tab) close() {
	t.closed.Store(true)
	t.goneMu.Do(func() { close(t.gone) })
}

// firstPage makes t the run's first page.
func (r *run) firstPage(t *tab) {
	r.pages = pageSet{all: []*tab{t}, known: map[proto.TargetTargetID]bool{t.target: true},
		visited: map[*tab]bool{t: true}}
	r.first = t
	r.use(t)
}

// use makes t the page the steps act in.
func (r *run) use(t *tab) {
	r.tab = t
	r.curTab.Store(t)
}

// closePages stops watching the pages the run opened; disposing of the
// context closes them. A live page's context stays: the tabs its run
// opened are closed here, so the next run starts, as the editor's view
// shows, on the live page alone.
func (r *run) closePages() {
	r.pages.mu.Lock()
	r.pages.done = true
	opened := append([]*tab(nil), r.pages.all[1:]...)
	r.pages.mu.Unlock()
	for _, t := range opened {
		t.clock.halt()
		r.browser.unwatch(t)
		r.browser.tabs.Delete(string(t.sess.id))
	}
	if r.live != nil {
		r.closeLiveTabs(opened)
	}
}

// closeLiveTabs closes tabs a live page's run opened.
func (r *run) closeLiveTabs(tabs []*tab) {
	for _, t := range tabs {
		if t.closed.Load() {
			continue
		}
		t.close()
		ctx, cancel := context.WithTimeout(r.browser.bg, 5*time.Second)
		if _, err := (proto.TargetCloseTarget{TargetID: t.target}).Call(r.browser.root.with(ctx)); err != nil && ctx.Err() == nil {
			r.browser.log.Debug("closing a live run's tab", "err", err)
		}
		cancel()
	}
}

// pageGone moves the run to the opener of the current page when the page
// closed itself (window.close()), so later steps act somewhere.
func (r *run) pageGone() error {
	if !r.tab.closed.Load() {
		return nil
	}
	to := r.openerOf(r.tab, true)
	if to == nil {
		return permanent("the tab the steps act in was closed")
	}
	r.out.logf("info", nil, "the tab closed itself: the steps go on in the tab that opened it")
	r.use(to)
	return nil
}

// openerOf returns the open page that opened t; with fallback, else the
// first open page (where closeTab and a page closing itself return to).
func (r *run) openerOf(t *tab, fallback bool) *tab {
	r.pages.mu.Lock()
	defer r.pages.mu.Unlock()
	for _, p := range r.pages.all {
		if p.target == t.opener && p != t && !p.closed.Load() {
			return p
		}
	}
	for _, p := range r.pages.all {
		if fallback && p != t && !p.closed.Load() {
			return p
		}
	}
	return nil
}

// switchTab makes another page the current one: the newest page not yet
// switched to (new, waited for), the current page's opener, the index-th
// page in opening order, or the first page whose url or title matches.
func switchTab(s *stepRun, ctx context.Context, st protocol.Step) error {
	r := s.r
	var pick func(ctx context.Context) (*tab, error)
	switch st.To {
	case "new":
		pick = func(context.Context) (*tab, error) {
			r.pages.mu.Lock()
			defer r.pages.mu.Unlock()
			for i := len(r.pages.all) - 1; i > 0; i-- {
				if p := r.pages.all[i]; !r.pages.visited[p] && !p.closed.Load() {
					return p, nil
				}
			}
			return nil, errors.New("no new tab opened: a step before this one should open it (a link with target=_blank, window.open)")
		}
	case "opener":
		pick = func(context.Context) (*tab, error) {
			if p := r.openerOf(r.tab, false); p != nil {
				return p, nil
			}
			if r.tab.opener == "" {
				return nil, permanent("this tab has no opener to switch to: it is the run's first tab")
			}
			return nil, permanent("the tab that opened this one was closed")
		}
	case "index":
		if st.Index == nil || *st.Index < 0 {
			return permanent("switchTab to index needs an index (0 or more)")
		}
		n := *st.Index
		pick = func(context.Context) (*tab, error) {
			r.pages.mu.Lock()
			defer r.pages.mu.Unlock()
			if n < len(r.pages.all) && !r.pages.all[n].closed.Load() {
				return r.pages.all[n], nil
			}
			return nil, fmt.Errorf("no tab %d: the run has %d tabs (0 is the first)", n, len(r.pages.all))
		}
	case "match":
		p, err := r.matchTab(st)
		if err != nil {
			return err
		}
		pick = p
	default:
		return permanent("unknown switchTab to %q: use new, opener, index or match", st.To)
	}
	var to *tab
	err := s.poll(ctx, "for the tab", func(ctx context.Context) error {
		p, err := pick(ctx)
		to = p
		return err
	})
	if err != nil {
		return err
	}
	r.switchTo(ctx, to)
	return nil
}

// matchTab returns how switchTab to:match picks its page: the first open
// one, in opening order, whose url and title match the step's (those it
// gives).
func (r *run) matchTab(st protocol.Step) (func(context.Context) (*tab, error), error) {
	if st.URL == "" && st.Title == "" {
		return nil, permanent("switchTab to match needs a url or a title")
	}
	type test struct {
		what, expr string
		m          *matcher
	}
	var tests []test
	for _, t := range []struct{ what, expr, want string }{{"url", "location.href", st.URL}, {"title", "document.title", st.Title}} {
		if t.want == "" {
			continue
		}
		m, err := newMatcher(protocol.Step{Expected: &t.want, Match: st.Match}, r.mask)
		if err != nil {
			return nil, err
		}
		tests = append(tests, test{t.what, t.expr, m})
	}
	return func(ctx context.Context) (*tab, error) {
		r.pages.mu.Lock()
		pages := append([]*tab(nil), r.pages.all...)
		r.pages.mu.Unlock()
		var seen []string
	next:
		for _, p := range pages {
			if p.closed.Load() {
				continue
			}
			for _, t := range tests {
				v, err := evalValue(ctx, p.sess, t.expr)
				if err != nil {
					continue next
				}
				if t.m.check(t.what, v.Str()) != nil {
					seen = append(seen, fmt.Sprintf("%s %q", t.what, clip(r.mask.String(v.Str()), 120)))
					continue next
				}
			}
			return p, nil
		}
		return nil, fmt.Errorf("no tab matches: %s", joinOr(seen))
	}, nil
}

func joinOr(seen []string) string {
	if len(seen) == 0 {
		return "no tab is open"
	}
	out := "the open tabs have "
	for i, v := range seen {
		if i > 0 {
			out += ", "
		}
		out += v
	}
	return out
}

// switchTo makes t current, once the screenshot of the step before (of the
// page the run leaves) is taken.
func (r *run) switchTo(ctx context.Context, t *tab) {
	p := r.pending
	r.flush()
	if p != nil {
		<-p.done
	}
	r.pages.mu.Lock()
	r.pages.visited[t] = true
	r.pages.mu.Unlock()
	r.use(t)
	if err := (proto.PageBringToFront{}).Call(r.sess(ctx)); err != nil && ctx.Err() == nil {
		r.b.log.Debug("bringing a tab to the front", "err", err)
	}
}

// closeTab closes the current page and returns to its opener.
func closeTab(s *stepRun, ctx context.Context, st protocol.Step) error {
	r := s.r
	cur := r.tab
	to := r.openerOf(cur, true)
	if to == nil {
		return permanent("cannot close the run's only tab")
	}
	if cur == r.first {
		return permanent("cannot close the run's first tab: switch to another tab and go on there")
	}
	p := r.pending
	r.flush()
	if p != nil {
		<-p.done
	}
	cur.close()
	cur.clock.halt()
	r.browser.unwatch(cur)
	if _, err := (proto.TargetCloseTarget{TargetID: cur.target}).Call(r.browser.root.with(ctx)); err != nil {
		return fmt.Errorf("closing the tab: %w", plainCDP(err))
	}
	r.switchTo(ctx, to)
	return nil
}
