package author

import (
	"context"
	"testing"

	"github.com/testautomation/ta/protocol"
)

// viewDrag sends a drag through the session's view, from one element's
// centre to another's (CSS pixels: no frame maps them).
func viewDrag(t *testing.T, m *Manager, id string, fx, fy, tx, ty float64) {
	t.Helper()
	if err := m.Input(context.Background(), id, protocol.ViewInput{Kind: protocol.InputDrag, X: fx, Y: fy, ToX: &tx, ToY: &ty}); err != nil {
		t.Fatal(err)
	}
}

// TestViewDragPointer: a drag through the view on a list sorted with
// pointer events (no HTML5 drag) moves the item, as a hand would, and is
// recorded as dragTo from the item to the one it was dropped on.
func TestViewDragPointer(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html><style>li{height:30px;width:200px;background:#eee;margin:4px;list-style:none;user-select:none}</style>
<ul id="list"><li>Alpha</li><li>Bravo</li><li>Charlie</li></ul><p id="out"></p>
<script>
const list = document.getElementById('list'), out = document.getElementById('out');
let drag = null, moves = 0;
list.addEventListener('pointerdown', e => { drag = {li: e.target.closest('li'), y: e.clientY}; moves = 0; });
addEventListener('pointermove', e => { if (drag) { moves++; drag.li.style.transform = 'translateY(' + (e.clientY - drag.y) + 'px)'; } });
addEventListener('pointerup', e => {
  if (!drag) return;
  const li = drag.li; drag = null; li.style.transform = '';
  const over = document.elementsFromPoint(e.clientX, e.clientY).find(n => n.localName === 'li' && n !== li);
  if (over) { over.after(li); out.textContent = [...list.children].map(li => li.textContent).join(', ') + (moves > 3 ? ' after moves' : ''); }
});
</script>`})
	id, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	m := manager(t)
	ax, ay := center(t, p, "#list li:nth-child(1)")
	bx, by := center(t, p, "#list li:nth-child(2)")
	viewDrag(t, m, id, ax, ay, bx, by)
	want := "Bravo, Alpha, Charlie after moves"
	p.MustElementR("#out", want)
	steps := out.waitSteps(t, "navigate,dragTo")
	if d := steps[1]; d.Target == nil || d.ToTarget == nil || d.Target.Locators[0].Value != "Alpha" || d.ToTarget.Locators[0].Value != "Bravo" {
		t.Errorf("dragTo %s to %+v", qStepsText(steps[1:]), d.ToTarget)
	}
	replayGreen(t, append(steps, assertOut(want)))
}

// TestViewDragHTML5: a drag through the view of an HTML5 draggable card
// onto a drop zone drops it there (the headless browser's drag carried on
// with drag events) and is recorded as dragTo from the card to the zone.
func TestViewDragHTML5(t *testing.T) {
	srv := site(t, map[string]string{"/": html5Board})
	id, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	m := manager(t)
	cx, cy := center(t, p, "#card")
	dx, dy := center(t, p, "#done")
	viewDrag(t, m, id, cx, cy, dx, dy)
	want := "Write report is done"
	p.MustElementR("#out", want)
	steps := out.waitSteps(t, "navigate,dragTo")
	if d := steps[1]; d.Target == nil || d.ToTarget == nil || d.Target.Locators[0].Value != "Write report" || !containsLoc(d.ToTarget, "done") {
		t.Errorf("dragTo %s to %+v", qStepsText(steps[1:]), d.ToTarget)
	}
	replayGreen(t, append(steps, assertOut(want)))
}
