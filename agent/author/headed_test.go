package author

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// xvfb starts a virtual X display (Debian's xvfb package, which make deps
// installs) for the rest of the test and points DISPLAY at it.
func xvfb(t *testing.T) {
	t.Helper()
	bin, err := exec.LookPath("Xvfb")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("Xvfb is missing (apt-get install xvfb; make deps installs it)")
		}
		t.Skip("Xvfb is missing: apt-get install xvfb (make deps installs it)")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	// -displayfd: Xvfb picks a free display and writes its number to fd 3.
	cmd := exec.Command(bin, "-displayfd", "3", "-screen", "0", "1280x900x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		got <- strings.TrimSpace(line)
		r.Close()
	}()
	select {
	case n := <-got:
		if n == "" {
			t.Fatal("Xvfb did not start")
		}
		t.Setenv("DISPLAY", ":"+n)
	case <-time.After(20 * time.Second):
		t.Fatal("Xvfb did not say its display within 20 s")
	}
}

// TestRecordHeaded: on a machine with a display, a recording asking for a
// window gets a real one (a headed Chromium on the X display, not the
// headless shell), and what the tester does in it is recorded as in the
// headless browser: the toolbar is there, typing and a click become
// steps, the preview is a screenshot of the window.
func TestRecordHeaded(t *testing.T) {
	xvfb(t)
	m := New(Options{BrowserPath: os.Getenv("TA_BROWSER"), CanHead: true})
	defer m.CloseAll()
	srv := site(t, map[string]string{"/": `<!doctype html><title>Sign in</title>
<label>Email <input id="email"></label> <button id="go" onclick="document.getElementById('out').textContent='Hello '+document.getElementById('email').value">Sign in</button>
<p id="out"></p>`})
	out := newSink()
	ctx := context.Background()
	if err := m.Start(ctx, "rec_headed", protocol.AuthorStart{Kind: protocol.AuthorRecord, URL: srv.URL + "/", Headed: true}, out); err != nil {
		t.Fatal(err)
	}
	defer m.Stop("rec_headed") //nolint:errcheck
	out.waitStatus(t, protocol.SessionRecording)
	s, err := m.session("rec_headed")
	if err != nil {
		t.Fatal(err)
	}
	if !s.pg.b.headed {
		t.Fatal("the session's browser is headless though a display is there and a window was asked for")
	}
	p := s.page().Timeout(20 * time.Second)
	v, err := proto.BrowserGetVersion{}.Call(p)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(v.UserAgent, "Headless") {
		t.Errorf("the browser runs headless: %s", v.UserAgent)
	}
	win, err := proto.BrowserGetWindowForTarget{}.Call(p)
	if err != nil {
		t.Fatal(err)
	}
	if b := win.Bounds; b.WindowState != proto.BrowserWindowStateNormal && b.WindowState != proto.BrowserWindowStateMaximized ||
		b.Width == nil || *b.Width < 400 {
		t.Errorf("window %+v", *win.Bounds)
	}
	if vis := p.MustEval(`() => document.visibilityState`).Str(); vis != "visible" {
		t.Errorf("the page is %s in its window", vis)
	}
	if !p.MustEval(`() => !!document.querySelector('ta-author-toolbar')`).Bool() {
		t.Error("no recording toolbar in the window")
	}
	x, y := center(t, p, "#email")
	clickAt(t, p, x, y, 1)
	p.Keyboard.MustType([]input.Key("ann@example.com")...)
	x, y = center(t, p, "#go")
	clickAt(t, p, x, y, 1)
	p.MustElementR("#out", "Hello ann@example.com")
	steps := out.waitSteps(t, "navigate,fill,click")
	if v := steps[1].Value; v == nil || *v != "ann@example.com" {
		t.Errorf("fill %v", v)
	}
	if l := steps[2].Target.Locators[0]; l.Kind != "role" || l.Name != "Sign in" {
		t.Errorf("click on %+v", l)
	}
	png, err := m.Preview(ctx, "rec_headed")
	if err != nil {
		t.Fatal(err)
	}
	if len(png) < 1000 || string(png[1:4]) != "PNG" {
		t.Errorf("preview of %d bytes", len(png))
	}
}
