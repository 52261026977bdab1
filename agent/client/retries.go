package client

import (
	"context"
	"time"

	"github.com/testautomation/ta/protocol"
)

// runEmitter is what a run (or a row) emits through: events, artifacts and
// the project files of its upload steps.
type runEmitter interface {
	Emitter
	FetchFile(ctx context.Context, id string) (string, error)
}

// runRetried runs a job (a whole run, or one row of a data-driven run)
// and, when it fails, runs it again in a fresh browser context (a new
// Runner.Run), up to job.Retries more times, stopping at the first pass
// (protocol/retries.go). Only failed is retried: an error says the agent or
// its browser could not run the test, which running it again would hide,
// and a cancel (before or between attempts) ends the run as it is.
func (c *Client) runRetried(ctx context.Context, job protocol.Job, out runEmitter) protocol.RunResult {
	tries := min(max(job.Retries, 0), protocol.MaxRetries) + 1
	start := time.Now()
	var attempts []protocol.AttemptResult
	for n := 1; ; n++ {
		ae := &attemptEmitter{out: out, attempt: n}
		res := c.cfg.Runner.Run(ctx, job, ae)
		if res.Steps == nil {
			res.Steps = []protocol.StepResult{}
		}
		prefixShots(res.Steps, n)
		attempts = append(attempts, protocol.AttemptResult{Attempt: n, Status: res.Status, Passed: res.Passed, Total: res.Total,
			DurationMs: res.DurationMs, Error: res.Error, Steps: res.Steps})
		if res.Status != protocol.RunFailed || n >= tries || ctx.Err() != nil {
			if n > 1 {
				res.Attempts = attempts
				res.Flaky = protocol.FlakyAttempts(res.Status, attempts)
				res.DurationMs = time.Since(start).Milliseconds()
			}
			ae.finish(res)
			return res
		}
		c.log.Info("run attempt failed; running it again", "run", job.RunID, "attempt", n, "of", tries, "err", res.Error)
		out.Event(protocol.Event{Kind: protocol.RunRetry, RunAttempt: n + 1, Status: protocol.RunFailed, Error: res.Error,
			Message: protocol.RetryMessage(n, res.Error, n+1, tries)})
	}
}

// prefixShots gives an attempt's step results the names its screenshots
// were stored under (attemptEmitter.Artifact).
func prefixShots(steps []protocol.StepResult, attempt int) {
	if attempt <= 1 {
		return
	}
	for i := range steps {
		if steps[i].Screenshot != "" {
			steps[i].Screenshot = protocol.AttemptArtifact(attempt, steps[i].Screenshot)
		}
		prefixShots(steps[i].Steps, attempt)
		for j := range steps[i].Iterations {
			prefixShots(steps[i].Iterations[j].Steps, attempt)
		}
	}
}

// attemptEmitter marks one attempt's events and artifacts. The run (or
// row) starts and finishes once: a later attempt's run.started is dropped,
// and each attempt's run.finished is held until runRetried knows whether
// another attempt follows (finish).
type attemptEmitter struct {
	out      runEmitter
	attempt  int
	finished *protocol.Event // the attempt's run.finished, held
}

func (a *attemptEmitter) FetchFile(ctx context.Context, id string) (string, error) {
	return a.out.FetchFile(ctx, id)
}

func (a *attemptEmitter) Event(e protocol.Event) {
	switch e.Kind {
	case protocol.RunStarted:
		if a.attempt > 1 {
			return
		}
	case protocol.RunFinished:
		a.finished = &e
		return
	}
	if a.attempt > 1 {
		e.RunAttempt = a.attempt
		if e.Screenshot != "" {
			e.Screenshot = protocol.AttemptArtifact(a.attempt, e.Screenshot)
		}
		if e.Kind == protocol.ArtifactMade && e.Name != "" {
			e.Name = protocol.AttemptArtifact(a.attempt, e.Name)
		}
	}
	a.out.Event(e)
}

func (a *attemptEmitter) Artifact(info protocol.ArtifactInfo, data []byte) {
	if a.attempt > 1 {
		info.Attempt = a.attempt
		info.Name = protocol.AttemptArtifact(a.attempt, info.Name)
	}
	a.out.Artifact(info, data)
}

// finish sends the run's (or row's) one run.finished, the last attempt's
// with the result's fields.
func (a *attemptEmitter) finish(res protocol.RunResult) {
	if a.finished == nil {
		return // the runner sent none: neither does its caller
	}
	e := *a.finished
	e.Status, e.Passed, e.Total, e.DurationMs, e.Error = res.Status, &res.Passed, &res.Total, &res.DurationMs, res.Error
	a.out.Event(e)
}
