package runner

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// A failing assertion reports where its element was, in CSS pixels of the
// viewport, on its step.finished event and in the result; the box matches
// the element's own client rectangle.
func TestFailedStepBox(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rect := protocol.Step{Type: "script", Assign: "rect",
		Code: "const r = document.getElementById('email').getBoundingClientRect(); return [r.x, r.y, r.width, r.height, innerWidth].map(Math.round).join(',');"}
	// The fill step's used value tells the script's answer.
	doc := document(t, nav("/login.html"), rect, fillStep(css("#notes"), "${rect}"), short(valueIs(css("#email"), "nobody"), 800))
	res, rec := runJob(t, ctx, protocol.Job{Version: 1, Document: doc, Screenshots: false})
	if res.Status != protocol.RunFailed {
		t.Fatalf("status %s: %s", res.Status, res.Error)
	}
	fin := rec.ofKind(protocol.StepFinished)[3]
	b := fin.Box
	if b == nil || res.Steps[3].Box == nil || *res.Steps[3].Box != *b {
		t.Fatalf("box: event %+v, result %+v", b, res.Steps[3].Box)
	}
	want := res.Steps[2].Used["value"]
	got := strings.Join([]string{itoa(b.X), itoa(b.Y), itoa(b.Width), itoa(b.Height), itoa(b.ViewportWidth)}, ",")
	if got != want {
		t.Errorf("box %s, want the element's rectangle %s", got, want)
	}
	if b.Width <= 0 || b.Height <= 0 || b.ViewportWidth < b.X+b.Width || b.ViewportHeight <= 0 || b.DPR <= 0 {
		t.Errorf("box %+v", b)
	}
	if res.Steps[3].Screenshot == "" {
		t.Errorf("no failure screenshot to draw the box on")
	}
	if res.Steps[0].Box != nil {
		t.Errorf("a navigate step has no box: %+v", res.Steps[0].Box)
	}
}

func itoa(f float64) string { b, _ := json.Marshal(int(f + 0.5)); return string(b) }

// Each step reports the values it used after interpolation, a secret
// masked: a typed secret shows as ***, never as itself.
func TestUsedValues(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	secret := "pa55-w0rd-xyz"
	doc := document(t,
		protocol.Step{Type: "navigate", URL: "/login.html"},
		fillStep(css("#email"), "${user}"),
		fillStep(css("#password"), "${secrets.PASSWORD}"),
		valueIs(css("#email"), "${user}"),
		protocol.Step{Type: "press", Key: "Tab"},
	)
	res, rec := runJob(t, ctx, protocol.Job{Version: 1, Document: doc,
		Variables: map[string]string{"baseUrl": site.URL, "user": "ann@example.com"},
		Secrets:   map[string]string{"PASSWORD": secret}})
	mustPass(t, res)
	want := []protocol.Used{
		{"url": site.URL + "/login.html"},
		{"value": "ann@example.com"},
		{"value": Mask},
		{"expected": "ann@example.com"},
		{"key": "Tab"},
	}
	fins := rec.ofKind(protocol.StepFinished)
	for i, w := range want {
		if !sameUsed(res.Steps[i].Used, w) || !sameUsed(fins[i].Used, w) {
			t.Errorf("step %d used: result %v, event %v, want %v", i+1, res.Steps[i].Used, fins[i].Used, w)
		}
	}
	all, _ := json.Marshal([]any{rec.events, res})
	if strings.Contains(string(all), secret) {
		t.Errorf("the secret shows in %s", all)
	}
}

func sameUsed(a, b protocol.Used) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// The box is measured again for the screenshot: a clicked element that
// went away has none, and a failed assertion's element below the fold is
// scrolled into view for the failure screenshot, its box inside the
// viewport.
func TestBoxFitsTheScreenshot(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	add := protocol.Step{Type: "script", Code: `document.body.insertAdjacentHTML('afterbegin',
		'<button id="gone" onclick="this.remove()">Go</button><div style="height:3000px"></div>');`}
	doc := document(t, nav("/login.html"), add, click(css("#gone")), short(valueIs(css("#email"), "nobody"), 800))
	res, _ := runJob(t, ctx, protocol.Job{Version: 1, Document: doc, Screenshots: true})
	if res.Status != protocol.RunFailed {
		t.Fatalf("status %s: %s", res.Status, res.Error)
	}
	if s := res.Steps[2]; s.Status != protocol.StepPassed || s.Box != nil || s.Screenshot == "" {
		t.Errorf("the click on an element that removed itself: %+v", s)
	}
	b := res.Steps[3].Box
	if b == nil || b.Y < 0 || b.Y+b.Height > b.ViewportHeight {
		t.Errorf("the failed assertion's box is not in the viewport: %+v", b)
	}
}

// The box an action records comes from its actionability check in the
// page; it equals the DevTools protocol's measurement (content quads and
// layout metrics) of the same element: scrolled into view, and transformed.
func TestActionBoxMatchesQuads(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tb, err := testBrowser.acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer testBrowser.release(tb)
	r := &run{b: testBrowser, tab: tb}
	if _, err := (proto.PageNavigate{URL: siteURL("/widgets.html")}).Call(r.sess(ctx)); err != nil {
		t.Fatal(err)
	}
	if _, err := evalValue(ctx, tb.sess, loadJS); err != nil {
		t.Fatal(err)
	}
	if _, err := evalValue(ctx, tb.sess, "document.getElementById('dbl').style.transform = 'translate(3.5px, 7px) rotate(10deg) scale(1.3)'"); err != nil {
		t.Fatal(err)
	}
	for _, sel := range []string{"#bottom", "#dbl", "#color"} {
		el, n, err := r.query(ctx, frame{}, loc("css", sel))
		if err != nil || n != 1 {
			t.Fatalf("%s: %d %v", sel, n, err)
		}
		_, box, err := r.check(ctx, el, hoverChecks)
		if err != nil || box == nil {
			t.Fatalf("%s: check: %v %v", sel, box, err)
		}
		want, err := r.boxOf(ctx, el)
		if err != nil || want == nil {
			t.Fatalf("%s: quads: %v %v", sel, want, err)
		}
		if *box != *want {
			t.Errorf("%s: box from the check %+v, from the quads %+v", sel, *box, *want)
		}
	}
}
