package api

import (
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

const projectNotFound = "no such project, or you are not a member of it"

// projectFromPath resolves /projects/{id} through the shared record scoping.
func (s *Server) projectFromPath(w http.ResponseWriter, r *http.Request, p access.Permission) (scope, bool) {
	id := chi.URLParam(r, "id")
	if !ids.Valid(ids.Project, id) {
		writeError(w, http.StatusNotFound, codeNotFound, projectNotFound)
		return scope{}, false
	}
	sc, ok := s.recordScope(w, r, id, projectNotFound)
	if !ok || !allow(w, sc, p) {
		return scope{}, false
	}
	return sc, true
}

func (s *Server) renameProject(w http.ResponseWriter, r *http.Request) {
	sc, ok := s.projectFromPath(w, r, access.AdministerProject)
	if !ok {
		return
	}
	name, ok := readName(w, r, "project")
	if !ok {
		return
	}
	p, err := s.store.RenameProject(r.Context(), sc.Project.ID, name)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, projectJSON{ID: p.ID, OrgID: p.OrgID, Name: p.Name, Role: sc.Role})
}

func (s *Server) deleteProject(w http.ResponseWriter, r *http.Request) {
	sc, ok := s.projectFromPath(w, r, access.AdministerProject)
	if !ok {
		return
	}
	runIDs, ok := s.runsOf(w, r, "project", sc.Project.ID)
	if !ok {
		return
	}
	fileIDs, err := s.store.DeleteProject(r.Context(), sc.Project.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.dropFileContents(r.Context(), fileIDs)
	s.dropRunArtifacts(r.Context(), runIDs)
	w.WriteHeader(http.StatusNoContent)
}

type projectMemberJSON struct {
	memberJSON
	OrgRole     access.Role  `json:"orgRole"`
	ProjectRole *access.Role `json:"projectRole"` // null: the organization role applies
}

func toProjectMemberJSON(m store.ProjectMember) projectMemberJSON {
	out := projectMemberJSON{memberJSON: memberJSON(m.Member), OrgRole: m.OrgRole}
	if m.ProjectRole != "" {
		pr := m.ProjectRole
		out.ProjectRole = &pr
	}
	return out
}

func (s *Server) listProjectMembers(w http.ResponseWriter, r *http.Request) {
	sc, ok := s.projectFromPath(w, r, access.ViewProject)
	if !ok {
		return
	}
	members, err := s.store.ProjectMembers(r.Context(), sc.Project.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := make([]projectMemberJSON, 0, len(members))
	for _, m := range members {
		out = append(out, toProjectMemberJSON(m))
	}
	writeJSON(w, http.StatusOK, map[string]any{"members": out})
}

// findProjectMember returns one member of the project's organization.
func (s *Server) findProjectMember(r *http.Request, projectID, userID string) (store.ProjectMember, error) {
	members, err := s.store.ProjectMembers(r.Context(), projectID)
	if err != nil {
		return store.ProjectMember{}, err
	}
	for _, m := range members {
		if m.UserID == userID {
			return m, nil
		}
	}
	return store.ProjectMember{}, store.ErrNotFound
}

func (s *Server) setProjectMemberRole(w http.ResponseWriter, r *http.Request) {
	sc, ok := s.projectFromPath(w, r, access.AdministerProject)
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
	m, err := s.findProjectMember(r, sc.Project.ID, userID)
	if err == nil && m.OrgRole == access.Admin && in.Role != access.Admin {
		writeError(w, http.StatusConflict, "org_admin", "organization Admins are Admin in every project; change their organization role first")
		return
	}
	if err == nil {
		err = s.store.SetProjectRole(r.Context(), sc.Project.ID, userID, in.Role)
	}
	if err == nil {
		m, err = s.findProjectMember(r, sc.Project.ID, userID)
	}
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, codeNotFound, "no member of the project's organization has this id: invite them to the organization first")
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toProjectMemberJSON(m))
}

func (s *Server) removeProjectMemberRole(w http.ResponseWriter, r *http.Request) {
	sc, ok := s.projectFromPath(w, r, access.AdministerProject)
	if !ok {
		return
	}
	userID, ok := userParam(w, r)
	if !ok {
		return
	}
	err := s.store.RemoveProjectRole(r.Context(), sc.Project.ID, userID)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, codeNotFound, "this member has no project role here; their organization role applies")
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
