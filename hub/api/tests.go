package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/components"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

const testNotFound = "no such test, or it is not visible to you"

type refJSON struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type lastRunJSON struct {
	RunID  string `json:"runId"`
	Status string `json:"status"`
	Passed int    `json:"passed"`
	Total  int    `json:"total"`
	At     string `json:"at"`
}

type lastSavedJSON struct {
	At string   `json:"at"`
	By *refJSON `json:"by"`
}

// testJSON is a test as lists and GET /api/tests/:id show it.
type testJSON struct {
	ID         string             `json:"id"`
	ProjectID  string             `json:"projectId"`
	Name       string             `json:"name"`
	Suite      *string            `json:"suite"` // null when the test has none
	Tags       []string           `json:"tags"`
	Visibility string             `json:"visibility" enum:"Shared|Private"`
	Owner      *refJSON           `json:"owner"` // null when the owner's account is gone
	Status     string             `json:"status" enum:"Draft|Ready|Deprecated"`
	Version    int                `json:"version"`
	Steps      int                `json:"steps"`
	LastRun    *lastRunJSON       `json:"lastRun"`
	LastSaved  lastSavedJSON      `json:"lastSaved"`
	CreatedAt  string             `json:"createdAt"`
	Can        testCan            `json:"can"`
	Document   *protocol.Document `json:"document,omitempty"`
	// Quarantine: null unless the test is quarantined (docs/history.md).
	Quarantine *quarantineJSON `json:"quarantine"`
	// History: the test list's summary of its last runs; only lists.
	History *listHistoryJSON `json:"history,omitempty"`
}

func ref(id, name string) *refJSON {
	if id == "" {
		return nil
	}
	return &refJSON{ID: id, Name: name}
}

func toTestJSON(t store.Test, can testCan) testJSON {
	out := testJSON{
		ID: t.ID, ProjectID: t.ProjectID, Name: t.Name, Tags: t.Tags, Visibility: t.Visibility,
		Owner: ref(t.OwnerID, t.OwnerName), Status: t.Status, Version: t.Version, Steps: t.StepCount,
		LastSaved: lastSavedJSON{At: t.SavedAt.UTC().Format(timeFormat), By: ref(t.SavedByID, t.SavedByName)},
		CreatedAt: t.CreatedAt.UTC().Format(timeFormat), Can: can,
		Quarantine: toQuarantineJSON(t.Quarantine), History: toListHistory(t.History),
	}
	if t.Suite != "" {
		s := t.Suite
		out.Suite = &s
	}
	if out.Tags == nil {
		out.Tags = []string{}
	}
	if r := t.LastRun; r != nil {
		out.LastRun = &lastRunJSON{RunID: r.ID, Status: r.Status, Passed: r.Passed, Total: r.Total, At: r.At.UTC().Format(timeFormat)}
	}
	return out
}

func etag(t store.Test) string { return fmt.Sprintf(`"v%d-r%d"`, t.Version, t.Revision) }

// loadTest resolves /tests/{id} for the caller (see loadVisible).
func (s *Server) loadTest(w http.ResponseWriter, r *http.Request) (store.Test, scope, bool) {
	return s.loadTestID(w, r, chi.URLParam(r, "id"))
}

// loadTestID resolves a test named in a body (a run, a script).
func (s *Server) loadTestID(w http.ResponseWriter, r *http.Request, id string) (store.Test, scope, bool) {
	return loadVisible(s, w, r, ids.Test, id, testNotFound, s.store.Test,
		func(t store.Test) string { return t.ProjectID },
		func(t store.Test) (bool, string) { return t.Visibility == store.Private, t.OwnerID })
}

// versionDocument reads the document of one stored version of a test.
func (s *Server) versionDocument(ctx context.Context, testID string, version int) (protocol.Document, error) {
	v, err := s.store.TestVersion(ctx, testID, version)
	if err != nil {
		return protocol.Document{}, fmt.Errorf("test version: %w", err)
	}
	return parseStored(v.Document)
}

// readObject decodes a body that must be a JSON object into its fields.
func readObject(w http.ResponseWriter, r *http.Request) (map[string]json.RawMessage, bool) {
	var fields map[string]json.RawMessage
	if !decode(w, r, &fields) {
		return nil, false
	}
	if fields == nil {
		writeError(w, http.StatusBadRequest, codeInvalidJSON, "request body must be a JSON object")
		return nil, false
	}
	return fields, true
}

// documentFrom takes the listed extra fields (status, visibility ...) out
// of a body's fields and parses the rest as a test document of any
// supported DSL version, answering 422 with its issues.
func documentFrom(w http.ResponseWriter, fields map[string]json.RawMessage, extras ...string) (doc protocol.Document, from int, extra map[string]json.RawMessage, ok bool) {
	doc, from, extra, issues := parseDocumentFields(fields, extras...)
	if len(issues) > 0 {
		invalidDocument(issues).write(w)
		return doc, from, nil, false
	}
	return doc, from, extra, true
}

// parseDocumentFields is documentFrom returning the issues instead of
// answering them. A body without "dsl" or "version" is taken as the
// current version, and one without "steps" as having none.
func parseDocumentFields(fields map[string]json.RawMessage, extras ...string) (doc protocol.Document, from int, extra map[string]json.RawMessage, issues []protocol.Issue) {
	extra = map[string]json.RawMessage{}
	rest := make(map[string]json.RawMessage, len(fields))
	for k, v := range fields {
		rest[k] = v
	}
	for _, k := range extras {
		if v, found := rest[k]; found {
			extra[k] = v
			delete(rest, k)
		}
	}
	_, hasDSL := rest["dsl"]
	_, hasVersion := rest["version"]
	if !hasDSL && !hasVersion {
		rest["dsl"] = json.RawMessage(strconv.Itoa(protocol.DSLVersion))
	}
	if _, has := rest["steps"]; !has {
		rest["steps"] = json.RawMessage("[]")
	}
	data, _ := json.Marshal(rest)
	doc, from, issues = protocol.Parse(data)
	return doc, from, extra, issues
}

// stringField reads an optional string extra field.
func stringField(extra map[string]json.RawMessage, key string, issues *issueList) string {
	raw, ok := extra[key]
	if !ok {
		return ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		issues.add(key, "type", key+" must be a string")
	}
	return s
}

func (s *Server) getTest(w http.ResponseWriter, r *http.Request) {
	t, sc, ok := s.loadTest(w, r)
	if !ok {
		return
	}
	s.answerTest(w, r, t, sc, http.StatusOK)
}

// answerTest writes the test with its current document, can and ETag.
func (s *Server) answerTest(w http.ResponseWriter, r *http.Request, t store.Test, sc scope, status int) {
	doc, err := s.versionDocument(r.Context(), t.ID, t.Version)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	u, _ := currentUser(r)
	out := toTestJSON(t, canOnTest(sc, u.ID, t))
	out.Document = &doc
	w.Header().Set("ETag", etag(t))
	writeJSON(w, status, out)
}

func (s *Server) createTest(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.AuthorTests) {
		return
	}
	fields, ok := readObject(w, r)
	if !ok {
		return
	}
	doc, _, extra, ok := documentFrom(w, fields, "visibility")
	if !ok {
		return
	}
	var issues issueList
	vis := stringField(extra, "visibility", &issues)
	if vis == "" {
		vis = store.Shared
	} else if vis != store.Shared && vis != store.Private {
		issues.add("visibility", "enum", "visibility must be Shared or Private")
	}
	if len(issues) > 0 {
		writeIssues(w, "the test is not valid", issues)
		return
	}
	if created := s.saveNewTests(w, r, sc, vis, doc); created != nil {
		s.answerTest(w, r, created[0], sc, http.StatusCreated)
	}
}

// saveNewTests creates tests owned by the caller and answers the first.
// docsValid answers whether docs pass a save's checks, components read
// from src; otherwise it has written the 422 with every document's
// issues (tests[i]. in front when there are several).
func (s *Server) docsValid(w http.ResponseWriter, r *http.Request, src components.Source, projectID string, docs []protocol.Document) bool {
	var issues []protocol.Issue
	for i := range docs {
		is, err := s.documentIssuesFrom(r.Context(), src, projectID, &docs[i])
		if err != nil {
			s.internal(w, r, err)
			return false
		}
		issues = append(issues, withPrefix(is, len(docs) > 1, i)...)
	}
	if len(issues) > 0 {
		invalidDocument(issues).write(w)
		return false
	}
	return true
}

func (s *Server) saveNewTests(w http.ResponseWriter, r *http.Request, sc scope, visibility string, docs ...protocol.Document) []store.Test {
	if !s.docsValid(w, r, s.store, sc.Project.ID, docs) {
		return nil
	}
	u, _ := currentUser(r)
	now := s.Now()
	nts := make([]store.NewTest, len(docs))
	for i, d := range docs {
		nts[i] = store.NewTest{ID: ids.New(ids.Test), ProjectID: sc.Project.ID, OwnerID: u.ID, Visibility: visibility, Content: content(d), Now: now}
	}
	tests, err := s.store.CreateTests(r.Context(), nts...)
	if err != nil {
		s.internal(w, r, err)
		return nil
	}
	return tests
}

// writeTestOutcome answers the result of a store.UpdateTest.
func (s *Server) writeTestOutcome(w http.ResponseWriter, r *http.Request, t store.Test, sc scope, err error, status int) {
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		ae.write(w)
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, testNotFound)
	case err != nil:
		s.internal(w, r, err)
	default:
		s.answerTest(w, r, t, sc, status)
	}
}

func (s *Server) saveTest(w http.ResponseWriter, r *http.Request) {
	t, sc, ok := s.loadTest(w, r)
	if !ok {
		return
	}
	fields, ok := readObject(w, r)
	if !ok {
		return
	}
	req := saveRequest{}
	var issues issueList
	if raw, has := fields["status"]; has {
		if json.Unmarshal(raw, &req.status) != nil || req.status != store.Draft && req.status != store.Ready && req.status != store.Deprecated {
			issues.add("status", "enum", "status must be Draft, Ready or Deprecated")
		}
	}
	if raw, has := fields["note"]; has {
		var note string
		if json.Unmarshal(raw, &note) != nil {
			issues.add("note", "type", "note must be a string")
		}
		req.note = checkNote(&issues, "note", note)
	}
	if len(issues) > 0 {
		writeIssues(w, "the save is not valid", issues)
		return
	}
	docFields := 0
	for k := range fields {
		if k != "status" && k != "note" {
			docFields++
		}
	}
	if docFields > 0 {
		// Parsed here, answered in decideSave: a frozen test answers 409
		// whatever the document's problems.
		doc, _, _, issues := parseDocumentFields(fields, "status", "note")
		if len(issues) == 0 {
			var err error
			if issues, err = s.documentIssues(r.Context(), t.ProjectID, &doc); err != nil {
				s.internal(w, r, err)
				return
			}
		}
		if len(issues) > 0 {
			req.issues = issues
		} else {
			req.doc = &doc
		}
	}
	ifMatch := r.Header.Get("If-Match")
	u, _ := currentUser(r)
	t, err := s.store.UpdateTest(r.Context(), t.ID, u.ID, s.Now(), func(cur store.Test, stored []byte) (store.TestChange, error) {
		if ifMatch != "" && ifMatch != "*" && ifMatch != etag(cur) {
			return store.TestChange{}, refuse(http.StatusPreconditionFailed, "stale", "someone saved a newer version of this test; reload it and apply your change again")
		}
		return decideSave(canOnTest(sc, u.ID, cur), cur, stored, req)
	})
	s.writeTestOutcome(w, r, t, sc, err, http.StatusOK)
}

// deleteTest decides on the locked test (decideDelete inside
// store.DeleteTest): a deprecation or transfer committed while this
// request ran is seen, never raced.
func (s *Server) deleteTest(w http.ResponseWriter, r *http.Request) {
	t, sc, ok := s.loadTest(w, r)
	if !ok {
		return
	}
	userID := currentUserID(r)
	runIDs, ok := s.runsOf(w, r, "test", t.ID) // runs_retention.go
	if !ok {
		return
	}
	err := s.store.DeleteTest(r.Context(), t.ID, func(cur store.Test) error {
		return decideDelete(sc, userID, cur)
	})
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		ae.write(w)
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, testNotFound)
	case err != nil:
		s.internal(w, r, err)
	default:
		s.dropRunArtifacts(r.Context(), runIDs)
		w.WriteHeader(http.StatusNoContent)
	}
}

type validationJSON struct {
	Valid        bool               `json:"valid"`
	Issues       []protocol.Issue   `json:"issues"`
	MigratedFrom *int               `json:"migratedFrom"`
	Document     *protocol.Document `json:"document,omitempty"`
}

func (s *Server) validateTest(w http.ResponseWriter, r *http.Request) {
	t, _, ok := s.loadTest(w, r)
	if !ok {
		return
	}
	fields, ok := readObject(w, r)
	if !ok {
		return
	}
	data, _ := json.Marshal(fields)
	doc, from, issues := protocol.Parse(data)
	if len(issues) == 0 {
		var err error
		if issues, err = s.documentIssues(r.Context(), t.ProjectID, &doc); err != nil {
			s.internal(w, r, err)
			return
		}
	}
	out := validationJSON{Valid: len(issues) == 0, Issues: issues}
	if out.Issues == nil {
		out.Issues = []protocol.Issue{}
	}
	if from != 0 && from != protocol.DSLVersion {
		out.MigratedFrom = &from
	}
	if out.Valid {
		out.Document = &doc
	}
	writeJSON(w, http.StatusOK, out)
}

// withPrefix names which of several documents an issue is about.
func withPrefix(issues []protocol.Issue, many bool, i int) []protocol.Issue {
	if !many {
		return issues
	}
	for k := range issues {
		issues[k].Path = fmt.Sprintf("tests[%d].%s", i, issues[k].Path)
	}
	return issues
}
