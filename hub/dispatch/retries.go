package dispatch

import (
	"fmt"
	"strings"

	"github.com/testautomation/ta/protocol"
)

// Retries (docs/retries.md, protocol/retries.go). The agent runs a failed
// test again and reports every attempt; the hub checks the attempts as it
// checks a result (each attempt's steps against the job, only failed
// attempts retried, no more than the job's retries allow) and decides
// flakiness itself from them: an agent's flaky without a failed earlier
// attempt is not believed.

// checkRunAttempt says what is wrong with an event's attempt mark.
func (s jobShape) checkRunAttempt(e protocol.Event) string {
	switch {
	case e.RunAttempt < 0 || e.RunAttempt == 1 || e.RunAttempt > s.retries+1:
		return fmt.Sprintf("an event names attempt %d, but the run may make %d", e.RunAttempt, s.retries+1)
	case e.Kind == protocol.RunRetry && e.RunAttempt == 0:
		return "a run.retry event names no attempt"
	case e.Kind == protocol.RunRetry && s.rows != nil && e.Row == nil:
		return "a run.retry event of a data-driven run names no row"
	}
	return ""
}

// attemptArtifactName gives an artifact of attempt 2 or later its
// attempt's prefix (inside a row's), as the agent names it, so attempts
// never overwrite each other's screenshots; "" when the attempt is out of
// the run's range.
func (s jobShape) attemptArtifactName(name string, a protocol.ArtifactInfo) string {
	if a.Attempt < 0 || a.Attempt > s.retries+1 {
		return ""
	}
	if a.Attempt <= 1 {
		return name
	}
	rowPart := ""
	if a.Row != nil {
		rowPart = protocol.RowArtifact(*a.Row, "")
	}
	rest := strings.TrimPrefix(name, rowPart)
	if n, _ := protocol.SplitAttempt(rest); n != a.Attempt {
		rest = protocol.AttemptArtifact(a.Attempt, rest)
	}
	return rowPart + rest
}

// checkRetries says what is wrong with a result's attempts (the run's, or
// each row's), or "" when nothing is.
func (s jobShape) checkRetries(res protocol.RunResult) string {
	if why := s.checkAttempts(res.Status, res.Attempts); why != "" {
		return why
	}
	for _, r := range res.Rows {
		if why := s.checkAttempts(r.Status, r.Attempts); why != "" {
			return fmt.Sprintf("row %d: %s", r.Row, why)
		}
	}
	return ""
}

// checkAttempts checks the attempts of a run or row that ended with
// status: numbered from 1, every one but the last failed (only a failure
// is retried), the last one's status the run's, each one's steps what
// the job allows.
func (s jobShape) checkAttempts(status string, attempts []protocol.AttemptResult) string {
	if len(attempts) == 0 {
		return ""
	}
	if len(attempts) > s.retries+1 {
		return fmt.Sprintf("the result has %d attempts, but the run allows %d", len(attempts), s.retries+1)
	}
	for i, a := range attempts {
		last := i == len(attempts)-1
		switch {
		case a.Attempt != i+1:
			return fmt.Sprintf("attempt %d is numbered %d", i+1, a.Attempt)
		case !last && a.Status != protocol.RunFailed:
			return fmt.Sprintf("attempt %d ended %s, and only a failed attempt is run again", a.Attempt, a.Status)
		case last && a.Status != status:
			return fmt.Sprintf("the last attempt ended %s, but the result says %s", a.Status, status)
		}
		if notStarted(a.Status, a.Passed, a.Total, len(a.Steps)) {
			continue
		}
		if why := s.checkSteps(a.Status, a.Passed, a.Total, a.Steps); why != "" {
			return fmt.Sprintf("attempt %d: %s", a.Attempt, why)
		}
	}
	return ""
}

// flakyOf is whether a checked result is flaky, from its attempts alone:
// it passed after an attempt failed (for a data-driven run, it passed and
// a row passed after a failed attempt).
func flakyOf(res protocol.RunResult) bool {
	if res.Status != protocol.RunPassed {
		return false
	}
	if protocol.FlakyAttempts(res.Status, res.Attempts) {
		return true
	}
	for _, r := range res.Rows {
		if protocol.FlakyAttempts(r.Status, r.Attempts) {
			return true
		}
	}
	return false
}

// maskAttempts bounds and scrubs the attempts of a result and its rows,
// as the result's own steps are.
func maskAttempts(r *protocol.RunResult, scrub func(string) string) {
	r.Attempts = cleanAttempts(r.Attempts, scrub)
	for i := range r.Rows {
		r.Rows[i].Attempts = cleanAttempts(r.Rows[i].Attempts, scrub)
	}
}

func cleanAttempts(list []protocol.AttemptResult, scrub func(string) string) []protocol.AttemptResult {
	if len(list) > protocol.MaxRetries+2 {
		list = list[:protocol.MaxRetries+2] // still more than allowed: checkAttempts refuses it
	}
	for i := range list {
		a := &list[i]
		inner := protocol.RunResult{Status: a.Status, Error: a.Error, Steps: pruneResults(a.Steps, maxResultSteps)}
		resultTexts(&inner, scrub)
		a.Status, a.Error, a.Steps = inner.Status, inner.Error, inner.Steps
		if a.Steps == nil {
			a.Steps = []protocol.StepResult{}
		}
	}
	return list
}

// fillAttempts gives the attempts' step results that name no id their
// step's, as fillResult does the result's.
func (s jobShape) fillAttempts(r *protocol.RunResult) {
	for i := range r.Attempts {
		inner := protocol.RunResult{Steps: r.Attempts[i].Steps, Total: -1}
		s.fillResult(&inner)
	}
	for _, row := range r.Rows {
		for i := range row.Attempts {
			inner := protocol.RunResult{Steps: row.Attempts[i].Steps, Total: -1}
			s.fillResult(&inner)
		}
	}
}
