package dispatch

import (
	"fmt"
	"slices"

	"github.com/testautomation/ta/protocol"
)

// Results of documents with blocks (docs/flow.md) are a tree: a block's
// result holds its branch's or its iterations' results. They are checked
// against the job's tree: every list that ran reports each of its steps in
// order (ran or skipped), at its index, with the iteration its loops give
// it; an if reports the branch it took and only that branch's steps; a
// loop at most its max iterations, numbered from 0. passed and total count
// steps, not executions: a step passed when it ran and passed every time,
// and a branch not taken reports nothing, so total is the steps reported.

// shapeTree keeps the tree of a document with blocks.
func (s *jobShape) shapeTree(steps []protocol.Step) {
	blocks := false
	for _, st := range steps {
		blocks = blocks || protocol.IsBlock(st.Type)
	}
	if !blocks {
		return
	}
	s.tree = steps
	var walk func(list []protocol.Step, loops int)
	walk = func(list []protocol.Step, loops int) {
		for _, st := range list {
			s.loops = append(s.loops, loops)
			inner := loops
			if st.Type == protocol.TypeRepeat || st.Type == protocol.TypeForEach {
				inner++
			}
			walk(st.Steps, inner)
			walk(st.Else, inner)
		}
	}
	walk(steps, 0)
}

// checkIteration checks an event's or result's iteration and branch for
// step index.
func (s jobShape) checkIteration(index int, iter []int, branch string) string {
	want := 0
	if s.loops != nil {
		want = s.loops[index]
	}
	switch {
	case len(iter) != want:
		return fmt.Sprintf("step %d reports %d iterations, but it is inside %d loops", index, len(iter), want)
	case slices.ContainsFunc(iter, func(n int) bool { return n < 0 || n >= protocol.MaxIterations }):
		return fmt.Sprintf("step %d reports iteration %v, out of range", index, iter)
	case branch != "" && branch != "then" && branch != "else" && branch != "none":
		return fmt.Sprintf("step %d reports branch %q", index, branch)
	}
	return ""
}

// tally is how a result tree's steps went, by index.
type tally struct{ seen, ran, failed map[int]bool }

func (s jobShape) checkTree(status string, passed, total int, steps []protocol.StepResult) string {
	t := tally{seen: map[int]bool{}, ran: map[int]bool{}, failed: map[int]bool{}}
	partial := status == protocol.RunCancelled || status == protocol.RunError
	if why := s.checkList(s.tree, 0, nil, steps, &t, partial); why != "" {
		return why
	}
	ok, failed := 0, len(t.failed)
	for i := range t.ran {
		if !t.failed[i] {
			ok++
		}
	}
	got := len(t.seen)
	switch {
	case total != got && total != len(s.steps):
		return fmt.Sprintf("the result counts %d steps, but reports %d", total, got)
	case passed != ok:
		return fmt.Sprintf("the result counts %d steps passed, but %d did", passed, ok)
	case status == protocol.RunPassed && (ok != got || len(steps) != len(s.tree)):
		return fmt.Sprintf("the run is reported passed, but %d of its %d steps passed", ok, got)
	case status == protocol.RunFailed && len(steps) != len(s.tree):
		return fmt.Sprintf("the run is reported failed with results for %d of its %d steps", len(steps), len(s.tree))
	case status == protocol.RunFailed && failed == 0:
		return "the run is reported failed, but none of its steps failed"
	}
	return ""
}

// checkList checks the results of one list of the tree (a document's
// steps, a branch, an iteration), whose first step has index first.
func (s jobShape) checkList(list []protocol.Step, first int, iter []int, results []protocol.StepResult, t *tally, partial bool) string {
	if len(results) > len(list) {
		return fmt.Sprintf("a list of %d steps (from step %d) has %d step results", len(list), first, len(results))
	}
	if len(results) < len(list) && !partial {
		return fmt.Sprintf("a list of %d steps (from step %d) has results for %d: every step is reported, ran or skipped", len(list), first, len(results))
	}
	i := first
	for k, r := range results {
		st := list[k]
		if r.Index != i {
			return fmt.Sprintf("step result %d has index %d: results come in the run's order", i, r.Index)
		}
		if why := s.checkStep(i, r.ID); why != "" {
			return why
		}
		if !stepStatuses[r.Status] {
			return fmt.Sprintf("step %d ended with status %q", i, r.Status)
		}
		if why := s.checkIteration(i, r.Iteration, r.Branch); why != "" {
			return why
		}
		if !slices.Equal(r.Iteration, iter) {
			return fmt.Sprintf("step %d reports iteration %v inside iteration %v", i, r.Iteration, iter)
		}
		t.seen[i] = true
		switch r.Status {
		case protocol.StepPassed:
			t.ran[i] = true
		case protocol.StepFailed:
			t.ran[i], t.failed[i] = true, true
		}
		if why := s.checkChildren(st, i, iter, r, t, partial); why != "" {
			return why
		}
		i += protocol.CountSteps([]protocol.Step{st})
	}
	return ""
}

// checkChildren checks what a block's result holds: only blocks hold
// steps, an if its branch's, a loop its iterations.
func (s jobShape) checkChildren(st protocol.Step, i int, iter []int, r protocol.StepResult, t *tally, partial bool) string {
	loop := st.Type == protocol.TypeRepeat || st.Type == protocol.TypeForEach
	switch {
	case !protocol.IsBlock(st.Type) && (r.Steps != nil || r.Iterations != nil || r.Branch != ""):
		return fmt.Sprintf("step %d is no block, but its result holds steps", i)
	case r.Status == protocol.StepSkipped && (r.Steps != nil || r.Iterations != nil):
		return fmt.Sprintf("step %d was skipped, but its result holds steps", i)
	case loop && (r.Steps != nil || r.Branch != ""):
		return fmt.Sprintf("step %d is a loop: its steps are in its iterations", i)
	case st.Type == protocol.TypeIf && r.Iterations != nil:
		return fmt.Sprintf("step %d is an if: it has no iterations", i)
	}
	// A block that stopped the run (cancelled, or failing before its
	// steps) may hold fewer steps than its lists.
	partial = partial || r.Status != protocol.StepPassed
	switch {
	case st.Type == protocol.TypeIf:
		switch r.Branch {
		case "then":
			return s.checkList(st.Steps, i+1, iter, r.Steps, t, partial)
		case "else":
			return s.checkList(st.Else, i+1+protocol.CountSteps(st.Steps), iter, r.Steps, t, partial)
		}
		if len(r.Steps) > 0 {
			return fmt.Sprintf("step %d took no branch, but its result holds steps", i)
		}
	case loop:
		most := st.MaxOrDefault()
		if st.Times != nil && st.While == nil {
			most = min(most, *st.Times)
		}
		if len(r.Iterations) > most {
			return fmt.Sprintf("step %d reports %d iterations, but it runs at most %d", i, len(r.Iterations), most)
		}
		for n, it := range r.Iterations {
			if it.Iteration != n {
				return fmt.Sprintf("step %d reports iteration %d in place %d", i, it.Iteration, n)
			}
			if !stepStatuses[it.Status] {
				return fmt.Sprintf("step %d iteration %d ended with status %q", i, n, it.Status)
			}
			last := n == len(r.Iterations)-1
			if why := s.checkList(st.Steps, i+1, append(slices.Clone(iter), n), it.Steps, t, partial && last); why != "" {
				return why
			}
		}
	}
	return ""
}
