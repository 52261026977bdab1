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
//	step.retry:    Index, StepID, StepType, Attempt, Error
//	step.finished: Index, StepID, StepType, Status, DurationMs, Error, HealedBy, Screenshot
//	artifact:      Name, ContentType, Step (the step index, if any), Size
//	log:           Level (info, warn, error), Message, Step (if any)
//	run.started:   Version (of the test), Total (steps), Headed (whether
//	               the browser window is really shown: false for a headed
//	               run on an agent without a display)
//	run.finished:  Status, Passed, Total, DurationMs, Error
//
// Secret values never appear in an event: the agent masks them as ***.
type Event struct {
	RunID string    `json:"runId"`
	Seq   int64     `json:"seq"`
	Time  time.Time `json:"time"`
	Kind  EventKind `json:"kind"`

	Index      *int     `json:"index,omitempty"`
	StepID     string   `json:"id,omitempty"`
	StepType   string   `json:"type,omitempty"`
	Status     string   `json:"status,omitempty"`
	DurationMs *int64   `json:"durationMs,omitempty"`
	Error      string   `json:"error,omitempty"`
	Attempt    int      `json:"attempt,omitempty"`
	HealedBy   *Locator `json:"healedBy,omitempty"`
	Screenshot string   `json:"screenshot,omitempty"`

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
	Status     string   `json:"status"`
	DurationMs int64    `json:"durationMs"`
	Error      string   `json:"error,omitempty"`
	HealedBy   *Locator `json:"healedBy,omitempty"` // the fallback that found the element when the first locator failed
	Screenshot string   `json:"screenshot,omitempty"`
	Attempts   int      `json:"attempts,omitempty"`
}

// RunResult is what an agent reports when a run ends.
type RunResult struct {
	Status     string       `json:"status"`
	Passed     int          `json:"passed"`
	Total      int          `json:"total"`
	DurationMs int64        `json:"durationMs"`
	Error      string       `json:"error,omitempty"` // why the run failed or errored, masked
	Steps      []StepResult `json:"steps"`
}
