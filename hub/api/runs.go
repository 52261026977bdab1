package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/components"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

const runNotFound = "no such run, or it is not visible to you"

type runJSON struct {
	RunID         string  `json:"runId"`
	TestID        string  `json:"testId"`
	BatchID       *string `json:"batchId"`
	TestName      string  `json:"testName"`
	ProjectID     string  `json:"projectId"`
	EnvironmentID *string `json:"environmentId"`
	Status        string  `json:"status" enum:"queued|running|passed|failed|error|cancelled"`
	Passed        int     `json:"passed"`
	Total         int     `json:"total"`
	DurationMs    int64   `json:"durationMs"`
	Version       int     `json:"version"`
	Error         string  `json:"error,omitempty"`
	Options       struct {
		Headed      bool   `json:"headed"`
		Screenshots bool   `json:"screenshots"`
		Device      string `json:"device,omitempty"`
		// Trace is the mode the run records its trace with (docs/trace.md).
		Trace   string `json:"trace,omitempty" enum:"on|failures|off"`
		Retries int    `json:"retries"`
	} `json:"options"`
	// Flaky: it failed, then passed on a retry (docs/retries.md).
	Flaky bool `json:"flaky"`
	// AttemptResults: every attempt of a run the agent ran more than once
	// (retries), in order, the last one's being the run's own result; GET
	// /api/runs/:id only. (Attempts counts the hub's starts of the run.)
	AttemptResults []protocol.AttemptResult `json:"attemptResults,omitempty"`
	// Quarantined: its test was quarantined when it ended, so its failure
	// fails no batch (docs/history.md).
	Quarantined bool `json:"quarantined"`
	Result      struct {
		Steps []protocol.StepResult `json:"steps"`
	} `json:"result"`
	// Document is what the run executes, components expanded: only GET
	// /api/runs/:id has it.
	Document *protocol.Document `json:"document,omitempty"`
	// A data-driven run's data set (in lists too: their passed and total
	// count rows) and rows (GET /api/runs/:id only).
	DataSetID *string          `json:"dataSetId,omitempty"`
	Rows      []rowSummaryJSON `json:"rows,omitempty"`
	// Pool is the data pool record the run took: {id, mode, record, values}.
	Pool     json.RawMessage `json:"pool,omitempty"`
	Attempts int             `json:"attempts"`
	// AgentID or Labels: the agent choice it was started with (kept when
	// it is queued again); absent for any agent.
	AgentID string   `json:"agentId,omitempty"`
	Labels  []string `json:"labels,omitempty"`
	// Waiting, on a queued run (GET /api/runs/:id only), says why none of
	// the starter's connected agents can take it: "waiting for an agent
	// with a display".
	Waiting   string `json:"waiting,omitempty"`
	StartedBy string `json:"startedBy"`
	// StartedByName is null once the account is gone.
	StartedByName *string `json:"startedByName"`
	CreatedAt     string  `json:"createdAt"`
	StartedAt     *string `json:"startedAt"`
	FinishedAt    *string `json:"finishedAt"`
	// ArtifactsPrunedAt: when the retention settings removed the run's
	// screenshots and trace; null while it keeps them (GET /api/runs/:id
	// only, docs/retention.md).
	ArtifactsPrunedAt *string `json:"artifactsPrunedAt,omitempty"`
}

func timePtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.UTC().Format(timeFormat)
	return &s
}

func toRunJSON(r store.Run) runJSON {
	out := runJSON{RunID: r.ID, TestID: r.TestID, TestName: r.TestName, ProjectID: r.ProjectID, Status: r.Status,
		Passed: r.Passed, Total: r.Total, DurationMs: r.DurationMs, Version: r.Version, Error: r.Error, Attempts: r.Attempts,
		StartedBy: r.UserID, CreatedAt: r.CreatedAt.UTC().Format(timeFormat), StartedAt: timePtr(r.StartedAt), FinishedAt: timePtr(r.FinishedAt)}
	if r.UserName != "" {
		n := r.UserName
		out.StartedByName = &n
	}
	if r.EnvironmentID != "" {
		e := r.EnvironmentID
		out.EnvironmentID = &e
	}
	out.BatchID = strPtr(r.BatchID)
	if r.DataSetID != "" {
		d := r.DataSetID
		out.DataSetID = &d
	}
	out.AgentID, out.Labels = r.AgentPin, r.AgentLabels
	out.Options.Headed, out.Options.Screenshots, out.Options.Device, out.Options.Trace = r.Headed, r.Screenshots, r.Device, r.Trace
	out.Options.Retries, out.Flaky, out.Quarantined = r.Retries, r.Flaky, r.Quarantined
	out.Result.Steps = []protocol.StepResult{}
	if len(r.Result) > 0 {
		_ = json.Unmarshal(r.Result, &out.Result.Steps)
	}
	return out
}

// loadRun resolves /runs/{id} for the caller (see loadVisible): runs of
// someone else's private test do not exist for them.
func (s *Server) loadRun(w http.ResponseWriter, r *http.Request) (store.Run, scope, bool) {
	return loadVisible(s, w, r, "run", chi.URLParam(r, "id"), runNotFound, s.store.Run,
		func(run store.Run) string { return run.ProjectID },
		func(run store.Run) (bool, string) { return run.TestVisibility == store.Private, run.TestOwnerID })
}

func (s *Server) startRun(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.RunTests) {
		return
	}
	var in runRequest
	if !decode(w, r, &in) {
		return
	}
	if in.Device != "" {
		if _, ok := protocol.DeviceByName(in.Device); !ok {
			writeIssues(w, "the run is not valid", issueList{{Path: "device", Code: "unknown",
				Message: fmt.Sprintf("unknown device %q: use one of %s", in.Device, strings.Join(protocol.DeviceNames(), ", "))}})
			return
		}
	}
	if !checkTrace(w, &in) || !checkRetries(w, in) {
		return
	}
	many := in.TestIDs != nil || in.Suite != nil || in.Tag != nil
	if in.TestID != "" && many {
		writeIssues(w, "the run is not valid", issueList{{Path: "testId", Code: "exclusive", Message: "send one of testId, testIds, suite or tag"}})
		return
	}
	if many && (in.DataSetID != "" || in.Rows != nil) {
		writeIssues(w, "the run is not valid", issueList{{Path: "dataSetId", Code: "exclusive",
			Message: "dataSetId and rows go with one testId; the runs of a batch use their tests' own data binding"}})
		return
	}
	if many {
		s.startBatch(w, r, sc, in)
		return
	}
	if in.TestID == "" {
		writeIssues(w, "the run is not valid", issueList{{Path: "testId", Code: "required", Message: "testId is required"}})
		return
	}
	// The x-project-id header is set here, so a test of another project is
	// refused (and audited) by the shared record scoping.
	t, _, ok := s.loadTestID(w, r, in.TestID)
	if !ok {
		return
	}
	if t.Status == store.Deprecated {
		writeError(w, http.StatusConflict, "deprecated", "this test is Deprecated and cannot be run; duplicate it to work from a copy")
		return
	}
	doc, issues, err := s.runDocument(r.Context(), t)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if len(issues) > 0 {
		if issues[0].Code == codeComponentUnavailable {
			writeJSON(w, http.StatusUnprocessableEntity, errorBody{Error: issues[0].Message, Code: codeComponentUnavailable, Issues: []Issue{Issue(issues[0])}})
			return
		}
		invalidDocument(issues).write(w)
		return
	}
	plan, rowIssues, err := s.runRowsFor(r.Context(), sc.Project.ID, doc, in.DataSetID, in.Rows)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if len(rowIssues) > 0 {
		writeIssues(w, "the run is not valid", rowIssues)
		return
	}
	if in.EnvironmentID != "" {
		env, err := s.store.Environment(r.Context(), in.EnvironmentID)
		if err != nil || !s.bodyRecord(r, sc, env.ProjectID) { // another project's: refused and audited
			writeIssues(w, "the run is not valid", issueList{{Path: "environmentId", Code: "unknown", Message: "no such environment in this project"}})
			return
		}
		if refuseProtected(w, sc, env, t) {
			return
		}
		msg, err := s.dataRefusal(r.Context(), env, plan)
		if err != nil {
			s.internal(w, r, err)
			return
		}
		if msg != "" {
			writeError(w, http.StatusForbidden, codeDataUnprotected, msg)
			return
		}
	}
	if issues, err := s.checkChoice(r.Context(), currentUserID(r), in.AgentID, in.Labels, in.Headed); err != nil {
		s.internal(w, r, err)
		return
	} else if len(issues) > 0 {
		writeIssues(w, "the run is not valid", issues)
		return
	}
	screenshots := in.Screenshots == nil || *in.Screenshots
	run := store.Run{AgentPin: in.AgentID, AgentLabels: in.Labels, ID: ids.New("run"), ProjectID: sc.Project.ID, TestID: t.ID, Version: t.Version, EnvironmentID: in.EnvironmentID,
		UserID: currentUserID(r), Headed: in.Headed, Screenshots: screenshots, Device: in.Device, Trace: in.Trace, Retries: in.retries(), CreatedAt: s.Now(), Document: doc,
		DataSetID: plan.dataSetID, Rows: plan.rows}
	if err := s.store.CreateRun(r.Context(), run); err != nil {
		s.internal(w, r, err)
		return
	}
	if s.Dispatch != nil {
		go s.Dispatch.Kick(context.WithoutCancel(r.Context()), run.UserID)
	}
	writeJSON(w, http.StatusCreated, map[string]string{"runId": run.ID, "status": protocol.RunQueued})
}

func currentUserID(r *http.Request) string {
	u, _ := currentUser(r)
	return u.ID
}

var runStatuses = []string{protocol.RunQueued, protocol.RunRunning, protocol.RunPassed, protocol.RunFailed, protocol.RunError, protocol.RunCancelled}

type runListJSON struct {
	Runs       []runJSON `json:"runs"`
	NextCursor *string   `json:"nextCursor"`
}

func (s *Server) listRuns(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.ViewProject) {
		return
	}
	q := r.URL.Query()
	query := store.RunQuery{ProjectID: sc.Project.ID, UserID: currentUserID(r), TestID: q.Get("testId"), Status: q.Get("status"),
		BatchID: q.Get("batchId")}
	var issues issueList
	if query.TestID != "" && !ids.Valid(ids.Test, query.TestID) {
		issues.add("testId", "format", "testId must be a test id (tc_...)")
	}
	if query.BatchID != "" && !ids.Valid(kindBatch, query.BatchID) {
		issues.add("batchId", "format", "batchId must be a batch id (bat_...)")
	}
	if query.Status != "" && !slices.Contains(runStatuses, query.Status) {
		issues.add("status", "enum", "status must be queued, running, passed, failed, error or cancelled")
	}
	query.Limit, query.After = pageParams(q, &issues)
	if len(issues) > 0 {
		writeIssues(w, "the list query is not valid", issues)
		return
	}
	runs, next, err := s.store.ListRuns(r.Context(), query)
	if errors.Is(err, store.ErrBadCursor) {
		writeIssues(w, "the list query is not valid", issueList{{Path: "cursor", Code: "format", Message: "cursor is not one this list gave out"}})
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := make([]runJSON, 0, len(runs))
	for _, run := range runs {
		out = append(out, toRunJSON(run))
	}
	writeJSON(w, http.StatusOK, runListJSON{out, encodeCursor(next)})
}

// getRun answers 202 while the run is queued or running (with the steps
// finished so far) and 200 once it has finished.
func (s *Server) getRun(w http.ResponseWriter, r *http.Request) {
	run, _, ok := s.loadRun(w, r)
	if !ok {
		return
	}
	if wantsXML(r) {
		s.serveRunJUnit(w, r, run, finalStatus(run.Status), "")
		return
	}
	out := toRunJSON(run)
	err := s.addRunDetail(r.Context(), run, &out)
	if err == nil {
		err = s.addAttempts(r.Context(), run, &out)
	}
	if err == nil {
		err = s.addPruned(r.Context(), run, &out) // runs_pruned.go
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if run.Status == protocol.RunQueued {
		out.Waiting = s.runWaiting(r.Context(), run)
	}
	status := http.StatusOK
	if !protocol.Final(run.Status) {
		status = http.StatusAccepted
		steps, err := s.stepsSoFar(r.Context(), run.ID, nil)
		if err != nil {
			s.internal(w, r, err)
			return
		}
		out.Result.Steps = steps
	}
	writeJSON(w, status, out)
}

// stepsSoFar folds a running run's step.finished events of its current
// attempt into step results, a page of events at a time; a step reported
// twice (a retried attempt's) counts once, as last reported.
func (s *Server) stepsSoFar(ctx context.Context, runID string, row *int) ([]protocol.StepResult, error) {
	steps := []protocol.StepResult{}
	at := map[int]int{} // step index → position in steps
	var after int64
	for {
		events, err := s.store.StepEvents(ctx, runID, after, eventPage)
		if err != nil {
			return nil, err
		}
		for _, e := range events {
			after = e.Seq
			if e.Kind == string(protocol.RunStarted) {
				steps, at = steps[:0], map[int]int{} // a new attempt starts over
				continue
			}
			var ev protocol.Event
			if json.Unmarshal(e.Data, &ev) != nil || (ev.Row == nil) != (row == nil) || row != nil && *ev.Row != *row {
				continue // another row's, or a row's when the run's are asked for
			}
			if ev.Kind == protocol.RunRetry {
				steps, at = steps[:0], map[int]int{} // so does a retry (docs/retries.md)
				continue
			}
			if ev.Index == nil {
				continue
			}
			sr := protocol.StepResult{Index: *ev.Index, ID: ev.StepID, Type: ev.StepType, Call: ev.Call, Status: ev.Status, Error: ev.Error,
				HealedBy: ev.HealedBy, Screenshot: ev.Screenshot, Box: ev.Box, Used: ev.Used}
			if ev.DurationMs != nil {
				sr.DurationMs = *ev.DurationMs
			}
			if i, seen := at[sr.Index]; seen {
				steps[i] = sr
			} else {
				at[sr.Index] = len(steps)
				steps = append(steps, sr)
			}
		}
		if len(events) < eventPage {
			return steps, nil
		}
	}
}

func (s *Server) cancelRun(w http.ResponseWriter, r *http.Request) {
	run, sc, ok := s.loadRun(w, r)
	if !ok || !allow(w, sc, access.RunTests) {
		return
	}
	if protocol.Final(run.Status) {
		writeError(w, http.StatusConflict, "finished", "this run has already finished")
		return
	}
	if err := s.Dispatch.Cancel(r.Context(), run); err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]string{"runId": run.ID, "status": "cancelling"})
}

func (s *Server) runArtifact(w http.ResponseWriter, r *http.Request) {
	run, _, ok := s.loadRun(w, r)
	if !ok {
		return
	}
	s.serveArtifact(w, r, run, chi.URLParam(r, "name"))
}

// serveArtifact serves a run's stored artifact.
func (s *Server) serveArtifact(w http.ResponseWriter, r *http.Request, run store.Run, name string) {
	a, err := store.ArtifactRow{}, store.ErrNotFound
	if protocol.ValidArtifactName(name) {
		a, err = s.store.Artifact(r.Context(), run.ID, name)
	}
	var f interface {
		Read([]byte) (int, error)
		Seek(int64, int) (int64, error)
		Close() error
	}
	if err == nil && s.redirectArtifact(w, r, run.ID, name, a.ContentType) { // presign.go
		return
	}
	if err == nil {
		f, err = s.Artifacts.Open(r.Context(), run.ID, name)
		if storageDown(err) { // health_storage.go
			s.storageUnavailable(w, r, err)
			return
		}
	}
	if err != nil {
		s.artifactMissing(w, r, run) // runs_pruned.go
		return
	}
	defer f.Close()
	artifactHeaders(w, name, a.ContentType) // runs_trace.go
	http.ServeContent(w, r, name, time.Time{}, f)
}

const codeComponentUnavailable = "component_unavailable"

// runDocument is the document a new run of t executes, as JSON: its
// current version with every component call expanded (hub/components),
// scripts' vars.secrets.NAME written ${secrets.NAME}.
// A document that does not validate, or calls a component that no longer
// exists, answers issues instead.
func (s *Server) runDocument(ctx context.Context, t store.Test) ([]byte, []protocol.Issue, error) {
	doc, err := s.versionDocument(ctx, t.ID, t.Version)
	if err != nil {
		return nil, nil, err
	}
	if issues := doc.Validate(); len(issues) > 0 {
		return nil, issues, nil
	}
	expanded, err := components.Expand(ctx, s.store, t.ProjectID, doc)
	if errors.Is(err, components.ErrUnavailable) {
		msg := strings.TrimPrefix(err.Error(), components.ErrUnavailable.Error()+": ")
		return nil, []protocol.Issue{{Path: "testId", Code: codeComponentUnavailable, Message: fmt.Sprintf("%q cannot run: %s", t.Name, msg)}}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	// A script reading vars.secrets.NAME gets that secret (the run is
	// sent the secrets its document refers to as ${secrets.NAME}).
	data, err := json.Marshal(protocol.ExplicitSecretRefs(expanded))
	return data, nil, err
}
