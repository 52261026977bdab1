package api

import (
	"errors"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

type memberJSON struct {
	UserID string      `json:"userId"`
	Name   string      `json:"name"`
	Email  string      `json:"email"`
	Role   access.Role `json:"role"`
}

type nameInput struct {
	Name string `json:"name"`
}

// readName decodes { name } and validates it, answering errors itself.
func readName(w http.ResponseWriter, r *http.Request, what string) (string, bool) {
	var in nameInput
	if !decode(w, r, &in) {
		return "", false
	}
	name := strings.TrimSpace(in.Name)
	var issues issueList
	issues.name("name", name)
	if len(issues) > 0 {
		writeIssues(w, "the "+what+" name is not valid", issues)
		return "", false
	}
	return name, true
}

// userParam reads the {userId} path parameter; a malformed one is a member
// that does not exist.
func userParam(w http.ResponseWriter, r *http.Request) (string, bool) {
	id := chi.URLParam(r, "userId")
	if !ids.Valid(ids.User, id) {
		writeError(w, http.StatusNotFound, codeNotFound, "no such member")
		return "", false
	}
	return id, true
}

// orgAccess resolves the organization in the path and the caller's role in
// it. Non-members are told it does not exist, and the attempt is audited;
// with needAdmin, members who are not Admin get 403.
func (s *Server) orgAccess(w http.ResponseWriter, r *http.Request, needAdmin bool) (store.Org, access.Role, bool) {
	id := chi.URLParam(r, "id")
	u, _ := currentUser(r)
	err := store.ErrNotFound
	var org store.Org
	var role access.Role
	if ids.Valid(ids.Organization, id) {
		org, role, err = s.store.OrgRole(r.Context(), id, u.ID)
	}
	if err == nil && role == "" {
		s.auditOrgRefusal(r, u.ID, org.ID)
		err = store.ErrNotFound
	}
	if err == nil {
		var ok bool
		if role, ok = tokenOrgRole(w, r, role); !ok {
			return org, role, false
		}
	}
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, codeNotFound, "no such organization, or you are not a member of it")
		return org, role, false
	}
	if err != nil {
		s.internal(w, r, err)
		return org, role, false
	}
	if needAdmin && role != access.Admin {
		writeError(w, http.StatusForbidden, codeForbidden, "only the organization's Admins may do this; your role is "+string(role))
		return org, role, false
	}
	return org, role, true
}

func (s *Server) createOrg(w http.ResponseWriter, r *http.Request) {
	if _, ok := tokenOrgRole(w, r, access.Admin); !ok {
		return
	}
	name, ok := readName(w, r, "organization")
	if !ok {
		return
	}
	u, _ := currentUser(r)
	org, err := s.store.CreateOrg(r.Context(), ids.New(ids.Organization), name, u.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, orgJSON{ID: org.ID, Name: org.Name, Role: access.Admin})
}

func (s *Server) renameOrg(w http.ResponseWriter, r *http.Request) {
	org, role, ok := s.orgAccess(w, r, true)
	if !ok {
		return
	}
	name, ok := readName(w, r, "organization")
	if !ok {
		return
	}
	if org, err := s.store.RenameOrg(r.Context(), org.ID, name); err != nil {
		s.internal(w, r, err)
	} else {
		writeJSON(w, http.StatusOK, orgJSON{ID: org.ID, Name: org.Name, Role: role})
	}
}

func (s *Server) deleteOrg(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.orgAccess(w, r, true)
	if !ok {
		return
	}
	runIDs, ok := s.runsOf(w, r, "org", org.ID)
	if !ok {
		return
	}
	fileIDs, err := s.store.DeleteOrg(r.Context(), org.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.dropFileContents(r.Context(), fileIDs)
	s.dropRunArtifacts(r.Context(), runIDs)
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) listOrgMembers(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.orgAccess(w, r, false)
	if !ok {
		return
	}
	members, err := s.store.OrgMembers(r.Context(), org.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := make([]memberJSON, 0, len(members))
	for _, m := range members {
		out = append(out, memberJSON(m))
	}
	writeJSON(w, http.StatusOK, map[string]any{"members": out})
}

type inviteInput struct {
	Email string      `json:"email"`
	Role  access.Role `json:"role"`
}

func (s *Server) inviteOrgMember(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.orgAccess(w, r, true)
	if !ok {
		return
	}
	var in inviteInput
	if !decode(w, r, &in) {
		return
	}
	var issues issueList
	issues.email("email", normEmail(in.Email))
	issues.role("role", in.Role)
	var u store.User
	var err error
	if len(issues) == 0 {
		u, err = s.store.UserByEmail(r.Context(), normEmail(in.Email))
		if errors.Is(err, store.ErrNotFound) {
			issues.add("email", "unknown", "no account has this email: the person must register first")
		} else if err != nil {
			s.internal(w, r, err)
			return
		}
	}
	if len(issues) > 0 {
		writeIssues(w, "the invitation is not valid", issues)
		return
	}
	err = s.store.AddOrgMember(r.Context(), org.ID, u.ID, in.Role)
	if errors.Is(err, store.ErrConflict) {
		writeError(w, http.StatusConflict, "already_member", "this account is already a member of the organization")
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, memberJSON{UserID: u.ID, Name: u.Name, Email: u.Email, Role: in.Role})
}

// memberChangeError answers the store's refusals of member changes.
func (s *Server) memberChangeError(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, "no such member")
	case errors.Is(err, store.ErrLastAdmin):
		writeError(w, http.StatusConflict, "last_admin", "an organization needs at least one Admin: make someone else Admin first")
	default:
		s.internal(w, r, err)
	}
}

type roleInput struct {
	Role access.Role `json:"role"`
}

func (s *Server) setOrgMemberRole(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.orgAccess(w, r, true)
	if !ok {
		return
	}
	var in roleInput
	if !decode(w, r, &in) {
		return
	}
	var issues issueList
	if issues.role("role", in.Role); len(issues) > 0 {
		writeIssues(w, "the role is not valid", issues)
		return
	}
	userID, ok := userParam(w, r)
	if !ok {
		return
	}
	if err := s.store.SetOrgMemberRole(r.Context(), org.ID, userID, in.Role); err != nil {
		s.memberChangeError(w, r, err)
		return
	}
	u, err := s.store.UserByID(r.Context(), userID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, memberJSON{UserID: u.ID, Name: u.Name, Email: u.Email, Role: in.Role})
}

// removeOrgMember removes a member; any member may also remove themselves.
func (s *Server) removeOrgMember(w http.ResponseWriter, r *http.Request) {
	userID, ok := userParam(w, r)
	if !ok {
		return
	}
	caller, _ := currentUser(r)
	org, _, ok := s.orgAccess(w, r, userID != caller.ID)
	if !ok {
		return
	}
	if err := s.store.RemoveOrgMember(r.Context(), org.ID, userID); err != nil {
		s.memberChangeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) listOrgProjects(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.orgAccess(w, r, false)
	if !ok {
		return
	}
	u, _ := currentUser(r)
	projects, err := s.store.OrgProjects(r.Context(), org.ID, u.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := make([]projectJSON, 0, len(projects))
	for _, p := range projects {
		out = append(out, projectJSON{ID: p.ID, OrgID: p.OrgID, Name: p.Name, Role: p.Role})
	}
	writeJSON(w, http.StatusOK, map[string]any{"projects": out})
}

func (s *Server) createProject(w http.ResponseWriter, r *http.Request) {
	org, _, ok := s.orgAccess(w, r, true)
	if !ok {
		return
	}
	name, ok := readName(w, r, "project")
	if !ok {
		return
	}
	p, err := s.store.CreateProject(r.Context(), ids.New(ids.Project), org.ID, name)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, projectJSON{ID: p.ID, OrgID: p.OrgID, Name: p.Name, Role: access.Admin})
}
