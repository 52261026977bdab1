package protocol

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxOutlineLines bounds ResultOutline: a loop of a thousand iterations
// would otherwise write thousands of lines into a CI log or a report.
const MaxOutlineLines = 400

// ResultOutline writes a run's result tree for people, one line per step
// execution, indented as the editor nests them, each loop's iterations on
// lines of their own (numbered from 1) and an if's branch said:
//
//	1 navigate open: passed
//	2 repeat five: failed
//	  iteration 1: passed
//	    2.1 click add: passed
//	  iteration 2: failed
//	    2.1 click add: failed: no element matches ...
//
// numbers are the steps' numbers by index (RunStepNumbers). The lines
// past MaxOutlineLines are left out, said on a last line.
func ResultOutline(numbers map[int]string, results []StepResult) []string {
	var out []string
	more := 0
	add := func(depth int, s string) {
		if len(out) >= MaxOutlineLines {
			more++
			return
		}
		out = append(out, strings.Repeat("  ", depth)+s)
	}
	var walk func(list []StepResult, depth int)
	walk = func(list []StepResult, depth int) {
		for _, s := range list {
			n := numbers[s.Index]
			if n == "" {
				n = strconv.Itoa(s.Index + 1)
			}
			line := fmt.Sprintf("%s %s %s: %s", n, s.Type, s.ID, s.Status)
			if s.Branch != "" {
				line += " (branch " + s.Branch + ")"
			}
			if s.Error != "" && (!IsBlock(s.Type) || !failedInside(s)) {
				line += ": " + firstLine(s.Error) // a block's own failure, as a loop at its max
			}
			add(depth, line)
			walk(s.Steps, depth+1)
			for _, it := range s.Iterations {
				add(depth+1, fmt.Sprintf("iteration %d: %s", it.Iteration+1, it.Status))
				walk(it.Steps, depth+2)
			}
		}
	}
	walk(results, 0)
	if more > 0 {
		out = append(out, fmt.Sprintf("(%d more lines left out)", more))
	}
	return out
}

// failedInside reports whether a step of block s failed (s's error is
// then that step's).
func failedInside(s StepResult) bool {
	inner := append([]StepResult(nil), s.Steps...)
	for _, it := range s.Iterations {
		inner = append(inner, it.Steps...)
	}
	_, found := FirstFailure(inner)
	return found
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
