package api

// Batches: one start of many runs. POST /api/runs with testIds (the tests
// chosen, in order, duplicates dropped) or suite (every test of that suite
// the caller can see that is not Deprecated; "" is Unsorted, the tests of no
// suite) queues one run per test under a batch id. Each test is checked as a
// single run is, and one test that may not run refuses the whole batch, with
// an issue per test (path testIds[i], or tests[i] for a suite), so nothing
// half-starts: 422, or 403 environment_protected when a protected
// environment is among the reasons (data_unprotected when the reason is a
// test's data that is not protected). A batch is visible to the members of its
// project, but lists and counts only the runs each of them can see.

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

const (
	kindBatch      = "bat"
	batchNotFound  = "no such batch, or it is not visible to you"
	maxBatchTests  = 500
	batchInvalid   = "the batch is not valid"
	codeEmptyBatch = "empty"
)

// runRequest is a POST /api/runs body: one of testId, testIds or suite.
type runRequest struct {
	TestID        string   `json:"testId"`
	TestIDs       []string `json:"testIds"`
	Suite         *string  `json:"suite"`
	Tag           *string  `json:"tag"` // every test with this tag
	EnvironmentID string   `json:"environmentId"`
	Headed        bool     `json:"headed"`
	Screenshots   *bool    `json:"screenshots"`
	// Device names the profile every page of the runs emulates (GET
	// /api/registry lists them); "" for the agent's desktop window.
	Device string `json:"device"`
	// Trace is what the runs record of each step (docs/trace.md): on,
	// failures (the default) or off.
	Trace string `json:"trace" enum:"on|failures|off"`
	// Retries: how many times a failed test runs again on the same agent,
	// 0 (the default) to 3 (docs/retries.md).
	Retries *int `json:"retries" minimum:"0" maximum:"3"`
	// A data-driven run of one test: the data set (else the test's
	// binding) and the rows to run (else all), 0-based.
	DataSetID string `json:"dataSetId"`
	Rows      *[]int `json:"rows"`
	// AgentID pins the runs to one of the caller's agents: `agent ci`
	// pins its runs to its own agent.
	AgentID string `json:"agentId"`
	// Labels: the runs go only to an agent having all of them (not with
	// agentId). Neither: any of the caller's agents that can serve them.
	Labels []string `json:"labels"`
}

// agentChoice is where a request's runs may go: kept on each run, so a
// run queued again still goes only there.
type agentChoice struct {
	pin    string
	labels []string
}

type batchRunRef struct {
	RunID  string `json:"runId"`
	TestID string `json:"testId"`
}

type batchStarted struct {
	BatchID string        `json:"batchId"`
	RunIDs  []string      `json:"runIds"`
	Runs    []batchRunRef `json:"runs"`
}

// startBatch answers POST /api/runs with testIds or suite.
func (s *Server) startBatch(w http.ResponseWriter, r *http.Request, sc scope, in runRequest) {
	b := store.Batch{ID: ids.New(kindBatch), ProjectID: sc.Project.ID, UserID: currentUserID(r), EnvironmentID: in.EnvironmentID,
		Headed: in.Headed, Screenshots: in.Screenshots == nil || *in.Screenshots, Device: in.Device, Trace: in.Trace, Retries: in.retries(), Source: "tests", CreatedAt: s.Now()}
	path := "testIds"
	testIDs := in.TestIDs
	if (in.Suite != nil) && (in.Tag != nil) {
		writeIssues(w, batchInvalid, issueList{{Path: "tag", Code: "exclusive", Message: "send one of testIds, suite or tag"}})
		return
	}
	if in.Tag != nil {
		if in.TestIDs != nil {
			writeIssues(w, batchInvalid, issueList{{Path: "tag", Code: "exclusive", Message: "send one of testIds, suite or tag"}})
			return
		}
		b.Source, b.Tag, path = "tag", strings.TrimSpace(*in.Tag), "tests"
		if b.Tag == "" || len(b.Tag) > 100 {
			writeIssues(w, batchInvalid, issueList{{Path: "tag", Code: "invalid", Message: "name a tag of at most 100 characters"}})
			return
		}
		var err error
		if testIDs, err = s.store.TagTestIDs(r.Context(), sc.Project.ID, b.UserID, b.Tag, maxBatchTests+1); err != nil {
			s.internal(w, r, err)
			return
		}
		if len(testIDs) == 0 {
			writeIssues(w, batchInvalid, issueList{{Path: "tag", Code: codeEmptyBatch, Message: fmt.Sprintf("no test you can run has the tag %q", b.Tag)}})
			return
		}
	}
	if in.Suite != nil {
		if in.TestIDs != nil {
			writeIssues(w, batchInvalid, issueList{{Path: "suite", Code: "exclusive", Message: "send testIds or suite, not both"}})
			return
		}
		b.Source, b.Suite, path = "suite", *in.Suite, "tests"
		var issues issueList
		if b.Suite != "" { // "" is Unsorted
			issues.suite("suite", b.Suite)
		}
		if len(issues) > 0 {
			writeIssues(w, batchInvalid, issues)
			return
		}
		var err error
		if testIDs, err = s.store.SuiteTestIDs(r.Context(), sc.Project.ID, b.UserID, b.Suite, maxBatchTests+1); err != nil {
			s.internal(w, r, err)
			return
		}
		if len(testIDs) == 0 {
			writeIssues(w, batchInvalid, issueList{{Path: "suite", Code: codeEmptyBatch, Message: "this suite has no test you can run"}})
			return
		}
	}
	s.queueBatch(w, r, sc, b, path, testIDs, agentChoice{in.AgentID, in.Labels})
}

// principal is who a batch is planned for: the caller of a request, or a
// schedule's owner when it fires (schedules_fire.go). refused is told of a
// record of another project the input names (a request's is audited).
type principal struct {
	userID  string
	sc      scope
	refused func(recordProject string)
}

// requestPrincipal is the caller of r acting in sc.
func (s *Server) requestPrincipal(r *http.Request, sc scope) principal {
	return principal{userID: currentUserID(r), sc: sc, refused: func(project string) { s.bodyRecord(r, sc, project) }}
}

// inProject reports whether a record of projectID may be named by p.
func (p principal) inProject(projectID string) bool {
	if projectID == p.sc.Project.ID {
		return true
	}
	if p.refused != nil {
		p.refused(projectID)
	}
	return false
}

// batchPlan is a checked batch: its runs, or why it cannot start (issues,
// message; refusal is the 403 code when a protected environment or
// unprotected data is among the reasons).
type batchPlan struct {
	runs    []store.Run
	issues  issueList
	message string
	refusal string
}

// planBatch checks every test of a batch for p, as single runs would be,
// and plans its runs; one test that cannot run refuses the whole batch.
func (s *Server) planBatch(ctx context.Context, p principal, b store.Batch, path string, testIDs []string, choice agentChoice) (batchPlan, error) {
	issues, err := s.checkChoice(ctx, p.userID, choice.pin, choice.labels, b.Headed)
	if err != nil {
		return batchPlan{}, err
	}
	switch {
	case len(testIDs) == 0:
		issues.add(path, codeEmptyBatch, "choose at least one test")
	case len(testIDs) > maxBatchTests:
		issues.add(path, "too_many", fmt.Sprintf("a batch runs at most %d tests", maxBatchTests))
	}
	var env *store.Environment
	if b.EnvironmentID != "" {
		e, err := s.store.Environment(ctx, b.EnvironmentID)
		if err != nil || !p.inProject(e.ProjectID) { // another project's: refused and audited
			issues.add("environmentId", "unknown", "no such environment in this project")
		}
		env = &e
	}
	if len(issues) > 0 {
		return batchPlan{issues: issues, message: batchInvalid}, nil
	}
	out := batchPlan{runs: make([]store.Run, 0, len(testIDs)), message: "some of these tests cannot run; nothing was started"}
	seen := map[string]bool{}
	for i, id := range testIDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		t, plan, is, err := s.batchTest(ctx, p, id, env)
		if err != nil {
			return batchPlan{}, err
		}
		if is != nil {
			is.Path = fmt.Sprintf("%s[%d]", path, i)
			if is.Code == codeEnvironmentProtected || is.Code == codeDataUnprotected && out.refusal == "" {
				out.refusal = is.Code
			}
			out.issues = append(out.issues, *is)
			continue
		}
		out.runs = append(out.runs, store.Run{ID: ids.New("run"), ProjectID: p.sc.Project.ID, TestID: t.ID, Version: t.Version,
			EnvironmentID: b.EnvironmentID, UserID: b.UserID, Headed: b.Headed, Screenshots: b.Screenshots, Device: b.Device, Trace: b.Trace, Retries: b.Retries,
			CreatedAt: b.CreatedAt.Add(time.Duration(len(out.runs)) * time.Microsecond), Document: plan.doc,
			DataSetID: plan.dataSetID, Rows: plan.rows, AgentPin: choice.pin, AgentLabels: choice.labels}) // queued in the order chosen
	}
	switch out.refusal {
	case codeEnvironmentProtected:
		out.message = "a test of this batch may not use this environment"
	case codeDataUnprotected:
		out.message = "a test of this batch uses data that is not protected, on a protected environment"
	}
	return out, nil
}

// queueBatch checks every test, then queues the batch and its runs at once.
func (s *Server) queueBatch(w http.ResponseWriter, r *http.Request, sc scope, b store.Batch, path string, testIDs []string, choice agentChoice) {
	plan, err := s.planBatch(r.Context(), s.requestPrincipal(r, sc), b, path, testIDs, choice)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if plan.refusal != "" {
		writeJSON(w, http.StatusForbidden, errorBody{Error: plan.message, Code: plan.refusal, Issues: plan.issues})
		return
	}
	if len(plan.issues) > 0 {
		writeIssues(w, plan.message, plan.issues)
		return
	}
	runs := plan.runs
	if err := s.store.CreateBatch(r.Context(), b, runs); err != nil {
		s.internal(w, r, err)
		return
	}
	if s.Dispatch != nil {
		go s.Dispatch.Kick(context.WithoutCancel(r.Context()), b.UserID)
	}
	out := batchStarted{BatchID: b.ID, RunIDs: make([]string, len(runs)), Runs: make([]batchRunRef, len(runs))}
	for i, run := range runs {
		out.RunIDs[i], out.Runs[i] = run.ID, batchRunRef{RunID: run.ID, TestID: run.TestID}
	}
	writeJSON(w, http.StatusCreated, out)
}

// batchTest checks one test of a batch as a single run would be: an issue
// says why it cannot run. A test p cannot see (missing, another project's,
// someone else's private one) is "unknown" alike.
func (s *Server) batchTest(ctx context.Context, p principal, id string, env *store.Environment) (store.Test, runPlan, *Issue, error) {
	unknown := &Issue{Code: "unknown", Message: fmt.Sprintf("no test %q in this project, or it is not visible to you", id)}
	if !ids.Valid(ids.Test, id) {
		return store.Test{}, runPlan{}, unknown, nil
	}
	t, err := s.store.Test(ctx, id)
	if err == store.ErrNotFound {
		return t, runPlan{}, unknown, nil
	}
	if err != nil {
		return t, runPlan{}, nil, err
	}
	if !p.inProject(t.ProjectID) || t.Visibility == store.Private && t.OwnerID != p.userID {
		return t, runPlan{}, unknown, nil
	}
	if t.Status == store.Deprecated {
		return t, runPlan{}, &Issue{Code: "deprecated", Message: fmt.Sprintf("%q is Deprecated and cannot be run", t.Name)}, nil
	}
	doc, issues, err := s.runDocument(ctx, t)
	if err != nil {
		return t, runPlan{}, nil, err
	}
	if len(issues) > 0 {
		if issues[0].Code == codeComponentUnavailable {
			return t, runPlan{}, &Issue{Code: codeComponentUnavailable, Message: issues[0].Message}, nil
		}
		return t, runPlan{}, &Issue{Code: "invalid_document", Message: fmt.Sprintf("%q has %d problem(s) in its document; fix them in the editor", t.Name, len(issues))}, nil
	}
	plan, rowIssues, err := s.runRowsFor(ctx, t.ProjectID, doc, "", nil)
	if err != nil {
		return t, runPlan{}, nil, err
	}
	if len(rowIssues) > 0 {
		return t, runPlan{}, &Issue{Code: rowIssues[0].Code, Message: fmt.Sprintf("%q: %s", t.Name, rowIssues[0].Message)}, nil
	}
	if env != nil {
		if msg := protectedRefusal(*env, p.sc, t); msg != "" {
			return t, runPlan{}, &Issue{Code: codeEnvironmentProtected, Message: fmt.Sprintf("%q: %s", t.Name, msg)}, nil
		}
		msg, err := s.dataRefusal(ctx, *env, plan)
		if err != nil {
			return t, runPlan{}, nil, err
		}
		if msg != "" {
			return t, runPlan{}, &Issue{Code: codeDataUnprotected, Message: fmt.Sprintf("%q: %s", t.Name, msg)}, nil
		}
	}
	return t, plan, nil, nil
}

// runPlan is what a new run stores: its document and, when data-driven,
// its data set and rows (the set's name and protected flag as read with
// them).
type runPlan struct {
	doc          []byte
	dataSetID    string
	rows         []byte
	setName      string
	setProtected bool
}

type batchJSON struct {
	ID            string         `json:"id"`
	ProjectID     string         `json:"projectId"`
	Status        string         `json:"status" enum:"queued|running|passed|failed|error|cancelled"`
	Counts        map[string]int `json:"counts"`
	Total         int            `json:"total"`
	Passed        int            `json:"passed"`
	Failed        int            `json:"failed"`
	Flaky         int            `json:"flaky"` // passed runs that failed first (docs/retries.md)
	DurationMs    int64          `json:"durationMs"`
	Source        string         `json:"source" enum:"tests|suite|tag|rerun"`
	Suite         *string        `json:"suite"`
	Tag           *string        `json:"tag"`
	RerunOf       *string        `json:"rerunOf"`
	EnvironmentID *string        `json:"environmentId"`
	Options       struct {
		Headed      bool   `json:"headed"`
		Screenshots bool   `json:"screenshots"`
		Device      string `json:"device,omitempty"`
		Trace       string `json:"trace,omitempty" enum:"on|failures|off"`
		Retries     int    `json:"retries"`
	} `json:"options"`
	// Schedule names the schedule that started it; null for a batch a
	// person or a pipeline started.
	Schedule      *scheduleRef `json:"schedule"`
	StartedBy     string       `json:"startedBy"`
	StartedByName *string      `json:"startedByName"`
	CreatedAt     string       `json:"createdAt"`
	FinishedAt    *string      `json:"finishedAt"`
	Runs          []runJSON    `json:"runs"`
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// toBatchJSON sums up the runs the caller sees. The status is queued while
// no run has started, running until every run is final, then passed when
// all passed and failed otherwise; the duration is the wall-clock time from
// the start of the batch to its last run's end (or now). A run that ended
// while its test was quarantined fails no batch (docs/history.md); counts
// has how many did as quarantined.
func toBatchJSON(b store.Batch, runs []store.Run, now time.Time) batchJSON {
	out := batchJSON{ID: b.ID, ProjectID: b.ProjectID, Source: b.Source, RerunOf: strPtr(b.RerunOf), EnvironmentID: strPtr(b.EnvironmentID),
		StartedBy: b.UserID, StartedByName: strPtr(b.UserName), CreatedAt: b.CreatedAt.UTC().Format(timeFormat),
		Counts: map[string]int{}, Total: len(runs), Runs: make([]runJSON, 0, len(runs))}
	if b.Source == "suite" {
		out.Suite = &b.Suite
	}
	out.Tag = strPtr(b.Tag)
	out.Options.Headed, out.Options.Screenshots, out.Options.Device, out.Options.Trace = b.Headed, b.Screenshots, b.Device, b.Trace
	out.Options.Retries = b.Retries
	if b.ScheduleID != "" {
		out.Schedule = &scheduleRef{ID: b.ScheduleID, Name: b.ScheduleName}
	}
	for _, st := range runStatuses {
		out.Counts[st] = 0
	}
	out.Counts["quarantined"] = 0
	var last *time.Time
	excused := 0 // quarantined runs that did not pass
	for _, run := range runs {
		out.Counts[run.Status]++
		if run.Quarantined {
			out.Counts["quarantined"]++
			if run.Status != protocol.RunPassed {
				excused++
			}
		}
		out.Flaky += btoi(run.Flaky)
		out.Runs = append(out.Runs, toRunJSON(run))
		if run.FinishedAt != nil && (last == nil || run.FinishedAt.After(*last)) {
			last = run.FinishedAt
		}
	}
	out.Passed = out.Counts[protocol.RunPassed]
	out.Failed = out.Total - out.Passed - out.Counts[protocol.RunQueued] - out.Counts[protocol.RunRunning]
	end := now
	switch {
	case out.Counts[protocol.RunQueued] == out.Total:
		out.Status = protocol.RunQueued
	case out.Counts[protocol.RunQueued]+out.Counts[protocol.RunRunning] > 0:
		out.Status = protocol.RunRunning
	case out.Passed+excused == out.Total:
		out.Status = protocol.RunPassed
	default:
		out.Status = protocol.RunFailed
	}
	if protocol.Final(out.Status) && last != nil {
		end = *last
		out.FinishedAt = timePtr(last)
	}
	if d := end.Sub(b.CreatedAt); d > 0 {
		out.DurationMs = d.Milliseconds()
	}
	return out
}

// loadBatch resolves /batches/{id} for a member of its project.
func (s *Server) loadBatch(w http.ResponseWriter, r *http.Request) (store.Batch, scope, bool) {
	return loadVisible(s, w, r, kindBatch, chi.URLParam(r, "id"), batchNotFound, s.store.GetBatch,
		func(b store.Batch) string { return b.ProjectID },
		func(store.Batch) (bool, string) { return false, "" })
}

func (s *Server) getBatch(w http.ResponseWriter, r *http.Request) {
	b, _, ok := s.loadBatch(w, r)
	if !ok {
		return
	}
	if wantsXML(r) {
		s.serveBatchJUnit(w, r, b, true)
		return
	}
	runs, err := s.store.BatchRuns(r.Context(), b.ID, currentUserID(r))
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toBatchJSON(b, runs, s.Now()))
}

type rerunInput struct {
	FailedOnly bool `json:"failedOnly"`
}

// rerunBatch starts a new batch of the same tests (those of the runs the
// caller sees; with failedOnly, those whose run did not pass) with the same
// options, each at its current version.
func (s *Server) rerunBatch(w http.ResponseWriter, r *http.Request) {
	old, sc, ok := s.loadBatch(w, r)
	if !ok || !allow(w, sc, access.RunTests) {
		return
	}
	var in rerunInput
	if !decode(w, r, &in) {
		return
	}
	runs, err := s.store.BatchRuns(r.Context(), old.ID, currentUserID(r))
	if err != nil {
		s.internal(w, r, err)
		return
	}
	var testIDs []string
	for _, run := range runs {
		if in.FailedOnly && (run.Status == protocol.RunPassed || !protocol.Final(run.Status)) {
			continue
		}
		testIDs = append(testIDs, run.TestID)
	}
	if len(testIDs) == 0 {
		msg := "this batch has no run you can see"
		if in.FailedOnly {
			msg = "no finished run of this batch failed"
		}
		writeIssues(w, batchInvalid, issueList{{Path: "failedOnly", Code: codeEmptyBatch, Message: msg}})
		return
	}
	b := store.Batch{ID: ids.New(kindBatch), ProjectID: old.ProjectID, UserID: currentUserID(r), EnvironmentID: old.EnvironmentID,
		Headed: old.Headed, Screenshots: old.Screenshots, Device: old.Device, Trace: old.Trace, Retries: old.Retries, Source: "rerun", RerunOf: old.ID, CreatedAt: s.Now()}
	s.queueBatch(w, r, sc, b, "tests", testIDs, agentChoice{})
}
