package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/testautomation/ta/protocol"
)

// Blocks (docs/flow.md): an if runs one of its branches, a repeat and a
// forEach their steps once per iteration. A step's index is its place in
// the pre-order walk of the document's tree; a step inside loops reports
// once per iteration, its events and results carrying r.iter. The result
// is a tree: a block's result holds its branch's or its iterations'.

// flow is what running the tree keeps across blocks.
type flow struct {
	res  *protocol.RunResult   // Status and Error: the run stops when Status is no longer passed
	soft []protocol.StepResult // soft failures, the run going on
	seen map[int]*stepTally    // by index: how each step that reported went
}

// stepTally is how the executions of one step went.
type stepTally struct{ ran, failed bool }

func (f *flow) stopped() bool { return f.res.Status != protocol.RunPassed }

// note records a step's result for the counts.
func (f *flow) note(sr protocol.StepResult) {
	if f.seen == nil {
		f.seen = map[int]*stepTally{}
	}
	t := f.seen[sr.Index]
	if t == nil {
		t = &stepTally{}
		f.seen[sr.Index] = t
	}
	switch sr.Status {
	case protocol.StepPassed:
		t.ran = true
	case protocol.StepFailed:
		t.ran, t.failed = true, true
	}
}

// counts are the run's passed and total: the steps that ran and passed
// every time, and the steps that reported at all (a branch not taken
// reports nothing). A run without blocks counts as it always did.
func (f *flow) counts(total int) (passed, reported int) {
	for _, t := range f.seen {
		if t.ran && !t.failed {
			passed++
		}
	}
	if len(f.seen) == 0 {
		return 0, total
	}
	return passed, len(f.seen)
}

// runSteps runs a list of the tree whose first step has index first.
func (r *run) runSteps(ctx context.Context, steps []protocol.Step, first int, f *flow) []protocol.StepResult {
	out := make([]protocol.StepResult, 0, len(steps))
	i := first
	for _, st := range steps {
		var sr protocol.StepResult
		switch {
		case f.stopped():
			sr = r.skip(i, st)
		case protocol.IsBlock(st.Type):
			sr = r.block(ctx, i, st, f)
		default:
			sr = r.step(ctx, i, st)
		}
		f.note(sr)
		out = append(out, sr)
		i += protocol.CountSteps([]protocol.Step{st})
		if f.stopped() || sr.Status == protocol.StepPassed || protocol.IsBlock(st.Type) {
			continue // a block settled its steps' failures itself
		}
		if isSoft(st) && sr.Status == protocol.StepFailed && ctx.Err() == nil {
			f.soft = append(f.soft, sr)
			continue
		}
		f.res.Status, f.res.Error = r.outcome(ctx, sr)
	}
	return out
}

// block runs an if, repeat or forEach at index i and reports it.
func (r *run) block(ctx context.Context, i int, st protocol.Step, f *flow) protocol.StepResult {
	r.flush()
	iter := r.iteration()
	r.out.event(protocol.Event{Kind: protocol.StepStarted, Index: &i, StepID: st.ID, StepType: st.Type, Call: st.Call, Iteration: iter})
	start := time.Now()
	res := protocol.StepResult{Index: i, ID: st.ID, Type: st.Type, Call: st.Call, Iteration: iter, Status: protocol.StepPassed, Attempts: 1}
	softBefore := len(f.soft)
	var err error
	switch st.Type {
	case protocol.TypeIf:
		err = r.runIf(ctx, i, st, f, &res)
	case protocol.TypeRepeat:
		err = r.runRepeat(ctx, i, st, f, &res)
	case protocol.TypeForEach:
		err = r.runForEach(ctx, i, st, f, &res)
	}
	r.flush()
	res.DurationMs = time.Since(start).Milliseconds()
	switch {
	case err != nil && ctx.Err() == nil:
		// The block's own failure: a condition that could not be
		// evaluated, a loop at its max.
		res.Status, res.Error = protocol.StepFailed, err.Error()
		if !f.stopped() {
			f.res.Status, f.res.Error = protocol.RunFailed, fmt.Sprintf("step %s (%s, %s) failed%s: %s", r.number(i), st.ID, st.Type, iterationText(iter), err)
		}
	case err != nil:
		// The run ended under the block (cancelled, crashed, too long).
		res.Status, res.Error = protocol.StepFailed, context.Cause(ctx).Error()
		if r.parent.Err() != nil {
			res.Status, res.Error = protocol.StepSkipped, "run cancelled"
		}
		if !f.stopped() {
			f.res.Status, f.res.Error = r.outcome(ctx, protocol.StepResult{Index: i, ID: st.ID, Type: st.Type, Iteration: iter, Error: res.Error})
		}
	case f.stopped():
		res.Status, res.Error = protocol.StepFailed, f.res.Error
	case len(f.soft) > softBefore:
		// A soft assertion inside failed: so does the block, softly.
		res.Status, res.Error = protocol.StepFailed, "a soft assertion failed: "+f.soft[softBefore].Error
	}
	r.finished(res)
	return res
}

func (r *run) runIf(ctx context.Context, i int, st protocol.Step, f *flow, res *protocol.StepResult) error {
	ok, err := r.condition(ctx, i, st, st.Condition)
	if err != nil {
		return err
	}
	switch {
	case ok:
		res.Branch = "then"
		res.Steps = r.runSteps(ctx, st.Steps, i+1, f)
	case len(st.Else) > 0:
		res.Branch = "else"
		res.Steps = r.runSteps(ctx, st.Else, i+1+protocol.CountSteps(st.Steps), f)
	default:
		res.Branch = "none"
	}
	return nil
}

func (r *run) runRepeat(ctx context.Context, i int, st protocol.Step, f *flow, res *protocol.StepResult) error {
	max := st.MaxOrDefault()
	res.Iterations = []protocol.IterationResult{}
	for n := 0; ; n++ {
		if st.Times != nil && n >= *st.Times {
			return nil
		}
		if st.While != nil {
			ok, err := r.condition(ctx, i, st, st.While)
			if err != nil || !ok {
				return err
			}
		}
		if n >= max {
			return fmt.Errorf("stopped: its condition still held after max %d iterations", max)
		}
		if !r.iterate(ctx, i, n, st.Steps, f, res) {
			return nil
		}
	}
}

func (r *run) runForEach(ctx context.Context, i int, st protocol.Step, f *flow, res *protocol.StepResult) error {
	items, err := r.items(st)
	if err != nil {
		return err
	}
	if max := st.MaxOrDefault(); len(items) > max {
		return fmt.Errorf("the list has %d items, more than max %d", len(items), max)
	}
	res.Iterations = []protocol.IterationResult{}
	as := st.AsOrDefault()
	for n, item := range items {
		r.setVar(as, item.text, item.typed)
		if !r.iterate(ctx, i, n, st.Steps, f, res) {
			break
		}
	}
	return nil
}

// iterate runs one iteration n of the loop at index i; false when the run
// stopped in it.
func (r *run) iterate(ctx context.Context, i, n int, steps []protocol.Step, f *flow, res *protocol.StepResult) bool {
	r.iter = append(r.iter, n)
	softBefore := len(f.soft)
	out := r.runSteps(ctx, steps, i+1, f)
	r.iter = r.iter[:len(r.iter)-1]
	status := protocol.StepPassed
	if f.stopped() || len(f.soft) > softBefore {
		status = protocol.StepFailed
	}
	res.Iterations = append(res.Iterations, protocol.IterationResult{Iteration: n, Status: status, Steps: out})
	return !f.stopped()
}

// item is one item of a forEach: its text, and whether that is the JSON
// of a value (an object, a number) rather than a string.
type item struct {
	text  string
	typed bool
}

// items are what a forEach goes through: its list, interpolated, or the
// JSON array its reference holds.
func (r *run) items(st protocol.Step) ([]item, error) {
	if st.Items == nil {
		return nil, permanent("the forEach has no items")
	}
	if st.Items.Ref == "" {
		out := make([]item, len(st.Items.List))
		for k, v := range st.Items.List {
			t, err := r.interp(v)
			if err != nil {
				return nil, err
			}
			out[k] = item{text: t}
		}
		return out, nil
	}
	ref := strings.TrimSuffix(strings.TrimPrefix(st.Items.Ref, "${"), "}")
	v, err := r.value(ref)
	if err != nil {
		return nil, err
	}
	var list []json.RawMessage
	if err := json.Unmarshal([]byte(v), &list); err != nil {
		return nil, permanent("${%s} does not hold a JSON array, so there is nothing to go through (it is %s)", ref, strconv.Quote(clip(v, 80)))
	}
	out := make([]item, len(list))
	for k, raw := range list {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			out[k] = item{text: s}
		} else {
			out[k] = item{text: string(raw), typed: true}
		}
	}
	return out, nil
}

// iteration is a copy of the loops' iterations, nil outside loops.
func (r *run) iteration() []int {
	if len(r.iter) == 0 {
		return nil
	}
	return slices.Clone(r.iter)
}

// iterationText words an iteration for messages: " in iteration 3"
// (1-based for people), " in iteration 2.1" inside nested loops.
func iterationText(iter []int) string {
	if len(iter) == 0 {
		return ""
	}
	return " in iteration " + iterationNumbers(iter, ".", 1)
}

// iterationName is an artifact name's suffix: "-i2" for the third
// iteration (0-based, as in events), "-i2.0" inside nested loops.
func iterationName(iter []int) string {
	if len(iter) == 0 {
		return ""
	}
	return "-i" + iterationNumbers(iter, ".", 0)
}

func iterationNumbers(iter []int, sep string, base int) string {
	parts := make([]string, len(iter))
	for k, n := range iter {
		parts[k] = strconv.Itoa(n + base)
	}
	return strings.Join(parts, sep)
}

// shotKey names a step's execution: its index and iteration.
func shotKey(i int, iter []int) string { return strconv.Itoa(i) + iterationName(iter) }

// stepsBound is the longest a list of steps may take: their timeouts and
// waits, a loop's body as many times as it may run (capped: Options.
// MaxRunTime is the real bound for long loops).
func stepsBound(steps []protocol.Step) time.Duration {
	const most = 24 * time.Hour
	var d time.Duration
	for _, st := range steps {
		d += time.Duration(st.Timeout()) * time.Millisecond
		if st.Type == "wait" && st.Ms != nil {
			d += time.Duration(*st.Ms) * time.Millisecond
		}
		body := stepsBound(st.Steps) + stepsBound(st.Else)
		switch st.Type {
		case protocol.TypeRepeat, protocol.TypeForEach:
			n := st.MaxOrDefault()
			if st.Times != nil && st.While == nil {
				n = *st.Times
			} else if st.Items != nil && st.Items.Ref == "" {
				n = len(st.Items.List)
			}
			body = time.Duration(min(int64(body)*int64(n), int64(most)))
			// a while condition is checked before each iteration
			if st.While != nil {
				body += time.Duration(min(int64(st.Timeout())*int64(n)*int64(time.Millisecond), int64(most)))
			}
		}
		d = min(d+body, most)
	}
	return d
}
