package client

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/testautomation/ta/protocol"
)

var errCancelled = errors.New("cancelled by the hub")

// start runs a job in its own goroutine.
func (c *Client) start(parent context.Context, job protocol.Job) {
	c.mu.Lock()
	if _, dup := c.running[job.RunID]; dup {
		c.mu.Unlock()
		return
	}
	ctx, cancel := context.WithCancelCause(parent)
	c.running[job.RunID] = cancel
	c.mu.Unlock()
	c.setState(func(s *State) {
		s.Current = append(s.Current, RunProgress{RunID: job.RunID, Test: job.Document.Name, Total: len(job.Document.Steps), Rows: len(job.Rows) > 0})
	})
	go func() {
		status := protocol.RunError
		defer func() {
			cancel(nil)
			c.mu.Lock()
			delete(c.running, job.RunID)
			c.mu.Unlock()
			c.setState(func(s *State) {
				for i, r := range s.Current {
					if r.RunID == job.RunID {
						r.Status = status
						s.Current = append(s.Current[:i:i], s.Current[i+1:]...)
						s.Recent = append([]RunProgress{r}, s.Recent...)
						if len(s.Recent) > RecentRuns {
							s.Recent = s.Recent[:RecentRuns]
						}
						break
					}
				}
			})
		}()
		status = c.runJob(ctx, job)
	}()
}

// cancel stops a run; the runner finishes it as cancelled.
func (c *Client) cancel(runID string) {
	c.mu.Lock()
	cancel := c.running[runID]
	c.mu.Unlock()
	if cancel != nil {
		cancel(errCancelled)
	}
}

func (c *Client) send(m protocol.Message, data []byte) { c.box.put(m, data) }

// progress notes how far a run is, from its events.
func (c *Client) progress(runID string, e protocol.Event) {
	c.mu.Lock()
	i := -1
	for j, r := range c.state.Current {
		if r.RunID == runID {
			i = j
		}
	}
	if i < 0 {
		c.mu.Unlock()
		return
	}
	r := &c.state.Current[i]
	changed := false
	switch {
	case e.Kind == protocol.RunStarted && e.Total != nil:
		r.Total, changed = *e.Total, true
	case !r.Rows && e.Kind == protocol.StepStarted && e.Index != nil:
		r.Done, changed = *e.Index+1, true
	case r.Rows && e.Kind == protocol.RowStarted:
		r.Done, changed = r.Done+1, true
	}
	c.mu.Unlock()
	if changed {
		c.setState(func(*State) {})
	}
}

// runJob runs a job and answers how it ended.
func (c *Client) runJob(ctx context.Context, job protocol.Job) string {
	c.log.Info("run started", "run", job.RunID, "test", job.Document.Name)
	c.send(protocol.Message{Type: protocol.MsgAccept, RunID: job.RunID}, nil)
	lease := time.Duration(job.LeaseMs) * time.Millisecond
	if lease <= 0 {
		lease = 30 * time.Second
	}
	renewCtx, stopRenew := context.WithCancel(context.WithoutCancel(ctx))
	go func() {
		t := time.NewTicker(lease / 3)
		defer t.Stop()
		for {
			select {
			case <-renewCtx.Done():
				return
			case <-t.C:
				select {
				case c.prio <- outMsg{msg: protocol.Message{Type: protocol.MsgRenew, RunID: job.RunID}}:
				default: // renewals already waiting say the same
				}
			}
		}
	}()
	em := &emitter{c: c, runID: job.RunID, files: &runFiles{c: c, for_: "run", id: job.RunID}}
	defer em.files.remove()
	em.seq.Store(max(job.FirstSeq, 1) - 1)
	var res protocol.RunResult
	if len(job.Rows) > 0 {
		res = c.runRows(ctx, job, em)
	} else {
		res = c.runRetried(ctx, job, em)
	}
	stopRenew()
	if errors.Is(context.Cause(ctx), errCancelled) && res.Status != protocol.RunPassed {
		res.Status = protocol.RunCancelled
	}
	c.send(protocol.Message{Type: protocol.MsgFinish, RunID: job.RunID, Result: &res}, nil)
	c.log.Info("run finished", "run", job.RunID, "status", res.Status, "passed", res.Passed, "total", res.Total)
	return res.Status
}

// emitter numbers a run's events and puts them in the outbox.
type emitter struct {
	c     *Client
	runID string
	seq   atomic.Int64
	files *runFiles // the project files of its upload steps (files.go)
}

// FetchFile gives the runner the run's project files (runner.FileFetcher).
func (e *emitter) FetchFile(ctx context.Context, id string) (string, error) {
	return e.files.FetchFile(ctx, id)
}

func (e *emitter) Event(ev protocol.Event) {
	e.c.progress(e.runID, ev)
	ev.RunID = e.runID
	ev.Seq = e.seq.Add(1)
	if ev.Time.IsZero() {
		ev.Time = time.Now().UTC()
	}
	e.c.send(protocol.Message{Type: protocol.MsgEvent, RunID: e.runID, Event: &ev}, nil)
}

func (e *emitter) Artifact(info protocol.ArtifactInfo, data []byte) {
	info.Size = int64(len(data))
	e.c.send(protocol.Message{Type: protocol.MsgArtifact, RunID: e.runID, Artifact: &info}, data)
}
