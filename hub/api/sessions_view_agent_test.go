package api

import (
	"bytes"
	"fmt"
	"image/jpeg"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/authoring"
)

// at is where an element's centre shows in a frame of the view: its CSS
// box scaled to the frame's pixels.
func at(t *testing.T, page *rod.Page, css string, f authoring.FrameEvent) obj {
	t.Helper()
	box := page.MustElement(css).MustShape().Box()
	x := (box.X + box.Width/2) * float64(f.Width) / f.PageWidth
	y := (box.Y + box.Height/2) * float64(f.Height) / f.PageHeight
	return obj{"kind": "click", "x": x, "y": y}
}

// TestLiveViewRecordsAndPicksOnHeadlessAgent is the headless tester's
// loop: the agent has no window, so the editor watches its page through
// the view and clicks and types into the picture. The clicks and typing
// are recorded (a typed secret as ${secrets.NAME}), a click in pick mode
// picks, and the agent's screencast runs only while someone watches.
func TestLiveViewRecordsAndPicksOnHeadlessAgent(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.Tester]
	base := site(t)
	const secret = "s3cret-Pw9"
	envID := o.owner.do("POST", "/api/environments", obj{"name": "Local", "variables": obj{"baseUrl": base},
		"secrets": obj{"PASSWORD": secret}}, ProjectHeader, o.project).want(t, 201).str("id")
	port := startDebugAgent(t, h, c)

	id := startRecording(t, c, o.project, obj{"url": "/login.html", "environmentId": envID})
	// The page is watched only through the debugging port here: it
	// changes every 50 ms, so a running screencast would send frames.
	page := recordingPage(t, port, "/login.html")
	page.MustEval(`() => { const p = document.createElement("p"); p.id = "tick"; document.body.append(p);
		let n = 0; setInterval(() => { p.textContent = "tick " + (++n); }, 50); }`)
	time.Sleep(time.Second)
	if n := h.api.Authoring().ViewFrames(id); n != 0 {
		t.Fatalf("%d frames sent before anyone watched", n)
	}

	v := openView(t, c, id)
	f := v.next(t)
	if cfg, err := jpeg.DecodeConfig(bytes.NewReader(f.Data)); err != nil || cfg.Width != f.Width || f.Width > 1280 || f.PageWidth <= 0 {
		t.Fatalf("frame %dx%d page %vx%v: %v", f.Width, f.Height, f.PageWidth, f.PageHeight, err)
	}
	input := func(body obj) { c.do("POST", "/api/sessions/"+id+"/input", body).want(t, 204) }
	input(at(t, page, "#email", f))
	input(obj{"kind": "text", "text": "ann@example.com"})
	input(at(t, page, "#password", f))
	input(obj{"kind": "text", "text": secret})
	input(obj{"kind": "key", "key": "Enter"})
	page.MustElementR("p", "Welcome, ann@example.com")
	var steps []any
	waitFor(t, func() bool {
		steps = c.do("GET", "/api/record/"+id, nil).want(t, 200).json()["steps"].([]any)
		return len(steps) >= 4
	})
	got := []string{}
	for _, s := range steps {
		m := s.(map[string]any)
		got = append(got, fmt.Sprintf("%v:%v", m["type"], m["value"]))
	}
	if want := "navigate:<nil>,fill:ann@example.com,fill:${secrets.PASSWORD},press:<nil>"; strings.Join(got, ",") != want {
		t.Errorf("recorded %s, want %s", strings.Join(got, ","), want)
	}

	// Frames flow while watched (the page ticks), at most a few a second.
	n0 := h.api.Authoring().ViewFrames(id)
	time.Sleep(2 * time.Second)
	if n := h.api.Authoring().ViewFrames(id) - n0; n < 2 || n > 12 {
		t.Errorf("%d frames in 2 s of a changing page, want 2 to 12", n)
	}

	// A picker on the recording's page, through its own view: a click in
	// the picture picks and does not reach the page.
	pick := c.do("POST", "/api/pick/start", obj{"recordingId": id}, ProjectHeader, o.project).want(t, 201).str("id")
	waitFor(t, func() bool { return c.do("GET", "/api/pick/"+pick, nil).want(t, 200).str("status") == "ready" })
	pv := openView(t, c, pick)
	pf := pv.next(t)
	c.do("POST", "/api/sessions/"+pick+"/input", at(t, page, "#greeting", pf)).want(t, 204)
	var picked map[string]any
	waitFor(t, func() bool {
		picked = c.do("GET", "/api/pick/"+pick, nil).want(t, 200).json()
		return picked["status"] == "picked"
	})
	if el := picked["element"].(map[string]any); el["text"] != "Welcome, ann@example.com" {
		t.Errorf("picked %v", el)
	}

	// Nobody watches: the screencast stops (no more frames from a page
	// that keeps changing).
	v.close()
	pv.close()
	<-v.ended
	<-pv.ended
	time.Sleep(1500 * time.Millisecond)
	n1 := h.api.Authoring().ViewFrames(id) + h.api.Authoring().ViewFrames(pick)
	time.Sleep(2 * time.Second)
	if n := h.api.Authoring().ViewFrames(id) + h.api.Authoring().ViewFrames(pick) - n1; n != 0 {
		t.Errorf("%d frames sent after the last watcher left", n)
	}
}
