package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// Data-driven runs (DESIGN.md, "Components, test data, data pools"): a run
// of a test bound to a data set, or started with dataSetId, runs once per
// row; rows are 0-based everywhere.

type rowSummaryJSON struct {
	Row        int               `json:"row"`
	Values     map[string]string `json:"values"` // the row as the run took it
	Status     string            `json:"status" enum:"queued|running|passed|failed|error|cancelled"`
	Passed     int               `json:"passed"`
	Total      int               `json:"total"`
	DurationMs int64             `json:"durationMs"`
	Error      string            `json:"error,omitempty"`
	// Flaky: the row failed, then passed on a retry (docs/retries.md).
	Flaky bool `json:"flaky,omitempty"`
}

type rowJSON struct {
	rowSummaryJSON
	Steps []protocol.StepResult `json:"steps"`
	// AttemptResults: a retried row's attempts, as a run's (docs/retries.md).
	AttemptResults []protocol.AttemptResult `json:"attemptResults,omitempty"`
}

// runRowsFor resolves the rows a new run of doc (its stored JSON) runs: the
// data set named by dataSetID, else the document's binding; the row
// indices listed in chosen, else all. It answers the run's plan: doc, the
// set and the rows' snapshot (read with the set's protected flag at once),
// nil rows for a plain run; or issues.
func (s *Server) runRowsFor(ctx context.Context, projectID string, docJSON []byte, dataSetID string, chosen *[]int) (runPlan, issueList, error) {
	plan := runPlan{doc: docJSON}
	var issues issueList
	hasIndices := chosen != nil
	var indices []int
	if hasIndices {
		indices = *chosen
	}
	path := "dataSetId"
	if dataSetID == "" {
		var doc protocol.Document
		if err := json.Unmarshal(docJSON, &doc); err != nil {
			return plan, nil, err
		}
		if doc.Data != nil {
			dataSetID, path = doc.Data.Set, "testId"
		}
	}
	if dataSetID == "" {
		if hasIndices {
			issues.add("rows", "conflict", "rows choose rows of a data set: the test binds none, so send dataSetId too")
		}
		return plan, issues, nil
	}
	set, err := store.DataSet{}, store.ErrNotFound
	if ids.Valid(kindDataSet, dataSetID) {
		set, err = s.store.DataSet(ctx, projectID, dataSetID)
	}
	if errors.Is(err, store.ErrNotFound) {
		msg := "no test data set of this project has this id"
		if path == "testId" {
			msg = "the test's data set no longer exists: choose another in its settings"
		}
		issues.add(path, "unknown", msg)
		return plan, issues, nil
	}
	if err != nil {
		return plan, nil, err
	}
	if len(set.Rows) == 0 {
		issues.add(path, "empty", fmt.Sprintf("data set %q has no rows to run", set.Name))
		return plan, issues, nil
	}
	if !hasIndices {
		indices = make([]int, len(set.Rows))
		for i := range indices {
			indices[i] = i
		}
	} else if len(indices) == 0 {
		issues.add("rows", "required", "rows must list at least one row, or be left out to run them all")
	}
	seen := map[int]bool{}
	rows := make([]protocol.DataRow, 0, len(indices))
	for i, n := range indices {
		switch {
		case n < 0 || n >= len(set.Rows):
			issues.add(fmt.Sprintf("rows[%d]", i), "range", fmt.Sprintf("data set %q has rows 0 to %d", set.Name, len(set.Rows)-1))
		case seen[n]:
			issues.add(fmt.Sprintf("rows[%d]", i), "duplicate", fmt.Sprintf("row %d is listed twice", n))
		default:
			seen[n] = true
			rows = append(rows, protocol.DataRow{Row: n, Values: set.Rows[n]})
		}
	}
	if len(issues) > 0 {
		return plan, issues, nil
	}
	plan.dataSetID, plan.setName, plan.setProtected = set.ID, set.Name, set.Protected
	plan.rows, err = json.Marshal(rows)
	return plan, nil, err
}

// addRunDetail fills a run's document, data set, rows and pool record.
func (s *Server) addRunDetail(ctx context.Context, run store.Run, out *runJSON) error {
	d, err := s.store.RunDetail(ctx, run.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	var doc protocol.Document
	if json.Unmarshal(d.Document, &doc) == nil {
		out.Document = &doc
	}
	if d.DataSetID != "" {
		out.DataSetID = &d.DataSetID
	}
	if d.Pool != nil {
		out.Pool = json.RawMessage(d.Pool)
	}
	if d.Rows == nil {
		return nil
	}
	rows, err := s.rowSummaries(ctx, run, d)
	out.Rows = rows
	return err
}

// rowSummaries is each row's status and counts: from the results once
// the run finished, else from its row events so far.
func (s *Server) rowSummaries(ctx context.Context, run store.Run, d store.RunDetail) ([]rowSummaryJSON, error) {
	var planned []protocol.DataRow
	if err := json.Unmarshal(d.Rows, &planned); err != nil {
		return nil, err
	}
	out := make([]rowSummaryJSON, len(planned))
	at := map[int]int{}
	for i, p := range planned {
		if p.Values == nil {
			p.Values = map[string]string{}
		}
		out[i] = rowSummaryJSON{Row: p.Row, Values: p.Values, Status: protocol.RunQueued}
		at[p.Row] = i
	}
	if d.RowResults != nil {
		var results []protocol.RowResult
		if err := json.Unmarshal(d.RowResults, &results); err != nil {
			return nil, err
		}
		for _, r := range results {
			if i, ok := at[r.Row]; ok {
				out[i] = rowSummaryJSON{Row: r.Row, Values: out[i].Values, Status: r.Status, Passed: r.Passed, Total: r.Total, DurationMs: r.DurationMs, Error: r.Error,
					Flaky: protocol.FlakyAttempts(r.Status, r.Attempts)}
			}
		}
		return out, nil
	}
	if protocol.Final(run.Status) {
		for i := range out { // ended without the agent's results (cancelled before it ran, agent lost)
			if out[i].Status == protocol.RunQueued {
				out[i].Status = run.Status
			}
		}
		return out, nil
	}
	var after int64
	for {
		events, err := s.store.RowEvents(ctx, run.ID, after, eventPage)
		if err != nil {
			return nil, err
		}
		for _, e := range events {
			after = e.Seq
			if e.Kind == string(protocol.RunStarted) { // a new attempt starts over
				for i := range out {
					out[i] = rowSummaryJSON{Row: out[i].Row, Values: out[i].Values, Status: protocol.RunQueued}
				}
				continue
			}
			var ev protocol.Event
			if json.Unmarshal(e.Data, &ev) != nil || ev.Row == nil {
				continue
			}
			i, ok := at[*ev.Row]
			if !ok {
				continue
			}
			if ev.Kind == protocol.RowStarted {
				out[i].Status = protocol.RunRunning
				if ev.Total != nil {
					out[i].Total = *ev.Total
				}
				continue
			}
			out[i].Status, out[i].Error = ev.Status, ev.Error
			if ev.Passed != nil {
				out[i].Passed = *ev.Passed
			}
			if ev.Total != nil {
				out[i].Total = *ev.Total
			}
			if ev.DurationMs != nil {
				out[i].DurationMs = *ev.DurationMs
			}
		}
		if len(events) < eventPage {
			return out, nil
		}
	}
}

// loadRow resolves /runs/{id}/rows/{row}: a row the run runs.
func (s *Server) loadRow(w http.ResponseWriter, r *http.Request) (store.Run, store.RunDetail, protocol.DataRow, bool) {
	run, _, ok := s.loadRun(w, r)
	if !ok {
		return run, store.RunDetail{}, protocol.DataRow{}, false
	}
	const notFound = "this run has no such row"
	n, err := strconv.Atoi(chi.URLParam(r, "row"))
	if err != nil || n < 0 {
		writeError(w, http.StatusNotFound, codeNotFound, notFound)
		return run, store.RunDetail{}, protocol.DataRow{}, false
	}
	d, err := s.store.RunDetail(r.Context(), run.ID)
	if err != nil {
		s.internal(w, r, err)
		return run, d, protocol.DataRow{}, false
	}
	var rows []protocol.DataRow
	if d.Rows != nil {
		if err := json.Unmarshal(d.Rows, &rows); err != nil {
			s.internal(w, r, err)
			return run, d, protocol.DataRow{}, false
		}
	}
	for _, row := range rows {
		if row.Row == n {
			return run, d, row, true
		}
	}
	writeError(w, http.StatusNotFound, codeNotFound, notFound)
	return run, d, protocol.DataRow{}, false
}

func (s *Server) getRunRow(w http.ResponseWriter, r *http.Request) {
	run, d, row, ok := s.loadRow(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	summaries, err := s.rowSummaries(ctx, run, d)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := rowJSON{Steps: []protocol.StepResult{}}
	for _, sm := range summaries {
		if sm.Row == row.Row {
			out.rowSummaryJSON = sm
		}
	}
	if d.RowResults != nil {
		var results []protocol.RowResult
		if err := json.Unmarshal(d.RowResults, &results); err != nil {
			s.internal(w, r, err)
			return
		}
		for _, res := range results {
			if res.Row == row.Row && res.Steps != nil {
				out.Steps, out.AttemptResults = res.Steps, res.Attempts
			}
		}
	} else if !protocol.Final(run.Status) {
		n := row.Row
		if out.Steps, err = s.stepsSoFar(ctx, run.ID, &n); err != nil {
			s.internal(w, r, err)
			return
		}
	}
	status := http.StatusOK
	if !protocol.Final(run.Status) {
		status = http.StatusAccepted
	}
	writeJSON(w, status, out)
}

// runRowArtifact serves a row's artifact: the row's prefix is the hub's.
func (s *Server) runRowArtifact(w http.ResponseWriter, r *http.Request) {
	run, _, row, ok := s.loadRow(w, r)
	if !ok {
		return
	}
	s.serveArtifact(w, r, run, protocol.RowArtifact(row.Row, chi.URLParam(r, "name")))
}
