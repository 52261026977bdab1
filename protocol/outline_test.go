package protocol

import (
	"fmt"
	"strings"
	"testing"
)

// A loop that fails itself (at its max) is the failure when no step
// inside it failed; nested, the innermost such loop is.
func TestFirstFailureOfALoopAtItsMax(t *testing.T) {
	inner := StepResult{Index: 2, ID: "inner", Type: TypeRepeat, Status: StepFailed, Error: "stopped: max 3", Iteration: []int{0},
		Iterations: []IterationResult{{Iteration: 0, Status: StepPassed, Steps: []StepResult{{Index: 3, ID: "c", Type: "click", Status: StepPassed, Iteration: []int{0, 0}}}}}}
	outer := StepResult{Index: 1, ID: "outer", Type: TypeRepeat, Status: StepFailed, Error: "step 2.1 ...",
		Iterations: []IterationResult{{Iteration: 0, Status: StepFailed, Steps: []StepResult{inner}}}}
	got, ok := FirstFailure([]StepResult{{Index: 0, ID: "a", Type: "click", Status: StepPassed}, outer})
	if !ok || got.ID != "inner" {
		t.Fatalf("first failure %v %v, want inner", got.ID, ok)
	}
	lines := ResultOutline(map[int]string{1: "2", 2: "2.1", 3: "2.1.1"}, []StepResult{outer})
	if want := "    2.1 repeat inner: failed: stopped: max 3"; !strings.Contains(strings.Join(lines, "\n"), want) || strings.Contains(lines[0], "step 2.1") {
		t.Errorf("outline %q, want %q and the outer loop without the inner's error", lines, want)
	}
}

// A long loop's outline is cut, and says so.
func TestResultOutlineIsBounded(t *testing.T) {
	loop := StepResult{Index: 0, ID: "many", Type: TypeRepeat, Status: StepPassed}
	for n := range 1000 {
		loop.Iterations = append(loop.Iterations, IterationResult{Iteration: n, Status: StepPassed,
			Steps: []StepResult{{Index: 1, ID: "c", Type: "click", Status: StepPassed, Iteration: []int{n}}}})
	}
	lines := ResultOutline(nil, []StepResult{loop})
	if len(lines) != MaxOutlineLines+1 || lines[len(lines)-1] != fmt.Sprintf("(%d more lines left out)", 2001-MaxOutlineLines) {
		t.Errorf("%d lines, last %q", len(lines), lines[len(lines)-1])
	}
}
