package api

// Applications: the systems under test of a project, each a name, a base URL
// and a description. An environment may name one (environments.go); a run
// against that environment gets the application's base URL as the variable
// baseUrl unless the environment sets baseUrl itself. Deleting an
// application leaves its environments without one.

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

const (
	maxBaseURL     = 2048
	maxDescription = 2000
)

const applicationNotFound = "no such application, or it is not in this project"

type applicationJSON struct {
	ID          string `json:"id"`
	ProjectID   string `json:"projectId"`
	Name        string `json:"name"`
	BaseURL     string `json:"baseUrl"`
	Description string `json:"description"`
	CreatedAt   string `json:"createdAt"`
	UpdatedAt   string `json:"updatedAt"`
}

func toApplicationJSON(a store.Application) applicationJSON {
	return applicationJSON{
		ID: a.ID, ProjectID: a.ProjectID, Name: a.Name, BaseURL: a.BaseURL, Description: a.Description,
		CreatedAt: a.CreatedAt.UTC().Format(timeFormat), UpdatedAt: a.UpdatedAt.UTC().Format(timeFormat),
	}
}

// baseURL checks an application's base URL and returns it without trailing
// slashes, so steps can write ${baseUrl}/login.
func (l *issueList) baseURL(path, v string) string {
	const want = "baseUrl must be an absolute http or https URL like https://shop.example.com"
	switch {
	case v == "":
		l.add(path, "required", "baseUrl is required")
		return v
	case len(v) > maxBaseURL:
		l.add(path, "too_long", "baseUrl is longer than 2048 characters")
		return v
	case strings.IndexFunc(v, func(r rune) bool { return unicode.IsSpace(r) || invisible(r) }) >= 0:
		l.add(path, "format", "baseUrl contains spaces or control characters")
		return v
	}
	u, err := url.Parse(v)
	switch {
	case err != nil || !u.IsAbs() || u.Opaque != "" || u.Hostname() == "":
		l.add(path, "format", want)
	case !strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https"):
		l.add(path, "format", want)
	case u.User != nil:
		l.add(path, "format", "baseUrl must not contain a user name or password: keep credentials in secrets")
	case u.RawQuery == "" && u.Fragment == "" && !u.ForceQuery:
		v = strings.TrimRight(v, "/")
	}
	return v
}

func (l *issueList) description(path, v string) {
	switch {
	case utf8.RuneCountInString(v) > maxDescription:
		l.add(path, "too_long", "description is longer than 2000 characters")
	case strings.IndexFunc(v, func(r rune) bool { return r != '\n' && r != '\r' && r != '\t' && invisible(r) }) >= 0:
		l.add(path, "format", "description contains control characters")
	}
}

func (s *Server) listApplications(w http.ResponseWriter, r *http.Request) {
	listInProject(s, w, r, "applications", s.store.Applications, toApplicationJSON)
}

// saveApplication creates an application (201), or updates the header
// project's application named by id (200); an update without description
// keeps it.
func (s *Server) saveApplication(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.ManageEnvironments) {
		return
	}
	fields, ok := readObject(w, r)
	if !ok {
		return
	}
	var issues issueList
	id := strings.TrimSpace(getField(fields, "id").str("id", &issues))
	a := store.Application{ID: id, ProjectID: sc.Project.ID}
	a.Name = strings.TrimSpace(getField(fields, "name").str("name", &issues))
	issues.name("name", a.Name)
	a.BaseURL = issues.baseURL("baseUrl", strings.TrimSpace(getField(fields, "baseUrl").str("baseUrl", &issues)))
	desc := getField(fields, "description")
	a.Description = strings.TrimSpace(desc.str("description", &issues))
	issues.description("description", a.Description)
	if len(issues) > 0 {
		writeIssues(w, "the application is not valid", issues)
		return
	}
	var err error
	if id == "" {
		a.ID = ids.New(kindApplication)
		a, err = s.store.CreateApplication(r.Context(), a, s.Now())
	} else {
		old, ok := loadBodyRecord(s, w, r, sc, kindApplication, id, applicationNotFound, s.store.Application,
			func(a store.Application) string { return a.ProjectID })
		if !ok {
			return
		}
		if !desc.present {
			a.Description = old.Description
		}
		a, err = s.store.UpdateApplication(r.Context(), a, s.Now())
	}
	switch {
	case errors.Is(err, store.ErrConflict):
		writeError(w, http.StatusConflict, "application_exists", "the project has an application with this name")
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, applicationNotFound)
	case err != nil:
		s.internal(w, r, err)
	case id == "":
		writeJSON(w, http.StatusCreated, toApplicationJSON(a))
	default:
		writeJSON(w, http.StatusOK, toApplicationJSON(a))
	}
}

// deleteApplication removes an application; environments that used it keep
// existing without one.
func (s *Server) deleteApplication(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	a, err := store.Application{}, store.ErrNotFound
	if ids.Valid(kindApplication, id) {
		a, err = s.store.Application(r.Context(), id)
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, r, err)
		return
	}
	if err != nil {
		writeError(w, http.StatusNotFound, codeNotFound, applicationNotFound)
		return
	}
	sc, ok := s.recordScope(w, r, a.ProjectID, applicationNotFound)
	if !ok || !allow(w, sc, access.ManageEnvironments) {
		return
	}
	if err := s.store.DeleteApplication(r.Context(), sc.Project.ID, a.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
