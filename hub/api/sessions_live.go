package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/authoring"
	"github.com/testautomation/ta/hub/components"
	"github.com/testautomation/ta/hub/dispatch"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// The editor's live session (DESIGN.md, "Agents chosen, live view,
// step-by-step runs"): a page kept open on the caller's agent, on which
// the editor runs one step, up to a step, or from a step on, with events
// as a run's; hub/authoring keeps it (kind live, ses_...).

// errAnswered says a helper has written the answer already.
var errAnswered = errors.New("answered")

const (
	kindLive        = "ses"
	liveNotFound    = "no such session"
	codeSessionBusy = "session_busy"
)

type liveStartRequest struct {
	TestID        string `json:"testId" openapi:"required"`
	EnvironmentID string `json:"environmentId"`
}

// liveRunRequest is POST /api/sessions/:id/run. Document is the editor's
// current document (maybe unsaved); the test's saved one when absent.
type liveRunRequest struct {
	From           string          `json:"from"`
	To             string          `json:"to"`
	StepIDs        []string        `json:"stepIds"`
	Document       json.RawMessage `json:"document"`
	PauseOnFailure bool            `json:"pauseOnFailure"`
}

// liveRunDoc is liveRunRequest as the OpenAPI document shows it.
type liveRunDoc struct {
	From           string             `json:"from"`
	To             string             `json:"to"`
	StepIDs        []string           `json:"stepIds"`
	Document       *protocol.Document `json:"document"`
	PauseOnFailure bool               `json:"pauseOnFailure"`
}

// loadLive resolves the live session {id} for the caller: someone else's
// is not found, another project's is not found and audited.
func (s *Server) loadLive(w http.ResponseWriter, r *http.Request) (string, scope, bool) {
	id := chi.URLParam(r, "id")
	get := func(_ context.Context, id string) (sessionOwner, error) {
		user, project, k, ok := s.authoring.Owner(id)
		if !ok || k != protocol.AuthorLive {
			return sessionOwner{}, store.ErrNotFound
		}
		return sessionOwner{user, project}, nil
	}
	_, sc, ok := loadVisible(s, w, r, kindLive, id, liveNotFound, get,
		func(o sessionOwner) string { return o.project },
		func(o sessionOwner) (bool, string) { return true, o.user })
	if !ok || !allow(w, sc, access.AuthorTests) {
		return "", sc, false
	}
	return id, sc, true
}

// liveStart opens a live session for a test on a connected agent of the
// caller, who must be able to author and run it.
func (s *Server) liveStart(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.AuthorTests) || !allow(w, sc, access.RunTests) {
		return
	}
	var in liveStartRequest
	if !decode(w, r, &in) {
		return
	}
	if in.TestID == "" {
		writeIssues(w, "the session is not valid", issueList{{Path: "testId", Code: "required", Message: "testId is required"}})
		return
	}
	if _, _, ok := s.loadTestID(w, r, in.TestID); !ok {
		return
	}
	env, ok := s.loadAuthorEnv(w, r, sc, in.EnvironmentID, s.substituted(sc))
	if !ok {
		return
	}
	sess, err := s.authoring.Start(r.Context(), authoring.Start{Kind: protocol.AuthorLive, UserID: currentUserID(r), ProjectID: sc.Project.ID,
		EnvironmentID: env.id, TestID: in.TestID, Subst: authoring.Substitution{BaseURL: env.vars["baseUrl"], Secrets: env.secrets}})
	if err != nil {
		s.authorError(w, r, err, liveNotFound)
		return
	}
	s.noteSession(r, sess.ID)
	v, _ := s.authoring.Live(sess.ID)
	writeJSON(w, http.StatusCreated, v)
}

func (s *Server) getLive(w http.ResponseWriter, r *http.Request) {
	id, _, ok := s.loadLive(w, r)
	if !ok {
		return
	}
	v, _ := s.authoring.Live(id)
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) closeLive(w http.ResponseWriter, r *http.Request) {
	id, _, ok := s.loadLive(w, r)
	if !ok {
		return
	}
	if err := s.authoring.Close(r.Context(), id); err != nil {
		s.authorError(w, r, err, liveNotFound)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// liveRun runs steps of the editor's document on the session's page:
// stepIds (those steps, on the page as it is), from (from that step on,
// on the page as it is), to (from the first step up to it, on a fresh
// page), or everything on a fresh page.
func (s *Server) liveRun(w http.ResponseWriter, r *http.Request) {
	var in liveRunRequest
	if !decode(w, r, &in) {
		return
	}
	// A hostile document is refused with its issues before anything else.
	sent, ok := parseLiveDocument(w, in.Document)
	if !ok {
		return
	}
	id, sc, ok := s.loadLive(w, r)
	if !ok || !allow(w, sc, access.RunTests) {
		return
	}
	doc, ok := s.liveDocument(w, r, id, sent)
	if !ok {
		return
	}
	first, last, fresh, issues := liveRange(doc, in)
	if len(issues) > 0 {
		writeIssues(w, "the steps to run are not valid", issues)
		return
	}
	picked := doc.Steps[first : last+1]
	next, known := "", true
	if last+1 < len(doc.Steps) {
		next = doc.Steps[last+1].ID
	}
	if len(in.StepIDs) > 0 {
		want := map[string]bool{}
		for _, sid := range in.StepIDs {
			want[sid] = true
		}
		picked = pickSteps(doc.Steps, want)
		// After a step inside a block, the page stands somewhere in the
		// block: not before a top-level step the session could name.
		known = !livePlaces(doc.Steps)[picked[len(picked)-1].ID].inner
	}
	if _, err := s.startLiveRun(w, r, sc, id, doc, picked, next, known, fresh, in.PauseOnFailure); err != nil {
		return
	}
	v, _ := s.authoring.Live(id)
	writeJSON(w, http.StatusAccepted, v)
}

// liveRange chooses the steps a run request names: the indexes of the
// first and last top-level steps (for stepIds, the last of them; for a
// step inside a block, the block at the top around it) and whether the
// page is fresh.
func liveRange(doc protocol.Document, in liveRunRequest) (first, last int, fresh bool, issues issueList) {
	places := livePlaces(doc.Steps)
	index := func(path, id string) int {
		if p, ok := places[id]; ok {
			return p.top
		}
		issues.add(path, "unknown", fmt.Sprintf("no step %q in the document", clipText(id, 80)))
		return -1
	}
	if len(doc.Steps) == 0 {
		issues.add("document.steps", "required", "the document has no steps to run")
		return 0, 0, false, issues
	}
	if len(in.StepIDs) > 0 {
		if in.From != "" || in.To != "" {
			issues.add("stepIds", "exclusive", "send stepIds, or from and to, not both")
			return 0, 0, false, issues
		}
		if len(in.StepIDs) > protocol.MaxLiveSteps {
			issues.add("stepIds", "too_long", fmt.Sprintf("at most %d steps at once", protocol.MaxLiveSteps))
			return 0, 0, false, issues
		}
		first, last = len(doc.Steps), -1
		for i, sid := range in.StepIDs {
			if k := index(fmt.Sprintf("stepIds[%d]", i), sid); k >= 0 {
				first, last = min(first, k), max(last, k)
			}
		}
		return first, last, false, issues
	}
	first, last, fresh = 0, len(doc.Steps)-1, in.From == ""
	if in.From != "" {
		first = index("from", in.From)
	}
	if in.To != "" {
		last = index("to", in.To)
	}
	if len(issues) == 0 && first > last {
		issues.add("to", "range", "to comes before from in the document")
	}
	return first, last, fresh, issues
}

// parseLiveDocument parses and validates the editor's document of a
// request (422 with its issues under document.); nil when none was sent.
func parseLiveDocument(w http.ResponseWriter, raw json.RawMessage) (*protocol.Document, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, true
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil || fields == nil {
		writeIssues(w, "the document is not valid", issueList{{Path: "document", Code: "type", Message: "document must be a test document (a JSON object)"}})
		return nil, false
	}
	doc, _, _, issues := parseDocumentFields(fields)
	if len(issues) == 0 {
		issues = doc.Validate()
	}
	if len(issues) > 0 {
		for i := range issues {
			issues[i].Path = "document." + issues[i].Path
		}
		invalidDocument(issues).write(w)
		return nil, false
	}
	return &doc, true
}

// liveDocument is the document a live run uses: the one sent (the
// editor's, maybe unsaved, parsed by parseLiveDocument), else the test's
// saved one. The test must still be the caller's to see.
func (s *Server) liveDocument(w http.ResponseWriter, r *http.Request, id string, sent *protocol.Document) (protocol.Document, bool) {
	v, _ := s.authoring.Live(id)
	t, _, ok := s.loadTestID(w, r, v.TestID)
	if !ok {
		return protocol.Document{}, false
	}
	if sent != nil {
		return *sent, true
	}
	doc, err := s.versionDocument(r.Context(), t.ID, t.Version)
	if err != nil {
		s.internal(w, r, err)
		return protocol.Document{}, false
	}
	return doc, true
}

// startLiveRun expands the steps to run, gives them the environment's
// variables and the secrets they refer to (as a run's job), and sends
// them; done is closed once they ran. next is the step the page stands
// before once they passed ("" after the last), when known. An answer was
// written when err is not nil.
func (s *Server) startLiveRun(w http.ResponseWriter, r *http.Request, sc scope, id string, doc protocol.Document, steps []protocol.Step, next string, known, fresh, pause bool) (<-chan struct{}, error) {
	sub := doc
	sub.Steps = steps
	expanded, err := components.Expand(r.Context(), s.store, sc.Project.ID, sub)
	if errors.Is(err, components.ErrUnavailable) {
		writeError(w, http.StatusUnprocessableEntity, codeComponentUnavailable, strings.TrimPrefix(err.Error(), components.ErrUnavailable.Error()+": "))
		return nil, err
	}
	if err != nil {
		s.internal(w, r, err)
		return nil, err
	}
	expanded = protocol.ExplicitSecretRefs(expanded)
	used := dispatch.SecretRefs(expanded)
	env, ok := s.loadAuthorEnv(w, r, sc, s.authoring.EnvironmentOf(id), func(_ store.Environment, n string) bool { return used[n] })
	if !ok {
		return nil, errAnswered
	}
	if len(env.secrets) > 0 && env.env.Protected {
		// An unsaved document is not a reviewed Ready version.
		if why := dispatch.ProtectedRefusal(env.env, sc.Role, store.Draft, "your"); why != "" {
			writeError(w, http.StatusForbidden, codeEnvironmentProtected, why)
			return nil, errAnswered
		}
	}
	ids := make([]string, 0, len(steps))
	for _, st := range steps {
		ids = append(ids, st.ID)
	}
	done, err := s.authoring.RunLive(r.Context(), id, authoring.LiveRun{
		Run: protocol.LiveRun{Document: expanded, Fresh: fresh, Variables: env.vars, Secrets: env.secrets, Screenshots: true},
		IDs: ids, Next: next, NextUnknown: !known, Pause: pause})
	if err != nil {
		s.liveError(w, r, err)
		return nil, err
	}
	return done, nil
}

func (s *Server) liveError(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, authoring.ErrBusy):
		writeError(w, http.StatusConflict, codeSessionBusy, err.Error())
	case errors.Is(err, authoring.ErrNotReady):
		writeError(w, http.StatusConflict, "session_starting", err.Error())
	default:
		s.authorError(w, r, err, liveNotFound)
	}
}
