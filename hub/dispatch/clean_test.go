package dispatch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/testautomation/ta/protocol"
)

// A step's used values are cleaned like the agent's other texts, and an
// agent cannot send more than maxUsed of them.
func TestCleanUsed(t *testing.T) {
	many := protocol.Used{}
	for i := range 50 {
		many[fmt.Sprintf("k%d", i)] = "v"
	}
	e := protocol.Event{Used: many}
	newMasker(nil).event(&e)
	if len(e.Used) != maxUsed {
		t.Errorf("%d used values kept, want %d", len(e.Used), maxUsed)
	}
	r := protocol.RunResult{Steps: []protocol.StepResult{{Used: protocol.Used{"value": strings.Repeat("x", maxText+10)}}, {}}}
	newMasker(nil).result(&r)
	if v := r.Steps[0].Used["value"]; len(v) > maxText+100 || !strings.Contains(v, "more bytes cut by the hub") {
		t.Errorf("a long used value is not cut: %d bytes", len(v))
	}
	if r.Steps[1].Used != nil {
		t.Errorf("no used values became %v", r.Steps[1].Used)
	}
}
