package author

import (
	"testing"
	"time"

	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// TestRecordSelectByLabel: a select is recorded by the label a person
// reads ("Green", not "g"), which the runner matches after values; when
// a label names two options, or is another option's value, by value.
func TestRecordSelectByLabel(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html>
<label>Colour <select id="c"><option value="r">Red</option><option value="g">Green</option></select></label>
<label>Size <select id="s"><option value="1">Small</option><option value="Small" selected>Big</option></select></label>`})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	p.MustElement("#c").MustFocus()
	p.Keyboard.MustType(input.ArrowDown)
	p.MustElement("#s").MustFocus()
	p.Keyboard.MustType(input.ArrowUp) // Small, whose label is Big's value
	steps := out.waitSteps(t, "navigate,select,select")
	waitFor(t, "the second select's value", func() bool {
		steps = out.recorded()
		return len(steps) == 3 && steps[2].Value != nil && *steps[2].Value == "1"
	})
	if v := *steps[1].Value; v != "Green" {
		t.Errorf("the colour select recorded %q, want its label Green", v)
	}
}

// TestRecordSelectChangedByScript: a page's own widget (a button that
// sets the select and dispatches change) changes a select: the select is
// recorded, after the click that did it.
func TestRecordSelectChangedByScript(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html>
<label>Plan <select id="plan"><option value="f">Free</option><option value="p">Pro</option></select></label>
<button id="pro" onclick="const s = document.getElementById('plan'); s.value = 'p'; s.dispatchEvent(new Event('change', {bubbles: true}))">Choose Pro</button>`})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	x, y := center(t, p, "#pro")
	clickAt(t, p, x, y, 1)
	steps := out.waitSteps(t, "navigate,click,select")
	if v := *steps[2].Value; v != "Pro" || steps[2].Target == nil {
		t.Errorf("select %+v value %q", steps[2], v)
	}
}

// TestRecordEnterSubmitIsOnePress: Enter in a form with a submit button
// makes the browser click that button for it: one press step, no click
// (a replay would send the form twice).
func TestRecordEnterSubmitIsOnePress(t *testing.T) {
	srv := site(t, map[string]string{
		"/":          `<!doctype html><form action="/done.html"><label>Search <input name="q"></label><button>Go</button></form>`,
		"/done.html": `<!doctype html><p>Done</p>`,
	})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	p.MustElement("[name=q]").MustClick()
	p.Keyboard.MustType([]input.Key("shoes")...)
	wait := p.WaitNavigation(proto.PageLifecycleEventNameLoad)
	p.Keyboard.MustType(input.Enter)
	wait()
	p.MustElementR("p", "Done")
	out.waitSteps(t, "navigate,fill,press")
	time.Sleep(500 * time.Millisecond)
	if got := types(out.recorded()); got != "navigate,fill,press" {
		t.Errorf("recorded %s", got)
	}
}
