package runner

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/testautomation/ta/protocol"
)

// Run executes job.Document in a fresh incognito browser context (so runs
// never share cookies or storage) and returns the result; the package
// comment lists the events it emits. It honours ctx: cancellation stops the
// run promptly (the step in flight is abandoned), the remaining steps are
// reported skipped and the status is cancelled. A browser or page crash,
// or a run exceeding its overall time bound, gives status error. Run is
// safe to call concurrently on one Browser. A headed run (job.Headed with
// Options.CanHead) launches a separate visible browser for itself.
func (b *Browser) Run(ctx context.Context, job protocol.Job, emit Emitter) protocol.RunResult {
	mask := newMasker(job.Secrets)
	r := &run{b: b, job: job, mask: mask, vars: map[string]string{}, parent: ctx,
		out: &output{emit: emit, mask: mask, log: b.log.With("run", job.RunID)}}
	r.current.Store(-1)
	return mask.result(r.execute(ctx))
}

// run is the state of one Run.
type run struct {
	b       *Browser // the shared browser
	job     protocol.Job
	mask    *masker
	secrets secretWorld // where screenshots show secrets (shot_secrets.go)
	out     *output
	parent  context.Context // the caller's: its end means cancelled

	browser *Browser // the browser in use: b, or own for a headed run
	own     *Browser
	tab     *tab                    // the page steps act in (tabs.go); the run's goroutine's
	first   *tab                    // the run's first page, whose context the run disposes of
	curTab  atomic.Pointer[tab]     // tab, for the event reader
	pages   pageSet                 // every page of the run (tabs.go)
	dlg     dialogs                 // the armed dialog answer (dialog.go)
	mouse   mouseState              // the buttons held down by mouse steps (mouse.go)
	emu     emulation               // the device and viewport (viewport.go)
	live    *tab                    // a live page's tab (live.go): used, never disposed of
	stop    context.CancelCauseFunc // ends the run with a cause (crash, time limit)
	trace   *tracer                 // the run's trace (trace.go); nil when off
	current atomic.Int64            // the index of the step running, -1 between steps

	vars map[string]string // set by setVariable and script assign; only the run's goroutine uses it

	numbers []string // the steps' numbers as the editor shows them (see number); the run's goroutine's

	// Only the run's goroutine uses these (see overlap in screenshot.go).
	pending *pendingShot    // the last step's screenshot, in flight
	held    *protocol.Event // the running step's step.started, not yet sent
	// shots are the after-step screenshots' names (or why there is none)
	// by step, set when flush's barrier sends them (by any goroutine:
	// shotMu guards them).
	shotMu sync.Mutex
	shots  map[string][2]string // by shotKey

	// iter is the iteration of each loop the running step is in,
	// outermost first (flow.go); only the run's goroutine uses it.
	iter []int
	// shotDelay postpones every after-step capture (with the headless
	// shell, its frame): tests prove with it that the next step's changes
	// wait until what the screenshot shows is fixed.
	shotDelay time.Duration
}

func (r *run) execute(parent context.Context) protocol.RunResult {
	start := time.Now()
	steps := r.job.Document.Steps
	total := protocol.CountSteps(steps)
	// Headed says whether a window is really shown, so the run page can
	// tell a headed run on an agent without a display.
	headed := r.job.Headed && r.b.opts.CanHead
	r.out.event(protocol.Event{Kind: protocol.RunStarted, Version: r.job.Version, Total: &total, Headed: &headed})

	ctx, stop := context.WithCancelCause(parent)
	defer stop(nil)
	bound := r.bound()
	ctx, cancel := context.WithTimeoutCause(ctx, bound, fmt.Errorf("the run took longer than its limit of %s", bound))
	defer cancel()
	r.stop = stop

	res := protocol.RunResult{Status: protocol.RunPassed, Total: total, Steps: make([]protocol.StepResult, 0, total)}
	if err := r.open(ctx); err != nil {
		res.Status, res.Error = protocol.RunError, "could not open a browser page: "+err.Error()
		if parent.Err() != nil {
			res.Status, res.Error = protocol.RunCancelled, "run cancelled"
		}
	} else {
		defer r.close()
		r.traceStart(ctx, start)
	}
	f := &flow{res: &res}
	res.Steps = r.runSteps(ctx, steps, 0, f)
	if len(f.soft) > 0 && res.Status == protocol.RunPassed {
		res.Status, res.Error = r.outcome(ctx, f.soft[0])
		if len(f.soft) > 1 {
			res.Error += fmt.Sprintf(" (and %d more soft assertions failed)", len(f.soft)-1)
		}
	}
	res.Passed, res.Total = f.counts(total)
	total = res.Total
	r.flush()
	r.traceEnd()
	r.drain(&res)
	res.DurationMs = time.Since(start).Milliseconds()
	r.out.event(protocol.Event{Kind: protocol.RunFinished, Status: res.Status, Passed: &res.Passed,
		Total: &total, DurationMs: &res.DurationMs, Error: res.Error})
	return res
}

// isSoft reports an assertion whose failure is recorded and the run goes
// on (soft: true); the run still ends failed.
func isSoft(st protocol.Step) bool { return st.Soft && strings.HasPrefix(st.Type, "assert") }

// outcome gives the run's status and error after step sr did not pass.
func (r *run) outcome(ctx context.Context, sr protocol.StepResult) (string, string) {
	switch {
	case r.parent.Err() != nil:
		return protocol.RunCancelled, "run cancelled"
	case ctx.Err() != nil:
		return protocol.RunError, context.Cause(ctx).Error()
	}
	if sr.Branch != "" || sr.Iterations != nil {
		return protocol.RunFailed, sr.Error // a block's error names the step inside it that failed
	}
	return protocol.RunFailed, fmt.Sprintf("step %s (%s, %s) failed%s: %s", r.number(sr.Index), sr.ID, sr.Type, iterationText(sr.Iteration), sr.Error)
}

// number is step i's number as the editor shows it (protocol.StepNumbers).
func (r *run) number(i int) string {
	if r.numbers == nil {
		r.numbers = protocol.DocumentStepNumbers(r.job.Document.Steps)
	}
	if i < 0 || i >= len(r.numbers) {
		return fmt.Sprint(i + 1)
	}
	return r.numbers[i]
}

// bound is the longest a run may take: Options.MaxRunTime, or the sum of
// the steps' timeouts (and wait times) plus a minute.
func (r *run) bound() time.Duration {
	if r.b.opts.MaxRunTime > 0 {
		return r.b.opts.MaxRunTime
	}
	return time.Minute + stepsBound(r.job.Document.Steps)
}

// open gets the run its page: on the shared browser, or on a visible
// browser of its own for a headed run on an agent with a display.
func (r *run) open(ctx context.Context) error {
	b := r.b
	if r.live != nil {
		b.watch(r.live, r.stop, r.dialog, r.popup)
		r.browser = b
		r.firstPage(r.live)
		return r.emulate(ctx)
	}
	if r.job.Headed {
		if b.opts.CanHead {
			hb, err := launch(ctx, b.opts, true)
			if err != nil {
				return fmt.Errorf("starting a visible browser: %w", err)
			}
			r.own, b = hb, hb
		} else {
			r.out.logf("warn", nil, "this run asked for a visible browser, but the agent has no display (DISPLAY and WAYLAND_DISPLAY are unset): running headless")
		}
	}
	t, err := b.acquire(ctx)
	if err != nil {
		if r.own != nil {
			_ = r.own.Close()
		}
		return err
	}
	r.browser = b
	r.firstPage(t)
	b.watch(t, r.stop, r.dialog, r.popup)
	return r.emulate(ctx)
}

// emulate applies the job's device to the first page; should that fail, the
// page is given back.
func (r *run) emulate(ctx context.Context) error {
	err := r.applyDevice(ctx)
	if err != nil {
		r.close()
	}
	return err
}

// close disposes of the run's incognito context (and its own browser).
func (r *run) close() {
	r.closePages()
	if r.live != nil {
		r.browser.unwatch(r.live)
		return
	}
	r.browser.release(r.first)
	if r.own != nil {
		_ = r.own.Close()
	}
}

// skip reports a step that did not run (a block as a whole).
func (r *run) skip(i int, st protocol.Step) protocol.StepResult {
	var zero int64
	iter := r.iteration()
	r.out.event(protocol.Event{Kind: protocol.StepFinished, Index: &i, StepID: st.ID, StepType: st.Type, Call: st.Call,
		Iteration: iter, Status: protocol.StepSkipped, DurationMs: &zero})
	return protocol.StepResult{Index: i, ID: st.ID, Type: st.Type, Call: st.Call, Iteration: iter, Status: protocol.StepSkipped}
}

// sess returns the run's page session bound to ctx.
func (r *run) sess(ctx context.Context) session { return r.tab.sess.with(ctx) }
