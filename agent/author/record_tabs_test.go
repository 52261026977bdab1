package author

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// TestRecordNewTab: a link that opens a new tab, an action there, back in
// the first tab, again in the new one, the new one closed, and on in the
// first: each move between tabs is recorded before the first action in
// the tab (switchTab new, opener, index 1), the close as closeTab; the
// recording replays green.
func TestRecordNewTab(t *testing.T) {
	srv := site(t, map[string]string{
		"/": `<!doctype html><a href="/report.html" target="_blank">Open report</a>
<button id="count" onclick="out.textContent = 'counted ' + (+out.dataset.n + 1); out.dataset.n = +out.dataset.n + 1">Count</button>
<p id="out" data-n="0"></p>`,
		"/report.html": `<!doctype html><button onclick="this.textContent = 'Approved ' + (+this.dataset.n + 1); this.dataset.n = +this.dataset.n + 1" data-n="0">Approve</button>`,
	})
	id, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	click := func(p *rod.Page, sel string) {
		t.Helper()
		p.MustActivate() // a person brings the tab to the front to act in it
		x, y := center(t, p, sel)
		clickAt(t, p, x, y, 1)
	}
	click(p, "a")
	tab := waitTab(t, p, "/report.html")
	tab.MustWaitLoad()
	if err := out.waitStepsWithin("navigate,click", 3*time.Second); err != nil {
		t.Error(err)
	}
	waitFor(t, "the script in the new tab", func() bool {
		return tab.MustEval(`() => document.readyState`).Str() == "complete"
	})
	waitFollowed(t, id, "/report.html")
	// A person's moves, each recorded before the next; the click in the
	// first tab too, though that tab is hidden now.
	click(tab, "button")
	tab.MustElementR("button", "Approved 1")
	out.waitSteps(t, "navigate,click,switchTab,click")
	click(p, "#count")
	out.waitSteps(t, "navigate,click,switchTab,click,switchTab,click")
	click(tab, "button")
	tab.MustElementR("button", "Approved 2")
	out.waitSteps(t, "navigate,click,switchTab,click,switchTab,click,switchTab,click")
	time.Sleep(selfClose) // a person reads the page before closing it
	tab.MustClose()
	out.waitSteps(t, "navigate,click,switchTab,click,switchTab,click,switchTab,click,closeTab")
	click(p, "#count")
	p.MustElementR("#out", "counted 2")
	steps := out.waitSteps(t, "navigate,click,switchTab,click,switchTab,click,switchTab,click,closeTab,click")
	to := func(i int) string {
		st := steps[i]
		if st.To == "index" && st.Index != nil {
			return "index " + string(rune('0'+*st.Index))
		}
		return st.To
	}
	if to(2) != "new" || to(4) != "opener" || to(6) != "index 1" {
		t.Errorf("switches %s, %s, %s; want new, opener, index 1", to(2), to(4), to(6))
	}
	replayGreen(t, append(steps, assertOut("counted 2")))
}

// frameCount counts the frames a view sends.
type frameCount struct {
	mu sync.Mutex
	n  int
}

func (f *frameCount) Frame(string, protocol.ViewFrame) {
	f.mu.Lock()
	f.n++
	f.mu.Unlock()
}

func (f *frameCount) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}

// TestViewFollowsNewTab: a recording made through its live view (no
// window: the person sees frames and sends input) follows a tab the page
// opens: the view shows the new tab, input goes there and is recorded
// after a switchTab; when the tab closes, the view and input are back on
// the first page.
func TestViewFollowsNewTab(t *testing.T) {
	srv := site(t, map[string]string{
		"/":            `<!doctype html><a href="/report.html" target="_blank" style="display:block;width:200px">Open report</a><button id="count" onclick="this.textContent = 'counted'">Count</button>`,
		"/report.html": `<!doctype html><button id="ok" onclick="this.textContent = 'Approved'" style="width:200px;height:40px">Approve</button>`,
	})
	id, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	m := manager(t)
	frames := &frameCount{}
	if err := m.View(id, true, frames); err != nil {
		t.Fatal(err)
	}
	defer m.View(id, false, nil) //nolint:errcheck
	input := func(x, y float64) {
		t.Helper()
		if err := m.Input(context.Background(), id, protocol.ViewInput{Kind: protocol.InputClick, X: x, Y: y}); err != nil {
			t.Fatal(err)
		}
	}
	lx, ly := center(t, p, "a")
	input(lx, ly)
	s, _ := m.session(id)
	waitFor(t, "the view to show the new tab", func() bool {
		pg := s.pageState()
		return pg != nil && pg != s.mainPage()
	})
	tab := s.pageState().page.Timeout(20 * time.Second)
	tab.MustWaitLoad()
	seen := frames.count()
	// A screencast sends frames when the page paints: the new tab's first
	// ones may all have come before seen was read, and a still page paints
	// no more. A change it must paint makes the next frame (CI once timed
	// out here, on a loaded machine).
	tab.MustEval(`() => { document.body.style.background = "#fafafa" }`)
	waitFor(t, "frames of the new tab", func() bool { return frames.count() > seen })
	bx, by := center(t, tab, "#ok")
	input(bx, by)
	tab.MustElementR("#ok", "Approved")
	out.waitSteps(t, "navigate,click,switchTab,click")
	time.Sleep(selfClose) // a person reads the page before closing it
	tab.MustClose()
	waitFor(t, "the view to be back on the first page", func() bool { return s.pageState() == s.mainPage() })
	cx, cy := center(t, p, "#count")
	input(cx, cy)
	p.MustElementR("#count", "counted")
	out.waitSteps(t, "navigate,click,switchTab,click,closeTab,click")
}

// TestRecordPopupClosesItself: a popup that closes itself when its button
// is clicked (window.close(), as sign-in popups do) is no closeTab step:
// the recording, as a replay, goes on in its opener without a switch.
func TestRecordPopupClosesItself(t *testing.T) {
	srv := site(t, map[string]string{
		"/": `<!doctype html><button id="open" onclick="window.open('/popup.html', 'auth', 'width=400,height=300')">Sign in with Example</button>
<button id="next" onclick="this.textContent = 'went on ' + (localStorage.getItem('auth') || 'without')">Next</button>`,
		"/popup.html": `<!doctype html><button id="ok" onclick="localStorage.setItem('auth', 'signed in'); window.close()">Authorize</button>`,
	})
	id, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	ox, oy := center(t, p, "#open")
	clickAt(t, p, ox, oy, 1)
	popup := waitTab(t, p, "/popup.html")
	popup.MustWaitLoad()
	out.waitSteps(t, "navigate,click")
	waitFollowed(t, id, "/popup.html")
	popup.MustActivate()
	x, y := center(t, popup, "#ok")
	go func() { _ = pressAt(popup, x, y, proto.InputMouseButtonLeft, 0) }() // the click ends with the page
	out.waitSteps(t, "navigate,click,switchTab,click")
	waitFor(t, "the popup to close", func() bool { return findTab(p, "/popup.html") == nil })
	time.Sleep(300 * time.Millisecond)
	p.MustActivate()
	nx, ny := center(t, p, "#next")
	clickAt(t, p, nx, ny, 1)
	p.MustElementR("#next", "went on signed in")
	steps := out.waitSteps(t, "navigate,click,switchTab,click,click")
	replayGreen(t, append(steps, assertTextAt("#next", "went on signed in")))
}
