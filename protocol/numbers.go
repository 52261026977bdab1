package protocol

import (
	"strconv"
	"strings"
)

// Step numbers as people see them. A run executes its test with component
// calls expanded, so its step indexes count the calls' inner steps; the
// editor numbers the test's own steps. Runs, rows, JUnit reports, the CI
// command and error messages number steps as the editor does: a step of
// the test is "2", the third step expanded from the call that is the
// test's step 2 is "2.3".

// StepNumbers numbers a run's steps in order, given each one's call (the
// id of the test's callComponent step it was expanded from, "" for the
// test's own steps). Consecutive steps of one call share the call's
// number.
func StepNumbers(calls []string) []string {
	out := make([]string, len(calls))
	n, inner := 0, 0
	for i, call := range calls {
		switch {
		case call == "":
			n++
			inner = 0
			out[i] = strconv.Itoa(n)
			continue
		case i > 0 && calls[i-1] == call:
			inner++
		default:
			n++
			inner = 1
		}
		out[i] = strconv.Itoa(n) + "." + strconv.Itoa(inner)
	}
	return out
}

// DocumentStepNumbers numbers the steps of an expanded document, by
// their index in the pre-order walk of its tree (see WalkSteps): the
// steps inside block 3 are 3.1, 3.2... (its then-steps first, then its
// else-steps), and the steps of a call as StepNumbers says.
func DocumentStepNumbers(steps []Step) []string {
	var out []string
	var number func(steps []Step, prefix string)
	number = func(steps []Step, prefix string) {
		calls := make([]string, len(steps))
		for i, s := range steps {
			calls[i] = s.Call
		}
		for i, n := range StepNumbers(calls) {
			out = append(out, prefix+n)
			if s := steps[i]; IsBlock(s.Type) {
				number(append(append([]Step(nil), s.Steps...), s.Else...), prefix+n+".")
			}
		}
	}
	number(steps, "")
	return out
}

// ResultStepNumbers numbers step results by their index. They may be the
// first steps only (a run under way): the numbers of those are right.
func ResultStepNumbers(steps []StepResult) map[int]string {
	calls := make([]string, len(steps))
	for i, s := range steps {
		calls[i] = s.Call
	}
	out := make(map[int]string, len(steps))
	for i, n := range StepNumbers(calls) {
		out[steps[i].Index] = n
	}
	return out
}

// RunStepNumbers numbers a run's step results by their index: from the
// run's document (the expanded tree, as GET /api/runs/:id has it) when
// it is given and covers them, as DocumentStepNumbers does; else from the
// results themselves, which is right for a run without blocks.
func RunStepNumbers(doc []Step, results []StepResult) map[int]string {
	all := AllResults(results)
	if numbers := DocumentStepNumbers(doc); len(numbers) > 0 {
		out := make(map[int]string, len(numbers))
		for i, n := range numbers {
			out[i] = n
		}
		covered := true
		for _, s := range all {
			if _, ok := out[s.Index]; !ok {
				covered = false
			}
		}
		if covered {
			return out
		}
	}
	return ResultStepNumbers(results)
}

// IterationText words an execution's iteration for people: " in
// iteration 3" (1-based), " in iteration 2.1" inside nested loops, ""
// outside loops. The agent's errors word it the same way.
func IterationText(iter []int) string {
	if len(iter) == 0 {
		return ""
	}
	parts := make([]string, len(iter))
	for k, n := range iter {
		parts[k] = strconv.Itoa(n + 1)
	}
	return " in iteration " + strings.Join(parts, ".")
}

// FirstFailure is the execution that failed first in a result tree: the
// first failed step that is not a block (a block fails because of a step
// inside it), else the first failed block none of whose steps failed (its
// own failure: a loop at its max, a condition that could not be
// evaluated).
func FirstFailure(results []StepResult) (StepResult, bool) {
	all := AllResults(results)
	for _, s := range all {
		if s.Status == StepFailed && !IsBlock(s.Type) {
			return s, true
		}
	}
	for _, s := range all {
		if s.Status != StepFailed {
			continue
		}
		if !failedInside(s) {
			return s, true
		}
	}
	return StepResult{}, false
}

// HasBlocks reports whether a result tree holds a block's result.
func HasBlocks(results []StepResult) bool {
	for _, s := range results {
		if IsBlock(s.Type) {
			return true
		}
	}
	return false
}
