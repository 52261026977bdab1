package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/authoring"
)

// viewRecording is a recording on a headless agent process, recorded
// through the live view as `make agent` starts it.
type viewRecording struct {
	c       *client
	project string
	env     string
	id      string
	port    int
}

func startViewRecording(t *testing.T, path string) viewRecording {
	t.Helper()
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.Tester]
	envID := o.owner.do("POST", "/api/environments", obj{"name": "Local", "variables": obj{"baseUrl": site(t)}},
		ProjectHeader, o.project).want(t, 201).str("id")
	port := startDebugAgent(t, h, c)
	id := startRecording(t, c, o.project, obj{"url": path, "environmentId": envID})
	return viewRecording{c: c, project: o.project, env: envID, id: id, port: port}
}

// steps waits for the recording's steps to be of the types listed.
func (r viewRecording) steps(t *testing.T, want string) []map[string]any {
	t.Helper()
	var steps []map[string]any
	end := time.Now().Add(20 * time.Second)
	for {
		var rec struct {
			Steps []map[string]any `json:"steps"`
		}
		_ = json.Unmarshal(r.c.do("GET", "/api/record/"+r.id, nil).want(t, 200).body, &rec)
		steps = rec.Steps
		types := []string{}
		for _, s := range steps {
			types = append(types, fmt.Sprint(s["type"]))
		}
		got := strings.Join(types, ",")
		if got == want {
			return steps
		}
		if time.Now().After(end) {
			t.Fatalf("recorded %s, want %s", got, want)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// replay stops the recording, saves its steps and the checks as a test and
// runs it green on the agent.
func (r viewRecording) replay(t *testing.T, want string, checks ...map[string]any) {
	t.Helper()
	r.steps(t, want)
	var rec struct {
		Steps []map[string]any `json:"steps"`
	}
	if err := json.Unmarshal(r.c.do("POST", "/api/record/"+r.id+"/stop", nil).want(t, 200).body, &rec); err != nil {
		t.Fatal(err)
	}
	testID := r.c.createTest(t, r.project, map[string]any{"dsl": 2, "name": "Recorded through the view", "steps": append(rec.Steps, checks...)})
	runID := r.c.do("POST", "/api/runs", obj{"testId": testID, "environmentId": r.env}, ProjectHeader, r.project).want(t, 201).str("runId")
	r.c.waitStatus(t, runID, "passed")
}

// TestLiveViewDragsOnHeadlessAgent: on a board with an HTML5 draggable
// card, a drag through the view (press on the card, release on the Done
// column) moves the card, is recorded as dragTo from the card to the
// column, and replays green. A short press stays a click.
func TestLiveViewDragsOnHeadlessAgent(t *testing.T) {
	r := startViewRecording(t, "/viewboard.html")
	page := recordingPage(t, r.port, "/viewboard.html")
	v := openView(t, r.c, r.id)
	f := v.next(t)
	from, to := at(t, page, "#card1", f), at(t, page, "#done", f)
	r.c.do("POST", "/api/sessions/"+r.id+"/input", obj{"kind": "drag", "x": from["x"], "y": from["y"], "toX": to["x"], "toY": to["y"]}).want(t, 204)
	page.MustElementR("#out", "Write report is in Done")
	steps := r.steps(t, "navigate,dragTo")
	d := steps[1]
	src, _ := json.Marshal(d["target"])
	dst, _ := json.Marshal(d["to"])
	if !strings.Contains(string(src), "Write report") || !strings.Contains(string(dst), "done") {
		t.Errorf("dragTo %s to %s", src, dst)
	}
	r.replay(t, "navigate,dragTo", map[string]any{"id": "check", "type": "assertText", "expected": "Write report is in Done",
		"target": target(loc("css", "#out"))})
}

// TestLiveViewTabsOnHeadlessAgent: a link that opens a new tab, clicked in
// the view: the frames list both tabs, the new one shown; the person acts
// there, looks at the first tab and back through the tab strip, closes the
// new tab with its ×, and acts in the first again. The recording is click,
// switchTab new, click, closeTab, click, and replays green. A tab that is
// not there, or the first tab closed, is a 409 that changes nothing.
func TestLiveViewTabsOnHeadlessAgent(t *testing.T) {
	r := startViewRecording(t, "/viewtabs.html")
	page := recordingPage(t, r.port, "/viewtabs.html")
	v := openView(t, r.c, r.id)
	f := v.next(t)
	if len(f.Tabs) != 1 || !f.Tabs[0].Current || f.Tabs[0].Title != "Reports" || !strings.HasSuffix(f.Tabs[0].URL, "/viewtabs.html") {
		t.Fatalf("tabs of one page: %+v", f.Tabs)
	}
	input := func(body obj) response { return r.c.do("POST", "/api/sessions/"+r.id+"/input", body) }
	showing := func(what string, n, current int) authoring.FrameEvent {
		t.Helper()
		return v.nextWhere(t, what, func(f authoring.FrameEvent) bool {
			return len(f.Tabs) == n && f.Tabs[current].Current
		})
	}
	input(at(t, page, "#link", f)).want(t, 204)
	f = showing("with the new tab shown", 2, 1)
	if f.Tabs[1].Title != "Second tab" || !strings.Contains(f.Tabs[1].URL, "/tab2.html?via=link") || f.Tabs[0].Current {
		t.Fatalf("tabs: %+v", f.Tabs)
	}
	tab := recordingPage(t, r.port, "/tab2.html")
	tab.MustWaitLoad()
	input(at(t, tab, "#hello", f)).want(t, 204)
	tab.MustElementR("#out", "hello from")
	r.steps(t, "navigate,click,switchTab,click")

	// Looking at a tab records nothing; the view shows it.
	input(obj{"kind": "tab", "index": 0}).want(t, 204)
	showing("with the first tab shown", 2, 0)
	input(obj{"kind": "tab", "index": 1}).want(t, 204)
	showing("with the new tab shown again", 2, 1)
	// A tab that is not there, and the first one: refused, nothing changes.
	if got := input(obj{"kind": "tab", "index": 2}).want(t, 409); got.str("code") != "tab_gone" {
		t.Errorf("tab 2 of 2: %s", got.body)
	}
	input(obj{"kind": "closeTab", "index": 0}).want(t, 409)

	input(obj{"kind": "closeTab", "index": 1}).want(t, 204)
	f = showing("with the new tab closed", 1, 0)
	input(at(t, page, "#count", f)).want(t, 204)
	page.MustElementR("#out", "counted 1")
	steps := r.steps(t, "navigate,click,switchTab,click,closeTab,click")
	if steps[2]["to"] != "new" {
		t.Errorf("switchTab %v", steps[2])
	}
	r.replay(t, "navigate,click,switchTab,click,closeTab,click", map[string]any{"id": "check", "type": "assertText",
		"expected": "counted 1", "target": target(loc("css", "#out"))})
}
