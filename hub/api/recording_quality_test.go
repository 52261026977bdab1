package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/testautomation/ta/hub/access"
)

// corpusOrigins serves the agent's quality corpus (agent/author/testdata/
// corpus) on two origins, 127.0.0.1 and localhost, for its cross-origin
// iframe page.
func corpusOrigins(t *testing.T) (main, other string) {
	t.Helper()
	fs := http.FileServer(http.Dir("../../agent/author/testdata/corpus"))
	a, b := httptest.NewServer(fs), httptest.NewServer(fs)
	t.Cleanup(a.Close)
	t.Cleanup(b.Close)
	return a.URL, strings.Replace(b.URL, "127.0.0.1", "localhost", 1)
}

// TestRecordedCorpusPagesRunThroughHub records four pages of the quality
// corpus that are hard for a recorder (generated ids and css-module
// classes, a cross-origin iframe, an open shadow root, a list built by
// Enter), with trusted input in the agent's browser; each recording is
// saved as a test through the API, as the web editor does, and run
// through the hub on the same agent: every run passes, with the page's
// visible result asserted.
func TestRecordedCorpusPagesRunThroughHub(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.Tester]
	base, other := corpusOrigins(t)
	envID := o.owner.do("POST", "/api/environments", obj{"name": "Corpus", "variables": obj{"baseUrl": base}},
		ProjectHeader, o.project).want(t, 201).str("id")
	port := startDebugAgent(t, h, c)

	shadow := func(p *rod.Page, sel string) *rod.Element {
		return p.MustElementByJS(`(s) => document.querySelector('qty-picker').shadowRoot.querySelector(s)`, sel)
	}
	cases := []struct {
		page   string
		steps  int // captured steps to wait for
		play   func(p *rod.Page)
		result map[string]any
		want   string
	}{
		{"settings.html", 4, func(p *rod.Page) {
			p.MustElement(".field_k2j9d:nth-child(1) input").MustClick().MustSelectAllText().MustInput("Ann Lee")
			p.MustElement(".field_k2j9d:nth-child(3) input").MustClick()
			p.MustElement(".btn_x7f3a").MustClick()
		}, target(loc("css", "#app p")), "Saved: Ann Lee, UTC, emails on"},
		{"frame-cross.html?other=" + other, 4, func(p *rod.Page) {
			f := p.MustElement("#pay").MustFrame()
			f.MustElement("[name=number]").MustClick().MustInput("4242 4242 4242 4242")
			f.MustElement("[name=cvc]").MustClick().MustInput("123")
			f.MustElement("button").MustClick()
		}, map[string]any{"locators": []any{loc("css", "#paid")}, "frame": []any{loc("css", "#pay")}}, "Paid with card ending 4242"},
		{"shadow.html", 4, func(p *rod.Page) {
			shadow(p, ".inc").MustClick()
			shadow(p, ".inc").MustClick()
			shadow(p, ".add").MustClick()
		}, target(loc("css", "#cart")), "Cart: 3 × Espresso beans"},
		{"todo.html", 6, func(p *rod.Page) {
			for _, s := range []string{"Buy milk", "Walk the dog"} {
				p.MustElement(".new-todo").MustClick().MustInput(s)
				p.KeyActions().Type('\r').MustDo()
			}
			p.MustElement("li:nth-child(1) .toggle").MustClick()
		}, target(loc("css", ".todo-count")), "1 item left"},
	}
	for _, k := range cases {
		name := strings.SplitN(k.page, "?", 2)[0]
		t.Run(strings.TrimSuffix(name, ".html"), func(t *testing.T) {
			id := startRecording(t, c, o.project, obj{"url": "/" + k.page, "environmentId": envID})
			k.play(recordingPage(t, port, "/"+name))
			waitFor(t, func() bool {
				return len(c.do("GET", "/api/record/"+id, nil).want(t, 200).json()["steps"].([]any)) >= k.steps
			})
			time.Sleep(300 * time.Millisecond) // the last fill or check settles
			rec := c.do("POST", "/api/record/"+id+"/stop", nil).want(t, 200).json()
			steps := rec["steps"].([]any)
			steps = append(steps, map[string]any{"id": "result", "type": "assertText", "expected": k.want, "target": k.result})
			testID := c.createTest(t, o.project, map[string]any{"dsl": 2, "name": "Recorded " + name, "steps": steps})
			runID := c.do("POST", "/api/runs", obj{"testId": testID, "environmentId": envID}, ProjectHeader, o.project).want(t, 201).str("runId")
			var run map[string]any
			waitFor(t, func() bool {
				run = c.do("GET", "/api/runs/"+runID, nil).json()
				s, _ := run["status"].(string)
				return s != "" && s != "queued" && s != "running"
			})
			if run["status"] != "passed" {
				t.Errorf("the recorded %s ran %v: %v\nsteps: %v", name, run["status"], run["error"], steps)
			}
		})
	}
}
