package api

import (
	"fmt"
	"strings"

	"github.com/testautomation/ta/protocol"
)

// The comparison's pure parts (docs/trace.md "Since it last passed"): the
// walk that finds where two runs diverged, and the requests and console
// errors that changed between their traces.

type divergedJSON struct {
	Index     int    `json:"index"`
	Iteration []int  `json:"iteration,omitempty"`
	ID        string `json:"id"`
	Type      string `json:"type"`
	// Status is this run's status of the execution, BaselineStatus the
	// baseline's; "" for the run that did not run it.
	Status         string `json:"status" enum:"|passed|failed"`
	BaselineStatus string `json:"baselineStatus" enum:"|passed|failed"`
	Reason         string `json:"reason" enum:"failed|not_in_baseline|not_run|status"`
	// Screenshot and BaselineScreenshot are artifact names of this run and
	// of the baseline; "" when that run has none of this execution.
	Screenshot         string `json:"screenshot"`
	BaselineScreenshot string `json:"baselineScreenshot"`
	// Pixels: null unless both screenshots decode and have the same size.
	Pixels *pixelsJSON `json:"pixels"`
}

type pixelsJSON struct {
	Width     int   `json:"width"`
	Height    int   `json:"height"`
	Different int64 `json:"different"`
	Total     int64 `json:"total"`
}

// divergence is where two runs first did something different.
type divergence struct {
	step                       protocol.StepResult // this run's execution; the baseline's for not_run
	status, baseStatus, reason string
	screenshot, baseScreenshot string
}

func (d *divergence) json() *divergedJSON {
	return &divergedJSON{Index: d.step.Index, Iteration: d.step.Iteration, ID: d.step.ID, Type: d.step.Type, Status: d.status,
		BaselineStatus: d.baseStatus, Reason: d.reason, Screenshot: d.screenshot, BaselineScreenshot: d.baseScreenshot}
}

// executions lists the step executions a result tree ran, in run order
// (parents before their steps). A skipped execution did not run: it is
// left out, as a result the agent never reported is absent.
func executions(results []protocol.StepResult) []protocol.StepResult {
	var out []protocol.StepResult
	for _, s := range protocol.AllResults(results) {
		if s.Status != protocol.StepSkipped {
			out = append(out, s)
		}
	}
	return out
}

func execKey(s protocol.StepResult) string { return fmt.Sprintf("%s%v", s.ID, s.Iteration) }

// ownStatus is the status compared for an execution: a block that failed
// because a step inside it failed counts as passed, so the walk goes on
// to that step; a block's own failure (a condition that could not be
// evaluated, a loop at its max) counts.
func ownStatus(s protocol.StepResult) string {
	if protocol.IsBlock(s.Type) && s.Status == protocol.StepFailed && failedWithin(s) {
		return protocol.StepPassed
	}
	return s.Status
}

func failedWithin(s protocol.StepResult) bool {
	for _, in := range protocol.AllResults([]protocol.StepResult{s})[1:] {
		if in.Status == protocol.StepFailed {
			return true
		}
	}
	return false
}

// diverge walks both runs' executions side by side and stops at the first
// whose keys (step id and iteration) or statuses differ; nil when none do.
func diverge(run, base []protocol.StepResult) *divergence {
	a, b := executions(run), executions(base)
	inBase := make(map[string]bool, len(b))
	for _, s := range b {
		inBase[execKey(s)] = true
	}
	for i := 0; i < max(len(a), len(b)); i++ {
		switch {
		case i < len(a) && i < len(b) && execKey(a[i]) == execKey(b[i]):
			if ownStatus(a[i]) == ownStatus(b[i]) {
				continue
			}
			reason := "status"
			if a[i].Status == protocol.StepFailed && b[i].Status == protocol.StepPassed {
				reason = "failed"
			}
			return &divergence{step: a[i], status: a[i].Status, baseStatus: b[i].Status, reason: reason,
				screenshot: a[i].Screenshot, baseScreenshot: b[i].Screenshot}
		case i < len(a) && (i >= len(b) || !inBase[execKey(a[i])]):
			return &divergence{step: a[i], status: a[i].Status, reason: "not_in_baseline", screenshot: a[i].Screenshot}
		default:
			return &divergence{step: b[i], baseStatus: b[i].Status, reason: "not_run", baseScreenshot: b[i].Screenshot}
		}
	}
	return nil
}

type requestChangeJSON struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	// Status and BaselineStatus: 0 for no answer (or no such request).
	Status          int    `json:"status"`
	BaselineStatus  int    `json:"baselineStatus"`
	Failure         string `json:"failure,omitempty"`
	BaselineFailure string `json:"baselineFailure,omitempty"`
	// Index and Iteration place it: this run's step execution, the
	// baseline's when only the baseline made it.
	Index     int   `json:"index"`
	Iteration []int `json:"iteration,omitempty"`
}

type placedRequest struct {
	protocol.NetworkEntry
	index int
	iter  []int
}

func requestKey(e protocol.NetworkEntry) string {
	u, _, _ := strings.Cut(e.URL, "#")
	return e.Method + " " + u
}

func placedRequests(steps []protocol.TraceStep) []placedRequest {
	var out []placedRequest
	for _, st := range steps {
		for _, e := range st.Network {
			out = append(out, placedRequest{e, st.Index, st.Iteration})
		}
	}
	return out
}

// unanswered: still in flight when its step's trace was sent; its outcome
// is not known, so it changed nothing.
func unanswered(e protocol.NetworkEntry) bool { return e.Status == 0 && e.Failure == "" }

func badOutcome(e protocol.NetworkEntry) bool { return e.Failure != "" || e.Status >= 400 }

// changedRequests pairs both runs' requests by method and URL (the
// fragment dropped) in order of occurrence and lists, in this run's
// order, those whose outcome changed and those only this run made that
// failed. A request only the baseline made is not listed, even failed
// there: what no longer fails explains no failure.
func changedRequests(run, base []protocol.TraceStep) ([]requestChangeJSON, int) {
	out, dropped := []requestChangeJSON{}, 0
	add := func(c requestChangeJSON) {
		if len(out) < maxCompareEntries {
			out = append(out, c)
		} else {
			dropped++
		}
	}
	queued := map[string][]placedRequest{}
	for _, e := range placedRequests(base) {
		queued[requestKey(e.NetworkEntry)] = append(queued[requestKey(e.NetworkEntry)], e)
	}
	for _, e := range placedRequests(run) {
		c := requestChangeJSON{Method: e.Method, URL: e.URL, Status: e.Status, Failure: e.Failure, Index: e.index, Iteration: e.iter}
		k := requestKey(e.NetworkEntry)
		q := queued[k]
		if len(q) == 0 {
			if badOutcome(e.NetworkEntry) {
				add(c)
			}
			continue
		}
		queued[k] = q[1:]
		b := q[0]
		if unanswered(e.NetworkEntry) || unanswered(b.NetworkEntry) || e.Status == b.Status && e.Failure == b.Failure {
			continue
		}
		c.BaselineStatus, c.BaselineFailure = b.Status, b.Failure
		add(c)
	}
	return out, dropped
}

type consoleErrorJSON struct {
	Index     int    `json:"index"`
	Iteration []int  `json:"iteration,omitempty"`
	Level     string `json:"level" enum:"debug|log|info|warning|error"`
	Text      string `json:"text"`
	URL       string `json:"url,omitempty"`
	Line      int    `json:"line,omitempty"`
	Column    int    `json:"column,omitempty"`
}

// newConsoleErrors lists this run's console errors whose text (masked, as
// traces are stored) no error of the baseline has.
func newConsoleErrors(run, base []protocol.TraceStep) ([]consoleErrorJSON, int) {
	known := map[string]bool{}
	for _, st := range base {
		for _, e := range st.Console {
			if e.Level == "error" {
				known[e.Text] = true
			}
		}
	}
	out, dropped := []consoleErrorJSON{}, 0
	for _, st := range run {
		for _, e := range st.Console {
			if e.Level != "error" || known[e.Text] {
				continue
			}
			if len(out) == maxCompareEntries {
				dropped++
				continue
			}
			out = append(out, consoleErrorJSON{Index: st.Index, Iteration: st.Iteration, Level: e.Level, Text: e.Text, URL: e.URL, Line: e.Line, Column: e.Column})
		}
	}
	return out, dropped
}
