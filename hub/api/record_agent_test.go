package api

import (
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/hub/access"
)

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// recordingPage finds the page of the agent's authoring browser, through
// its debugging port, whose URL contains part.
func recordingPage(t *testing.T, port int, part string) *rod.Page {
	t.Helper()
	var b *rod.Browser
	end := time.Now().Add(30 * time.Second)
	for time.Now().Before(end) {
		if b == nil {
			if u, err := launcher.ResolveURL(fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
				b = rod.New().ControlURL(u)
				if b.Connect() != nil {
					b = nil
				}
			}
		}
		if b != nil {
			targets, err := proto.TargetGetTargets{}.Call(b)
			if err == nil {
				for _, ti := range targets.TargetInfos {
					if ti.Type == proto.TargetTargetInfoTypePage && strings.Contains(ti.URL, part) {
						p, err := b.PageFromTarget(ti.TargetID)
						if err == nil {
							// Not closed after the test: Close would close the
							// agent's browser, not only this connection.
							return p
						}
					}
				}
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("no page at %q in the authoring browser on port %d", part, port)
	return nil
}

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
	port := freePort(t)
	_, codes := startAgentProcess(t, h.srv.URL, t.TempDir(), "--remote-debugging-port", fmt.Sprint(port))
	select {
	case code := <-codes:
		c.do("POST", "/api/agent/pair/"+code, nil).want(t, 201)
	case <-time.After(30 * time.Second):
		t.Fatal("the agent printed no pairing code")
	}
	waitFor(t, func() bool { return c.do("GET", "/api/agent", nil).json()["needed"] == false })

	id := c.do("POST", "/api/record/start", obj{"url": "/login.html", "environmentId": envID}, ProjectHeader, o.project).want(t, 201).str("id")
	waitFor(t, func() bool {
		st := c.do("GET", "/api/record/"+id, nil).want(t, 200).json()
		if st["status"] == "error" {
			t.Fatalf("recording failed: %v", st["error"])
		}
		return st["status"] == "recording"
	})
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
