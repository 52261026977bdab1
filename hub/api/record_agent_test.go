package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// TestRecordSaveAndRunThroughAgent is the tester's loop: record against a
// page with real clicks and typing in the agent's browser, stop, save the
// captured steps as a test and run it green, with no locator written by
// hand and the typed secret stored as ${secrets.NAME}.
func TestRecordSaveAndRunThroughAgent(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.Tester]
	base := site(t)
	const secret = "s3cret-Pw9"
	envID := o.owner.do("POST", "/api/environments", obj{"name": "Local", "variables": obj{"baseUrl": base},
		"secrets": obj{"PASSWORD": secret}}, ProjectHeader, o.project).want(t, 201).str("id")
	port := startDebugAgent(t, h, c)

	id := startRecording(t, c, o.project, obj{"url": "/login.html", "environmentId": envID})
	page := recordingPage(t, port, "/login.html")
	page.MustElement("#email").MustClick().MustInput("ann@example.com")
	page.MustElement("#password").MustClick().MustInput(secret)
	page.MustElement("button[type=submit]").MustClick()
	page.MustElementR("p", "Welcome, ann@example.com")
	waitFor(t, func() bool {
		steps := c.do("GET", "/api/record/"+id, nil).want(t, 200).json()["steps"].([]any)
		return len(steps) >= 4 && steps[len(steps)-1].(map[string]any)["type"] == "click"
	})
	r := c.do("POST", "/api/record/"+id+"/stop", nil).want(t, 200)
	if strings.Contains(string(r.body), secret) {
		t.Fatalf("the recording holds the typed secret: %s", r.body)
	}
	var rec struct {
		Status string           `json:"status"`
		Steps  []map[string]any `json:"steps"`
	}
	if err := json.Unmarshal(r.body, &rec); err != nil || rec.Status != "stopped" {
		t.Fatalf("stop: %s", r.body)
	}
	t.Logf("recorded: %s", r.body)
	types := []string{}
	for _, s := range rec.Steps {
		types = append(types, fmt.Sprint(s["type"]))
	}
	if got := strings.Join(types, ","); got != "navigate,fill,fill,click" {
		t.Fatalf("recorded %s: %s", got, r.body)
	}
	if rec.Steps[0]["url"] != "${baseUrl}/login.html" || rec.Steps[1]["value"] != "ann@example.com" || rec.Steps[2]["value"] != "${secrets.PASSWORD}" {
		t.Errorf("recorded values: %s", r.body)
	}
	for _, s := range rec.Steps[1:] {
		locs := s["target"].(map[string]any)["locators"].([]any)
		if len(locs) < 2 {
			t.Errorf("step %v has %d locators: no fallback to heal with", s["id"], len(locs))
		}
	}
	pr := c.do("GET", "/api/record/"+id+"/preview", nil).want(t, 200)
	if !isPNGBytes(pr.body) {
		t.Errorf("preview is not a PNG")
	}
	steps := append(rec.Steps, map[string]any{"id": "greet", "type": "assertText", "expected": "Welcome, ann@example.com",
		"target": target(loc("testId", "greeting"))})
	testID := c.createTest(t, o.project, map[string]any{"dsl": 2, "name": "Recorded sign-in", "steps": steps})
	runID := c.do("POST", "/api/runs", obj{"testId": testID, "environmentId": envID}, ProjectHeader, o.project).want(t, 201).str("runId")
	res := c.waitStatus(t, runID, "passed")
	if res["passed"] != float64(5) {
		t.Errorf("run: %v", res)
	}
}

func isPNGBytes(b []byte) bool { return len(b) > 8 && string(b[:8]) == "\x89PNG\r\n\x1a\n" }
