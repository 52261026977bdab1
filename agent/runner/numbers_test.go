package runner

import (
	"testing"

	"github.com/testautomation/ta/protocol"
)

// A run's error names its failing step as the editor numbers it: steps
// expanded from the test's step 2, a component call, are 2.1, 2.2 ...
func TestRunErrorNumbersStepsAsTheEditor(t *testing.T) {
	t.Parallel()
	inner := func(id string, st protocol.Step) protocol.Step {
		st.ID, st.Call = id, "s2"
		return st
	}
	res, _ := runSteps(t, nav("/login.html"),
		inner("c1", fillStep(css("#email"), "ann@example.com")),
		inner("c2", short(valueIs(css("#email"), "bob@example.com"), 300)),
		click(css("button")))
	if res.Status != protocol.RunFailed {
		t.Fatalf("run %s: %s", res.Status, res.Error)
	}
	if want := "step 2.2 (c2, assertValue) failed: "; len(res.Error) < len(want) || res.Error[:len(want)] != want {
		t.Errorf("error %q, want it to start %q", res.Error, want)
	}
}
