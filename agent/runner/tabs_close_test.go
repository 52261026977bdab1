package runner

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

// TestPopupClosingItselfReturnsToOpener: a popup window that closes itself
// on a click (window.close(), as sign-in popups do) leaves the run in its
// opener, and the next step acts there at once. In the headless shell the
// popup's last frame never comes: it must not hold up the opener's frames,
// which a role locator waits for (Chromium answers an accessibility query
// after the page's next frame). It did for 10 s, now and then under load.
func TestPopupClosingItselfReturnsToOpener(t *testing.T) {
	t.Parallel()
	b := shell(t)
	for i := range 4 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
			defer cancel()
			job := protocol.Job{Version: 1, RunID: "r", Document: document(t, nav("/tabs.html"),
				click(css("#window")), switchTo("new"), click(css("#close")),
				click(tgt(role("button", "Open a popup"))), switchTo("new"), titleIs("Second tab"))}
			// Held up, the role locator's step times out and the run fails.
			res, _ := unlessStalled(t, b, func(rec *recorder) protocol.RunResult { return b.Run(ctx, job, rec) })
			mustPass(t, res)
		})
	}
}
