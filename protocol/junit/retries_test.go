package junit

import (
	"bytes"
	"encoding/xml"
	"os/exec"
	"strings"
	"testing"

	"github.com/testautomation/ta/protocol"
)

func attemptOf(n int, status, err string) protocol.AttemptResult {
	a := protocol.AttemptResult{Attempt: n, Status: status, Total: 2, Error: err,
		Steps: []protocol.StepResult{{Index: 0, ID: "open", Type: "navigate", Status: "passed"}}}
	if status == protocol.RunFailed {
		a.Passed = 1
		a.Steps = append(a.Steps, protocol.StepResult{Index: 1, ID: "check", Type: "assertText", Status: "failed", Error: err, Screenshot: "shot.png"})
	} else {
		a.Passed = 2
		a.Steps = append(a.Steps, protocol.StepResult{Index: 1, ID: "check", Type: "assertText", Status: "passed"})
	}
	return a
}

// A flaky run is a passed case with one flakyFailure per failed attempt,
// as Maven Surefire writes it; a run that failed every attempt has its
// failure and a rerunFailure per earlier attempt.
func TestRetriedRunsAsSurefireReruns(t *testing.T) {
	attach := func(_ int, s protocol.StepResult) string { return "https://hub/" + s.Screenshot }
	flaky := Run{Name: "Flaky", Status: protocol.RunPassed, Steps: attemptOf(2, "passed", "").Steps, Attachment: attach,
		Attempts: []protocol.AttemptResult{attemptOf(1, "failed", "expected \"ready\", got \"not yet\""), attemptOf(2, "passed", "")}}
	last := attemptOf(3, "failed", "still <not> ready")
	failed := Run{Name: "Broken", Status: protocol.RunFailed, Error: last.Error, Steps: last.Steps,
		Attempts: []protocol.AttemptResult{attemptOf(1, "failed", "one"), attemptOf(2, "failed", "two"), last}}
	var buf bytes.Buffer
	if err := (Report{Name: "suite", Runs: []Run{flaky, failed}}).Write(&buf); err != nil {
		t.Fatal(err)
	}
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Fatal("xmllint is needed (Debian: libxml2-utils; make deps installs it)")
	}
	if err := CheckSchema(xmllint, buf.Bytes(), t.TempDir()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Failures int `xml:"failures,attr"`
		Suite    struct {
			Cases []struct {
				Name    string      `xml:"name,attr"`
				Failure *xmlProblem `xml:"failure"`
				Flaky   []xmlRerun  `xml:"flakyFailure"`
				Rerun   []xmlRerun  `xml:"rerunFailure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if doc.Failures != 1 || len(doc.Suite.Cases) != 2 {
		t.Fatalf("failures %d, cases %d:\n%s", doc.Failures, len(doc.Suite.Cases), buf.String())
	}
	c := doc.Suite.Cases[0]
	if c.Failure != nil || len(c.Flaky) != 1 || len(c.Rerun) != 0 {
		t.Fatalf("flaky case:\n%s", buf.String())
	}
	f := c.Flaky[0]
	if f.Message != `step 2 (assertText check): expected "ready", got "not yet"` || f.Type != "failed" ||
		!strings.Contains(f.StackTrace, "step 2 (assertText check) failed:") || !strings.Contains(f.SystemOut, "Attempt 1 of 2 failed") ||
		!strings.Contains(f.SystemOut, "[[ATTACHMENT|https://hub/shot.png]]") {
		t.Errorf("flakyFailure %+v", f)
	}
	c = doc.Suite.Cases[1]
	if c.Failure == nil || len(c.Flaky) != 0 || len(c.Rerun) != 2 || !strings.Contains(c.Rerun[1].Message, "two") {
		t.Errorf("failed case:\n%s", buf.String())
	}
}
