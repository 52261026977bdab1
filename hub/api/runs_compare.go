package api

// "Since it last passed" (issue 30, docs/trace.md): GET
// /api/runs/:id/compare sets a finished run beside its baseline, the most
// recent passed run of the same test on the same environment (or the run
// ?with= names): the step execution where they diverged, the requests
// whose outcome changed, the new console errors and the document's diff.
// The divergence walk is runs_compare_walk.go, the pixel overlay
// runs_compare_pixels.go.

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"

	"github.com/testautomation/ta/hub/components"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

const noBaselineNote = "No passed run of this test on this environment before this one."

type compareJSON struct {
	RunID    string               `json:"runId"`
	Baseline *compareBaselineJSON `json:"baseline"`
	// Note says why baseline is null.
	Note     string        `json:"note,omitempty"`
	Diverged *divergedJSON `json:"diverged"`
	// Requests whose outcome changed; RequestsDropped counts those past
	// the first maxCompareEntries.
	Requests        []requestChangeJSON `json:"requests"`
	RequestsDropped int                 `json:"requestsDropped,omitempty"`
	// ConsoleErrors: this run's errors the baseline did not log.
	ConsoleErrors  []consoleErrorJSON `json:"consoleErrors"`
	ConsoleDropped int                `json:"consoleDropped,omitempty"`
	// Document is null when both runs ran the same version.
	Document *documentChangeJSON `json:"document"`
	// ArtifactsPrunedAt: when retention removed this run's screenshots
	// and trace (docs/retention.md); absent while it keeps them.
	ArtifactsPrunedAt *string `json:"artifactsPrunedAt,omitempty"`
}

type compareBaselineJSON struct {
	RunID      string  `json:"runId"`
	Status     string  `json:"status" enum:"queued|running|passed|failed|error|cancelled"`
	Version    int     `json:"version"`
	StartedAt  *string `json:"startedAt"`
	FinishedAt *string `json:"finishedAt"`
	DurationMs int64   `json:"durationMs"`
	// Trace is the baseline run's trace mode.
	Trace string `json:"trace" enum:"on|failures|off"`
	// ArtifactsPrunedAt: when retention removed its screenshots and trace.
	ArtifactsPrunedAt *string `json:"artifactsPrunedAt,omitempty"`
}

type documentChangeJSON struct {
	Version         int                 `json:"version"`
	BaselineVersion int                 `json:"baselineVersion"`
	Diff            []components.Change `json:"diff"`
}

// maxCompareEntries bounds each list of a comparison.
const maxCompareEntries = 200

func (s *Server) getRunCompare(w http.ResponseWriter, r *http.Request) {
	run, base, ok := s.comparePair(w, r)
	if !ok {
		return
	}
	out := compareJSON{RunID: run.ID, Requests: []requestChangeJSON{}, ConsoleErrors: []consoleErrorJSON{}}
	if base == nil {
		out.Note = noBaselineNote
		writeJSON(w, http.StatusOK, out)
		return
	}
	ctx := r.Context()
	out.Baseline = &compareBaselineJSON{RunID: base.ID, Status: base.Status, Version: base.Version, StartedAt: timePtr(base.StartedAt),
		FinishedAt: timePtr(base.FinishedAt), DurationMs: base.DurationMs, Trace: base.Trace}
	d, err := s.divergence(ctx, run, *base)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if d != nil {
		out.Diverged = d.json()
		out.Diverged.Pixels = s.pixelCount(ctx, run, *base, d)
	}
	if err := s.notePruned(ctx, run, *base, &out); err != nil { // runs_pruned.go
		s.internal(w, r, err)
		return
	}
	var traces [2][]protocol.TraceStep
	for i, id := range []string{run.ID, base.ID} {
		arts, err := s.store.RunArtifacts(ctx, id)
		if err != nil {
			s.internal(w, r, err)
			return
		}
		traces[i] = s.attemptTraceSteps(ctx, id, arts, -1, s.lastAttempt(ctx, id)) // the attempt its steps are
	}
	// Without both traces (one ran with trace off, or before traces) what
	// changed cannot be told: every request would look new.
	if len(traces[0]) > 0 && len(traces[1]) > 0 {
		out.Requests, out.RequestsDropped = changedRequests(traces[0], traces[1])
		out.ConsoleErrors, out.ConsoleDropped = newConsoleErrors(traces[0], traces[1])
	}
	// A Draft saved again keeps its version number: the documents tell.
	if out.Document, err = s.documentChange(ctx, run, *base); err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// comparePair resolves the run of a compare route and its baseline (nil
// when it has none), or answers why not.
func (s *Server) comparePair(w http.ResponseWriter, r *http.Request) (store.Run, *store.Run, bool) {
	run, _, ok := s.loadRun(w, r)
	if !ok {
		return run, nil, false
	}
	if !protocol.Final(run.Status) {
		writeError(w, http.StatusConflict, "run_not_finished", "this run has not finished yet: compare it once it has")
		return run, nil, false
	}
	if run.DataSetID != "" {
		refuseCompare(w, "data_driven", "a data-driven run's rows are not compared yet")
		return run, nil, false
	}
	if with := r.URL.Query().Get("with"); with != "" {
		base, ok := s.compareWith(w, r, run, with)
		return run, &base, ok
	}
	base, err := s.store.Baseline(r.Context(), run)
	if errors.Is(err, store.ErrNotFound) {
		return run, nil, true
	}
	if err != nil {
		s.internal(w, r, err)
		return run, nil, false
	}
	return run, &base, true
}

// compareWith loads the run ?with= names: a finished run of the same test
// that is not data-driven. A run of another project is refused as unknown
// and audited, as the record routes do.
func (s *Server) compareWith(w http.ResponseWriter, r *http.Request, run store.Run, with string) (store.Run, bool) {
	refuse := func(code, msg string) (store.Run, bool) {
		writeIssues(w, "the comparison is not valid", issueList{{Path: "with", Code: code, Message: msg}})
		return store.Run{}, false
	}
	if !ids.Valid("run", with) {
		return refuse("format", "with must be a run id (run_...)")
	}
	if with == run.ID {
		return refuse("same_run", "with names this run itself: name an earlier run of the same test")
	}
	base, err := s.store.Run(r.Context(), with)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, r, err)
		return base, false
	}
	if err == nil && base.ProjectID != run.ProjectID {
		s.auditRefusal(r, currentUserID(r), base.ProjectID, run.ProjectID)
	}
	switch {
	case err != nil || base.TestID != run.TestID:
		return refuse("unknown", "no run of this test has this id")
	case !protocol.Final(base.Status):
		return refuse("run_not_finished", "that run has not finished yet")
	case base.DataSetID != "":
		return refuse("data_driven", "that run is data-driven: a data-driven run's rows are not compared yet")
	}
	return base, true
}

// refuseCompare answers 422 for the run as a whole: its one issue is at
// no path (every 422 has issues).
func refuseCompare(w http.ResponseWriter, code, msg string) {
	writeJSON(w, http.StatusUnprocessableEntity, errorBody{Error: msg, Code: code, Issues: []Issue{{Path: "", Code: code, Message: msg}}})
}

// divergence walks both runs' step executions (runs_compare_walk.go).
func (s *Server) divergence(ctx context.Context, run, base store.Run) (*divergence, error) {
	var results [2][]protocol.StepResult
	for i, x := range []store.Run{run, base} {
		if len(x.Result) > 0 {
			_ = json.Unmarshal(x.Result, &results[i])
		}
		if len(results[i]) == 0 {
			// The hub ended it (a lost agent, a lapsed lease): the steps
			// the agent reported before are all there is.
			steps, err := s.stepsSoFar(ctx, x.ID, nil)
			if err != nil {
				return nil, err
			}
			results[i] = steps
		}
	}
	return diverge(results[0], results[1]), nil
}

// documentChange diffs the documents both runs executed: nil when they
// ran the same version and the same steps.
func (s *Server) documentChange(ctx context.Context, run, base store.Run) (*documentChangeJSON, error) {
	var docs [2]protocol.Document
	for i, id := range []string{run.ID, base.ID} {
		d, err := s.store.RunDetail(ctx, id)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		_ = json.Unmarshal(d.Document, &docs[i])
	}
	diff := components.Diff(docs[1].Steps, docs[0].Steps)
	if run.Version == base.Version && !slices.ContainsFunc(diff, func(c components.Change) bool { return c.Op != "same" }) {
		return nil, nil
	}
	return &documentChangeJSON{Version: run.Version, BaselineVersion: base.Version, Diff: diff}, nil
}
