package dispatch

import (
	"fmt"
	"slices"

	"github.com/testautomation/ta/protocol"
)

// The hub does not take an agent's word for a run: what it reports is
// checked against the job it was sent (a CI agent is any program with an
// API token). Step events must name a step of the job at its index, rows
// must be the job's rows, and a result must count what its steps say: a
// passed run has every step passed, a failed one all its steps with at
// least one failed (soft assertions fail and the run goes on, so failed
// steps may be followed by passed ones); a cancelled or errored run may
// stop early. Anything else ends the
// run as error (misreport), naming the agent in the log. The checks are
// pure functions of the job's shape, table-tested in verdict_test.go.

// jobShape is what a run's job asked for, as the hub checks reports
// against it. A report that leaves a step's id out gets the job's
// (fillIDs): the index says which step it is.
type jobShape struct {
	steps []string // the ids of the job's steps (components expanded), as the hub's masker shows them
	rows  []int    // the data rows; nil when the run is not data-driven
	// Documents with blocks (verdict_flow.go): the tree, and each step's
	// number of enclosing loops by index; tree is nil without blocks.
	tree  []protocol.Step
	loops []int
	// retries is the job's: how many more attempts it may make (retries.go).
	retries int
}

// shapeOf takes the shape of a job. Step ids are kept as masked: the
// agent masks every text it sends, ids too, and the hub masks again
// before it checks.
func shapeOf(job protocol.Job, mask *masker) jobShape {
	all := protocol.AllSteps(job.Document.Steps)
	s := jobShape{steps: make([]string, len(all)), retries: min(max(job.Retries, 0), protocol.MaxRetries)}
	for i, st := range all {
		s.steps[i] = mask.scrub(st.ID)
	}
	s.shapeTree(job.Document.Steps)
	if len(job.Rows) > 0 {
		s.rows = make([]int, len(job.Rows))
		for i, r := range job.Rows {
			s.rows[i] = r.Row
		}
	}
	return s
}

// stepKinds are the event kinds about one step, which carry its index.
var stepKinds = map[protocol.EventKind]bool{protocol.StepStarted: true, protocol.StepRetry: true, protocol.StepFinished: true}

// stepStatuses are the statuses a step may end with.
var stepStatuses = map[string]bool{protocol.StepPassed: true, protocol.StepFailed: true, protocol.StepSkipped: true}

// checkEvent says what is wrong with an (already masked) event for the
// job, or "" when nothing is.
func (s jobShape) checkEvent(e protocol.Event) string {
	if why := s.checkRow(e.Row, e.Kind == protocol.RowStarted || e.Kind == protocol.RowFinished ||
		stepKinds[e.Kind] && s.rows != nil); why != "" {
		return why
	}
	if why := s.checkRunAttempt(e); why != "" {
		return why
	}
	if stepKinds[e.Kind] {
		if e.Index == nil {
			return fmt.Sprintf("a %s event names no step index", e.Kind)
		}
		if why := s.checkStep(*e.Index, e.StepID); why != "" {
			return why
		}
		if e.Kind == protocol.StepFinished && !stepStatuses[e.Status] {
			return fmt.Sprintf("step %d finished with status %q", *e.Index, e.Status)
		}
		if why := s.checkIteration(*e.Index, e.Iteration, e.Branch); why != "" {
			return why
		}
	}
	if e.Step != nil && (*e.Step < 0 || *e.Step >= len(s.steps)) {
		return s.outOfRange(*e.Step)
	}
	return ""
}

// checkArtifact says what is wrong with an artifact's step or row.
func (s jobShape) checkArtifact(a protocol.ArtifactInfo) string {
	if why := s.checkRow(a.Row, false); why != "" {
		return why
	}
	if a.Step != nil && (*a.Step < 0 || *a.Step >= len(s.steps)) {
		return s.outOfRange(*a.Step)
	}
	return ""
}

// checkRow checks a row number: one of the job's rows, none in a run
// without rows; need says a data-driven run's event must name one.
func (s jobShape) checkRow(row *int, need bool) string {
	switch {
	case row == nil && need && s.rows != nil:
		return "an event of a data-driven run names no row"
	case row == nil:
		return ""
	case s.rows == nil:
		return fmt.Sprintf("row %d was reported for a run without data rows", *row)
	case !slices.Contains(s.rows, *row):
		return fmt.Sprintf("row %d is not one of the run's %d rows", *row, len(s.rows))
	}
	return ""
}

func (s jobShape) checkStep(index int, id string) string {
	if index < 0 || index >= len(s.steps) {
		return s.outOfRange(index)
	}
	if id != "" && id != s.steps[index] {
		return fmt.Sprintf("step %d was reported as %q, but the run's step %d is %q", index, id, index, s.steps[index])
	}
	return ""
}

// fillEvent gives a step event that names no step id its step's, once
// checkEvent has accepted it.
func (s jobShape) fillEvent(e *protocol.Event) {
	if stepKinds[e.Kind] && e.StepID == "" {
		e.StepID = s.steps[*e.Index]
	}
}

// fillResult gives step results that name no id their step's, once
// checkResult has accepted the result.
func (s jobShape) fillResult(r *protocol.RunResult) {
	var fill func(steps []protocol.StepResult)
	fill = func(steps []protocol.StepResult) {
		for i := range steps {
			// checkResult has accepted each index: a step's, in order.
			if steps[i].ID == "" && steps[i].Index >= 0 && steps[i].Index < len(s.steps) {
				steps[i].ID = s.steps[steps[i].Index]
			}
			fill(steps[i].Steps)
			for j := range steps[i].Iterations {
				fill(steps[i].Iterations[j].Steps)
			}
		}
	}
	fill(r.Steps)
	for i := range r.Rows {
		fill(r.Rows[i].Steps)
	}
	if r.Total == 0 { // a run that ended before it began still has its size
		r.Total = len(s.steps)
		if s.rows != nil {
			r.Total = len(s.rows)
		}
	}
}

func (s jobShape) outOfRange(index int) string {
	return fmt.Sprintf("step index %d is out of range: the run has %d steps", index, len(s.steps))
}

// checkResult says what is wrong with an (already masked) run result for
// the job, or "" when nothing is.
func (s jobShape) checkResult(res protocol.RunResult) string {
	if s.rows == nil {
		if len(res.Rows) > 0 {
			return "the result has rows, but the run has no data rows"
		}
		if notStarted(res.Status, res.Passed, res.Total, len(res.Steps)) {
			return ""
		}
		return s.checkSteps(res.Status, res.Passed, res.Total, res.Steps)
	}
	if len(res.Steps) > 0 {
		return "the result of a data-driven run has steps outside its rows"
	}
	if notStarted(res.Status, res.Passed, res.Total, len(res.Rows)) {
		return ""
	}
	if res.Total != len(s.rows) {
		return fmt.Sprintf("the result counts %d rows, but the run has %d", res.Total, len(s.rows))
	}
	seen := map[int]bool{}
	passed, failed := 0, 0
	for _, r := range res.Rows {
		if why := s.checkRow(&r.Row, false); why != "" {
			return why
		}
		if seen[r.Row] {
			return fmt.Sprintf("row %d is reported twice", r.Row)
		}
		seen[r.Row] = true
		if !protocol.Final(r.Status) {
			return fmt.Sprintf("row %d ended with status %q", r.Row, r.Status)
		}
		if notStarted(r.Status, r.Passed, r.Total, len(r.Steps)) {
			continue
		}
		if why := s.checkSteps(r.Status, r.Passed, r.Total, r.Steps); why != "" {
			return fmt.Sprintf("row %d: %s", r.Row, why)
		}
		switch r.Status {
		case protocol.RunPassed:
			passed++
		case protocol.RunFailed:
			failed++
		}
	}
	return checkCounts(res.Status, "rows", res.Passed, passed, failed, len(res.Rows), len(s.rows))
}

// notStarted reports a result (of a run or a row) that ended before it
// began, cancelled or errored: nothing counted, no parts at all. It claims
// nothing, so it needs no counts to match.
func notStarted(status string, passed, total, parts int) bool {
	return (status == protocol.RunCancelled || status == protocol.RunError) && passed == 0 && total == 0 && parts == 0
}

// checkSteps checks a run's (or a row's) step results: in the job's
// order, each the job's step at its index, with a step's status, counted
// right, and as many as its status needs.
func (s jobShape) checkSteps(status string, passed, total int, steps []protocol.StepResult) string {
	if s.tree != nil {
		return s.checkTree(status, passed, total, steps)
	}
	if total != len(s.steps) {
		return fmt.Sprintf("the result counts %d steps, but the run has %d", total, len(s.steps))
	}
	if len(steps) > len(s.steps) {
		return fmt.Sprintf("the result has %d step results, but the run has %d steps", len(steps), len(s.steps))
	}
	ok, failed := 0, 0
	for i, st := range steps {
		if st.Index != i {
			return fmt.Sprintf("step result %d has index %d: results come in the run's order", i, st.Index)
		}
		if why := s.checkStep(i, st.ID); why != "" {
			return why
		}
		switch st.Status {
		case protocol.StepPassed:
			ok++
		case protocol.StepFailed:
			failed++
		case protocol.StepSkipped:
		default:
			return fmt.Sprintf("step %d ended with status %q", i, st.Status)
		}
	}
	return checkCounts(status, "steps", passed, ok, failed, len(steps), len(s.steps))
}

// checkCounts checks that a status and its passed count follow from the
// parts (steps or rows) reported: got of want parts, ok of them passed,
// failed of them failed.
func checkCounts(status, parts string, passed, ok, failed, got, want int) string {
	switch {
	case passed != ok:
		return fmt.Sprintf("the result counts %d %s passed, but %d did", passed, parts, ok)
	case status == protocol.RunPassed && ok != want:
		return fmt.Sprintf("the run is reported passed, but %d of its %d %s passed", ok, want, parts)
	case status == protocol.RunFailed && got != want:
		return fmt.Sprintf("the run is reported failed with results for %d of its %d %s", got, want, parts)
	case status == protocol.RunFailed && failed == 0:
		return fmt.Sprintf("the run is reported failed, but none of its %s failed", parts)
	}
	return ""
}
