package runner

import (
	"context"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

// What a .side import makes of Selenium IDE's stores and conditions
// (docs/flow.md ".side import"): a count is a number to a script
// condition, as storeElementCount's is in Selenium IDE, so ${n} === 4
// holds; a stored text stays text ("1" !== 1).
func TestSideStoresInConditions(t *testing.T) {
	script := func(code string) *protocol.Condition { return &protocol.Condition{Kind: "script", Code: code} }
	steps := []protocol.Step{
		withID("open", nav("/asserts.html")),
		{ID: "four", Type: "assertCount", Target: css("li.item"), Count: protocol.Ptr(4)}, // the fourth comes after 300 ms
		{ID: "count", Type: "setVariable", Name: "n", From: "count", Target: css("li.item")},
		{ID: "store", Type: "setVariable", Name: "one", Value: protocol.Ptr("1")},
		{ID: "is4", Type: protocol.TypeIf, Condition: script("${n} === 4"), Steps: []protocol.Step{withID("yes", protocol.Step{Type: "log", Message: "four"})}},
		{ID: "text", Type: protocol.TypeIf, Condition: script(`${one} !== "1"`), Steps: []protocol.Step{withID("no", protocol.Step{Type: "log", Message: "not text"})}},
	}
	doc := protocol.Document{DSL: protocol.DSLVersion, Name: t.Name(), Steps: steps}
	if issues := doc.Validate(); len(issues) > 0 {
		t.Fatal(issues)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, _ := runJob(t, ctx, protocol.Job{Version: 1, Document: doc})
	mustPass(t, res)
	if b := res.Steps[4].Branch; b != "then" {
		t.Errorf("${n} === 4 took branch %q, want then", b)
	}
	if b := res.Steps[5].Branch; b != "none" {
		t.Errorf(`${one} !== "1" took branch %q, want none`, b)
	}
}
