package author

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// TestRecordHoverMenu: a click on an item a CSS :hover rule reveals is
// recorded after a hover on the menu that reveals it.
func TestRecordHoverMenu(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html><style>
.menu .items { display: none } .menu:hover .items { display: block }</style>
<div class="menu" id="menu"><span>Account</span><div class="items"><button onclick="document.title='out'">Sign out</button></div></div>
<p style="margin-top:80px">below</p>`})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	p.MustElement("#menu span").MustHover()
	p.MustElementR("button", "Sign out").MustClick()
	steps := out.waitSteps(t, "navigate,hover,click")
	h := steps[1].Target
	if h == nil || !strings.Contains(locs(h.Locators), "Account") && !strings.Contains(locs(h.Locators), "menu") {
		t.Errorf("hover target %+v", h)
	}
}

func locs(ls []protocol.Locator) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.Kind + "=" + l.Value + " " + l.Name + "; ")
	}
	return b.String()
}

// TestRecordFlood: thousands of input events and key presses in a few
// seconds end as one fill with the final value and one press per combo,
// and the session keeps its state small.
func TestRecordFlood(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html><textarea id="t"></textarea>`})
	id, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	p.MustElement("#t").MustClick()
	const n = 3000
	p = p.CancelTimeout().Timeout(2 * time.Minute) // many calls: slow under -race
	for i := range n {
		if err := (proto.InputInsertText{Text: string(rune('a' + i%26))}).Call(p); err != nil {
			t.Fatal(err)
		}
	}
	want := p.MustEval(`() => document.getElementById('t').value`).Str()
	if len(want) != n {
		t.Fatalf("typed %d characters", len(want))
	}
	if err := p.Keyboard.Press(input.ControlLeft); err != nil {
		t.Fatal(err)
	}
	p.Keyboard.MustType(input.KeyA)
	if err := p.Keyboard.Release(input.ControlLeft); err != nil {
		t.Fatal(err)
	}
	steps := out.waitSteps(t, "navigate,fill,press")
	if v := steps[1].Value; v == nil || *v != want {
		t.Errorf("the fill's value is not the final one")
	}
	if steps[2].Key != "Control+A" {
		t.Errorf("press %q", steps[2].Key)
	}
	out.mu.Lock()
	calls := out.calls
	out.mu.Unlock()
	if calls > n/4 {
		t.Errorf("%d step messages for %d keystrokes: fills are not coalesced", calls, n)
	}
	s, _ := manager(t).session(id)
	s.rec.mu.Lock()
	kept := len(s.rec.last)
	s.rec.mu.Unlock()
	if kept > keepLast {
		t.Errorf("the recorder keeps %d steps", kept)
	}
}

// TestPickerOnRecording: a picker opened on a recording's page picks
// there without the recording capturing the click, and the recording
// goes on once the picker closes.
func TestPickerOnRecording(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html><button id="b" onclick="this.dataset.n = (+this.dataset.n || 0) + 1">Count</button>`})
	rec, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	m := manager(t)
	pout := newSink()
	if err := m.Start(context.Background(), "pck_on_"+rec, protocol.AuthorStart{Kind: protocol.AuthorPick, Recording: rec}, pout); err != nil {
		t.Fatal(err)
	}
	pout.waitStatus(t, protocol.SessionReady)
	x, y := center(t, p, "#b")
	clickAt(t, p, x, y, 1)
	waitFor(t, "a pick", func() bool {
		pout.mu.Lock()
		defer pout.mu.Unlock()
		return len(pout.picked) == 1
	})
	if got := types(out.recorded()); got != "navigate" {
		t.Errorf("the recording captured the pick: %s", got)
	}
	// A picker turned off lets the recording record.
	if err := m.Mode("pck_on_"+rec, protocol.ModeOff); err != nil {
		t.Fatal(err)
	}
	clickAt(t, p, x, y, 1)
	out.waitSteps(t, "navigate,click")
	if err := m.Stop("pck_on_" + rec); err != nil {
		t.Fatal(err)
	}
	if st := pout.lastStatus(); !strings.HasPrefix(st, protocol.SessionClosed) {
		t.Errorf("picker after stop: %s", st)
	}
	time.Sleep(100 * time.Millisecond)
	clickAt(t, p, x, y, 1)
	out.waitSteps(t, "navigate,click,click")
	if n := p.MustEval(`() => document.getElementById('b').dataset.n`).Str(); n != "2" {
		t.Errorf("page clicks %s, want 2 (the pick's click must not reach it)", n)
	}
}

// TestCloseAllAndIdle: an agent that disconnects ends its sessions without
// a word to the hub and closes the browser; with no session left the
// browser closes by itself.
func TestCloseAllAndIdle(t *testing.T) {
	srv := site(t, map[string]string{"/": `<p>hi</p>`})
	m := New(Options{IdleClose: 300 * time.Millisecond})
	defer m.Close()
	out := newSink()
	if err := m.Start(context.Background(), "rec_a", protocol.AuthorStart{Kind: protocol.AuthorRecord, URL: srv.URL + "/"}, out); err != nil {
		t.Fatal(err)
	}
	out.waitStatus(t, protocol.SessionRecording)
	n := len(out.statuses)
	m.CloseAll()
	if len(out.statuses) != n {
		t.Errorf("CloseAll reported %v", out.statuses[n:])
	}
	if _, err := m.session("rec_a"); err == nil {
		t.Error("the session is still there")
	}
	m.mu.Lock()
	br := m.br
	m.mu.Unlock()
	if br != nil {
		t.Error("the browser is still up")
	}

	res := m.Try(context.Background(), protocol.TryRequest{Code: "return 1"})
	if string(res.Value) != "1" {
		t.Fatalf("try: %+v", res)
	}
	waitFor(t, "the idle browser to close", func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		return m.br == nil
	})
}

// TestBrowserDies: a browser that goes away ends its sessions with an
// error saying so, and the next session starts a new one.
func TestBrowserDies(t *testing.T) {
	srv := site(t, map[string]string{"/": `<p>hi</p>`})
	m := New(Options{})
	defer m.Close()
	out := newSink()
	if err := m.Start(context.Background(), "rec_dies", protocol.AuthorStart{Kind: protocol.AuthorRecord, URL: srv.URL + "/"}, out); err != nil {
		t.Fatal(err)
	}
	out.waitStatus(t, protocol.SessionRecording)
	m.mu.Lock()
	m.br.l.Kill()
	m.mu.Unlock()
	st := out.waitStatus(t, protocol.SessionError)
	if !strings.Contains(st, "the browser stopped (it crashed or was closed)") {
		t.Errorf("status %q", st)
	}
	again := newSink()
	if err := m.Start(context.Background(), "rec_again", protocol.AuthorStart{Kind: protocol.AuthorRecord, URL: srv.URL + "/"}, again); err != nil {
		t.Fatal(err)
	}
	again.waitStatus(t, protocol.SessionRecording)
}

// TestRecordLabelsAndSubmit: a click on a checkbox's label records check
// and uncheck (no click), and Enter that sends a form is one press step:
// the navigation it causes is part of it.
func TestRecordLabelsAndSubmit(t *testing.T) {
	srv := site(t, map[string]string{
		"/": `<!doctype html><form action="/done.html"><label><input type="checkbox" name="ok"> Keep me signed in</label>
<label>Search <input name="q"></label></form>`,
		"/done.html": `<!doctype html><p>Done</p>`,
	})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	label := p.MustElementR("label", "Keep me signed in")
	label.MustClick()
	label.MustClick()
	p.MustElement("[name=q]").MustClick()
	p.Keyboard.MustType([]input.Key("shoes")...)
	wait := p.WaitNavigation(proto.PageLifecycleEventNameLoad)
	p.Keyboard.MustType(input.Enter)
	wait()
	p.MustElementR("p", "Done")
	steps := out.waitSteps(t, "navigate,check,uncheck,fill,press")
	time.Sleep(500 * time.Millisecond)
	if got := types(out.recorded()); got != "navigate,check,uncheck,fill,press" {
		t.Errorf("recorded %s", got)
	}
	if steps[4].Key != "Enter" || steps[4].Target == nil {
		t.Errorf("press %+v", steps[4])
	}
}

// TestRecordScriptHoverMenu: a menu a script opens on mouseenter counts as
// a hover menu too.
func TestRecordScriptHoverMenu(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html>
<nav><button id="account">Account</button><ul id="items" hidden><li><a href="#out" onclick="document.title='out'">Sign out</a></li></ul></nav>
<script>document.getElementById('account').onmouseenter = () => document.getElementById('items').hidden = false</script>`})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	p.MustElement("#account").MustHover()
	p.MustElementR("a", "Sign out").MustClick()
	steps := out.waitSteps(t, "navigate,hover,click")
	if l := steps[1].Target.Locators[0]; l.Name != "Account" && l.Value != "Account" {
		t.Errorf("hover on %+v", l)
	}
}

// TestToolbarAssertVisibleAndValue: the toolbar's other two assertions.
func TestToolbarAssertVisibleAndValue(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html><h1 id="h">Welcome</h1><input id="city" value="Oslo">`})
	id, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	x, y := toolbarButton(t, id, "assertVisible")
	clickAt(t, p, x, y, 1)
	hx, hy := center(t, p, "#h")
	clickAt(t, p, hx, hy, 1)
	out.waitSteps(t, "navigate,assertVisible")
	x, y = toolbarButton(t, id, "assertValue")
	clickAt(t, p, x, y, 1)
	cx, cy := center(t, p, "#city")
	clickAt(t, p, cx, cy, 1)
	steps := out.waitSteps(t, "navigate,assertVisible,assertValue")
	if e := steps[2].Expected; e == nil || *e != "Oslo" {
		t.Errorf("expected %v", e)
	}
}

// TestRecordClickFlood: hundreds of clicks in a few seconds are each
// recorded with a target; a backlog is drained with the page's own
// snapshot of each element rather than growing.
func TestRecordClickFlood(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html><button id="a">A</button> <button id="b">B</button>`})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	p = p.CancelTimeout().Timeout(2 * time.Minute)
	ax, ay := center(t, p, "#a")
	bx, by := center(t, p, "#b")
	const n = 300
	for i := range n {
		if i%2 == 0 {
			clickAt(t, p, ax, ay, 1)
		} else {
			clickAt(t, p, bx, by, 1)
		}
	}
	waitFor(t, "every click", func() bool { return len(out.recorded()) == n+1 })
	for _, s := range out.recorded()[1:] {
		if s.Type != "click" || s.Target == nil || len(s.Target.Locators) == 0 {
			t.Fatalf("step %+v", s)
		}
	}
}

// TestRecordClickOpensDialog: an element a click shows (a dialog, a
// wizard's next step) is no hover menu: a click in it is just a click,
// though the pointer was over the opener when it appeared.
func TestRecordClickOpensDialog(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html>
<button id="open" onclick="document.getElementById('d').showModal()">Rename</button>
<dialog id="d"><button id="ok" onclick="document.title='ok';this.closest('dialog').close()">OK</button></dialog>`})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	p.MustElement("#open").MustClick()
	p.MustElement("#ok").MustWaitVisible().MustClick()
	out.waitSteps(t, "navigate,click,click")
	time.Sleep(300 * time.Millisecond)
	if got := types(out.recorded()); got != "navigate,click,click" {
		t.Errorf("recorded %s", got)
	}
}

// TestRecordSelectByKeys: choosing an option with the keyboard changes
// the select once a key; the choice is one select step, its final value.
func TestRecordSelectByKeys(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html>
<label>Size <select name="size"><option>1-10</option><option>11-50</option><option>51+</option></select></label>`})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	p.MustElement("select").MustFocus()
	p.Keyboard.MustType(input.ArrowDown)
	p.Keyboard.MustType(input.ArrowDown)
	if v := p.MustEval(`() => document.querySelector('select').value`).Str(); v != "51+" {
		t.Fatalf("the keys chose %q", v)
	}
	steps := out.waitSteps(t, "navigate,select")
	time.Sleep(300 * time.Millisecond)
	steps = out.recorded()
	if types(steps) != "navigate,select" || steps[1].Value == nil || *steps[1].Value != "51+" {
		t.Errorf("recorded %s, value %v", types(steps), steps[len(steps)-1].Value)
	}
}

// TestRecordClickRemovesItsElement: a click that removes the element it
// hit (a row's Delete) is recorded with the locators that told it apart
// when it was clicked: the row-scoped ones and its css path, never one
// that matched every row's button, never an empty one.
func TestRecordClickRemovesItsElement(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html><table><tbody id="rows">
<tr><td>Alice</td><td><button class="del">Delete</button></td></tr>
<tr><td>Carol</td><td><button class="del">Delete</button></td></tr>
<tr><td>Dave</td><td><button class="del">Delete</button></td></tr>
</tbody></table><p id="msg"></p>
<script>for (const b of document.querySelectorAll('.del')) b.onclick = () => {
  const tr = b.closest('tr'); document.getElementById('msg').textContent = 'Deleted ' + tr.cells[0].textContent; tr.remove(); };</script>`})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	p.MustElement("#rows tr:nth-child(2) .del").MustClick()
	p.MustElementR("#msg", "Deleted Carol")
	steps := out.waitSteps(t, "navigate,click")
	tg := steps[1].Target
	if tg == nil || len(tg.Locators) == 0 {
		t.Fatalf("target %+v", tg)
	}
	row, path := false, false
	for _, l := range tg.Locators {
		if strings.TrimSpace(l.Value) == "" {
			t.Errorf("an empty locator: %s", locs(tg.Locators))
		}
		if (l.Kind == "role" && l.Value == "button" && !strings.Contains(l.Name, "Carol")) || l.Kind == "text" ||
			l.Value == `//button[normalize-space()="Delete"]` || l.Value == ".del" {
			t.Errorf("%s %s %s matched every row's button: %s", l.Kind, l.Value, l.Name, locs(tg.Locators))
		}
		row = row || strings.Contains(l.Value, "Carol")
		path = path || (l.Kind == "css" && strings.Contains(l.Value, "tr:nth-of-type(2)"))
	}
	if !row || !path {
		t.Errorf("want a row-scoped locator and a css path, got %s", locs(tg.Locators))
	}
}

// TestRecordFillThatNavigates: a field whose typing leaves the page at once
// (a search box that jumps to its results, Enter pressed the moment the
// last key is typed) keeps its fill, with the locators the page gave when
// the field was typed into.
func TestRecordFillThatNavigates(t *testing.T) {
	srv := site(t, map[string]string{
		"/":        `<!doctype html><label>Jump to <input id="jump" oninput="location.href='/go.html'"></label>`,
		"/go.html": `<!doctype html><p>Gone</p>`,
	})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	x, y := center(t, p, "#jump")
	clickAt(t, p, x, y, 1)
	wait := p.WaitNavigation(proto.PageLifecycleEventNameLoad)
	p.Keyboard.MustType(input.KeyA)
	wait()
	steps := out.waitSteps(t, "navigate,fill")
	tg := steps[1].Target
	if tg == nil || !strings.Contains(locs(tg.Locators), "Jump to") || !strings.Contains(locs(tg.Locators), "#jump") {
		t.Errorf("fill target %+v", tg)
	}
}
