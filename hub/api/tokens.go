package api

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/auth"
	"github.com/testautomation/ta/hub/dispatch"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

// API tokens: "Authorization: Bearer tat_..." authenticates API routes as
// the token's user, with the user's current role in each project capped by
// the token's role, and only in the token's project when it names one
// (projectRole). Tokens are managed only from a signed-in session
// (sessionOnly).

const kindToken = "tok"

// Error codes of API tokens.
const (
	codeTokenInvalid    = "token_invalid"
	codeTokenExpired    = "token_expired"
	codeTokenRevoked    = "token_revoked"
	codeTokenProject    = "token_project"
	codeSessionRequired = "session_required"
	codeRoleTooHigh     = "role_too_high"
	codeRateLimited     = "rate_limited"
)

// Bad-token limit: refused tokens from one client address.
const (
	tokenRefusalWindow = 15 * time.Minute
	tokenRefusalLimit  = 20
)

// tokenRefusal says why an API token was refused: its error code
// (codeTokenInvalid, codeTokenExpired, codeTokenRevoked, or
// codeRateLimited with the wait) and what to do.
type tokenRefusal struct {
	code, msg string
	wait      time.Duration
}

// checkAPIToken looks an API token up for a client address (the API's
// bearer check and a CI agent's pairing both use it). A token it refuses
// counts against the address's bad-token limit; err is for the database.
func (s *Server) checkAPIToken(ctx context.Context, raw, from string) (store.User, store.APIToken, *tokenRefusal, error) {
	var u store.User
	var tok store.APIToken
	err := store.ErrNotFound
	if digest, ok := auth.APITokenDigest(raw); ok {
		u, tok, err = s.store.TokenUser(ctx, digest, s.Now(), from)
	}
	if err == nil {
		return u, tok, nil, nil
	}
	if !errors.Is(err, store.ErrNotFound) && !errors.Is(err, store.ErrTokenExpired) && !errors.Is(err, store.ErrTokenRevoked) {
		return u, tok, nil, err
	}
	wait, lerr := s.store.RefuseToken(ctx, from, s.Now(), tokenRefusalWindow, tokenRefusalLimit)
	switch {
	case lerr != nil:
		return u, tok, nil, lerr
	case wait > 0:
		return u, tok, &tokenRefusal{code: codeRateLimited, wait: wait,
			msg: "too many requests with bad API tokens from your address; try again later"}, nil
	case errors.Is(err, store.ErrTokenRevoked):
		return u, tok, &tokenRefusal{code: codeTokenRevoked, msg: "this API token was revoked; create a new one in your profile"}, nil
	case errors.Is(err, store.ErrTokenExpired):
		return u, tok, &tokenRefusal{code: codeTokenExpired, msg: "this API token expired on " +
			tok.ExpiresAt.UTC().Format(time.RFC3339) + "; create a new one in your profile"}, nil
	}
	return u, tok, &tokenRefusal{code: codeTokenInvalid,
		msg: "the API token is malformed or unknown: send Authorization: Bearer tat_... with a token created in your profile"}, nil
}

// bearer authenticates a request by its API token. On failure it has
// answered: 401 naming why, or 429 when the address sent too many bad
// tokens.
func (s *Server) bearer(w http.ResponseWriter, r *http.Request, raw string) (store.User, store.APIToken, bool) {
	u, tok, refused, err := s.checkAPIToken(r.Context(), raw, clientAddress(r))
	switch {
	case err != nil:
		s.internal(w, r, err)
		return u, tok, false
	case refused == nil:
		return u, tok, true
	case refused.wait > 0:
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(refused.wait.Seconds()))))
		writeError(w, http.StatusTooManyRequests, refused.code, refused.msg)
		return u, tok, false
	}
	w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
	writeError(w, http.StatusUnauthorized, refused.code, refused.msg)
	return u, tok, false
}

// currentToken is the API token the request came with; ok is false for a
// session (or no credentials).
func currentToken(r *http.Request) (store.APIToken, bool) {
	t, ok := r.Context().Value(tokenKey).(store.APIToken)
	return t, ok
}

// sessionOnly refuses requests made with an API token: managing tokens,
// the password, signing out, the profile and approving agents need the
// person, signed in.
func (s *Server) sessionOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := currentToken(r); ok {
			writeError(w, http.StatusForbidden, codeSessionRequired,
				"an API token may not do this: sign in to the web application with your password")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// projectRole is the caller's effective role in a project: their role
// there, capped by the request's API token (none outside a
// project-scoped token's project). Every project scope goes through it.
func (s *Server) projectRole(r *http.Request, projectID string) (store.Project, access.Role, error) {
	u, _ := currentUser(r)
	p, role, err := s.store.ProjectRole(r.Context(), projectID, u.ID)
	if tok, ok := currentToken(r); ok && err == nil {
		role = tok.EffectiveRole(p.ID, role)
	}
	return p, role, err
}

// tokenElsewhere answers 403 token_project when the request's token is
// tied to a project other than projectID.
func tokenElsewhere(w http.ResponseWriter, r *http.Request, projectID string) bool {
	tok, ok := currentToken(r)
	if !ok || tok.ProjectID == "" || tok.ProjectID == projectID {
		return false
	}
	writeError(w, http.StatusForbidden, codeTokenProject,
		"this API token acts only in project "+strconv.Quote(tok.ProjectName)+" ("+tok.ProjectID+")")
	return true
}

// tokenOrgRole caps an organization role by the request's token; a token
// tied to a project may not act on organizations (403 token_project).
func tokenOrgRole(w http.ResponseWriter, r *http.Request, role access.Role) (access.Role, bool) {
	tok, ok := currentToken(r)
	if !ok {
		return role, true
	}
	if tokenElsewhere(w, r, "") {
		return "", false
	}
	return access.Cap(role, tok.Role), true
}

// tokenContext narrows the caller's organizations and projects to what the
// request's token reaches, with capped roles.
func tokenContext(r *http.Request, orgs []store.OrgWithProjects) []store.OrgWithProjects {
	tok, ok := currentToken(r)
	if !ok {
		return orgs
	}
	out := []store.OrgWithProjects{}
	for _, o := range orgs {
		o.Role = access.Cap(o.Role, tok.Role)
		var projects []store.ProjectWithRole
		for _, p := range o.Projects {
			if p.Role = tok.EffectiveRole(p.ID, p.Role); p.Role != "" {
				projects = append(projects, p)
			}
		}
		if tok.ProjectID != "" && len(projects) == 0 {
			continue
		}
		o.Projects = projects
		out = append(out, o)
	}
	return out
}

// tokenJSON is a token as its owner sees it: never the token itself.
type tokenJSON struct {
	ID           string       `json:"id"`
	Name         string       `json:"name"`
	ProjectID    *string      `json:"projectId"`
	ProjectName  *string      `json:"projectName"`
	Role         *access.Role `json:"role"`
	ExpiresAt    *string      `json:"expiresAt"`
	CreatedAt    string       `json:"createdAt"`
	LastUsedAt   *string      `json:"lastUsedAt"`
	LastUsedFrom *string      `json:"lastUsedFrom"`
	RevokedAt    *string      `json:"revokedAt,omitempty"`
	Expired      bool         `json:"expired"`
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func optTime(t *time.Time) *string {
	if t == nil {
		return nil
	}
	return optString(t.UTC().Format(timeFormat))
}

func toTokenJSON(t store.APIToken, now time.Time) tokenJSON {
	out := tokenJSON{ID: t.ID, Name: t.Name, ProjectID: optString(t.ProjectID), ProjectName: optString(t.ProjectName),
		ExpiresAt: optTime(t.ExpiresAt), CreatedAt: t.CreatedAt.UTC().Format(timeFormat), LastUsedAt: optTime(t.LastUsedAt),
		LastUsedFrom: optString(t.LastUsedFrom), RevokedAt: optTime(t.RevokedAt), Expired: t.Expired(now)}
	if t.Role != "" {
		out.Role = &t.Role
	}
	return out
}

// listTokens answers the caller's tokens, newest first, revoked ones
// included (with revokedAt) so a refused CI job can be explained.
func (s *Server) listTokens(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.APITokens(r.Context(), currentUserID(r))
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := make([]tokenJSON, 0, len(list))
	for _, t := range list {
		out = append(out, toTokenJSON(t, s.Now()))
	}
	writeJSON(w, http.StatusOK, map[string]any{"tokens": out})
}

type tokenInput struct {
	Name      string `json:"name" openapi:"required"`
	ProjectID string `json:"projectId"`
	Role      string `json:"role"`
	ExpiresAt string `json:"expiresAt"`
}

// validate checks the body on its own; expires is the parsed expiry.
func (in *tokenInput) validate(now time.Time) (expires *time.Time, issues issueList) {
	in.Name = strings.TrimSpace(in.Name)
	issues.name("name", in.Name)
	if in.ProjectID != "" && !ids.Valid(ids.Project, in.ProjectID) {
		issues.add("projectId", "format", "projectId is not a project id (prj_...)")
	}
	if in.Role != "" {
		issues.role("role", access.Role(in.Role))
	}
	if in.ExpiresAt != "" {
		t, err := time.Parse(time.RFC3339, in.ExpiresAt)
		switch {
		case err != nil:
			issues.add("expiresAt", "format", "expiresAt is not a time like 2027-01-31T00:00:00Z (RFC 3339)")
		case !t.After(now):
			issues.add("expiresAt", "past", "expiresAt is in the past: choose a later time, or none for a token that does not expire")
		default:
			expires = &t
		}
	}
	return expires, issues
}

// createToken makes a token for the caller and answers it once.
func (s *Server) createToken(w http.ResponseWriter, r *http.Request) {
	var in tokenInput
	if !decode(w, r, &in) {
		return
	}
	now := s.Now()
	expires, issues := in.validate(now)
	if len(issues) > 0 {
		writeIssues(w, "the token request is not valid", issues)
		return
	}
	held, ok := s.heldRole(w, r, in.ProjectID)
	if !ok {
		return
	}
	if role := access.Role(in.Role); role != "" && access.Cap(held, role) != role {
		yours := "you hold no role in any project"
		switch {
		case in.ProjectID != "":
			yours = "your role in this project is " + string(held)
		case held != "":
			yours = "your highest role is " + string(held)
		}
		writeError(w, http.StatusForbidden, codeRoleTooHigh, "a token's role may not be above your own: "+yours)
		return
	}
	token, digest := auth.NewAPIToken()
	t, err := s.store.CreateAPIToken(r.Context(), store.APIToken{ID: ids.New(kindToken), UserID: currentUserID(r), Name: in.Name,
		ProjectID: in.ProjectID, Role: access.Role(in.Role), CreatedAt: now, ExpiresAt: expires}, digest)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.log.Info("api token created", "user", t.UserID, "token", t.ID, "project", t.ProjectID, "role", t.Role)
	writeJSON(w, http.StatusCreated, tokenCreatedJSON{toTokenJSON(t, now), token})
}

// tokenCreatedJSON is POST /api/tokens's answer: the token, shown once.
type tokenCreatedJSON struct {
	tokenJSON
	Token string `json:"token"`
}

// heldRole is the caller's role in the project, or without one their
// highest role anywhere. A project they are not a member of answers 404
// (audited when it exists).
func (s *Server) heldRole(w http.ResponseWriter, r *http.Request, projectID string) (access.Role, bool) {
	if projectID != "" {
		p, role, err := s.projectRole(r, projectID)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			s.internal(w, r, err)
			return "", false
		}
		if err == nil && role == "" {
			s.auditRefusal(r, currentUserID(r), p.ID, strings.TrimSpace(r.Header.Get(ProjectHeader)))
		}
		if err != nil || role == "" {
			writeError(w, http.StatusNotFound, codeNotFound, projectNotFound)
			return "", false
		}
		return role, true
	}
	orgs, err := s.store.UserContext(r.Context(), currentUserID(r))
	if err != nil {
		s.internal(w, r, err)
		return "", false
	}
	return highestRole(orgs), true
}

func highestRole(orgs []store.OrgWithProjects) access.Role {
	var best access.Role
	raise := func(r access.Role) {
		if r.Valid() && (best == "" || r.AtLeast(best)) {
			best = r
		}
	}
	for _, o := range orgs {
		raise(o.Role)
		for _, p := range o.Projects {
			raise(p.Role)
		}
	}
	return best
}

// revokeToken revokes one of the caller's tokens at once: its requests
// are refused, its event streams end and its CI agents are disconnected
// (streams.go, dispatch/ci.go); anyone else's is not found.
func (s *Server) revokeToken(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	err := store.ErrNotFound
	if ids.Valid(kindToken, id) {
		err = s.store.RevokeAPIToken(r.Context(), id, currentUserID(r), s.Now())
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, "no such API token")
	case err != nil:
		s.internal(w, r, err)
	default:
		s.log.Info("api token revoked", "user", currentUserID(r), "token", id)
		s.accessChanged()
		w.WriteHeader(http.StatusNoContent)
	}
}

// agentAPIToken checks the API token a CI command's agent joins with
// (dispatch.Config.APITokens): the token and its user, or an error
// wrapping dispatch.ErrTokenRefused that says why, under the same
// bad-token limit as the API's.
func (s *Server) agentAPIToken(ctx context.Context, raw, from string) (dispatch.CIToken, error) {
	u, tok, refused, err := s.checkAPIToken(ctx, raw, from)
	switch {
	case err != nil:
		return dispatch.CIToken{}, err
	case refused != nil:
		return dispatch.CIToken{}, fmt.Errorf("%w: %s", dispatch.ErrTokenRefused, refused.msg)
	}
	return dispatch.CIToken{UserID: u.ID, TokenID: tok.ID}, nil
}
