package runner

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

// A popup's first script runs as soon as its page loads: the run holds a
// new tab until the guard and the run's emulation are on it (issue 28).

// openEarly is a script step opening early.html in a new tab, with or
// without an opener.
func openEarly(query string, noopener bool) protocol.Step {
	args := "'early.html" + query + "'"
	if noopener {
		args += ", '_blank', 'noopener'"
	}
	return scriptStep("window.open(" + args + ")")
}

// TestPopupGuardedFromItsFirstScript: the request a popup's first inline
// script makes to the DevTools address of the agent's browser is refused,
// and the run fails saying so.
func TestPopupGuardedFromItsFirstScript(t *testing.T) {
	t.Parallel()
	cu, err := url.Parse(testBrowser.ControlURL())
	if err != nil {
		t.Fatal(err)
	}
	q := "?fetch=" + url.QueryEscape("http://"+cu.Host+"/json/version")
	for name, noopener := range map[string]bool{"with opener": false, "noopener": true} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
			defer cancel()
			res, _ := runJob(t, ctx, protocol.Job{Version: 1, Document: unsaved(t, nav("/tabs.html"), openEarly(q, noopener),
				switchTo("new"), protocol.Step{Type: "wait", Ms: protocol.Ptr(500)},
				jsAssert("document.documentElement.dataset.fetch === 'refused'"))})
			if res.Status != protocol.RunFailed || !strings.Contains(res.Error, "it is the DevTools address of the agent's browser") {
				t.Fatalf("status %s: %q; want the popup's request refused", res.Status, res.Error)
			}
		})
	}
}

// TestPopupEmulatedFromItsFirstScript: under a device, a popup's first
// script already sees the device's width.
func TestPopupEmulatedFromItsFirstScript(t *testing.T) {
	t.Parallel()
	for name, noopener := range map[string]bool{"with opener": false, "noopener": true} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
			defer cancel()
			res, _ := runJob(t, ctx, protocol.Job{Version: 1, Device: "Pixel 7", Document: document(t, nav("/tabs.html"),
				openEarly("", noopener), switchTo("new"), titleIs("width 412"))})
			mustPass(t, res)
		})
	}
}
