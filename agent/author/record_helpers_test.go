package author

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/agent/runner"
	"github.com/testautomation/ta/protocol"
)

// Helpers of the recording tests (record_*_test.go): a person's clicks
// as the page gets them, the tab a click opened, and the replay that
// proves a recording right.

// replayGreen runs recorded steps in the runner's own browser, as a saved
// test runs, and fails the test unless they pass.
func replayGreen(t *testing.T, steps []protocol.Step) {
	t.Helper()
	b, err := runner.Launch(context.Background(), runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	doc := protocol.Document{DSL: protocol.DSLVersion, Name: "recorded", Steps: steps}
	if issues := doc.Validate(); len(issues) > 0 {
		t.Fatalf("the recording is no valid document: %+v", issues)
	}
	res := b.Run(ctx, protocol.Job{RunID: "r", Document: doc}, discard{})
	if res.Status != protocol.RunPassed {
		t.Fatalf("replay %s: %s\nrecorded %s", res.Status, qFailure(res), qStepsText(steps))
	}
}

// assertOut is a final check of a recording: the element #out says want.
func assertOut(want string) protocol.Step {
	return assertTextAt("#out", want)
}

// assertTextAt is a final check of a recording: the element css says want.
func assertTextAt(css, want string) protocol.Step {
	return protocol.Step{ID: "check", Type: "assertText", Expected: protocol.Ptr(want),
		Target: &protocol.Target{Locators: []protocol.Locator{{Kind: "css", Value: css}}}}
}

// pressAt presses and releases the mouse button at x, y, with modifiers
// held (CDP's bit mask: 8 is Shift), without moving there first.
func pressAt(p *rod.Page, x, y float64, button proto.InputMouseButton, modifiers int) error {
	for _, typ := range []proto.InputDispatchMouseEventType{proto.InputDispatchMouseEventTypeMousePressed, proto.InputDispatchMouseEventTypeMouseReleased} {
		if err := (proto.InputDispatchMouseEvent{Type: typ, X: x, Y: y, Button: button, ClickCount: 1, Modifiers: modifiers}).Call(p); err != nil {
			return err
		}
	}
	return nil
}

// waitTab waits for the tab of p's browser whose URL ends with suffix.
func waitTab(t *testing.T, p *rod.Page, suffix string) *rod.Page {
	t.Helper()
	var tab *rod.Page
	waitFor(t, "the tab at "+suffix, func() bool {
		tab = findTab(p, suffix)
		return tab != nil
	})
	return tab.Timeout(20 * time.Second)
}

// findTab is the tab of p's browser whose URL ends with suffix, or nil.
func findTab(p *rod.Page, suffix string) *rod.Page {
	pages, err := p.Browser().Pages()
	if err != nil {
		return nil
	}
	for _, pg := range pages {
		if info, err := pg.Info(); err == nil && strings.HasSuffix(info.URL, suffix) {
			return pg
		}
	}
	return nil
}

// waitFollowed waits until the recording session id follows its tab at
// suffix: the recorder is installed there and records what is done in it.
// A person acts in a new tab some time after it opens; a test acting at
// once must wait for this, or a loaded machine loses the first action.
func waitFollowed(t *testing.T, id, suffix string) {
	t.Helper()
	waitFor(t, "the recorder in the tab at "+suffix, func() bool {
		s, err := testManager.session(id)
		if err != nil {
			return false
		}
		s.mu.Lock()
		tabs := append([]*pageState(nil), s.tabs...)
		s.mu.Unlock()
		for _, tab := range tabs {
			tab.mu.Lock()
			ok := tab.started
			tab.mu.Unlock()
			if ok && strings.HasSuffix(tab.url(), suffix) {
				return true
			}
		}
		return false
	})
}
