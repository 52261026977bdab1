package api

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
)

// Helpers for tests through a real headless agent process: pair it to a
// user, start a recording on it and reach the pages of its authoring
// browser through a debugging port, as a person's clicks there would.

// startPairedAgent runs the headless agent binary (extra flags after the
// usual ones), pairs it to c with the code it prints and waits until the
// hub sees c's agent connected.
func startPairedAgent(t *testing.T, h *harness, c *client, extra ...string) {
	t.Helper()
	_, codes := startAgentProcess(t, h.srv.URL, t.TempDir(), extra...)
	select {
	case code := <-codes:
		c.do("POST", "/api/agent/pair/"+code, nil).want(t, 201)
	case <-time.After(30 * time.Second):
		t.Fatal("the agent printed no pairing code")
	}
	waitFor(t, func() bool { return c.do("GET", "/api/agent", nil).json()["needed"] == false })
}

// startDebugAgent is startPairedAgent with the agent's authoring browser
// on a debugging port, which it returns (for recordingPage).
func startDebugAgent(t *testing.T, h *harness, c *client) int {
	t.Helper()
	port := freePort(t)
	startPairedAgent(t, h, c, "--remote-debugging-port", fmt.Sprint(port))
	return port
}

// startRecording starts a recording for c in project (body as POST
// /api/record/start takes it) and waits until the agent records; a
// recording that fails fails the test.
func startRecording(t *testing.T, c *client, project string, body obj) string {
	t.Helper()
	id := c.do("POST", "/api/record/start", body, ProjectHeader, project).want(t, 201).str("id")
	waitFor(t, func() bool {
		st := c.do("GET", "/api/record/"+id, nil).want(t, 200).json()
		if st["status"] == "error" {
			t.Fatalf("recording failed: %v", st["error"])
		}
		return st["status"] == "recording"
	})
	return id
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// recordingPage finds the page of the agent's authoring browser, through
// its debugging port, whose URL contains part.
func recordingPage(t *testing.T, port int, part string) *rod.Page {
	t.Helper()
	var b *rod.Browser
	end := time.Now().Add(30 * time.Second)
	for time.Now().Before(end) {
		if b == nil {
			if u, err := launcher.ResolveURL(fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
				b = rod.New().ControlURL(u)
				if b.Connect() != nil {
					b = nil
				}
			}
		}
		if b != nil {
			targets, err := proto.TargetGetTargets{}.Call(b)
			if err == nil {
				for _, ti := range targets.TargetInfos {
					if ti.Type == proto.TargetTargetInfoTypePage && strings.Contains(ti.URL, part) {
						p, err := b.PageFromTarget(ti.TargetID)
						if err == nil {
							// Not closed after the test: Close would close the
							// agent's browser, not only this connection.
							return p
						}
					}
				}
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("no page at %q in the authoring browser on port %d", part, port)
	return nil
}
