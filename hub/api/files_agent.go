package api

// An agent fetches the project files its run's upload steps name:
//
//	GET /api/agent/files/{id}?run=run_...   Authorization: Agent <token>
//	GET /api/agent/files/{id}?session=ses_...   (the editor's live session)
//
// The agent's own token (not a user's session or API token) authenticates
// it, and the file is served only when the run is assigned to that agent
// and not finished, the run's document (as it runs: components expanded)
// has an upload step naming the file, and the file is of the run's
// project. An authoring session (?session=rec_..., pck_..., ses_...) may
// also read the files a person chose through its live view
// (sessions_view_files.go), until it ends. Anything else answers 404 (a file of another project is
// audited: a document cannot reach it). A live session's steps are
// checked the same way: the session is the agent's, running steps now,
// and they upload the file. So an agent reads no file but those of the
// runs and sessions dispatched to it, for as long as they run.

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/audit"
	"github.com/testautomation/ta/hub/auth"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

const agentFilesPrefix = "/api/agent/files/"

// agentFileRoute is the one route besides the connection that an agent
// calls with its own token: authenticate lets it through to agentFile,
// which checks that token.
func agentFileRoute(r *http.Request) bool {
	if r.Method == http.MethodPost && r.URL.Path == agentOfferPath { // a file offer (files_offer.go)
		return true
	}
	return r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, agentFilesPrefix) &&
		!strings.Contains(r.URL.Path[len(agentFilesPrefix):], "/")
}

// agentToken is the token of "Authorization: Agent <token>".
func agentToken(h string) (string, bool) {
	scheme, rest, _ := strings.Cut(strings.TrimSpace(h), " ")
	rest = strings.TrimSpace(rest)
	return rest, strings.EqualFold(scheme, "Agent") && rest != "" && len(rest) <= 200
}

// uploadFiles lists the file ids the upload steps of steps name, inside
// blocks too.
func uploadFiles(steps []protocol.Step) []string {
	var out []string
	for _, st := range protocol.AllSteps(steps) {
		if st.Type == "upload" {
			out = append(out, st.Files...)
		}
	}
	return out
}

func (s *Server) agentFile(w http.ResponseWriter, r *http.Request) {
	const notFound = "no run or live session of this agent in progress uploads this file"
	fileID, runID := chi.URLParam(r, "id"), r.URL.Query().Get("run")
	if !ids.Valid(artifacts.FileKind, fileID) {
		writeError(w, http.StatusNotFound, codeNotFound, notFound)
		return
	}
	token, ok := agentToken(r.Header.Get("Authorization"))
	if !ok {
		writeError(w, http.StatusUnauthorized, codeUnauthenticated, "send the agent's token as Authorization: Agent <token>")
		return
	}
	agentID, err := s.store.AgentIDByToken(r.Context(), auth.Digest(token), s.Now())
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusUnauthorized, codeUnauthenticated, "this agent token is not valid")
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	projectID, ok, err := s.agentMayRead(r, agentID, fileID, runID, r.URL.Query().Get("session"))
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if !ok {
		writeError(w, http.StatusNotFound, codeNotFound, notFound)
		return
	}
	f, err := s.store.FileByID(r.Context(), fileID)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "file_gone", "the file "+fileID+" is not among the project's files: it was deleted")
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if f.ProjectID != projectID {
		s.audit(r, audit.Entry{Event: "cross_project_refused", User: "agent " + agentID, RecordProject: f.ProjectID, HeaderProject: projectID})
		writeError(w, http.StatusNotFound, "file_gone", "the file "+fileID+" is not among the project's files: it was deleted")
		return
	}
	s.serveFile(w, r, f)
}

// agentMayRead decides whether the agent may read the file for a run
// (?run=: assigned to it, not finished, its document uploads the file) or
// for the editor's live session (?session=: the agent's, running steps
// that upload the file), and answers the project the file must be of.
func (s *Server) agentMayRead(r *http.Request, agentID, fileID, runID, sessionID string) (string, bool, error) {
	switch {
	case runID != "" && sessionID != "":
		return "", false, nil
	case sessionID != "":
		if s.authoring == nil || !ids.Valid("ses", sessionID) && !ids.Valid("rec", sessionID) && !ids.Valid("pck", sessionID) {
			return "", false, nil
		}
		projectID, ok := s.authoring.LiveFile(sessionID, agentID, fileID)
		return projectID, ok, nil
	case !ids.Valid("run", runID):
		return "", false, nil
	}
	projectID, raw, err := s.store.AgentRunDocument(r.Context(), runID, agentID)
	if errors.Is(err, store.ErrNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	var doc protocol.Document
	if json.Unmarshal(raw, &doc) != nil || !slices.Contains(uploadFiles(doc.Steps), fileID) {
		return "", false, nil
	}
	return projectID, true, nil
}
