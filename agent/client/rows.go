package client

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"time"

	"github.com/testautomation/ta/protocol"
)

// runRows runs a data-driven job: the document once per row, each row its
// own run of the Runner (a fresh browser context) with the row's values
// over the environment's variables, at most the agent's parallel slots at
// once. The run passes when every row passed; Passed and Total count rows.
func (c *Client) runRows(ctx context.Context, job protocol.Job, em *emitter) protocol.RunResult {
	start := time.Now()
	total := len(job.Rows)
	headed := false
	em.Event(protocol.Event{Kind: protocol.RunStarted, Version: job.Version, Total: &total, Headed: &headed})
	results := make([]protocol.RowResult, total)
	slots := make(chan struct{}, max(c.cfg.Parallel, 1))
	var wg sync.WaitGroup
	for i, row := range job.Rows {
		results[i] = protocol.RowResult{Row: row.Row, Status: protocol.RunCancelled, Error: "run cancelled", Steps: []protocol.StepResult{}}
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			continue // not started: reported as cancelled
		}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			rj := job
			rj.Rows = nil
			rj.Variables = maps.Clone(job.Variables)
			if rj.Variables == nil {
				rj.Variables = map[string]string{}
			}
			maps.Copy(rj.Variables, row.Values)
			res := c.runRetried(ctx, rj, rowEmitter{em: em, row: row.Row})
			if res.Steps == nil {
				res.Steps = []protocol.StepResult{}
			}
			results[i] = protocol.RowResult{Row: row.Row, Status: res.Status, Passed: res.Passed, Total: res.Total,
				DurationMs: res.DurationMs, Error: res.Error, Steps: res.Steps, Flaky: res.Flaky, Attempts: res.Attempts}
		}()
	}
	wg.Wait()
	res := protocol.RunResult{Status: protocol.RunPassed, Total: total, Rows: results, Steps: []protocol.StepResult{}}
	failed, errored, cancelled := 0, 0, 0
	for _, r := range results {
		res.Flaky = res.Flaky || r.Flaky
		switch r.Status {
		case protocol.RunPassed:
			res.Passed++
		case protocol.RunFailed:
			failed++
		case protocol.RunCancelled:
			cancelled++
		default:
			errored++
		}
	}
	switch {
	case ctx.Err() != nil && cancelled > 0:
		res.Status, res.Error = protocol.RunCancelled, "run cancelled"
	case failed > 0:
		res.Status, res.Error = protocol.RunFailed, fmt.Sprintf("%d of %d rows failed", failed+errored, total)
	case errored > 0:
		res.Status, res.Error = protocol.RunError, fmt.Sprintf("%d of %d rows could not run", errored, total)
	}
	res.Flaky = res.Flaky && res.Status == protocol.RunPassed // a flaky row in a failed run is told by the row
	res.DurationMs = time.Since(start).Milliseconds()
	em.Event(protocol.Event{Kind: protocol.RunFinished, Status: res.Status, Passed: &res.Passed, Total: &total,
		DurationMs: &res.DurationMs, Error: res.Error})
	return res
}

// rowEmitter marks a row's events and artifacts with the row: its run's
// start and finish become the row's, its artifacts get the row's prefix.
type rowEmitter struct {
	em  *emitter
	row int
}

// FetchFile: the rows of a run share its files.
func (r rowEmitter) FetchFile(ctx context.Context, id string) (string, error) {
	return r.em.FetchFile(ctx, id)
}

func (r rowEmitter) Event(e protocol.Event) {
	row := r.row
	e.Row = &row
	switch e.Kind {
	case protocol.RunStarted:
		e.Kind = protocol.RowStarted
	case protocol.RunFinished:
		e.Kind = protocol.RowFinished
	}
	r.em.Event(e)
}

func (r rowEmitter) Artifact(info protocol.ArtifactInfo, data []byte) {
	row := r.row
	info.Row = &row
	info.Name = protocol.RowArtifact(row, info.Name)
	r.em.Artifact(info, data)
}
