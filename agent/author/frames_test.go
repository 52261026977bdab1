package author

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// TestRecordShadowAndFrames records clicks inside an open shadow root, a
// same-origin iframe and a cross-origin one (localhost against
// 127.0.0.1): each step has its element's frame path.
func TestRecordShadowAndFrames(t *testing.T) {
	inner := `<!doctype html><button onclick="this.textContent='hit'">Inner</button>`
	srv := site(t, map[string]string{
		"/inner.html": inner,
		"/top.html": `<!doctype html><div id="host"></div>
<script>document.getElementById('host').attachShadow({mode:'open'}).innerHTML = '<button>Shadow</button>'</script>
<iframe id="same" src="/inner.html" style="height:60px"></iframe>
<iframe id="cross" title="Cross" src="{{other}}/inner.html" style="height:60px"></iframe>`,
	})

	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/top.html")
	p.MustElement("#host").MustShadowRoot().MustElement("button").MustClick()
	steps := out.waitSteps(t, "navigate,click")
	if steps[1].Target.Frame != nil {
		t.Errorf("the shadow button is in a frame: %+v", steps[1].Target)
	}
	if l := steps[1].Target.Locators[0]; l.Kind != "role" || l.Name != "Shadow" {
		t.Errorf("the shadow button's best locator: %+v", l)
	}

	clickIn(t, p, "#same")
	steps = out.waitSteps(t, "navigate,click,click")
	if f := steps[2].Target.Frame; len(f) != 1 {
		t.Errorf("same-origin frame path %+v", f)
	}
	clickIn(t, p, "#cross")
	steps = out.waitSteps(t, "navigate,click,click,click")
	f := steps[3].Target.Frame
	if len(f) != 1 {
		t.Fatalf("cross-origin frame path %+v", f)
	}
	if f[0] == steps[2].Target.Frame[0] {
		t.Errorf("both frames have the path %+v", f)
	}
}

// clickIn clicks the button inside the iframe sel with real input.
func clickIn(t *testing.T, p *rod.Page, sel string) {
	t.Helper()
	fr := p.MustElement(sel).MustFrame()
	fr.MustElement("button").MustClick()
	fr.MustElementR("button", "hit")
}

// TestToolbarAssertText: the toolbar's Assert text, then a click on an
// element, records assertText with its text; the click does not reach the
// page.
func TestToolbarAssertText(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html><p id="msg" onclick="document.title='clicked'">  Hello there </p>`})
	id, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	x, y := toolbarButton(t, id, "assertText")
	clickAt(t, p, x, y, 1)
	mx, my := center(t, p, "#msg")
	clickAt(t, p, mx, my, 1)
	steps := out.waitSteps(t, "navigate,assertText")
	if e := steps[1].Expected; e == nil || *e != "Hello there" {
		t.Errorf("expected %v", e)
	}
	if title := p.MustEval(`() => document.title`).Str(); title == "clicked" {
		t.Error("the assertion's click reached the page")
	}
	// Back in Record: the next click is a click.
	clickAt(t, p, mx, my, 1)
	out.waitSteps(t, "navigate,assertText,click")
}

// toolbarButton is where the toolbar's button for mode is.
func toolbarButton(t *testing.T, id, mode string) (float64, float64) {
	t.Helper()
	s, err := manager(t).session(id)
	if err != nil {
		t.Fatal(err)
	}
	pg := s.pg
	pg.mu.Lock()
	world := pg.worlds[pg.page.FrameID]
	pg.mu.Unlock()
	res, err := proto.RuntimeEvaluate{Expression: `__taAuthor.toolbarButton(` + jsonString(mode) + `)`, ContextID: world, ReturnByValue: true}.Call(pg.page)
	if err != nil || res.ExceptionDetails != nil {
		t.Fatalf("toolbar: %v %+v", err, res)
	}
	var pt struct{ X, Y float64 }
	if err := json.Unmarshal([]byte(res.Result.Value.JSON("", "")), &pt); err != nil || pt.X == 0 {
		t.Fatalf("toolbar button %s: %s", mode, res.Result.Value.JSON("", ""))
	}
	return pt.X, pt.Y
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestPickModes: in mode pick the click picks the element and does not
// reach the page; in mode off it does.
func TestPickModes(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html><button id="b" onclick="this.dataset.n = (+this.dataset.n || 0) + 1">Count</button>`})
	id, out, p := start(t, protocol.AuthorPick, srv.URL+"/")
	x, y := center(t, p, "#b")
	clickAt(t, p, x, y, 1)
	waitFor(t, "a pick", func() bool {
		out.mu.Lock()
		defer out.mu.Unlock()
		return len(out.picked) == 1
	})
	if n := p.MustEval(`() => document.getElementById('b').dataset.n || '0'`).Str(); n != "0" {
		t.Errorf("the pick's click reached the page (%s)", n)
	}
	pk := out.picked[0]
	if pk.Element.Tag != "button" || len(pk.Target.Locators) == 0 || pk.Target.Locators[0].Matches != 1 {
		t.Errorf("picked %+v", pk)
	}
	if err := manager(t).Mode(id, protocol.ModeOff); err != nil {
		t.Fatal(err)
	}
	clickAt(t, p, x, y, 1)
	p.MustWait(`() => document.getElementById('b').dataset.n === '1'`)

	// A page that navigates away keeps its picker.
	if err := manager(t).Mode(id, protocol.ModePick); err != nil {
		t.Fatal(err)
	}
	p.MustNavigate(srv.URL + "/?again").MustWaitLoad()
	x, y = center(t, p, "#b")
	clickAt(t, p, x, y, 1)
	waitFor(t, "a pick after navigating", func() bool {
		out.mu.Lock()
		defer out.mu.Unlock()
		return len(out.picked) == 2
	})
	if err := manager(t).Stop(id); err != nil {
		t.Fatal(err)
	}
	if st := out.lastStatus(); !strings.HasPrefix(st, protocol.SessionClosed) {
		t.Errorf("after stop: %s", st)
	}
}

// TestRecordBlankFrames: frames with no document of their own (filled by
// the parent's script, or srcdoc) are recorded too.
func TestRecordBlankFrames(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html><iframe id="f"></iframe><script>
document.getElementById('f').contentDocument.body.innerHTML = '<button>Blank</button>'</script>
<iframe id="s" srcdoc="<button>Src</button>"></iframe>`})
	_, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	p.MustElement("#f").MustFrame().MustElement("button").MustClick()
	p.MustElement("#s").MustFrame().MustElement("button").MustClick()
	steps := out.waitSteps(t, "navigate,click,click")
	for _, s := range steps[1:] {
		if len(s.Target.Frame) != 1 {
			t.Errorf("step %s: frame path %+v", s.ID, s.Target.Frame)
		}
	}
}
