package protocol

import "time"

// EventKind names a run event, as the SSE stream's `event:` field.
type EventKind string

// The run event kinds of the specification's Events table.
const (
	RunStarted   EventKind = "run.started"
	StepStarted  EventKind = "step.started"
	StepRetry    EventKind = "step.retry"
	StepFinished EventKind = "step.finished"
	ArtifactMade EventKind = "artifact"
	LogLine      EventKind = "log"
	RunFinished  EventKind = "run.finished"
	// A data-driven run's rows start and finish inside it; every event of
	// a row carries Row.
	RowStarted  EventKind = "row.started"
	RowFinished EventKind = "row.finished"
	// RunRetry says an attempt of a run (or of a row) failed and the
	// agent runs it again (retries.go).
	RunRetry EventKind = "run.retry"
)

// Run statuses. A run is queued until an agent accepts it, running until it
// finishes, then exactly one of the final statuses.
const (
	RunQueued    = "queued"
	RunRunning   = "running"
	RunPassed    = "passed"
	RunFailed    = "failed"    // a step failed: the test found a problem
	RunError     = "error"     // infrastructure: agent lost, browser crashed
	RunCancelled = "cancelled" // someone stopped it
)

// Step statuses in results and step.finished events.
const (
	StepPassed  = "passed"
	StepFailed  = "failed"
	StepSkipped = "skipped" // not run because an earlier step failed or the run stopped
)

// Final reports whether a run status is final.
func Final(status string) bool {
	switch status {
	case RunPassed, RunFailed, RunError, RunCancelled:
		return true
	}
	return false
}

// Event is one thing that happened in a run. Every event has RunID, Seq
// (1, 2, ... per run, so a reconnecting agent's repeats are dropped and an
// SSE client resumes with Last-Event-ID), Time and Kind; the other fields
// belong to some kinds only:
//
//	step.started:  Index, StepID, StepType
//	step.retry:    Index, StepID, StepType, Attempt, Error: an attempt that
//	               acted on the page failed and the step acts again (an
//	               action whose events missed its element). Waiting for an
//	               element, for it to be actionable or for an assertion to
//	               hold is auto-waiting, not a retry, and emits nothing.
//	step.finished: Index, StepID, StepType, Status, DurationMs, Error, HealedBy, Screenshot,
//	               Box (the target element's box when the step found it),
//	               Used (the values the step used, interpolated, secrets as ***),
//	               ScreenshotError (why a screenshot the run asked for is missing)
//	artifact:      Name, ContentType, Step (the step index, if any), Size
//	log:           Level (info, warn, error), Message, Step (if any)
//	run.started:   Version (of the test), Total (steps), Headed (whether
//	               the browser window is really shown: false for a headed
//	               run on an agent without a display)
//	run.finished:  Status, Passed, Total, DurationMs, Error
//	run.retry:     RunAttempt (the attempt about to start), Error (why the
//	               one before failed), Message (both, in words)
//
// Every event of a retried run's second and later attempts carries
// RunAttempt (retries.go); the first attempt's carry none.
//
// Secret values never appear in an event: the agent masks them as ***.
type Event struct {
	RunID string    `json:"runId"`
	Seq   int64     `json:"seq"`
	Time  time.Time `json:"time"`
	Kind  EventKind `json:"kind"`
	// Row is the 0-based data set row an event of a data-driven run is about.
	Row *int `json:"row,omitempty"`
	// RunAttempt is the attempt of a retried run (or row) an event belongs
	// to: 2 and up, omitted for the first (Attempt is a step's own retry).
	RunAttempt int `json:"runAttempt,omitempty"`

	Index    *int   `json:"index,omitempty"`
	StepID   string `json:"id,omitempty"`
	StepType string `json:"type,omitempty"`
	// Call, on step events of a step expanded from a component: the id of
	// the test's callComponent step it came from.
	Call string `json:"call,omitempty"`
	// Iteration, on step events of a step inside loops: one 0-based
	// number per enclosing loop, outermost first (docs/flow.md).
	Iteration []int `json:"iteration,omitempty"`
	// Branch, on an if's step.finished: then, else or none.
	Branch     string   `json:"branch,omitempty" enum:"then|else|none"`
	Status     string   `json:"status,omitempty"`
	DurationMs *int64   `json:"durationMs,omitempty"`
	Error      string   `json:"error,omitempty"`
	Attempt    int      `json:"attempt,omitempty"`
	HealedBy   *Locator `json:"healedBy,omitempty"`
	Screenshot string   `json:"screenshot,omitempty"`
	Box        *Box     `json:"box,omitempty"`
	Used       Used     `json:"used,omitempty"`
	// ScreenshotError, on step.finished: why the step has no screenshot
	// although it should have one (see StepResult).
	ScreenshotError string `json:"screenshotError,omitempty"`

	Name        string `json:"name,omitempty"`
	ContentType string `json:"contentType,omitempty"`
	Step        *int   `json:"step,omitempty"`
	Size        int64  `json:"size,omitempty"`

	Level   string `json:"level,omitempty"`
	Message string `json:"message,omitempty"`

	Version int  `json:"version,omitempty"`
	Passed  *int `json:"passed,omitempty"`
	Total   *int `json:"total,omitempty"`
	// Headed, in run.started: whether this run's browser window is really
	// shown (true only when headed was asked and the agent has a display).
	Headed *bool `json:"headed,omitempty"`
}

// StepResult is one step's outcome in a run's result.
type StepResult struct {
	Index      int      `json:"index"`
	ID         string   `json:"id"`
	Type       string   `json:"type"`
	Call       string   `json:"call,omitempty"` // the callComponent step this one was expanded from
	Status     string   `json:"status" enum:"passed|failed|skipped"`
	DurationMs int64    `json:"durationMs"`
	Error      string   `json:"error,omitempty"`
	HealedBy   *Locator `json:"healedBy,omitempty"` // the fallback that found the element when the first locator failed
	Screenshot string   `json:"screenshot,omitempty"`
	Attempts   int      `json:"attempts,omitempty"` // 1 + the step's real retries (see step.retry)
	Box        *Box     `json:"box,omitempty"`      // the target element's box, to draw on Screenshot
	Used       Used     `json:"used,omitempty"`     // the values the step used
	// ScreenshotError says why the step has no screenshot although the run
	// asked for one (every step, or this failed one): the capture failed or
	// did not answer in time. The run page shows it on the step.
	ScreenshotError string `json:"screenshotError,omitempty"`
	// Blocks (docs/flow.md): Iteration places a step inside loops; an if's
	// result has the Branch it took and that branch's Steps, a loop's its
	// Iterations.
	Iteration  []int             `json:"iteration,omitempty"`
	Branch     string            `json:"branch,omitempty" enum:"then|else|none"`
	Steps      []StepResult      `json:"steps,omitempty"`
	Iterations []IterationResult `json:"iterations,omitempty"`
}

// IterationResult is one iteration of a loop: its steps' results.
type IterationResult struct {
	Iteration int          `json:"iteration"`
	Status    string       `json:"status" enum:"passed|failed|skipped"`
	Steps     []StepResult `json:"steps"`
}

// AllResults lists a result tree's step results, parents before their
// steps (the results of a run of a document without blocks, as they are).
func AllResults(steps []StepResult) []StepResult {
	var out []StepResult
	var walk func([]StepResult)
	walk = func(list []StepResult) {
		for _, s := range list {
			out = append(out, s)
			walk(s.Steps)
			for _, it := range s.Iterations {
				walk(it.Steps)
			}
		}
	}
	walk(steps)
	return out
}

// Box is where a step's target element was when the step last found it
// (for an action, when it acted): X, Y, Width and Height in CSS pixels
// relative to the top left corner of the viewport, which is what the step's
// screenshot shows. ViewportWidth and ViewportHeight are the viewport's size
// in CSS pixels and DPR the device pixel ratio, so the box maps onto the
// screenshot (ViewportWidth*DPR pixels wide) at any size it is shown.
type Box struct {
	X              float64 `json:"x"`
	Y              float64 `json:"y"`
	Width          float64 `json:"width"`
	Height         float64 `json:"height"`
	ViewportWidth  float64 `json:"viewportWidth"`
	ViewportHeight float64 `json:"viewportHeight"`
	DPR            float64 `json:"dpr"`
}

// Used holds the values a step used after interpolating ${...}, by the
// name of its parameter: url, value, key, expected, ms, name, component.
// Every secret value is masked as ***, as in every other string the agent
// sends.
type Used map[string]string

// RunResult is what an agent reports when a run ends.
type RunResult struct {
	Status     string       `json:"status"`
	Passed     int          `json:"passed"`
	Total      int          `json:"total"`
	DurationMs int64        `json:"durationMs"`
	Error      string       `json:"error,omitempty"` // why the run failed or errored, masked
	Steps      []StepResult `json:"steps"`
	// Rows, for a data-driven run: each row's result; Passed and Total
	// then count rows.
	Rows []RowResult `json:"rows,omitempty"`
	// Flaky: an attempt failed, then the last one passed (retries.go).
	Flaky bool `json:"flaky,omitempty"`
	// Attempts holds every attempt of a run that ran more than once, in
	// order; the fields above are then the last attempt's.
	Attempts []AttemptResult `json:"attempts,omitempty"`
}

// RowResult is one row of a data-driven run.
type RowResult struct {
	Row        int          `json:"row"`
	Status     string       `json:"status" enum:"queued|running|passed|failed|error|cancelled"`
	Passed     int          `json:"passed"`
	Total      int          `json:"total"`
	DurationMs int64        `json:"durationMs"`
	Error      string       `json:"error,omitempty"`
	Steps      []StepResult `json:"steps"`
	// Flaky and Attempts: a row is retried on its own, as a run is.
	Flaky    bool            `json:"flaky,omitempty"`
	Attempts []AttemptResult `json:"attempts,omitempty"`
}
