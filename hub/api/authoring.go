package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/authoring"
	"github.com/testautomation/ta/hub/dispatch"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// Recording, picking and trying scripts (DESIGN.md, "Authoring on the
// agent"): the hub checks and relays, hub/authoring keeps the sessions, a
// connected agent of the caller drives the browser.

const (
	kindRecording = "rec"
	kindPicker    = "pck"

	recordingNotFound = "no such recording"
	pickerNotFound    = "no such picker session"
	codeAgentNeeded   = "agent_needed"
	maxStartURL       = 2048
)

type recordStartRequest struct {
	URL           string `json:"url" openapi:"required"`
	EnvironmentID string `json:"environmentId"`
	TestID        string `json:"testId"`
	Headed        *bool  `json:"headed"`
}

type pickStartRequest struct {
	URL           string `json:"url"`
	RecordingID   string `json:"recordingId"`
	EnvironmentID string `json:"environmentId"`
	Headed        *bool  `json:"headed"`
	// SessionID picks in an editor's live session's page, at the step
	// StepID of Document (sessions_live_pick.go).
	SessionID string          `json:"sessionId"`
	StepID    string          `json:"stepId"`
	Document  json.RawMessage `json:"document"`
}

type tryRequest struct {
	Code          string `json:"code" openapi:"required"`
	URL           string `json:"url"`
	RecordingID   string `json:"recordingId"`
	EnvironmentID string `json:"environmentId"`
	TimeoutMs     *int   `json:"timeoutMs"`
}

// authorEnv is what an authoring request takes from its environment.
type authorEnv struct {
	id      string
	env     store.Environment
	vars    map[string]string
	secrets map[string]string
}

// loadAuthorEnv resolves the optional environment of an authoring request
// (422 when it is not one of the project's) with its variables and the
// secrets want names. ok is false when an answer was written.
func (s *Server) loadAuthorEnv(w http.ResponseWriter, r *http.Request, sc scope, id string, want func(env store.Environment, name string) bool) (authorEnv, bool) {
	if id == "" {
		return authorEnv{vars: map[string]string{}, secrets: map[string]string{}}, true
	}
	env, err := store.Environment{}, store.ErrNotFound
	if ids.Valid("env", id) {
		env, err = s.store.Environment(r.Context(), id)
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, r, err)
		return authorEnv{}, false
	}
	if err != nil || !s.bodyRecord(r, sc, env.ProjectID) {
		writeIssues(w, "the request is not valid", issueList{{Path: "environmentId", Code: "unknown", Message: "no such environment in this project"}})
		return authorEnv{}, false
	}
	vars, secrets, err := s.Dispatch.EnvironmentValues(r.Context(), env, func(name string) bool { return want(env, name) })
	if errors.Is(err, dispatch.ErrRefused) {
		writeError(w, http.StatusConflict, "secrets_unavailable", strings.TrimPrefix(err.Error(), dispatch.ErrRefused.Error()+": "))
		return authorEnv{}, false
	}
	if err != nil {
		s.internal(w, r, err)
		return authorEnv{}, false
	}
	return authorEnv{id: id, env: env, vars: vars, secrets: secrets}, true
}

// startURL resolves a start address: absolute http(s), or relative to the
// environment's base URL (also written ${baseUrl}/...); empty takes the
// base URL itself. bad is nil when it is fine; an address the browser may
// not open (protocol.RefusedScheme) is refused with code url_scheme.
func startURL(raw, base string, required bool) (string, *Issue) {
	raw = strings.TrimSpace(raw)
	issue := func(code, msg string) (string, *Issue) { return "", &Issue{Path: "url", Code: code, Message: msg} }
	if len(raw) > maxStartURL {
		return issue("format", fmt.Sprintf("url is longer than %d characters", maxStartURL))
	}
	if scheme := protocol.RefusedScheme(raw); scheme != "" {
		return issue(protocol.CodeURLScheme, fmt.Sprintf("url is a %s: address: %s", clipText(scheme, 40), protocol.OpenRule))
	}
	if strings.ContainsAny(raw, "\x00\r\n") {
		return issue("format", "url must be one line of text")
	}
	rest, templated := strings.CutPrefix(raw, "${baseUrl}")
	if raw == "" && base == "" {
		if required {
			return issue("format", "url is required: an http(s) address, or a path relative to the environment's base URL")
		}
		return "", nil
	}
	if !templated {
		if u, err := url.Parse(raw); err == nil && u.IsAbs() {
			if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return issue("format", "url must be an http or https address")
			}
			return raw, nil
		}
	}
	if base == "" {
		// No environment chosen is the usual cause, not an environment
		// without a base URL: say what to do (Issue 27, defect 3).
		if templated {
			return issue("format", "choose an environment: this url uses ${baseUrl}, and no chosen environment gives a baseUrl")
		}
		return issue("format", "url is relative: choose an environment that gives a baseUrl, or give an address starting with http:// or https://")
	}
	b, err := url.Parse(base)
	if err != nil || !b.IsAbs() || (b.Scheme != "http" && b.Scheme != "https") {
		code := "format"
		if protocol.RefusedScheme(base) != "" {
			code = protocol.CodeURLScheme
		}
		return issue(code, "the environment's base URL is not an http(s) address: "+protocol.OpenRule)
	}
	if rest == "" && !templated {
		rest = raw
	}
	if rest == "" {
		return base, nil
	}
	return strings.TrimRight(base, "/") + "/" + strings.TrimLeft(rest, "/"), nil
}

// authorError answers a hub/authoring error.
func (s *Server) authorError(w http.ResponseWriter, r *http.Request, err error, notFound string) {
	var ae *authoring.AgentError
	switch {
	case errors.As(err, &ae):
		writeError(w, http.StatusBadGateway, "agent_failed", "the agent could not do it: "+protocol.CleanText(ae.Message))
	case errors.Is(err, authoring.ErrAgentNeeded):
		writeError(w, http.StatusConflict, codeAgentNeeded, err.Error())
	case errors.Is(err, authoring.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, notFound)
	case errors.Is(err, authoring.ErrEnded):
		writeError(w, http.StatusConflict, "session_ended", err.Error())
	case errors.Is(err, authoring.ErrTooMany):
		writeError(w, http.StatusConflict, "too_many_sessions", err.Error())
	case errors.Is(err, authoring.ErrNoPreview):
		writeError(w, http.StatusNotFound, "no_preview", err.Error())
	case errors.Is(err, authoring.ErrAgentLost):
		writeError(w, http.StatusConflict, "agent_lost", err.Error())
	case errors.Is(err, authoring.ErrTimeout):
		writeError(w, http.StatusGatewayTimeout, "agent_timeout", err.Error())
	case errors.Is(err, context.Canceled):
		// The caller went away.
	default:
		s.internal(w, r, err)
	}
}

// sessionOwner is what scoping needs of a session.
type sessionOwner struct{ user, project string }

// loadSession resolves a recording or picker addressed by {id} for the
// caller: someone else's is not found, another project's is not found and
// audited.
func (s *Server) loadSession(w http.ResponseWriter, r *http.Request, kind, notFound string) (string, bool) {
	id := chi.URLParam(r, "id")
	get := func(_ context.Context, id string) (sessionOwner, error) {
		user, project, k, ok := s.authoring.Owner(id)
		if !ok || k != map[string]string{kindRecording: protocol.AuthorRecord, kindPicker: protocol.AuthorPick}[kind] {
			return sessionOwner{}, store.ErrNotFound
		}
		return sessionOwner{user, project}, nil
	}
	_, sc, ok := loadVisible(s, w, r, kind, id, notFound, get,
		func(o sessionOwner) string { return o.project },
		func(o sessionOwner) (bool, string) { return true, o.user })
	if !ok {
		return "", false
	}
	if !allow(w, sc, access.AuthorTests) {
		return "", false
	}
	return id, true
}

// substituted says which secrets a recording or picker compares what it
// captures with, to write them as ${secrets.NAME}: every one of the
// environment's (compared on the hub, never sent to the agent), but none
// of a protected environment unless the caller may use its secrets, so a
// recording is no oracle for guessing them.
func (s *Server) substituted(sc scope) func(store.Environment, string) bool {
	return func(env store.Environment, _ string) bool {
		return s.Secrets != nil && (!env.Protected || access.MayUseProtected(sc.Role, access.ReadyStatus))
	}
}

// recordStart opens a recording on a connected agent of the caller.
func (s *Server) recordStart(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.AuthorTests) {
		return
	}
	var in recordStartRequest
	if !decode(w, r, &in) {
		return
	}
	if in.TestID != "" {
		if _, _, ok := s.loadTestID(w, r, in.TestID); !ok {
			return
		}
	}
	env, ok := s.loadAuthorEnv(w, r, sc, in.EnvironmentID, s.substituted(sc))
	if !ok {
		return
	}
	u, bad := startURL(in.URL, env.vars["baseUrl"], true)
	if bad != nil {
		writeIssues(w, "the recording is not valid", issueList{*bad})
		return
	}
	sess, err := s.authoring.Start(r.Context(), authoring.Start{Kind: protocol.AuthorRecord, UserID: currentUserID(r), ProjectID: sc.Project.ID,
		EnvironmentID: env.id, TestID: in.TestID, URL: u, Headed: in.Headed == nil || *in.Headed,
		Subst: authoring.Substitution{BaseURL: env.vars["baseUrl"], Secrets: env.secrets}})
	if err != nil {
		s.authorError(w, r, err, recordingNotFound)
		return
	}
	s.noteSession(r, sess.ID)
	v, _ := s.authoring.Recording(sess.ID)
	writeJSON(w, http.StatusCreated, v)
}

func (s *Server) getRecording(w http.ResponseWriter, r *http.Request) {
	id, ok := s.loadSession(w, r, kindRecording, recordingNotFound)
	if !ok {
		return
	}
	v, _ := s.authoring.Recording(id)
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) stopRecording(w http.ResponseWriter, r *http.Request) {
	id, ok := s.loadSession(w, r, kindRecording, recordingNotFound)
	if !ok {
		return
	}
	v, err := s.authoring.Stop(r.Context(), id)
	if err != nil {
		s.authorError(w, r, err, recordingNotFound)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) recordingPreview(w http.ResponseWriter, r *http.Request) {
	id, ok := s.loadSession(w, r, kindRecording, recordingNotFound)
	if !ok {
		return
	}
	png, err := s.authoring.Preview(r.Context(), id)
	if err != nil {
		s.authorError(w, r, err, recordingNotFound)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "sandbox")
	w.Header().Set("Content-Length", strconv.Itoa(len(png)))
	_, _ = w.Write(png)
}

// recordingEvents streams a recording's captured steps and statuses; a
// client resumes with Last-Event-ID and gets the latest of every step
// changed since. It ends when the caller may no longer see it (streams.go).
func (s *Server) recordingEvents(w http.ResponseWriter, r *http.Request) {
	id, ok := s.loadSession(w, r, kindRecording, recordingNotFound)
	if !ok {
		return
	}
	s.streamSession(w, r, id)
}

// pickStart opens a picker: in a recording's page, or a fresh one at url.
func (s *Server) pickStart(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.AuthorTests) {
		return
	}
	var in pickStartRequest
	if !decode(w, r, &in) {
		return
	}
	if in.SessionID != "" {
		s.pickOnLive(w, r, sc, in)
		return
	}
	if in.RecordingID != "" && in.URL != "" {
		writeIssues(w, "the picker is not valid", issueList{{Path: "url", Code: "exclusive", Message: "send url or recordingId, not both"}})
		return
	}
	if in.RecordingID != "" && !s.ownRecording(w, r, sc, in.RecordingID) {
		return
	}
	env, ok := s.loadAuthorEnv(w, r, sc, in.EnvironmentID, s.substituted(sc))
	if !ok {
		return
	}
	u := ""
	if in.RecordingID == "" {
		var bad *Issue
		if u, bad = startURL(in.URL, env.vars["baseUrl"], true); bad != nil {
			writeIssues(w, "the picker is not valid", issueList{*bad})
			return
		}
	}
	sess, err := s.authoring.Start(r.Context(), authoring.Start{Kind: protocol.AuthorPick, UserID: currentUserID(r), ProjectID: sc.Project.ID,
		EnvironmentID: env.id, URL: u, Recording: in.RecordingID, Headed: in.Headed == nil || *in.Headed,
		Subst: authoring.Substitution{BaseURL: env.vars["baseUrl"], Secrets: env.secrets}})
	if err != nil {
		s.authorError(w, r, err, recordingNotFound)
		return
	}
	s.noteSession(r, sess.ID)
	v, _ := s.authoring.Picker(sess.ID)
	writeJSON(w, http.StatusCreated, v)
}

// ownRecording answers false with 422 unless id is a recording of the
// caller in this project (another project's is audited).
func (s *Server) ownRecording(w http.ResponseWriter, r *http.Request, sc scope, id string) bool {
	user, project, kind, ok := s.authoring.Owner(id)
	if ok && user == currentUserID(r) && kind == protocol.AuthorRecord && s.bodyRecord(r, sc, project) {
		return true
	}
	writeIssues(w, "the request is not valid", issueList{{Path: "recordingId", Code: "unknown", Message: "no such recording of yours in this project"}})
	return false
}

func (s *Server) getPicker(w http.ResponseWriter, r *http.Request) {
	id, ok := s.loadSession(w, r, kindPicker, pickerNotFound)
	if !ok {
		return
	}
	v, _ := s.authoring.Picker(id)
	writeJSON(w, http.StatusOK, v)
}

type pickModeInput struct {
	Mode string `json:"mode"`
}

func (s *Server) pickMode(w http.ResponseWriter, r *http.Request) {
	var in pickModeInput
	if !decode(w, r, &in) {
		return
	}
	id, ok := s.loadSession(w, r, kindPicker, pickerNotFound)
	if !ok {
		return
	}
	switch in.Mode {
	case protocol.ModePick, protocol.ModeInspect, protocol.ModeOff:
	default:
		writeIssues(w, "the mode is not valid", issueList{{Path: "mode", Code: "enum", Message: "mode must be pick, inspect or off"}})
		return
	}
	v, err := s.authoring.Mode(r.Context(), id, in.Mode)
	if err != nil {
		s.authorError(w, r, err, pickerNotFound)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) closePicker(w http.ResponseWriter, r *http.Request) {
	id, ok := s.loadSession(w, r, kindPicker, pickerNotFound)
	if !ok {
		return
	}
	if err := s.authoring.Close(r.Context(), id); err != nil {
		s.authorError(w, r, err, pickerNotFound)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// secretsIn names the secrets a script refers to: ${secrets.NAME} or
// vars.secrets.NAME (how a script step reads them).
var secretsIn = regexp.MustCompile(`secrets\.([A-Za-z_][A-Za-z0-9_]*)`)

// tryScript runs a snippet on an agent of the caller.
func (s *Server) tryScript(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.AuthorTests) {
		return
	}
	var in tryRequest
	if !decode(w, r, &in) {
		return
	}
	var issues issueList
	switch {
	case strings.TrimSpace(in.Code) == "":
		issues.add("code", "required", "code is required: the body of a function run in the page")
	case len(in.Code) > protocol.MaxTryCode:
		issues.add("code", "too_long", fmt.Sprintf("code is longer than %d bytes", protocol.MaxTryCode))
	case strings.ContainsRune(in.Code, 0):
		issues.add("code", "format", "code must not contain NUL characters")
	}
	timeout := protocol.DefaultTryTimeoutMs
	if in.TimeoutMs != nil {
		timeout = *in.TimeoutMs
		if timeout < 1 || timeout > protocol.MaxTryTimeoutMs {
			issues.add("timeoutMs", "range", fmt.Sprintf("timeoutMs must be between 1 and %d", protocol.MaxTryTimeoutMs))
		}
	}
	if in.RecordingID != "" && in.URL != "" {
		issues.add("url", "exclusive", "send url or recordingId, not both")
	}
	if len(issues) > 0 {
		writeIssues(w, "the script cannot be tried", issues)
		return
	}
	if in.RecordingID != "" && !s.ownRecording(w, r, sc, in.RecordingID) {
		return
	}
	if in.RecordingID != "" && in.EnvironmentID == "" {
		in.EnvironmentID = s.authoring.EnvironmentOf(in.RecordingID) // the recording's variables and secrets
	}
	want := map[string]bool{}
	for _, m := range secretsIn.FindAllStringSubmatch(in.Code, -1) {
		want[m[1]] = true
	}
	env, ok := s.loadAuthorEnv(w, r, sc, in.EnvironmentID, func(_ store.Environment, n string) bool { return want[n] })
	if !ok {
		return
	}
	if len(env.secrets) > 0 && env.env.Protected {
		if why := dispatch.ProtectedRefusal(env.env, sc.Role, "Draft", "your"); why != "" {
			writeError(w, http.StatusForbidden, codeEnvironmentProtected, why)
			return
		}
	}
	u := ""
	if in.RecordingID == "" {
		var bad *Issue
		if u, bad = startURL(in.URL, env.vars["baseUrl"], false); bad != nil {
			writeIssues(w, "the script cannot be tried", issueList{*bad})
			return
		}
	}
	res, err := s.authoring.Try(r.Context(), currentUserID(r), in.RecordingID, protocol.TryRequest{Code: in.Code, URL: u,
		TimeoutMs: timeout, Variables: env.vars, Secrets: env.secrets})
	if err != nil {
		s.authorError(w, r, err, recordingNotFound)
		return
	}
	writeJSON(w, http.StatusOK, res)
}
