package ci

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/testautomation/ta/protocol"
)

// runState is one run as the command knows it.
type runState struct {
	id, testID string

	mu         sync.Mutex // guards the fields below
	testName   string
	status     string
	done       int // steps (rows) finished
	total      int
	rows       bool
	passed     int
	durationMs int64
	detail     *runDetail // once finished
	err        error      // following it failed
	traceFile  string     // where --trace wrote its trace, "" for nowhere
}

// snapshot is a copy of a run's state without its lock.
type snapshot struct {
	id, testID, testName, status string
	done, total, passed          int
	rows                         bool
	durationMs                   int64
	detail                       *runDetail
	err                          error
	traceFile                    string
}

func (r *runState) get() snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	return snapshot{id: r.id, testID: r.testID, testName: r.testName, status: r.status, done: r.done, total: r.total,
		passed: r.passed, rows: r.rows, durationMs: r.durationMs, detail: r.detail, err: r.err, traceFile: r.traceFile}
}

// quarantined: the run ended while its test was quarantined.
func (s snapshot) quarantined() bool { return s.detail != nil && s.detail.Quarantined }

// statusText is the run's status as the output says it.
func (s snapshot) statusText() string {
	if s.quarantined() {
		return s.status + " (quarantined)"
	}
	return flakyText(s)
}

func (r *runState) update(f func(*runState)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f(r)
}

// runDetail is GET /api/runs/:id as the report needs it.
type runDetail struct {
	RunID      string `json:"runId"`
	TestName   string `json:"testName"`
	Status     string `json:"status"`
	Passed     int    `json:"passed"`
	Total      int    `json:"total"`
	DurationMs int64  `json:"durationMs"`
	Error      string `json:"error"`
	// Quarantined: the test was quarantined when the run ended; its
	// failure does not fail the command (docs/history.md).
	Quarantined bool `json:"quarantined"`
	// Flaky and AttemptResults: a retried run's (docs/retries.md).
	Flaky          bool                     `json:"flaky"`
	AttemptResults []protocol.AttemptResult `json:"attemptResults"`
	Result         struct {
		Steps []protocol.StepResult `json:"steps"`
	} `json:"result"`
	Document *struct {
		Suite string `json:"suite"`
		// Steps, expanded, number the steps inside blocks (docSteps);
		// read apart, so a step this command does not know spoils nothing.
		Steps json.RawMessage `json:"steps"`
	} `json:"document"`
	Rows []struct {
		Row        int    `json:"row"`
		Status     string `json:"status"`
		Passed     int    `json:"passed"`
		Total      int    `json:"total"`
		DurationMs int64  `json:"durationMs"`
		Error      string `json:"error"`
		Flaky      bool   `json:"flaky"`
	} `json:"rows"`
}

// docSteps are the run's document's steps, nil when not known.
func (d *runDetail) docSteps() []protocol.Step {
	var steps []protocol.Step
	if d.Document == nil || json.Unmarshal(d.Document.Steps, &steps) != nil {
		return nil
	}
	return steps
}

// followers bounds the event streams open at once.
const followers = 16

// followAll follows every run to its end (or ctx's) and returns them.
func (c *command) followAll(ctx context.Context, runs []*runState) []*runState {
	sem := make(chan struct{}, followers)
	var wg sync.WaitGroup
	for _, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-sem }()
			c.follow(ctx, r)
		}()
	}
	stopTicker := c.out.live(runs)
	wg.Wait()
	stopTicker()
	return runs
}

// streamIdle is how long an event stream may stay silent (the hub sends a
// keep-alive every 15 s) before it is opened again.
var streamIdle = 40 * time.Second

func (c *command) follow(ctx context.Context, r *runState) {
	var d runDetail
	if err := c.api.do(ctx, "GET", "/api/runs/"+r.id, nil, &d); err == nil {
		r.update(func(r *runState) { r.testName = d.TestName })
	}
	err := c.api.follow(ctx, r.id, streamIdle, func(e protocol.Event) {
		var started bool
		r.update(func(r *runState) {
			switch e.Kind {
			case protocol.RunStarted:
				started = r.status == protocol.RunQueued
				r.status, r.done = protocol.RunRunning, 0
				if e.Total != nil {
					r.total = *e.Total
				}
			case protocol.StepFinished:
				if e.Row == nil {
					r.done++
				}
			case protocol.RowFinished:
				r.rows = true
				r.done++
			case protocol.RunFinished:
				r.status = e.Status
				if e.Passed != nil {
					r.passed = *e.Passed
				}
				if e.Total != nil {
					r.total = *e.Total
				}
				if e.DurationMs != nil {
					r.durationMs = *e.DurationMs
				}
			}
		})
		if started {
			c.out.started(r.get(), c.pageURL("/runs/"+r.id))
		}
	})
	if err != nil {
		if ctx.Err() == nil {
			r.update(func(r *runState) { r.err = err })
			c.out.line(r.get().testName + ": " + err.Error())
		}
		return
	}
	// The final result, with every step's outcome, for the summary and
	// the report.
	var fin runDetail
	if err := c.api.do(ctx, "GET", "/api/runs/"+r.id, nil, &fin); err != nil {
		r.update(func(r *runState) { r.err = err })
	} else {
		r.update(func(r *runState) {
			r.detail, r.status, r.passed, r.total, r.durationMs = &fin, fin.Status, fin.Passed, fin.Total, fin.DurationMs
			r.rows = r.rows || len(fin.Rows) > 0
			if fin.TestName != "" {
				r.testName = fin.TestName
			}
		})
	}
	c.out.finished(r.get(), c.pageURL("/runs/"+r.id))
	c.saveTrace(ctx, r)
}
