package api

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/store"
)

const maxSuite = 100

func (l *issueList) suite(path, v string) {
	switch {
	case v == "":
		l.add(path, "required", "suite name is required")
	case utf8.RuneCountInString(v) > maxSuite:
		l.add(path, "too_long", "suite name is longer than 100 characters")
	case strings.Contains(v, "/"):
		l.add(path, "format", "suite name cannot contain a slash")
	case !utf8.ValidString(v) || strings.IndexFunc(v, invisible) >= 0:
		l.add(path, "format", "suite name contains control or invisible formatting characters")
	}
}

type suiteJSON struct {
	Name  string `json:"name"`
	Tests int    `json:"tests"`
}

// suiteParam reads {name}; chi hands it over still escaped when the path
// had escapes Go's URL parser keeps raw. A name no suite can have (NUL,
// invalid UTF-8, control characters) answers 404 and false.
func suiteParam(w http.ResponseWriter, r *http.Request) (string, bool) {
	name := chi.URLParam(r, "name")
	if r.URL.RawPath != "" {
		if un, err := url.PathUnescape(name); err == nil {
			name = un
		}
	}
	var issues issueList
	if issues.suite("name", name); len(issues) > 0 {
		writeError(w, http.StatusNotFound, codeNotFound, "no such suite")
		return "", false
	}
	return name, true
}

func (s *Server) listSuites(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.ViewProject) {
		return
	}
	u, _ := currentUser(r)
	suites, err := s.store.Suites(r.Context(), sc.Project.ID, u.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := make([]suiteJSON, 0, len(suites))
	for _, su := range suites {
		out = append(out, suiteJSON(su))
	}
	writeJSON(w, http.StatusOK, map[string]any{"suites": out})
}

// readSuiteName decodes { name } as a suite name.
func readSuiteName(w http.ResponseWriter, r *http.Request) (string, bool) {
	var in nameInput
	if !decode(w, r, &in) {
		return "", false
	}
	name := strings.TrimSpace(in.Name)
	var issues issueList
	if issues.suite("name", name); len(issues) > 0 {
		writeIssues(w, "the suite name is not valid", issues)
		return "", false
	}
	return name, true
}

func (s *Server) addSuite(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.EditSharedTests) {
		return
	}
	name, ok := readSuiteName(w, r)
	if !ok {
		return
	}
	switch err := s.store.AddSuite(r.Context(), sc.Project.ID, name); {
	case errors.Is(err, store.ErrConflict):
		writeError(w, http.StatusConflict, "suite_exists", "a suite with this name exists")
	case err != nil:
		s.internal(w, r, err)
	default:
		writeJSON(w, http.StatusCreated, suiteJSON{Name: name})
	}
}

// renameSuite renames a suite and moves its tests; each moved test gets a
// new version noting the rename. Other people's private tests move too,
// but the answer counts only the tests the caller can see, and the version
// added to a test they cannot see has no author (see store.RenameSuite).
func (s *Server) renameSuite(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.EditSharedTests) {
		return
	}
	to, ok := readSuiteName(w, r)
	if !ok {
		return
	}
	from, ok := suiteParam(w, r)
	if !ok {
		return
	}
	u, _ := currentUser(r)
	moved, err := 0, error(nil)
	if from != to {
		moved, err = s.store.RenameSuite(r.Context(), sc.Project.ID, from, to, u.ID, s.Now())
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, "no such suite")
	case errors.Is(err, store.ErrConflict):
		writeError(w, http.StatusConflict, "suite_exists", "a suite with the new name exists")
	case err != nil:
		s.internal(w, r, err)
	default:
		writeJSON(w, http.StatusOK, map[string]any{"name": to, "moved": moved})
	}
}

func (s *Server) deleteSuite(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.EditSharedTests) {
		return
	}
	name, ok := suiteParam(w, r)
	if !ok {
		return
	}
	// Empty means empty for the caller: others' private tests in the suite
	// move to no suite (store.DeleteSuite).
	switch err := s.store.DeleteSuite(r.Context(), sc.Project.ID, name, currentUserID(r), s.Now()); {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, "no such suite")
	case errors.Is(err, store.ErrNotEmpty):
		writeError(w, http.StatusConflict, "suite_not_empty", "the suite still has tests: move or delete them first")
	case err != nil:
		s.internal(w, r, err)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// settings answers the project's suite list as { modules }.
func (s *Server) settings(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.ViewProject) {
		return
	}
	s.answerModules(w, r, sc)
}

func (s *Server) answerModules(w http.ResponseWriter, r *http.Request, sc scope) {
	u, _ := currentUser(r)
	suites, err := s.store.Suites(r.Context(), sc.Project.ID, u.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	names := make([]string, 0, len(suites))
	for _, su := range suites {
		names = append(names, su.Name)
	}
	writeJSON(w, http.StatusOK, map[string][]string{"modules": names})
}

type settingsInput struct {
	Modules []string `json:"modules"`
}

// saveSettings makes the suite list exactly { modules }: new names are
// added, unlisted empty suites removed; an unlisted suite with tests is
// refused and nothing changes.
func (s *Server) saveSettings(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.AdministerProject) {
		return
	}
	var in settingsInput
	if !decode(w, r, &in) {
		return
	}
	var issues issueList
	if in.Modules == nil {
		issues.add("modules", "required", "modules (the list of suite names) is required")
	}
	var names []string
	seen := map[string]bool{}
	for i, m := range in.Modules {
		m = strings.TrimSpace(m)
		issues.suite("modules["+itoa(i)+"]", m)
		if !seen[m] {
			seen[m] = true
			names = append(names, m)
		}
	}
	if len(issues) > 0 {
		writeIssues(w, "the suite list is not valid", issues)
		return
	}
	blocking, err := s.store.SetSuites(r.Context(), sc.Project.ID, names, currentUserID(r), s.Now())
	switch {
	case errors.Is(err, store.ErrNotEmpty):
		writeError(w, http.StatusConflict, "suite_not_empty", "suite \""+blocking+"\" still has tests: keep it in the list or empty it first")
	case err != nil:
		s.internal(w, r, err)
	default:
		s.answerModules(w, r, sc)
	}
}
