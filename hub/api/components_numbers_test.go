package api

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// A step failing inside a component call is named as the editor numbers
// it, in the run's error and in its JUnit report: 2.2 is the second step
// of the call that is the test's step 2 (the expanded run counts it 3).
func TestComponentStepNumberedAsTheEditor(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	base := site(t)
	cmp := mgr.projectDo(o.project, "POST", "/api/components", map[string]any{"name": "Sign in",
		"steps": []any{
			map[string]any{"id": "email", "type": "fill", "value": "ann@example.com", "target": target(loc("label", "Email"))},
			map[string]any{"id": "check", "type": "assertValue", "expected": "bob@example.com", "timeoutMs": 500, "target": target(loc("label", "Email"))},
		}}).want(t, 201).json()["component"].(map[string]any)["id"].(string)
	test := mgr.createTest(t, o.project, map[string]any{"name": "Numbers", "steps": []any{
		map[string]any{"id": "open", "type": "navigate", "url": base + "/login.html"},
		callStep("login", cmp, 0, nil),
		map[string]any{"id": "after", "type": "click", "target": target(loc("role", "button", "Sign in"))},
	}})
	runID := mgr.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": test}).want(t, 201).str("runId")
	h.pairAgent(t, mgr, browserRunner{sharedBrowser(t)})
	mgr.sse(t, runID)
	run := mgr.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
	if run["status"] != "failed" || !strings.HasPrefix(run["error"].(string), "step 2.2 (login.check, assertValue) failed") {
		t.Errorf("run %v: %v", run["status"], run["error"])
	}
	var rep struct {
		Suites []struct {
			Cases []struct {
				Failure *struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	body := mgr.do("GET", "/api/runs/"+runID+"/junit", nil).want(t, 200).body
	if err := xml.Unmarshal(body, &rep); err != nil {
		t.Fatalf("not XML: %v\n%s", err, body)
	}
	if len(rep.Suites) != 1 || len(rep.Suites[0].Cases) != 1 || rep.Suites[0].Cases[0].Failure == nil ||
		!strings.HasPrefix(rep.Suites[0].Cases[0].Failure.Message, "step 2.2 (assertValue login.check)") {
		t.Errorf("JUnit: %s", body)
	}
}
