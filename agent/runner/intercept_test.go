package runner

import (
	"strings"
	"testing"

	"github.com/testautomation/ta/protocol"
)

// TestHitTargetInterception clicks a target that swaps places with a decoy
// right after the actionability check, on the first two attempts: the
// clicks that would land on the decoy must be stopped before the page sees
// them and retried, until the target gets exactly the click aimed at it.
func TestHitTargetInterception(t *testing.T) {
	framed := func(sel string) *protocol.Target {
		return &protocol.Target{Locators: []protocol.Locator{loc("css", sel)}, Frame: []protocol.Locator{loc("css", "#jumper")}}
	}
	const missed = `the element moved or was covered while clicking: <button id="decoy"> received the click`
	cases := []struct {
		name, page string
		step       protocol.Step
		log        *protocol.Target
		want       string // the page's log
		retried    bool
	}{
		{"click", "/jumper.html?jumps=2", click(css("#target")), css("#log"), "target click;", true},
		{"the target moves when pressed", "/jumper.html?jumps=2&on=pointerdown", click(css("#target")), css("#log"), "target click;", true},
		{"dblclick", "/jumper.html?jumps=2", typed("dblclick", css("#target")), css("#log"), "target click;target click;target dblclick;", true},
		{"check", "/jumper.html?jumps=2&check=1", typed("check", css("#target")), css("#log"), "target click;", true},
		{"shadow root", "/jumper.html?jumps=2&shadow=1", click(css("#target")), css("#log"), "target click;", true},
		{"iframe", "/jumpframe.html?jumps=2", click(framed("#target")), framed("#log"), "target click;", true},
		{"hover in a shadow root in an iframe", "/jumpframe.html?jumps=0&shadow=1&hover=1", typed("hover", framed("#target")),
			framed("#log"), "target hover;", false},
		{"a label forwards its click to its control", "/jumper.html?jumps=0", click(css("label")), css("#log"), "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			steps := []protocol.Step{nav(tc.page), tc.step, short(textIs(tc.log, "equals", tc.want), 2000)}
			if tc.want == "" {
				steps[2] = jsAssert("document.getElementById('agree').checked")
			}
			res, rec := runSteps(t, steps...)
			mustPass(t, res)
			var retries []protocol.Event
			for _, e := range rec.ofKind(protocol.StepRetry) {
				if *e.Index == 1 {
					retries = append(retries, e)
				}
			}
			if !tc.retried {
				if len(retries) > 0 {
					t.Errorf("retried: %+v", retries)
				}
				return
			}
			if len(retries) == 0 {
				t.Fatal("no step.retry for the missed click")
			}
			if r := retries[0]; r.Attempt != 2 || !strings.Contains(r.Error, missed) {
				t.Errorf("step.retry %+v, want attempt 2 with %q", r, missed)
			}
		})
	}
	t.Run("a target that never holds still fails the step", func(t *testing.T) {
		t.Parallel()
		res, _ := runSteps(t, nav("/jumper.html?jumps=1000"), short(click(css("#target")), 1500))
		if res.Status != protocol.RunFailed {
			t.Fatalf("status %s, want failed", res.Status)
		}
		if got, want := res.Steps[1].Error, "timed out after 1.5s: "+missed; got != want {
			t.Errorf("error %q, want %q", got, want)
		}
	})
}
