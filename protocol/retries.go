package protocol

import (
	"fmt"
	"regexp"
	"strconv"
)

// Retries (issue 31, docs/retries.md). A job with Retries > 0 whose run
// ends failed runs again on the same agent, in a fresh browser context,
// up to Retries more times, stopping at the first pass. Only failed is
// retried: error (the agent or browser could not run it) and cancelled
// are not, nor is a run cancelled between attempts. The run sends one
// run.started and one run.finished; between two attempts a run.retry
// event; every event of attempt 2 and later carries RunAttempt, and every
// artifact of those attempts has AttemptArtifact's prefix and Attempt,
// so each attempt keeps its screenshots and trace. A data-driven run
// retries each failed row on its own (row.started and row.finished once
// per row).
//
// The result's fields are the last attempt's (a run that failed, then
// passed, is passed), but DurationMs spans every attempt; Attempts holds
// each attempt when there was more than one, and Flaky says one failed
// before the last passed. The hub believes Flaky only from the attempts
// (FlakyAttempts).

// MaxRetries bounds the run option retries.
const MaxRetries = 3

// AttemptResult is one attempt of a run (or of a row) that ran more than
// once.
type AttemptResult struct {
	Attempt    int          `json:"attempt"` // 1, 2, ...
	Status     string       `json:"status" enum:"passed|failed|error|cancelled"`
	Passed     int          `json:"passed"`
	Total      int          `json:"total"`
	DurationMs int64        `json:"durationMs"`
	Error      string       `json:"error,omitempty"`
	Steps      []StepResult `json:"steps"`
}

// AttemptArtifact is the name attempt n (2 and up) of a retried run stores
// an artifact under; the first attempt's names are left as they are. A
// row's prefix goes in front of it: r0-a2-step-001-x.jpg.
func AttemptArtifact(attempt int, name string) string {
	if attempt <= 1 {
		return name
	}
	return "a" + strconv.Itoa(attempt) + "-" + name
}

var attemptName = regexp.MustCompile(`^a([0-9])-(.+)$`)

// SplitAttempt splits an attempt's prefix off an artifact name (a row's
// prefix already removed): "a2-x" is attempt 2's x, "x" attempt 1's.
func SplitAttempt(name string) (int, string) {
	if m := attemptName.FindStringSubmatch(name); m != nil {
		n, _ := strconv.Atoi(m[1])
		if n >= 2 {
			return n, m[2]
		}
	}
	return 1, name
}

// RetryMessage is the run.retry event's message.
func RetryMessage(failed int, err string, next, of int) string {
	return fmt.Sprintf("attempt %d failed: %s; running again (%d of %d)", failed, err, next, of)
}

// FlakyAttempts reports whether attempts show a flaky result with status
// status: it passed, and an attempt before the last one failed. A claim
// of flakiness without them is not believed.
func FlakyAttempts(status string, attempts []AttemptResult) bool {
	if status != RunPassed || len(attempts) < 2 || attempts[len(attempts)-1].Status != RunPassed {
		return false
	}
	for _, a := range attempts[:len(attempts)-1] {
		if a.Status == RunFailed {
			return true
		}
	}
	return false
}
