package api

import (
	"net/http"
	"strings"

	"github.com/testautomation/ta/hub/access"
)

type projectJSON struct {
	ID    string      `json:"id"`
	OrgID string      `json:"orgId"`
	Name  string      `json:"name"`
	Role  access.Role `json:"role"`
}

type orgJSON struct {
	ID       string        `json:"id"`
	Name     string        `json:"name"`
	Role     access.Role   `json:"role"`
	Projects []projectJSON `json:"projects,omitempty"`
}

type contextJSON struct {
	User          userJSON  `json:"user"`
	Organizations []orgJSON `json:"organizations"`
}

// context answers the caller, their organizations and projects with the
// caller's effective role in each.
func (s *Server) context(w http.ResponseWriter, r *http.Request) {
	u, _ := currentUser(r)
	orgs, err := s.store.UserContext(r.Context(), u.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	orgs = tokenContext(r, orgs)
	out := contextJSON{User: toUserJSON(u), Organizations: []orgJSON{}}
	for _, o := range orgs {
		oj := orgJSON{ID: o.ID, Name: o.Name, Role: o.Role, Projects: []projectJSON{}}
		for _, p := range o.Projects {
			oj.Projects = append(oj.Projects, projectJSON{ID: p.ID, OrgID: p.OrgID, Name: p.Name, Role: p.Role})
		}
		out.Organizations = append(out.Organizations, oj)
	}
	writeJSON(w, http.StatusOK, out)
}

type profileJSON struct {
	User       userJSON  `json:"user"`
	RecentRuns []runJSON `json:"recentRuns"`
}

// profile answers the caller's profile and the runs they started last.
func (s *Server) profile(w http.ResponseWriter, r *http.Request) {
	u, _ := currentUser(r)
	tok, scoped := currentToken(r)
	scoped = scoped && tok.ProjectID != ""
	limit := 20
	if scoped {
		limit = 200 // a project-scoped token sees its project's runs only
	}
	runs, err := s.store.UserRuns(r.Context(), u.ID, limit)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	recent := make([]runJSON, 0, min(len(runs), 20))
	for _, run := range runs {
		if len(recent) < 20 && (!scoped || run.ProjectID == tok.ProjectID) {
			recent = append(recent, toRunJSON(run))
		}
	}
	writeJSON(w, http.StatusOK, profileJSON{toUserJSON(u), recent})
}

type savedProfileJSON struct {
	User userJSON `json:"user"`
}

type profileInput struct {
	Name string `json:"name"`
}

// saveProfile changes what the caller may change of their own account:
// their name, checked as registration checks it.
func (s *Server) saveProfile(w http.ResponseWriter, r *http.Request) {
	var in profileInput
	if !decode(w, r, &in) {
		return
	}
	in.Name = strings.TrimSpace(in.Name)
	var issues issueList
	issues.name("name", in.Name)
	if len(issues) > 0 {
		writeIssues(w, "the profile is not valid", issues)
		return
	}
	u, err := s.store.SetUserName(r.Context(), currentUserID(r), in.Name)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, savedProfileJSON{toUserJSON(u)})
}

type permissionJSON struct {
	ID          access.Permission `json:"id"`
	Description string            `json:"description"`
	Roles       []access.Role     `json:"roles"`
}

type rolesJSON struct {
	Roles       []access.Role                       `json:"roles"`
	Permissions []permissionJSON                    `json:"permissions"`
	Matrix      map[access.Role][]access.Permission `json:"matrix"`
}

// roles serves the role to permission matrix from access.Matrix, the same
// table every permission check uses.
func (s *Server) roles(w http.ResponseWriter, r *http.Request) {
	out := rolesJSON{Roles: access.Roles, Matrix: map[access.Role][]access.Permission{}}
	for _, info := range access.Matrix {
		pj := permissionJSON{ID: info.Permission, Description: info.Description, Roles: []access.Role{}}
		for _, role := range access.Roles {
			if access.Allows(role, info.Permission) {
				pj.Roles = append(pj.Roles, role)
				out.Matrix[role] = append(out.Matrix[role], info.Permission)
			}
		}
		out.Permissions = append(out.Permissions, pj)
	}
	writeJSON(w, http.StatusOK, out)
}
