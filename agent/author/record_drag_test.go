package author

import (
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// mouseTo dispatches one trusted mouse event at x, y with the left button
// (held for moves when down).
func mouseTo(t *testing.T, p *rod.Page, typ proto.InputDispatchMouseEventType, x, y float64, down bool) {
	t.Helper()
	e := proto.InputDispatchMouseEvent{Type: typ, X: x, Y: y, Button: proto.InputMouseButtonLeft, ClickCount: 1}
	if typ == proto.InputDispatchMouseEventTypeMouseMoved {
		e.ClickCount = 0
		if !down {
			e.Button = proto.InputMouseButtonNone
		} else {
			one := 1
			e.Buttons = &one
		}
	}
	if err := e.Call(p); err != nil {
		t.Fatal(err)
	}
}

// TestRecordMouseDrag: a card of a sortable list moved with the mouse
// (pointer events, no HTML5 drag) is a dragTo from the card to the one it
// was dropped on; a click on a card stays a click; both replay green.
func TestRecordMouseDrag(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html><style>li{height:30px;width:200px;background:#eee;margin:4px;list-style:none;user-select:none}</style>
<ul id="list"><li>Alpha</li><li>Bravo</li><li>Charlie</li></ul><p id="out"></p>
<script>
const list = document.getElementById('list'), out = document.getElementById('out');
const show = () => out.textContent = [...list.children].map(li => li.textContent).join(', ');
let drag = null;
list.addEventListener('pointerdown', e => { drag = {li: e.target.closest('li'), y: e.clientY}; });
addEventListener('pointermove', e => { if (drag) drag.li.style.transform = 'translateY(' + (e.clientY - drag.y) + 'px)'; });
addEventListener('pointerup', e => {
  if (!drag) return;
  const li = drag.li; drag = null; li.style.transform = '';
  const over = document.elementsFromPoint(e.clientX, e.clientY).find(n => n.localName === 'li' && n !== li);
  if (over) { over.after(li); show(); }
});
list.addEventListener('click', e => { out.textContent = 'clicked ' + e.target.textContent; });
</script>`})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	cx, cy := center(t, p, "#list li:nth-child(3)")
	clickAt(t, p, cx, cy, 1)
	p.MustElementR("#out", "clicked Charlie")
	ax, ay := center(t, p, "#list li:nth-child(1)")
	_, by := center(t, p, "#list li:nth-child(2)")
	mouseTo(t, p, proto.InputDispatchMouseEventTypeMouseMoved, ax, ay, false)
	mouseTo(t, p, proto.InputDispatchMouseEventTypeMousePressed, ax, ay, true)
	for i := 1; i <= 5; i++ {
		mouseTo(t, p, proto.InputDispatchMouseEventTypeMouseMoved, ax, ay+(by-ay)*float64(i)/5, true)
		time.Sleep(20 * time.Millisecond)
	}
	mouseTo(t, p, proto.InputDispatchMouseEventTypeMouseReleased, ax, by, true)
	want := "Bravo, Alpha, Charlie"
	p.MustElementR("#out", want)
	steps := out.waitSteps(t, "navigate,click,dragTo")
	time.Sleep(300 * time.Millisecond)
	if got := types(out.recorded()); got != "navigate,click,dragTo" {
		t.Fatalf("recorded %s", got)
	}
	d := steps[2]
	if d.Target == nil || d.ToTarget == nil || d.Target.Locators[0].Value != "Alpha" || d.ToTarget.Locators[0].Value != "Bravo" {
		t.Errorf("dragTo %s to %+v", qStepsText(steps[2:]), d.ToTarget)
	}
	replayGreen(t, append(steps, assertOut(want)))
}

// html5Board is a card to drag, HTML5-style (draggable, dragstart, drop),
// onto the drop zone Done, which says so in #out.
const html5Board = `<!doctype html>
<div id="card" draggable="true" style="width:120px;padding:8px;background:#fd0">Write report</div>
<div id="done" style="margin-top:40px;width:300px;height:100px;border:2px dashed #999">Done</div><p id="out"></p>
<script>
const card = document.getElementById('card'), done = document.getElementById('done');
card.addEventListener('dragstart', e => e.dataTransfer.setData('text/plain', 'card'));
done.addEventListener('dragover', e => e.preventDefault());
done.addEventListener('drop', e => { e.preventDefault(); done.appendChild(card); out.textContent = card.textContent + ' is done'; });
</script>`

// TestRecordHTML5Drag: an HTML5 drag and drop (draggable, dragstart,
// drop) is a dragTo from the dragged element to the drop zone.
func TestRecordHTML5Drag(t *testing.T) {
	srv := site(t, map[string]string{"/": html5Board})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	if err := (proto.InputSetInterceptDrags{Enabled: true}).Call(p); err != nil {
		t.Fatal(err)
	}
	defer proto.InputSetInterceptDrags{Enabled: false}.Call(p) //nolint:errcheck
	cx, cy := center(t, p, "#card")
	dx, dy := center(t, p, "#done")
	wait := p.WaitEvent(&proto.InputDragIntercepted{})
	var data *proto.InputDragData
	go p.EachEvent(func(e *proto.InputDragIntercepted) bool { data = e.Data; return true })()
	mouseTo(t, p, proto.InputDispatchMouseEventTypeMouseMoved, cx, cy, false)
	mouseTo(t, p, proto.InputDispatchMouseEventTypeMousePressed, cx, cy, true)
	mouseTo(t, p, proto.InputDispatchMouseEventTypeMouseMoved, cx+10, cy+10, true)
	mouseTo(t, p, proto.InputDispatchMouseEventTypeMouseMoved, dx, dy, true)
	wait()
	time.Sleep(50 * time.Millisecond)
	for _, typ := range []proto.InputDispatchDragEventType{proto.InputDispatchDragEventTypeDragEnter, proto.InputDispatchDragEventTypeDragOver, proto.InputDispatchDragEventTypeDrop} {
		if err := (proto.InputDispatchDragEvent{Type: typ, X: dx, Y: dy, Data: data}).Call(p); err != nil {
			t.Fatal(err)
		}
	}
	mouseTo(t, p, proto.InputDispatchMouseEventTypeMouseReleased, dx, dy, true)
	want := "Write report is done"
	p.MustElementR("#out", want)
	steps := out.waitSteps(t, "navigate,dragTo")
	d := steps[1]
	if d.Target == nil || d.ToTarget == nil || d.Target.Locators[0].Value != "Write report" || !containsLoc(d.ToTarget, "done") {
		t.Errorf("dragTo %s to %+v", qStepsText(steps[1:]), d.ToTarget)
	}
	// The drop zone by its id first: its text is what the drop changes.
	if first := d.ToTarget.Locators[0]; first.Kind != "css" || first.Value != "#done" {
		t.Errorf("the drop zone is found first by %+v, not its id", first)
	}
	replayGreen(t, append(steps, assertOut(want)))
}

func containsLoc(t *protocol.Target, s string) bool {
	for _, l := range t.Locators {
		if l.Value == s || l.Value == "#"+s || l.Name == s {
			return true
		}
	}
	return false
}
