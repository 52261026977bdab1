package junit

import (
	"bytes"
	"encoding/xml"
	"testing"

	"github.com/testautomation/ta/protocol"
)

// A failed or errored case names the run's trace after the run's page; a
// passed one does not, nor does a run without a trace. A trace that is a
// file is attached too.
func TestReportNamesTrace(t *testing.T) {
	const zip = "http://hub/api/runs/run_b/trace.zip"
	failed := []protocol.StepResult{{Index: 0, ID: "s1", Type: "click", Status: protocol.StepFailed, Error: "no element", Screenshot: "s1.png"}}
	shot := func(int, protocol.StepResult) string { return "shots/s1.png" }
	rep := Report{Name: "r", Runs: []Run{
		{Name: "passed", Status: protocol.RunPassed, URL: "http://hub/runs/run_a", Trace: "http://hub/api/runs/run_a/trace.zip"},
		{Name: "failed", Status: protocol.RunFailed, URL: "http://hub/runs/run_b", Trace: zip, Steps: failed},
		{Name: "errored", Status: protocol.RunError, Error: "the agent stopped answering", Trace: "http://hub/api/runs/run_c/trace.zip"},
		{Name: "untraced", Status: protocol.RunFailed, URL: "http://hub/runs/run_d", Steps: failed},
		{Name: "file", Status: protocol.RunFailed, URL: "http://hub/runs/run_e", Steps: failed, Attachment: shot,
			Trace: "traces/file-run_e.zip", TraceFile: true},
		{Name: "rows", Status: protocol.RunFailed, Trace: "http://hub/api/runs/run_f/trace.zip", Rows: []Row{
			{Row: 0, Status: protocol.RunPassed}, {Row: 1, Status: protocol.RunFailed, Error: "declined"}}},
	}}
	var buf bytes.Buffer
	if err := rep.Write(&buf); err != nil {
		t.Fatal(err)
	}
	var p parsed
	if err := xml.Unmarshal(buf.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Run: http://hub/runs/run_a",
		"Run: http://hub/runs/run_b\nTrace: " + zip,
		"Trace: http://hub/api/runs/run_c/trace.zip",
		"Run: http://hub/runs/run_d",
		"Run: http://hub/runs/run_e\nTrace: traces/file-run_e.zip\n[[ATTACHMENT|shots/s1.png]]\n[[ATTACHMENT|traces/file-run_e.zip]]",
		"",
		"Trace: http://hub/api/runs/run_f/trace.zip",
	}
	if len(p.Suite.Cases) != len(want) {
		t.Fatalf("%d cases, want %d", len(p.Suite.Cases), len(want))
	}
	for i, c := range p.Suite.Cases {
		if c.SystemOut != want[i] {
			t.Errorf("%s: system-out %q, want %q", c.Name, c.SystemOut, want[i])
		}
	}
}
