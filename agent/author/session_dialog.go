package author

import (
	"strconv"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// Dialogs (alert, confirm, prompt, beforeunload) in a recording: the
// person answers the real dialog in the headed browser, or the one the
// live view shows (screencast_dialog.go); its message (when
// it opened) and the answer (when it closed) become a dialog step, placed
// before the step that opened it, since a replay arms the answer before
// the action. The page's events are handled in order, so the action's
// report (sent by recorder.js before the page's own handlers ran) has
// been recorded by the time the dialog's events are handled.

// unansweredDialog is how long a dialog in a headless recording waits for
// an answer before it is dismissed when nobody watches the live view:
// nobody can answer it, and the page would hang. watchedDialog is how long
// it waits when someone watches (screencast_dialog.go): they answer it
// from the view, and it is still dismissed after that, so that a page
// left alone does not hang forever.
var (
	unansweredDialog = 3 * time.Second
	watchedDialog    = 2 * time.Minute
)

// answerForNobody shows the page's dialogs in its live view and dismisses
// those of a headless page that nobody answered; the close is then
// recorded as the dismiss it is. Its own event loop: the page's events
// wait for the dialog (a report's element is described in a page the
// dialog blocks).
func (pg *pageState) answerForNobody() {
	p := pg.page.Context(pg.ctx)
	var mu sync.Mutex
	events := 0 // dialogs opened and closed
	wait := p.EachEvent(func(e *proto.PageJavascriptDialogOpening) {
		mu.Lock()
		events++
		n := events
		mu.Unlock()
		watched := pg.m.showDialog(pg, &protocol.ViewDialog{Type: string(e.Type), Message: e.Message, DefaultPrompt: e.DefaultPrompt})
		if pg.b.headed { // the person answers the browser's own dialog
			return
		}
		wait := unansweredDialog
		if watched {
			wait = watchedDialog
		}
		time.AfterFunc(wait, func() {
			mu.Lock()
			still := events == n
			mu.Unlock()
			if still {
				_ = proto.PageHandleJavaScriptDialog{Accept: false}.Call(p)
			}
		})
	}, func(e *proto.PageJavascriptDialogClosed) {
		mu.Lock()
		events++
		mu.Unlock()
		pg.m.showDialog(pg, nil)
	})
	wait()
}

func (pg *pageState) dialogOpening(e *proto.PageJavascriptDialogOpening) {
	pg.mu.Lock()
	pg.dialog = e
	pg.mu.Unlock()
}

func (pg *pageState) dialogClosed(e *proto.PageJavascriptDialogClosed) {
	pg.mu.Lock()
	d := pg.dialog
	pg.dialog = nil
	pg.mu.Unlock()
	if d == nil || pg.owner.kind != protocol.AuthorRecord {
		return
	}
	st := protocol.Step{Type: "dialog", Action: "dismiss"}
	if e.Result {
		st.Action = "accept"
		if d.Type == proto.PageDialogTypePrompt {
			st.Text = protocol.Ptr(e.UserInput)
		}
	}
	if d.Message != "" {
		st.Expected = protocol.Ptr(d.Message)
	}
	pg.owner.rec.beforeLast(st)
}

// beforeLast records st before the last step: st takes the last step's
// place (its Seq, sent again, replaces it) and the last step is sent again
// after it. Before the recording started (a dialog of the start page), st
// waits to come before the first navigate.
func (r *recorder) beforeLast(st protocol.Step) {
	r.flushPending()
	r.mu.Lock()
	if r.s == nil || len(r.last) == 0 {
		r.early = append(r.early, st)
		r.mu.Unlock()
		return
	}
	i := len(r.last) - 1
	moved := r.last[i]
	st.ID = moved.step.ID
	r.last[i] = capturedStep{seq: moved.seq, step: st}
	r.seq++
	moved.seq = r.seq
	moved.step.ID = "s" + strconv.Itoa(r.seq)
	r.last = append(r.last, moved)
	if len(r.last) > keepLast {
		r.last = r.last[1:]
	}
	s, at := r.s, r.last[len(r.last)-2].seq
	r.mu.Unlock()
	s.sink.Step(s.id, protocol.Captured{Seq: at, Step: st})
	s.sink.Step(s.id, protocol.Captured{Seq: moved.seq, Step: moved.step})
}
