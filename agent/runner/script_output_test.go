package runner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

// A run's script step shows what the editor's Try shows: the value the
// script returned and what it logged; a setVariable step shows the value
// it captured. Secrets stay masked in all of it.
func TestScriptAndSetVariableReportTheirOutput(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	doc := document(t, nav("/login.html"),
		protocol.Step{Type: "script", Code: "const rows = 3; console.log('rows', rows); console.warn({pw: ${secrets.PW}}); return rows"},
		protocol.Step{Type: "setVariable", Name: "label", Target: css("#qlabel")},
		protocol.Step{Type: "script", Code: "document.title = 'x'"},
		protocol.Step{Type: "script", Code: "console.log('before'); throw new Error('boom')"})
	res, rec := runJob(t, ctx, protocol.Job{Version: 1, Document: doc, Secrets: map[string]string{"PW": "hunter22"}})
	if res.Status != protocol.RunFailed {
		t.Fatalf("run %s: %s", res.Status, res.Error)
	}
	want := []protocol.Used{
		1: {"result": "3", "console": "[log] rows 3\n[warn] {\"pw\":\"***\"}"},
		2: {"name": "label", "result": "Quantity"},
		3: nil, // nothing returned, nothing logged
		4: {"console": "[log] before"},
	}
	finished := rec.ofKind(protocol.StepFinished)
	for i := 1; i < len(want); i++ {
		for _, u := range []protocol.Used{res.Steps[i].Used, finished[i].Used} {
			if !sameUsed(u, want[i]) {
				t.Errorf("step %d used %q, want %q", i+1, u, want[i])
			}
		}
	}
	for _, u := range res.Steps {
		if strings.Contains(u.Used["console"], "hunter22") || strings.Contains(u.Used["result"], "hunter22") {
			t.Errorf("a secret shows: %q", u.Used)
		}
	}
}
