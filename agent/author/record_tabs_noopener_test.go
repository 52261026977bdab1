package author

import (
	"testing"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// TestRecordNoopenerTab: a tab opened without an opener is followed as
// any popup: rel=noopener or rel=noreferrer on a target=_blank link,
// window.open with "noopener" (Chromium names their opener, older ones
// did not), and a link a person opens in a new tab with a middle click or
// Ctrl+click (the browser names no opener at all). The action in the new
// tab is recorded after a switchTab new, and the recording replays green.
func TestRecordNoopenerTab(t *testing.T) {
	link := `<a id="open" href="/report.html">Open report</a>`
	for _, c := range []struct {
		name, open string
		button     proto.InputMouseButton
		modifiers  int
	}{
		{"rel noopener", `<a id="open" href="/report.html" target="_blank" rel="noopener">Open report</a>`, proto.InputMouseButtonLeft, 0},
		{"rel noreferrer", `<a id="open" href="/report.html" target="_blank" rel="noreferrer">Open report</a>`, proto.InputMouseButtonLeft, 0},
		{"window.open noopener", `<button id="open" onclick="window.open('/report.html', '_blank', 'noopener')">Open report</button>`, proto.InputMouseButtonLeft, 0},
		{"middle click", link, proto.InputMouseButtonMiddle, 0},
		{"ctrl click", link, proto.InputMouseButtonLeft, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := site(t, map[string]string{
				"/":            `<!doctype html>` + c.open,
				"/report.html": `<!doctype html><button id="ok" onclick="this.textContent = 'Approved'">Approve</button>`,
			})
			id, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
			x, y := center(t, p, "#open")
			for _, typ := range []proto.InputDispatchMouseEventType{proto.InputDispatchMouseEventTypeMousePressed, proto.InputDispatchMouseEventTypeMouseReleased} {
				if err := (proto.InputDispatchMouseEvent{Type: typ, X: x, Y: y, Button: c.button, ClickCount: 1, Modifiers: c.modifiers}).Call(p); err != nil {
					t.Fatal(err)
				}
			}
			tab := waitTab(t, p, "/report.html")
			tab.MustWaitLoad()
			out.waitSteps(t, "navigate,click")
			waitFor(t, "the script in the new tab", func() bool {
				return tab.MustEval(`() => document.readyState`).Str() == "complete"
			})
			waitFollowed(t, id, "/report.html")
			tab.MustActivate()
			bx, by := center(t, tab, "#ok")
			clickAt(t, tab, bx, by, 1)
			tab.MustElementR("#ok", "Approved")
			steps := out.waitSteps(t, "navigate,click,switchTab,click")
			if steps[2].To != "new" {
				t.Errorf("switchTab to %q, want new", steps[2].To)
			}
			replayGreen(t, append(steps, protocol.Step{ID: "check", Type: "assertText", Expected: protocol.Ptr("Approved"),
				Target: &protocol.Target{Locators: []protocol.Locator{{Kind: "css", Value: "#ok"}}}}))
		})
	}
}
