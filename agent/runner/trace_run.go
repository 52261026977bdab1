package runner

import (
	"context"
	"time"

	"github.com/testautomation/ta/protocol"
)

// The run's hooks of the trace (trace.go): started once the first page is
// open, one cut per step execution, ended before run.finished.

// traceStart starts the run's trace as job.Trace asks: "" is failures, and
// a mode this agent does not know is taken as the default too. A live
// page's steps (the editor's session) are no run the hub keeps: no trace.
func (r *run) traceStart(ctx context.Context, start time.Time) {
	mode, ok := protocol.TraceMode(r.job.Trace)
	if !ok {
		mode = protocol.TraceFailures
	}
	if mode == protocol.TraceOff || r.live != nil {
		return
	}
	tr := newTracer(mode, start)
	r.trace = tr
	t := r.tab
	t.trace.Store(tr)
	if err := t.sess.with(ctx).pipeline(traceRequests()...); err != nil && ctx.Err() == nil {
		r.b.log.Debug("enabling the trace's events", "err", err)
	}
	go r.traceSender(tr)
}

// traceStep closes the trace of the step execution that ended with res
// (started at start) and hands it to the sender with its snapshot, whose
// request is on its way to the page before the next step's: the page
// serializes the DOM as the step left it, and the run does not wait.
func (r *run) traceStep(ctx context.Context, s *stepRun, res protocol.StepResult, start time.Time) {
	tr := r.trace
	if tr == nil {
		return
	}
	x := tr.cut()
	ts := protocol.TraceStep{Index: res.Index, Iteration: res.Iteration, ID: res.ID, Type: res.Type, Status: res.Status,
		StartMs: tr.since(start), DurationMs: res.DurationMs}
	var snap *snapshotCall
	if ctx.Err() == nil {
		snap = r.postSnapshot(ctx, s)
	}
	tr.jobs <- traceJob{ts: ts, x: x, snap: snap}
}

// traceEnd waits until the trace is sent (run.finished ends what a run
// may send) and stops recording on the run's pages.
func (r *run) traceEnd() {
	tr := r.trace
	if tr == nil {
		return
	}
	close(tr.jobs)
	<-tr.sent
	r.pages.mu.Lock()
	defer r.pages.mu.Unlock()
	for _, t := range r.pages.all {
		t.trace.Store(nil)
	}
}
