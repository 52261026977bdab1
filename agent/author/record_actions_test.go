package author

import (
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// clickAnswering clicks the element sel, which opens a JavaScript dialog,
// and answers the dialog as a person would: the click does not end until
// the dialog is closed.
func clickAnswering(t *testing.T, p *rod.Page, sel string, answer proto.PageHandleJavaScriptDialog) {
	t.Helper()
	x, y := center(t, p, sel)
	wait, handle := p.HandleDialog()
	done := make(chan error, 1)
	go func() { done <- pressAt(p, x, y, proto.InputMouseButtonLeft, 0) }()
	wait()
	time.Sleep(100 * time.Millisecond) // the person reads it
	if err := handle(&answer); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestRecordDialogs: a confirm accepted, a prompt answered and a confirm
// dismissed are each recorded as a dialog step with the answer and the
// message, placed before the click that opened it, and replay green.
func TestRecordDialogs(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html>
<button id="del" onclick="out.textContent = confirm('Delete 3 items?') ? 'deleted' : 'kept'">Delete</button>
<button id="name" onclick="out.textContent += ', hello ' + prompt('Your name?', 'you')">Name</button>
<button id="leave" onclick="out.textContent += confirm('Leave?') ? ', left' : ', stayed'">Leave</button>
<p id="out"></p>`})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	clickAnswering(t, p, "#del", proto.PageHandleJavaScriptDialog{Accept: true})
	clickAnswering(t, p, "#name", proto.PageHandleJavaScriptDialog{Accept: true, PromptText: "Ann"})
	clickAnswering(t, p, "#leave", proto.PageHandleJavaScriptDialog{Accept: false})
	want := "deleted, hello Ann, stayed"
	p.MustElementR("#out", want)
	steps := out.waitSteps(t, "navigate,dialog,click,dialog,click,dialog,click")
	check := func(i int, action, text, expected, clicked string) {
		t.Helper()
		d := steps[i]
		gotText := "<none>"
		if d.Text != nil {
			gotText = *d.Text
		}
		if d.Action != action || gotText != text || d.Expected == nil || *d.Expected != expected {
			t.Errorf("step %d: dialog %s text %s expected %v, want %s %s %q", i, d.Action, gotText, d.Expected, action, text, expected)
		}
		if l := locs(steps[i+1].Target.Locators); !strings.Contains(l, clicked) {
			t.Errorf("step %d: the dialog comes before the click on %s, not %s", i, l, clicked)
		}
	}
	check(1, "accept", "<none>", "Delete 3 items?", "Delete")
	check(3, "accept", "Ann", "Your name?", "Name")
	check(5, "dismiss", "<none>", "Leave?", "Leave")
	replayGreen(t, append(steps, assertOut(want)))
}

// TestRecordRightClick: a right click is a click step with button right
// (and the modifiers held), and replays as one.
func TestRecordRightClick(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html>
<div id="file" style="padding:10px;width:100px">report.pdf</div><p id="out"></p>
<script>file.oncontextmenu = e => { e.preventDefault(); out.textContent = 'menu for ' + file.textContent + (e.shiftKey ? ' with shift' : ''); }</script>`})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	x, y := center(t, p, "#file")
	if err := pressAt(p, x, y, proto.InputMouseButtonRight, 8); err != nil {
		t.Fatal(err)
	}
	want := "menu for report.pdf with shift"
	p.MustElementR("#out", want)
	steps := out.waitSteps(t, "navigate,click")
	if c := steps[1]; c.Button != "right" || strings.Join(c.Modifiers, "+") != "Shift" || !strings.Contains(locs(c.Target.Locators), "report.pdf") {
		t.Errorf("recorded click button %q modifiers %v on %s", c.Button, c.Modifiers, locs(c.Target.Locators))
	}
	replayGreen(t, append(steps, assertOut(want)))
}

// TestRecordUnansweredDialog: in a headless recording nobody can answer a
// dialog (the live view shows the page, not the dialog): it is dismissed
// after a moment rather than hanging the page, and recorded as dismissed.
func TestRecordUnansweredDialog(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html>
<button id="del" onclick="out.textContent = confirm('Delete 3 items?') ? 'deleted' : 'kept'">Delete</button><p id="out"></p>`})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	x, y := center(t, p, "#del")
	go func() { _ = pressAt(p, x, y, proto.InputMouseButtonLeft, 0) }()
	p.MustElementR("#out", "kept")
	steps := out.waitSteps(t, "navigate,dialog,click")
	if d := steps[1]; d.Action != "dismiss" || d.Expected == nil || *d.Expected != "Delete 3 items?" {
		t.Errorf("dialog %s %v", d.Action, d.Expected)
	}
}
