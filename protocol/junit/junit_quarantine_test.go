package junit

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/testautomation/ta/protocol"
)

// A quarantined run's failure or error is reported skipped ("quarantined:
// …", the failure kept in system-out) so that a CI build does not fail on
// it; its passed cases pass, every case of it says it was quarantined,
// and other runs are reported as ever.
func TestQuarantinedRunsFailNoBuild(t *testing.T) {
	failing := []protocol.StepResult{{Index: 0, ID: "s1", Type: "click", Status: protocol.StepFailed, Error: "no element matches\nwaited 5s"}}
	rep := Report{Name: "Smoke", Runs: []Run{
		{Name: "Flaky", Status: protocol.RunFailed, Quarantined: true, Steps: failing},
		{Name: "Lost", Status: protocol.RunError, Quarantined: true, Error: "the agent stopped answering"},
		{Name: "Fine", Status: protocol.RunPassed, Quarantined: true},
		{Name: "Rows", Status: protocol.RunFailed, Quarantined: true, Rows: []Row{{Row: 0, Status: protocol.RunPassed}, {Row: 1, Status: protocol.RunFailed, Error: "declined"}}},
		{Name: "Real", Status: protocol.RunFailed, Steps: failing},
	}}
	var buf bytes.Buffer
	if err := rep.Write(&buf); err != nil {
		t.Fatal(err)
	}
	var p parsed
	if err := xml.Unmarshal(buf.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	if p.Tests != 6 || p.Failures != 1 || p.Errors != 0 || p.Skipped != 3 {
		t.Fatalf("tests %d failures %d errors %d skipped %d, want 6 1 0 3\n%s", p.Tests, p.Failures, p.Errors, p.Skipped, buf.String())
	}
	c := p.Suite.Cases
	for i, want := range map[int]string{0: "quarantined: step 1 (click s1): no element matches", 1: "quarantined: the agent stopped answering", 4: "quarantined: declined"} {
		if c[i].Skipped == nil || c[i].Skipped.Message != want || c[i].Failure != nil || c[i].Error != nil {
			t.Errorf("case %d %s: %+v, want skipped %q", i, c[i].Name, c[i], want)
		}
	}
	if !strings.Contains(c[0].SystemOut, "waited 5s") || !strings.Contains(c[1].SystemOut, "the agent stopped answering") {
		t.Errorf("the failures are not kept: %q %q", c[0].SystemOut, c[1].SystemOut)
	}
	for i := range 5 {
		if !strings.Contains(c[i].SystemOut, "Quarantined:") {
			t.Errorf("case %d %s does not say it was quarantined: %q", i, c[i].Name, c[i].SystemOut)
		}
	}
	if c[2].Skipped != nil || c[3].Skipped != nil || c[5].Failure == nil || strings.Contains(c[5].SystemOut, "Quarantined") {
		t.Errorf("passed quarantined cases, or the unquarantined run: %+v %+v %+v", c[2], c[3], c[5])
	}
}
