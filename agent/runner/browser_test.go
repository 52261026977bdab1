package runner

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

func TestFindBrowser(t *testing.T) {
	_, err := FindBrowser("/nonexistent/chromium")
	if err == nil || !strings.Contains(err.Error(), "apt-get install chromium") || !strings.Contains(err.Error(), "--browser") {
		t.Errorf("error %v, want one naming what to install", err)
	}
	p, err := FindBrowser(testBrowser.Path())
	if err != nil || p != testBrowser.Path() {
		t.Errorf("FindBrowser(%q) = %q, %v", testBrowser.Path(), p, err)
	}
}

// The headless shell is found, named, or turned off; a missing one named
// is an error that says what to install, and a Launch with it fails.
func TestFindHeadlessShell(t *testing.T) {
	if p, err := FindHeadlessShell("off"); p != "" || err != nil {
		t.Errorf("off: %q, %v", p, err)
	}
	_, err := FindHeadlessShell("/nonexistent/chrome-headless-shell")
	if err == nil || !strings.Contains(err.Error(), "apt-get install chromium-headless-shell") {
		t.Errorf("error %v, want one naming what to install", err)
	}
	if _, err := Launch(context.Background(), Options{HeadlessShell: "/nonexistent/chrome-headless-shell"}); err == nil {
		t.Error("Launch with a missing headless shell started")
	}
	found, err := FindHeadlessShell("")
	if err != nil {
		t.Fatal(err)
	}
	if found != "" && (!shell(t).frames || shell(t).Path() != found) {
		t.Errorf("found %q; the shell's browser runs %s, frames on demand %v", found, shell(t).Path(), shell(t).frames)
	}
	if p, err := FindHeadlessShell(found); found != "" && (p != found || err != nil) {
		t.Errorf("FindHeadlessShell(%q) = %q, %v", found, p, err)
	}
	if testBrowser.frames {
		t.Error("HeadlessShell off still renders on demand")
	}
}

// TestOwnBrowser uses a browser of its own: it bounds a run's time, kills
// the browser under a run, and closes it.
func TestOwnBrowser(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := Launch(ctx, Options{BrowserPath: testBrowser.Path()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	waitLong := document(t, nav("/widgets.html"), short(typed("assertVisible", css("#never")), 30000))
	mustPass(t, b.Run(ctx, protocol.Job{Version: 1, Document: document(t, nav("/login.html"))}, &recorder{}))

	t.Run("overall time bound", func(t *testing.T) {
		b.opts.MaxRunTime = 1500 * time.Millisecond
		defer func() { b.opts.MaxRunTime = 0 }()
		start := time.Now()
		res := b.Run(ctx, protocol.Job{Version: 1, Document: waitLong}, &recorder{})
		if res.Status != protocol.RunError || !strings.Contains(res.Error, "the run took longer than its limit of 1.5s") {
			t.Errorf("status %s error %q", res.Status, res.Error)
		}
		if d := time.Since(start); d > 4*time.Second {
			t.Errorf("the run took %s", d)
		}
	})

	t.Run("browser killed mid-run", func(t *testing.T) {
		done := make(chan protocol.RunResult)
		go func() { done <- b.Run(ctx, protocol.Job{Version: 1, Document: waitLong}, &recorder{}) }()
		time.Sleep(1500 * time.Millisecond)
		p, err := os.FindProcess(b.l.PID())
		if err != nil {
			t.Fatal(err)
		}
		_ = p.Kill()
		var res protocol.RunResult
		select {
		case res = <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("the run did not end within 5 s of the browser's death")
		}
		if res.Status != protocol.RunError || !strings.Contains(res.Error, "the browser exited") {
			t.Errorf("status %s error %q", res.Status, res.Error)
		}
		res = b.Run(ctx, protocol.Job{Version: 1, Document: waitLong}, &recorder{})
		if res.Status != protocol.RunError || len(res.Steps) != 2 || res.Steps[0].Status != protocol.StepSkipped {
			t.Errorf("a run on a dead browser: %+v", res)
		}
	})

	if err := b.Close(); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(b.dataDir); !os.IsNotExist(err) {
		t.Errorf("the profile folder %s is still there: %v", b.dataDir, err)
	}
}
