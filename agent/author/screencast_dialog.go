package author

import (
	"context"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// Dialogs in the live view: the screencast shows the page, not the
// browser's dialog over it, and a headless page has no other way to be
// answered. So the frames carry the open dialog, the web shows it over the
// picture, and the person's answer comes back as an input of kind dialog.

// shownDialog is the dialog open on the page, for its frames.
func (pg *pageState) shownDialog() *protocol.ViewDialog {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	return pg.shown
}

// showDialog records the dialog open on the page (nil: it closed) and
// sends the page's last picture again with it to the page's watchers: a
// page blocked by a dialog sends no new frames, and one the answer does
// not change would not either. It reports whether someone watches.
func (m *Manager) showDialog(pg *pageState, d *protocol.ViewDialog) bool {
	pg.mu.Lock()
	pg.shown = d
	pg.mu.Unlock()
	m.views.mu.Lock()
	c := m.views.of[pg]
	m.views.mu.Unlock()
	if c == nil {
		return false
	}
	m.broadcast(c, func() (protocol.ViewFrame, bool) {
		f := c.last
		f.Dialog = d
		return f, m.views.of[pg] == c
	})
	return true
}

// answerDialog answers the page's open dialog as the input says; the
// close then records the answer (dialogClosed).
func (m *Manager) answerDialog(pg *pageState, session string, in protocol.ViewInput) {
	ctx, cancel := context.WithTimeout(pg.ctx, 10*time.Second)
	defer cancel()
	err := proto.PageHandleJavaScriptDialog{Accept: in.Accept, PromptText: in.Text}.Call(pg.page.Context(ctx))
	if err != nil {
		m.log.Info("view input", "session", session, "kind", in.Kind, "err", err)
	}
}
