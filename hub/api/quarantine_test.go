package api

import (
	"encoding/xml"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/agent/ci"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/webhooks"
)

// quarantineReport is a JUnit report as this test reads it.
type quarantineReport struct {
	Failures int `xml:"failures,attr"`
	Skipped  int `xml:"skipped,attr"`
	Suite    struct {
		Cases []struct {
			Name    string    `xml:"name,attr"`
			Failure *struct{} `xml:"failure"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
			SystemOut string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// TestQuarantineChangesOnlyTheOutcome: the Smoke suite's "Wrong greeting"
// fails, run by agent ci against real Chromium. Unquarantined, the batch
// fails and ci exits 1; quarantined, the same failure leaves the batch
// passed, ci exits 0 saying "failed (quarantined)", JUnit reports it
// skipped with the failure kept, and the webhook's summary passes; the
// run itself is failed with the same steps and counts as before. Lifted,
// a new batch fails again while the quarantined one stays passed.
func TestQuarantineChangesOnlyTheOutcome(t *testing.T) {
	h := newHarness(t)
	h.startWebhooks(t, 5*time.Second)
	w := newCIWorld(t, h)
	mgr := w.o.members[access.TestManager]
	rc := newReceiver(t, nil)
	mgr.projectDo(w.o.project, "POST", "/api/webhooks", obj{"name": "CI", "url": rc.srv.URL}).want(t, 201)
	_, token := w.dev.newToken(t, map[string]any{"name": "pipeline", "projectId": w.o.project})
	batchID := regexp.MustCompile(`/batches/(bat_\w+)`)

	type outcome struct {
		code   int
		out    string
		batch  map[string]any
		bad    map[string]any // the Wrong greeting run
		report quarantineReport
		hook   webhooks.Payload // batch.finished
		runs   map[string]*webhooks.RunPayload
	}
	suite := func(name string) outcome {
		t.Helper()
		var o outcome
		report := filepath.Join(t.TempDir(), name+".xml")
		o.code, o.out = runCI(t, t.Context(), h, "--token", token, "--suite", "Smoke", "--environment", w.env, "--junit", report)
		m := batchID.FindStringSubmatch(o.out)
		if m == nil {
			t.Fatalf("%s: no batch in the output:\n%s", name, o.out)
		}
		o.batch = w.dev.do("GET", "/api/batches/"+m[1], nil).want(t, 200).json()
		for _, r := range o.batch["runs"].([]any) {
			if r := r.(map[string]any); r["testId"] == w.bad {
				o.bad = w.dev.do("GET", "/api/runs/"+r["runId"].(string), nil).want(t, 200).json()
			}
		}
		_, data := readJUnit(t, report)
		if err := xml.Unmarshal(data, &o.report); err != nil {
			t.Fatal(err)
		}
		o.runs = map[string]*webhooks.RunPayload{}
		for o.hook.Batch == nil || len(o.runs) < 3 {
			p := rc.next(t).payload(t)
			if p.Batch != nil {
				o.hook = p
			} else if p.Run != nil {
				o.runs[p.Run.TestID] = p.Run
			}
		}
		if o.hook.Batch.BatchID != m[1] {
			t.Fatalf("%s: batch.finished for %s, want %s", name, o.hook.Batch.BatchID, m[1])
		}
		return o
	}
	steps := func(run map[string]any) string {
		var s []string
		for _, st := range run["result"].(map[string]any)["steps"].([]any) {
			s = append(s, fmt.Sprint(st.(map[string]any)["status"]))
		}
		return fmt.Sprintf("%v %v/%v %v", run["status"], run["passed"], run["total"], s)
	}

	before := suite("before")
	if before.code != ci.ExitFailed || before.batch["status"] != "failed" || before.hook.Batch.Status != "failed" || before.bad["quarantined"] != false {
		t.Fatalf("unquarantined: exit %d, batch %v, hook %v, run quarantined %v\n%s", before.code, before.batch["status"], before.hook.Batch.Status,
			before.bad["quarantined"], before.out)
	}

	mgr.do("PUT", "/api/tests/"+w.bad+"/quarantine", obj{"reason": "the greeting changes next sprint"}).want(t, 200)
	during := suite("during")
	if during.code != ci.ExitPassed || !strings.Contains(during.out, "failed (quarantined) Wrong greeting") ||
		!strings.Contains(during.out, "1 quarantined") {
		t.Errorf("quarantined: exit %d\n%s", during.code, during.out)
	}
	counts := during.batch["counts"].(map[string]any)
	if during.batch["status"] != "passed" || num(counts["failed"]) != 1 || num(counts["passed"]) != 2 || num(counts["quarantined"]) != 1 ||
		num(during.batch["failed"]) != 1 {
		t.Errorf("the quarantined batch: %v %v failed %v", during.batch["status"], counts, during.batch["failed"])
	}
	if got, want := steps(during.bad), steps(before.bad); got != want || during.bad["quarantined"] != true || during.bad["error"] != before.bad["error"] {
		t.Errorf("the quarantined run %s (quarantined %v), unquarantined %s", got, during.bad["quarantined"], want)
	}
	if b := during.hook.Batch; b.Status != "passed" || b.Counts["quarantined"] != 1 || b.Counts["failed"] != 1 || b.Failed != 1 {
		t.Errorf("batch.finished: %+v", b)
	}
	if r := during.runs[w.bad]; r == nil || r.Status != "failed" || !r.Quarantined || during.runs[w.signIn].Quarantined {
		t.Errorf("run.finished: %+v", during.runs)
	}
	checkQuarantinedJUnit(t, "agent ci", during.report)
	hubReport := w.dev.do("GET", "/api/batches/"+during.batch["id"].(string)+"/junit", nil).want(t, 200)
	var fromHub quarantineReport
	if err := xml.Unmarshal(hubReport.body, &fromHub); err != nil {
		t.Fatal(err)
	}
	checkJUnitSchema(t, hubReport.body)
	checkQuarantinedJUnit(t, "the hub", fromHub)

	mgr.do("DELETE", "/api/tests/"+w.bad+"/quarantine", nil).want(t, 200)
	after := suite("after")
	if after.code != ci.ExitFailed || after.batch["status"] != "failed" || after.hook.Batch.Status != "failed" || after.bad["quarantined"] != false {
		t.Errorf("lifted: exit %d, batch %v\n%s", after.code, after.batch["status"], after.out)
	}
	if st := w.dev.do("GET", "/api/batches/"+during.batch["id"].(string), nil).want(t, 200).json()["status"]; st != "passed" {
		t.Errorf("the batch run while quarantined is %v after the lift", st)
	}
}

// checkQuarantinedJUnit: the quarantined failure is a skipped case saying
// so, its failure kept in system-out; nothing fails the build.
func checkQuarantinedJUnit(t *testing.T, who string, rep quarantineReport) {
	t.Helper()
	if rep.Failures != 0 || rep.Skipped != 1 {
		t.Errorf("%s: report failures %d skipped %d", who, rep.Failures, rep.Skipped)
	}
	for _, c := range rep.Suite.Cases {
		if c.Name != "Wrong greeting" {
			continue
		}
		if c.Failure != nil || c.Skipped == nil || !strings.HasPrefix(c.Skipped.Message, "quarantined: step 4 (assertText check):") ||
			!strings.Contains(c.SystemOut, "Quarantined") || !strings.Contains(c.SystemOut, "step 4 (assertText check) failed") {
			t.Errorf("%s: the quarantined case %+v", who, c)
		}
	}
}
