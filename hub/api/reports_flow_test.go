package api

import (
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

// TestReportsOfARunWithBlocks (issue 29): a loop failing in its second
// iteration, run by a real agent. The JUnit report names the failing
// execution as the run's error does (its number in the tree, its
// iteration) and lists the tree; the run.finished webhook carries the
// result tree and the run's counts.
func TestReportsOfARunWithBlocks(t *testing.T) {
	f := newRunFixture(t)
	f.h.startWebhooks(t, 5*time.Second)
	rc := newReceiver(t, nil)
	f.user.projectDo(f.o.project, "POST", "/api/webhooks", obj{"name": "CI", "url": rc.srv.URL, "events": []any{"run.finished"}}).want(t, 201)
	doc := map[string]any{"name": "Add rows", "steps": []any{
		map[string]any{"id": "open", "type": "navigate", "url": "${baseUrl}/flow.html"},
		map[string]any{"id": "three", "type": "repeat", "times": 3, "steps": []any{
			map[string]any{"id": "add", "type": "click", "target": target(loc("css", "#add"))},
			map[string]any{"id": "one", "type": "assertText", "target": target(loc("css", "#count")), "expected": "1", "match": "equals", "timeoutMs": 300},
		}},
		map[string]any{"id": "after", "type": "click", "target": target(loc("css", "#save"))},
	}}
	runID := f.start(t, doc, nil)
	f.user.sse(t, runID)
	run := f.user.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
	if run["status"] != "failed" || !strings.HasPrefix(run["error"].(string), "step 2.2 (one, assertText) failed in iteration 2: ") {
		t.Fatalf("run %v: %v", run["status"], run["error"])
	}

	var rep struct {
		Suites []struct {
			Cases []struct {
				Failure *struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
				SystemOut string `xml:"system-out"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	body := f.user.do("GET", "/api/runs/"+runID+"/junit", nil).want(t, 200).body
	if err := xml.Unmarshal(body, &rep); err != nil || len(rep.Suites) != 1 || len(rep.Suites[0].Cases) != 1 {
		t.Fatalf("JUnit (%v): %s", err, body)
	}
	c := rep.Suites[0].Cases[0]
	if c.Failure == nil || !strings.HasPrefix(c.Failure.Message, "step 2.2 (assertText one) in iteration 2: ") {
		t.Errorf("JUnit failure: %s", body)
	}
	for _, want := range []string{"2 repeat three: failed", "iteration 1: passed", "iteration 2: failed", "2.2 assertText one: failed", "3 click after: skipped"} {
		if !strings.Contains(c.SystemOut, want) {
			t.Errorf("JUnit output lacks %q: %s", want, c.SystemOut)
		}
	}

	p := rc.next(t).payload(t)
	if p.Run == nil || p.Run.RunID != runID {
		t.Fatalf("webhook payload %+v", p)
	}
	steps := p.Run.Result.Steps
	if len(steps) != 3 || len(steps[1].Iterations) != 2 || steps[1].Iterations[1].Status != protocol.StepFailed ||
		len(steps[1].Iterations[1].Steps) != 2 || steps[1].Iterations[1].Steps[1].Iteration[0] != 1 || steps[2].Status != protocol.StepSkipped {
		t.Errorf("webhook result tree %+v", steps)
	}
	if p.Run.Passed != int(run["passed"].(float64)) || p.Run.Total != int(run["total"].(float64)) {
		t.Errorf("webhook counts %d/%d, the run's %v/%v", p.Run.Passed, p.Run.Total, run["passed"], run["total"])
	}
}
