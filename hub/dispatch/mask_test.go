package dispatch

import (
	"testing"

	"github.com/testautomation/ta/protocol"
)

func TestMasker(t *testing.T) {
	m := newMasker(map[string]string{"PW": "hunter2", "LONG": "hunter2-and-more", "SHORT": "ab"})
	e := protocol.Event{Error: "typed hunter2-and-more into #pw; hunter2 rejected", Message: "ab stays", Name: "hunter2.png",
		HealedBy: &protocol.Locator{Kind: "css", Value: "[value=hunter2]"}}
	m.event(&e)
	if e.Error != "typed *** into #pw; *** rejected" || e.Message != "ab stays" || e.Name != "***.png" || e.HealedBy.Value != "[value=***]" {
		t.Errorf("masked event: %+v %+v", e, e.HealedBy)
	}
	r := protocol.RunResult{Error: "hunter2", Steps: []protocol.StepResult{{Error: "x hunter2 y"}}}
	m.result(&r)
	if r.Error != "***" || r.Steps[0].Error != "x *** y" {
		t.Errorf("masked result: %+v", r)
	}
	var none *masker
	if none.str("hunter2") != "hunter2" || newMasker(nil).str("a") != "a" {
		t.Error("a masker without secrets changes nothing")
	}
}
