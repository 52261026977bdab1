package api

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/audit"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

// ProjectHeader names the project that list and create routes act on.
const ProjectHeader = "x-project-id"

// scope is the caller's access to one project, resolved once per request.
type scope struct {
	Project store.Project
	Role    access.Role // the caller's effective role
}

// can is the one permission decision: may the caller do p in this project.
func (sc scope) can(p access.Permission) bool { return access.Allows(sc.Role, p) }

// headerProject is the middleware for list and create routes: it resolves
// the x-project-id header into a scope, answering 400 when it is missing or
// malformed and 404 when the caller is not a member of that project (an
// attempt on an existing project is audited).
func (s *Server) headerProject(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := strings.TrimSpace(r.Header.Get(ProjectHeader))
		if id == "" {
			writeError(w, http.StatusBadRequest, "project_required", "send the project id in the x-project-id header")
			return
		}
		if !ids.Valid(ids.Project, id) {
			writeError(w, http.StatusBadRequest, "project_invalid", "the x-project-id header is not a project id (prj_...)")
			return
		}
		if tokenElsewhere(w, r, id) {
			return
		}
		u, _ := currentUser(r)
		p, role, err := s.projectRole(r, id)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			s.internal(w, r, err)
			return
		}
		if err == nil && role == "" {
			s.auditRefusal(r, u.ID, p.ID, id)
		}
		if err != nil || role == "" {
			writeError(w, http.StatusNotFound, codeNotFound, "no such project, or you are not a member of it")
			return
		}
		ctx := context.WithValue(r.Context(), scopeKey, scope{Project: p, Role: role})
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// headerScope is the scope headerProject resolved.
func headerScope(r *http.Request) scope {
	sc, _ := r.Context().Value(scopeKey).(scope)
	return sc
}

// recordScope resolves the project of a record addressed by id. The record
// is refused as not found, and the attempt audited, when the caller is not a
// member of its project or the x-project-id header names another project.
// notFound is the message for a refusal, the same as for a missing record.
func (s *Server) recordScope(w http.ResponseWriter, r *http.Request, projectID, notFound string) (scope, bool) {
	u, _ := currentUser(r)
	p, role, err := s.projectRole(r, projectID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, r, err)
		return scope{}, false
	}
	header := strings.TrimSpace(r.Header.Get(ProjectHeader))
	if header != "" && !ids.Valid(ids.Project, header) {
		writeError(w, http.StatusBadRequest, "project_invalid", "the x-project-id header is not a project id (prj_...)")
		return scope{}, false
	}
	if header != "" && tokenElsewhere(w, r, header) {
		return scope{}, false
	}
	if err == nil && (role == "" || header != "" && header != projectID) {
		s.auditRefusal(r, u.ID, projectID, header)
		err = store.ErrNotFound
	}
	if err != nil {
		writeError(w, http.StatusNotFound, codeNotFound, notFound)
		return scope{}, false
	}
	return scope{Project: p, Role: role}, true
}

// auditRefusal records a refused attempt on a record of a project the
// caller may not reach that way: recordProject is the record's project
// (for a list or create route, the project the header names).
func (s *Server) auditRefusal(r *http.Request, userID, recordProject, headerProject string) {
	s.audit(r, audit.Entry{Event: "cross_project_refused", User: userID, RecordProject: recordProject, HeaderProject: headerProject})
}

// auditOrgRefusal records a refused attempt on an organization the caller
// is not a member of.
func (s *Server) auditOrgRefusal(r *http.Request, userID, orgID string) {
	s.audit(r, audit.Entry{Event: "cross_org_refused", User: userID, Org: orgID})
}

func (s *Server) audit(r *http.Request, e audit.Entry) {
	if s.Audit == nil {
		return
	}
	e.Time, e.Method, e.Path = s.Now().UTC(), r.Method, r.URL.Path
	if err := s.Audit.Write(e); err != nil {
		s.log.Error("audit log", "err", err)
	}
}

// allow answers 403 naming what the caller's role lacks unless sc permits p.
func allow(w http.ResponseWriter, sc scope, p access.Permission) bool {
	if sc.can(p) {
		return true
	}
	desc := string(p)
	for _, info := range access.Matrix {
		if info.Permission == p {
			desc = info.Description
		}
	}
	writeError(w, http.StatusForbidden, codeForbidden,
		"your role in this project ("+string(sc.Role)+") does not allow this: "+desc)
	return false
}

// loadVisible resolves a record addressed by id for the caller: an id of the
// wrong shape or an unknown record answers 404; the record's project goes
// through recordScope (404 and audited for another project); a record of
// someone else's private test answers the same 404 as a missing one.
func loadVisible[R any](s *Server, w http.ResponseWriter, r *http.Request, kind, id, notFound string,
	get func(context.Context, string) (R, error), project func(R) string, privateOf func(R) (private bool, owner string)) (R, scope, bool) {
	rec, err := getByID(r.Context(), kind, id, get)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, r, err)
		return rec, scope{}, false
	}
	if err != nil {
		writeError(w, http.StatusNotFound, codeNotFound, notFound)
		return rec, scope{}, false
	}
	sc, ok := s.recordScope(w, r, project(rec), notFound)
	if !ok {
		return rec, sc, false
	}
	private, owner := privateOf(rec)
	if private && owner != currentUserID(r) || !sc.can(access.ViewProject) {
		writeError(w, http.StatusNotFound, codeNotFound, notFound)
		return rec, sc, false
	}
	return rec, sc, true
}
