package runner

import (
	"bufio"
	"context"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

// withDisplay gives the test a display for a headed browser: the one in
// DISPLAY, or a private Xvfb it starts (skipping without one).
func withDisplay(t *testing.T) {
	t.Helper()
	if os.Getenv("DISPLAY") != "" {
		return
	}
	xvfb, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Skip("no display and no Xvfb")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	// -displayfd picks a free display number and writes it to fd 3.
	cmd := exec.Command(xvfb, "-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp", "-noreset")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	// Xvfb writes the number, then a newline: it stops should the pipe be
	// closed between them.
	defer r.Close()
	num, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatalf("Xvfb gave no display number: %v", err)
	}
	num = strings.TrimSpace(num)
	// The number comes a moment before the server takes connections.
	for deadline := time.Now().Add(5 * time.Second); ; {
		c, err := net.Dial("unix", "/tmp/.X11-unix/X"+num)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Xvfb :%s takes no connection: %v", num, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Setenv("DISPLAY", ":"+num)
	t.Logf("display %q pid %d", num, cmd.Process.Pid)
}

// A headed run whose page is not the window's front tab (here a script
// opened another tab, as a link with target=_blank does) draws no frames,
// and the browser's capture waited for one: every later screenshot was
// lost after 10 s, each delaying its step's result by as much. The runner
// brings the run's page to the front before capturing it.
func TestHeadedScreenshotsOfABackgroundPage(t *testing.T) {
	withDisplay(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	b, err := Launch(ctx, Options{BrowserPath: os.Getenv("TA_BROWSER"), HeadlessShell: "off", CanHead: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	doc := document(t, nav("/login.html"),
		protocol.Step{Type: "script", Code: "window.open('about:blank', '_blank')"},
		protocol.Step{Type: "wait", Ms: protocol.Ptr(500)},
		fillStep(css("#email"), "ada@example.com"),
		valueIs(css("#email"), "ada@example.com"))
	rec := &recorder{}
	res := b.Run(ctx, protocol.Job{RunID: "run_headed", Version: 1, Headed: true, Screenshots: true, Document: doc}, rec)
	took := rec.since(protocol.StepStarted, protocol.RunFinished)
	mustPass(t, res)
	for _, s := range res.Steps {
		if s.Screenshot == "" || s.ScreenshotError != "" {
			t.Errorf("step %d: screenshot %q, error %q", s.Index+1, s.Screenshot, s.ScreenshotError)
		}
	}
	for _, l := range rec.logs() {
		if strings.Contains(l, "no screenshot") {
			t.Errorf("log %s", l)
		}
	}
	// The steps take about a second and a half; a browser launch comes
	// before them.
	if took > 4*time.Second {
		t.Errorf("the steps took %s: screenshots held them back", took)
	}
}
