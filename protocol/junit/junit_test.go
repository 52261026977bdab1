package junit

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

func sample() Report {
	shot := func(row int, s protocol.StepResult) string {
		if s.Screenshot == "" {
			return ""
		}
		return "/tmp/shots/" + s.Screenshot
	}
	return Report{Name: "Smoke", Timestamp: time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC), Hostname: "ci-1", Runs: []Run{
		{Name: "Sign in", Suite: "Accounts", Status: protocol.RunPassed, DurationMs: 1200, URL: "http://hub/runs/run_a",
			Steps: []protocol.StepResult{{Index: 0, ID: "s1", Type: "navigate", Status: protocol.StepPassed}}},
		{Name: "Checkout <fast> & \"cheap\"", Suite: "Shop", Status: protocol.RunFailed, DurationMs: 2500, Error: "step 2 failed",
			Attachment: shot, Steps: []protocol.StepResult{
				{Index: 0, ID: "s1", Type: "navigate", Status: protocol.StepPassed},
				{Index: 1, ID: "s2", Type: "click", Status: protocol.StepFailed, Error: "no element matches role button \"Pay\"\nwaited 5s\x00", Screenshot: "s2-failed.png"},
				{Index: 2, ID: "s3", Type: "assertText", Status: protocol.StepSkipped}}},
		{Name: "Agent lost", Status: protocol.RunError, Error: "the agent stopped answering", DurationMs: 0},
		{Name: "Stopped", Status: protocol.RunCancelled},
		{Name: "Cards", Suite: "Shop", Status: protocol.RunFailed, DurationMs: 900, Rows: []Row{
			{Row: 1, Status: protocol.RunFailed, DurationMs: 400, Error: "declined"},
			{Row: 0, Status: protocol.RunPassed, DurationMs: 500}}},
	}}
}

type parsed struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
	Skipped  int `xml:"skipped,attr"`
	Suite    struct {
		Cases []struct {
			Name      string `xml:"name,attr"`
			ClassName string `xml:"classname,attr"`
			Time      string `xml:"time,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
			} `xml:"error"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
			SystemOut string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestReportCountsAndFailures(t *testing.T) {
	var buf bytes.Buffer
	if err := sample().Write(&buf); err != nil {
		t.Fatal(err)
	}
	var p parsed
	if err := xml.Unmarshal(buf.Bytes(), &p); err != nil {
		t.Fatalf("not XML: %v\n%s", err, buf.String())
	}
	if p.Tests != 6 || p.Failures != 2 || p.Errors != 1 || p.Skipped != 1 {
		t.Fatalf("counts tests %d failures %d errors %d skipped %d, want 6 2 1 1", p.Tests, p.Failures, p.Errors, p.Skipped)
	}
	c := p.Suite.Cases
	if c[0].Name != "Sign in" || c[0].ClassName != "Accounts" || c[0].Time != "1.200" || c[0].Failure != nil || c[0].SystemOut != "Run: http://hub/runs/run_a" {
		t.Errorf("passed case: %+v", c[0])
	}
	f := c[1].Failure
	if f == nil || f.Message != `step 2 (click s2): no element matches role button "Pay"` || !strings.Contains(f.Text, "waited 5s") {
		t.Fatalf("failed case: %+v", c[1])
	}
	if strings.ContainsRune(buf.String(), 0) {
		t.Error("a NUL reached the XML")
	}
	if c[1].SystemOut != "[[ATTACHMENT|/tmp/shots/s2-failed.png]]" {
		t.Errorf("attachment: %q", c[1].SystemOut)
	}
	if c[2].Error == nil || c[2].Error.Message != "the agent stopped answering" || c[2].ClassName != "Unsorted" {
		t.Errorf("error case: %+v", c[2])
	}
	if c[3].Skipped == nil || c[3].Skipped.Message != "cancelled" {
		t.Errorf("cancelled case: %+v", c[3])
	}
	if c[4].Name != "Cards [row 1]" || c[4].Failure != nil || c[5].Name != "Cards [row 2]" || c[5].Failure == nil || c[5].Failure.Message != "declined" {
		t.Errorf("rows: %+v %+v", c[4], c[5])
	}
}

// TestReportPassesSchema checks reports against the JUnit schema CI
// servers read (testdata/junit.xsd) with xmllint.
func TestReportPassesSchema(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Fatal("xmllint is needed (Debian: libxml2-utils; make deps installs it)")
	}
	for name, r := range map[string]Report{"sample": sample(), "empty": {}} {
		var buf bytes.Buffer
		if err := r.Write(&buf); err != nil {
			t.Fatal(err)
		}
		if err := CheckSchema(xmllint, buf.Bytes(), t.TempDir()); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	// The check can fail: a case without its classname is refused.
	bad := []byte(`<?xml version="1.0"?><testsuites><testsuite name="x" tests="1" failures="0" errors="0"><testcase name="a" time="1"/></testsuite></testsuites>`)
	if err := CheckSchema(xmllint, bad, t.TempDir()); err == nil {
		t.Error("a testcase without classname passed the schema")
	}
}

// CheckSchema validates a report with xmllint against testdata/junit.xsd.
func CheckSchema(xmllint string, report []byte, dir string) error {
	f := filepath.Join(dir, "report.xml")
	if err := os.WriteFile(f, report, 0o600); err != nil {
		return err
	}
	xsd, _ := filepath.Abs(filepath.Join("testdata", "junit.xsd"))
	out, err := exec.Command(xmllint, "--noout", "--schema", xsd, f).CombinedOutput()
	if err != nil {
		return &schemaError{string(out)}
	}
	return nil
}

type schemaError struct{ out string }

func (e *schemaError) Error() string { return "schema check: " + e.out }

// A failing step expanded from a component call is numbered as the editor
// numbers it: the call's number, a dot, the step's place in the component.
func TestFailingStepNumberedAsTheEditor(t *testing.T) {
	run := Run{Name: "Checkout", Status: protocol.RunFailed, Steps: []protocol.StepResult{
		{Index: 0, ID: "s1", Type: "navigate", Status: protocol.StepPassed},
		{Index: 1, ID: "c1", Type: "fill", Call: "s2", Status: protocol.StepPassed},
		{Index: 2, ID: "c2", Type: "click", Call: "s2", Status: protocol.StepPassed},
		{Index: 3, ID: "s3", Type: "click", Status: protocol.StepPassed},
		{Index: 4, ID: "c1", Type: "fill", Call: "s4", Status: protocol.StepPassed},
		{Index: 5, ID: "c2", Type: "click", Call: "s4", Status: protocol.StepFailed, Error: "no element"},
	}}
	var buf bytes.Buffer
	if err := (Report{Name: "r", Runs: []Run{run}}).Write(&buf); err != nil {
		t.Fatal(err)
	}
	var p parsed
	if err := xml.Unmarshal(buf.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	if f := p.Suite.Cases[0].Failure; f == nil || f.Message != "step 4.2 (click c2): no element" {
		t.Errorf("failure %+v, want step 4.2", f)
	}
}
