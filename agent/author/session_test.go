package author

import (
	"context"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

const formPage = `<!doctype html><title>Form</title>
<button id="go" onclick="document.getElementById('n').textContent++">Add</button> <span id="n">0</span>
<p><label>Name <input id="name"></label></p>
<p><label>Size <select id="size"><option value="s">Small</option><option value="m">Medium</option></select></label></p>
<p><label><input type="checkbox" id="terms"> I agree</label></p>
<p><button id="twice" ondblclick="this.textContent='done'">Double</button></p>
<p><a id="next" href="/next.html">Next</a></p>`

// TestRecordActions records what a tester does with real input: a click,
// typing (one fill with the final value), a select, a check, Enter, a
// double-click (its clicks withdrawn), a link that navigates (part of its
// click) and an address typed (a navigate step).
func TestRecordActions(t *testing.T) {
	srv := site(t, map[string]string{"/form.html": formPage, "/next.html": `<!doctype html><p>Next page</p>`})
	id, out, p := start(t, protocol.AuthorRecord, srv.URL+"/form.html")

	p.MustElement("#go").MustClick()
	out.waitSteps(t, "navigate,click")
	p.MustElement("#name").MustClick()
	p.Keyboard.MustType([]input.Key("hello")...)
	p.MustElement("#size").MustFocus()
	p.Keyboard.MustType(input.ArrowDown)
	p.MustElement("#terms").MustClick()
	p.MustElement("#name").MustFocus()
	p.Keyboard.MustType(input.Enter)
	x, y := center(t, p, "#twice")
	clickAt(t, p, x, y, 1)
	clickAt(t, p, x, y, 2)
	p.MustElementR("#twice", "done")
	steps := out.waitSteps(t, "navigate,click,fill,select,check,press,dblclick")
	if v := steps[2].Value; v == nil || *v != "hello" {
		t.Errorf("fill value %v, want hello", v)
	}
	if v := steps[3].Value; v == nil || *v != "Medium" {
		t.Errorf("select value %v, want its label Medium", v)
	}
	if steps[5].Key != "Enter" {
		t.Errorf("press key %q", steps[5].Key)
	}
	if steps[0].URL != srv.URL+"/form.html" {
		t.Errorf("first step %+v", steps[0])
	}
	for _, s := range steps[1:] {
		if s.Target == nil || len(s.Target.Locators) < 2 {
			t.Fatalf("step %s %s has no fallback locators: %+v", s.ID, s.Type, s.Target)
		}
	}
	if l := steps[1].Target.Locators[0]; l.Kind != "role" || l.Value != "button" || l.Name != "Add" {
		t.Errorf("the button's best locator is %+v", l)
	}
	if l := steps[2].Target.Locators[0]; l.Kind != "role" && l.Kind != "label" {
		t.Errorf("the field's best locator is %+v", l)
	}

	wait := p.WaitNavigation(proto.PageLifecycleEventNameLoad)
	p.MustElement("#next").MustClick()
	wait()
	p.MustElementR("p", "Next page")
	out.waitSteps(t, "navigate,click,fill,select,check,press,dblclick,click")
	time.Sleep(300 * time.Millisecond) // a navigate step would have arrived by now
	if got := types(out.recorded()); got != "navigate,click,fill,select,check,press,dblclick,click" {
		t.Fatalf("the link's navigation was recorded as a step: %s", got)
	}

	// history.back() in a click handler: part of the click.
	p.MustEval(`() => document.body.insertAdjacentHTML('beforeend', '<button id="back" onclick="history.back()">Back</button>')`)
	p.MustElement("#back").MustClick()
	p.MustElement("#go")
	steps = out.waitSteps(t, "navigate,click,fill,select,check,press,dblclick,click,click")
	time.Sleep(300 * time.Millisecond)

	time.Sleep(attachWindow)
	p.MustNavigate(srv.URL + "/form.html").MustWaitLoad()
	steps = out.waitSteps(t, "navigate,click,fill,select,check,press,dblclick,click,click,navigate")
	if steps[9].URL != srv.URL+"/form.html" {
		t.Errorf("typed navigation %+v", steps[9])
	}
	ids := map[string]bool{}
	for _, s := range steps {
		if ids[s.ID] {
			t.Errorf("step id %s twice", s.ID)
		}
		ids[s.ID] = true
	}

	if err := testManager.Stop(id); err != nil {
		t.Fatal(err)
	}
	if st := out.lastStatus(); !strings.HasPrefix(st, protocol.SessionStopped) {
		t.Errorf("after stop: %s", st)
	}
}

// TestRecordUnreachable: a start page that does not answer ends the
// session with the browser's reason.
func TestRecordUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String() + "/"
	l.Close()
	out := newSink()
	if err := manager(t).Start(context.Background(), "rec_unreachable", protocol.AuthorStart{Kind: protocol.AuthorRecord, URL: url}, out); err != nil {
		t.Fatal(err)
	}
	st := out.waitStatus(t, protocol.SessionError)
	if !strings.Contains(st, "cannot open "+url+": net::ERR_CONNECTION_REFUSED") {
		t.Errorf("status %q", st)
	}
}

// TestRecordWindowClosed: closing the recording's page ends it with an
// error saying so.
func TestRecordWindowClosed(t *testing.T) {
	srv := site(t, map[string]string{"/": `<p>hi</p>`})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	p.MustClose()
	st := out.waitStatus(t, protocol.SessionError)
	if !strings.Contains(st, "the browser window was closed") {
		t.Errorf("status %q", st)
	}
}

// TestPreview is a PNG of the session's page.
func TestPreview(t *testing.T) {
	srv := site(t, map[string]string{"/": `<p>hi</p>`})
	id, _, _ := start(t, protocol.AuthorRecord, srv.URL+"/")
	png, err := manager(t).Preview(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(png) < 8 || string(png[:8]) != "\x89PNG\r\n\x1a\n" {
		t.Errorf("not a PNG: %q", png[:min(8, len(png))])
	}
}

// TestStopWhileTheBrowserStarts: a stop that arrives while the session's
// browser is still starting ends it as stopped, and it never opens.
func TestStopWhileTheBrowserStarts(t *testing.T) {
	srv := site(t, map[string]string{"/": `<p>hi</p>`})
	m := New(Options{BrowserPath: os.Getenv("TA_BROWSER")}) // no browser yet: the first session starts one
	t.Cleanup(m.CloseAll)
	out := newSink()
	done := make(chan error, 1)
	go func() {
		done <- m.Start(context.Background(), "rec_early", protocol.AuthorStart{Kind: protocol.AuthorRecord, URL: srv.URL + "/"}, out)
	}()
	time.Sleep(20 * time.Millisecond) // Start is launching the browser (seconds)
	if err := m.Stop("rec_early"); err != nil {
		t.Fatalf("stop while starting: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	out.waitStatus(t, protocol.SessionStopped)
	time.Sleep(time.Second)
	if last := out.lastStatus(); !strings.HasPrefix(last, protocol.SessionStopped) {
		t.Errorf("after the stop the session said %q", last)
	}
}
