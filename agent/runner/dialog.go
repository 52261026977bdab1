package runner

import (
	"context"
	"strconv"
	"sync"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// JavaScript dialogs (alert, confirm, prompt, beforeunload) block their
// page until answered, so every dialog is answered at once, from the
// browser's event reader (tab.go), as the run decides here. A dialog step
// arms the answer for the next dialog; that dialog must open before the
// step after it ends, else that step fails. A dialog nobody armed is
// dismissed (beforeunload accepted, so navigation goes on) and logged on
// the step running.

// armedDialog is the answer a dialog step prepared.
type armedDialog struct {
	step    int    // the dialog step's index
	accept  bool   // accept or dismiss
	text    string // a prompt's answer
	expect  *matcher
	summary string // how the step reads in messages: accept "Delete?"

	opened   chan struct{} // closed when its dialog opened
	mismatch string        // the message did not match the expectation
}

// dialogs is a run's dialog state: the event reader and the run's
// goroutine both use it.
type dialogs struct {
	mu    sync.Mutex
	armed *armedDialog // waiting for its dialog, or answered and not yet checked
	used  bool         // armed's dialog opened
}

// dialogStep arms the answer for the next dialog.
func dialogStep(s *stepRun, ctx context.Context, st protocol.Step) error {
	if st.Action != "accept" && st.Action != "dismiss" {
		return permanent("unknown dialog action %q: use accept or dismiss", st.Action)
	}
	if st.Text != nil && st.Action != "accept" {
		return permanent("a dialog's text answers a prompt: it goes with action accept")
	}
	if s.index == len(s.r.job.Document.Steps)-1 {
		return permanent("a dialog step answers the dialog the following step opens, and no step follows it")
	}
	a := &armedDialog{step: s.index, accept: st.Action == "accept", text: deref(st.Text), opened: make(chan struct{}),
		summary: st.Action}
	if st.Expected != nil {
		m, err := newMatcher(st, s.r.mask)
		if err != nil {
			return err
		}
		a.expect = m
		a.summary += " " + strconv.Quote(s.r.mask.String(*st.Expected))
	}
	s.r.dlg.mu.Lock()
	s.r.dlg.armed, s.r.dlg.used = a, false
	s.r.dlg.mu.Unlock()
	return nil
}

// dialog answers a dialog that opened in one of the run's pages (called by
// the browser's event reader).
func (r *run) dialog(t *tab, d proto.PageJavascriptDialogOpening) (bool, string) {
	var step *int
	if i := int(r.current.Load()); i >= 0 {
		step = &i
	}
	r.dlg.mu.Lock()
	a := r.dlg.armed
	if a != nil && !r.dlg.used && (step == nil || *step > a.step) {
		r.dlg.used = true
		if a.expect != nil {
			if err := a.expect.check(string(d.Type)+" dialog's message", d.Message); err != nil {
				a.mismatch = err.Error()
			}
		}
		close(a.opened)
		r.dlg.mu.Unlock()
		verb := map[bool]string{true: "accepted", false: "dismissed"}[a.accept]
		r.out.logf("info", step, "%s dialog %s: %s", d.Type, verb, d.Message)
		return a.accept, a.text
	}
	r.dlg.mu.Unlock()
	accept := d.Type == proto.PageDialogTypeBeforeunload
	verb := map[bool]string{true: "accepted", false: "dismissed"}[accept]
	r.out.logf("warn", step, "%s dialog %s: %s (no dialog step armed an answer for it)", d.Type, verb, d.Message)
	return accept, ""
}

// dialogCheck ends a step the way the dialogs it saw require: the step
// after a dialog step waits, within its timeout, for the armed dialog,
// and fails when it did not open or its message did not match.
func (s *stepRun) dialogCheck(ctx context.Context) error {
	r := s.r
	r.dlg.mu.Lock()
	a := r.dlg.armed
	r.dlg.mu.Unlock()
	if a == nil || a.step >= s.index {
		return nil
	}
	defer func() {
		r.dlg.mu.Lock()
		if r.dlg.armed == a {
			r.dlg.armed = nil
		}
		r.dlg.mu.Unlock()
	}()
	select {
	case <-a.opened:
	default:
		select {
		case <-a.opened:
		case <-ctx.Done():
			return permanent("expected a dialog (%s, armed by step %s) but none opened before this step ended", a.summary, r.number(a.step))
		}
	}
	r.dlg.mu.Lock()
	defer r.dlg.mu.Unlock()
	if a.mismatch != "" {
		return permanent("%s (armed by step %s)", a.mismatch, r.number(a.step))
	}
	return nil
}

// disarm drops the armed answer once the step after the dialog step has
// failed on its own: it cannot answer a dialog of a later step.
func (s *stepRun) disarm() {
	s.r.dlg.mu.Lock()
	defer s.r.dlg.mu.Unlock()
	if a := s.r.dlg.armed; a != nil && a.step < s.index {
		s.r.dlg.armed = nil
	}
}
