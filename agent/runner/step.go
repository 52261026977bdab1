package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/testautomation/ta/protocol"
)

// stepRun is the state of one step while it runs.
type stepRun struct {
	r       *run
	index   int
	step    protocol.Step // as written; the step function gets an interpolated copy
	timeout time.Duration

	attempts  int           // the attempt in progress, from 1
	lastRetry time.Time     // when the last step.retry went out
	healed    int           // index of the locator that found the element; 0 is the primary
	healNote  string        // why the primary did not find it
	shot      string        // an artifact the step made itself (screenshot step)
	box       *protocol.Box // where the target element was when last found or acted on
	el        elem          // the element box measures
	last      elem          // the element found last (see found)
	stale     bool          // last is to be measured when the step ends
	used      protocol.Used // the values the step used, interpolated

	target *protocol.Target // the interpolated step's: its trace's snapshot marks its matches
}

// stepFunc performs one step type with the interpolated step.
type stepFunc func(s *stepRun, ctx context.Context, st protocol.Step) error

// step runs step i and reports it: step.started, retries, logs, artifacts,
// step.finished. With job.Screenshots, a passed step's screenshot is
// captured while the next step begins (see overlap): the step's
// step.finished goes out when it is taken, and the returned result's
// Screenshot is filled in then (see drain).
func (r *run) step(ctx context.Context, i int, st protocol.Step) protocol.StepResult {
	defer r.current.Store(-1)
	s := &stepRun{r: r, index: i, step: st, attempts: 1}
	iter := r.iteration()
	r.held = &protocol.Event{Kind: protocol.StepStarted, Index: &i, StepID: st.ID, StepType: st.Type, Call: st.Call, Iteration: iter}
	if r.pending == nil {
		r.flush()
	}
	start := time.Now()
	err := s.execute(ctx)
	r.flush()
	if why := r.refusal(ctx, st); why != "" && ctx.Err() == nil {
		err = permanent("%s", why) // what the page tried says more than what followed from it
	}
	own := err != nil && ctx.Err() == nil // the step's own failure, not the run's end
	if own {
		r.probe(ctx)
	}
	res := protocol.StepResult{Index: i, ID: st.ID, Type: st.Type, Call: st.Call, Iteration: iter, Status: protocol.StepPassed,
		DurationMs: time.Since(start).Milliseconds(), Attempts: s.attempts}
	switch {
	case err == nil:
	case r.parent.Err() != nil:
		res.Status, res.Error = protocol.StepSkipped, "run cancelled"
	case own:
		res.Status, res.Error = protocol.StepFailed, err.Error()
	default: // the run was stopped under the step: crash, time limit
		res.Status, res.Error = protocol.StepFailed, context.Cause(ctx).Error()
	}
	if s.healed > 0 && st.Target != nil && s.healed < len(st.Target.Locators) {
		l := st.Target.Locators[s.healed]
		res.HealedBy = &l
		r.out.logf("warn", &i, "step %s: %s; healed by the fallback locator %s: update the test to put it first",
			st.ID, s.healNote, describe(l))
	}
	r.traceStep(ctx, s, res, start)
	res.Screenshot = s.shot
	if ctx.Err() == nil {
		switch {
		case res.Status == protocol.StepFailed:
			s.frame(ctx, true, s.settle(ctx))
			res.Screenshot, res.ScreenshotError = r.screenshot(ctx, i, fmt.Sprintf("step-%03d-%s%s-failure", i+1, st.ID, iterationName(iter)), true)
		case r.job.Screenshots && s.shot == "":
			// The capture starts first; measuring the element changes
			// nothing on the page, so it runs under the capture.
			r.shoot(ctx, res)
			s.frame(ctx, false, s.settle(ctx))
			res.Box, res.Used = s.box, s.used
			r.pending.res.Box, r.pending.res.Used = res.Box, res.Used
			return res
		default:
			s.settle(ctx)
		}
	}
	res.Box, res.Used = s.box, s.used
	r.finished(res)
	return res
}

// finished emits step.finished for res.
func (r *run) finished(res protocol.StepResult) { r.out.event(finishedEvent(res)) }

// finishedEvent is the step.finished event of res.
func finishedEvent(res protocol.StepResult) protocol.Event {
	i, d := res.Index, res.DurationMs
	return protocol.Event{Kind: protocol.StepFinished, Index: &i, StepID: res.ID, StepType: res.Type, Call: res.Call,
		Iteration: res.Iteration, Branch: res.Branch, Status: res.Status, DurationMs: &d, Error: res.Error, HealedBy: res.HealedBy, Screenshot: res.Screenshot,
		Box: res.Box, Used: res.Used, ScreenshotError: res.ScreenshotError}
}

// execute interpolates the step and runs it within its timeout.
func (s *stepRun) execute(ctx context.Context) error {
	st, err := s.r.interpolateStep(s.step)
	if err != nil {
		return err
	}
	s.used = usedOf(st)
	s.target = st.Target
	fn := stepFuncs[st.Type]
	if fn == nil {
		return fmt.Errorf("unknown step type %q", st.Type)
	}
	if !overlaps[st.Type] {
		s.r.flush()
	}
	s.timeout = time.Duration(st.Timeout()) * time.Millisecond
	if st.Type == "wait" && st.Ms != nil {
		s.timeout += time.Duration(*st.Ms) * time.Millisecond
	}
	sctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	if err := s.r.pageGone(); err != nil {
		return err
	}
	if err := fn(s, sctx, st); err != nil {
		s.disarm()
		return err
	}
	return s.dialogCheck(sctx)
}

// probe checks that the page still answers after a step failed, so a
// renderer that died or hung ends the run as error rather than failed.
// It waits probeWait: a renderer starved of CPU (a machine running many
// browsers) answers late, and a late answer is no hung page.
func (r *run) probe(ctx context.Context) {
	pctx, cancel := context.WithTimeout(ctx, probeWait)
	defer cancel()
	if _, err := evalValue(pctx, r.tab.sess, "1"); err != nil && ctx.Err() == nil {
		r.stop(fmt.Errorf("the page stopped responding: %v", err))
	}
}

// probeWait bounds probe. 2 s made a soft assertion's run an error on a
// machine at ten times its cores' load (TestSoftAssertion in CI).
const probeWait = 10 * time.Second

// permanentError is a failure that waiting cannot fix (a malformed regular
// expression, an element of the wrong kind, an unknown variable): the step
// fails at once instead of polling until its timeout.
type permanentError struct{ msg string }

func (e *permanentError) Error() string { return e.msg }

func permanent(format string, a ...any) error { return &permanentError{fmt.Sprintf(format, a...)} }

func isPermanent(err error) bool {
	var p *permanentError
	return errors.As(err, &p)
}

// poll calls try until it succeeds, fails permanently or ctx ends (the
// step's timeout). waiting says what a timeout was waiting for when no
// attempt reported a reason ("for the page to load").
func (s *stepRun) poll(ctx context.Context, waiting string, try func(ctx context.Context) error) error {
	var last error
	start := time.Now()
	for {
		err := try(ctx)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			if last == nil {
				return fmt.Errorf("timed out after %s waiting %s", s.timeout, waiting)
			}
			return fmt.Errorf("timed out after %s: %w", s.timeout, last)
		}
		if isPermanent(err) {
			return err
		}
		last = plainError(err)
		var missed *missedError
		if errors.As(err, &missed) {
			s.retry(last)
		}
		if !sleep(ctx, pollDelay(time.Since(start))) {
			return fmt.Errorf("timed out after %s: %w", s.timeout, last)
		}
	}
}

// pollDelay paces polling by how long the step has waited: every 10 ms in
// the first two seconds (most waits are short, and an answer seen 10 ms
// late costs the run 10 ms: a page's state is checked in about a
// millisecond), then every 50 ms, and every 100 ms after ten seconds.
func pollDelay(waited time.Duration) time.Duration {
	switch {
	case waited < 2*time.Second:
		return 10 * time.Millisecond
	case waited < 10*time.Second:
		return 50 * time.Millisecond
	}
	return 100 * time.Millisecond
}

// retry emits step.retry after an attempt that acted on the page failed
// and the step acts again: at once after the first, then at most once a
// second. Auto-waiting (for the element, for it to be actionable, for an
// assertion to hold) is not a retry and emits nothing.
func (s *stepRun) retry(err error) {
	s.r.flush()
	now := time.Now()
	if s.attempts > 1 && now.Sub(s.lastRetry) < time.Second {
		return
	}
	s.attempts++
	s.lastRetry = now
	i := s.index
	s.r.out.event(protocol.Event{Kind: protocol.StepRetry, Index: &i, StepID: s.step.ID, StepType: s.step.Type, Call: s.step.Call, Iteration: s.r.iteration(),
		Attempt: s.attempts, Error: err.Error()})
}

// plainCDP unwraps a DevTools protocol error to its message.
func plainCDP(err error) error {
	var ce *cdp.Error
	if errors.As(err, &ce) {
		return errors.New(ce.Message)
	}
	return err
}

// plainError words a DevTools protocol error for people: the page usually
// navigated or re-rendered under the step, which polling recovers from.
func plainError(err error) error {
	var ce *cdp.Error
	if errors.As(err, &ce) {
		return fmt.Errorf("the page changed while the step ran (%s)", ce.Message)
	}
	return err
}
