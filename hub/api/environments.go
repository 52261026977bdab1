package api

// Environments: a project's named sets of variables and secrets that a run
// executes against, optionally tied to an application (applications.go).
//
// Everyone in the project sees environments' names, variables, the names
// of their secrets and whether they are protected; Test Managers and Admins
// (access.ManageEnvironments) create, change and delete them, and only they
// set "protected" (protected.go says what it guards). Secret values are write-only: they are
// sealed with the hub's secret box (hub/secretbox, bound to the environment
// id and secret name) before they reach the store, and no response, log line
// or error carries them.
//
// For the run dispatcher: a run's variables are the environment's variables;
// when the environment has an application and does not set a variable named
// baseUrl itself, the application's base URL is added as baseUrl. Secret
// values come from store.EnvironmentSecrets, opened with
// secretbox.SecretAAD(environmentID, name), and go to the agent only inside
// that run.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/secretbox"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// SecretBox encrypts secret values at rest; Config.Secrets holds the hub's.
type SecretBox = secretbox.Box

// Identifier kinds of this file's records (DESIGN.md, Identifiers).
const (
	kindEnvironment = "env"
	kindApplication = "app"
)

// Limits of environments and secrets.
const (
	maxVariables  = 200
	maxIdentifier = 100
	maxValue      = 10 << 10 // bytes of a variable or secret value
)

const environmentNotFound = "no such environment, or it is not in this project"

// secretBox is the hub's secret box; nil when the hub was started without
// one (then secrets cannot be written).
func (s *Server) secretBox() *secretbox.Box { return s.Secrets }

// errNoSecretBox answers a secret write on a hub without a secret key.
func errNoSecretBox(w http.ResponseWriter) {
	writeError(w, http.StatusServiceUnavailable, "secrets_unavailable", "this hub has no secret key configured, so it cannot store secrets")
}

var identifierRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// identifier checks a variable or secret name: what ${name} and
// ${secrets.NAME} can refer to.
func (l *issueList) identifier(path, what, v string) bool {
	switch {
	case v == "":
		l.add(path, "required", what+" name is required")
	case len(v) > maxIdentifier:
		l.add(path, "too_long", what+" name is longer than 100 characters")
	case !identifierRE.MatchString(v):
		l.add(path, "format", what+" name must start with a letter or _ and hold only letters, digits and _")
	default:
		return true
	}
	return false
}

// value checks a variable or secret value without repeating it.
func (l *issueList) value(path, what, v string) {
	switch {
	case len(v) > maxValue:
		l.add(path, "too_long", what+" is longer than 10 KiB")
	case strings.IndexByte(v, 0) >= 0:
		l.add(path, "format", what+" contains a NUL character")
	}
}

// keyPath names an object member in an issue path: prefix.key for a valid
// identifier, else prefix["key"] with the key shortened.
func keyPath(prefix, key string) string {
	if identifierRE.MatchString(key) && len(key) <= maxIdentifier {
		return prefix + "." + key
	}
	if len(key) > 40 {
		cut := 40
		for cut > 0 && !utf8.RuneStart(key[cut]) {
			cut--
		}
		key = key[:cut] + "…"
	}
	return prefix + "[" + strconv.Quote(key) + "]"
}

// field is one member of a request object.
type field struct {
	raw     json.RawMessage
	present bool
	null    bool
}

func getField(fields map[string]json.RawMessage, key string) field {
	raw, ok := fields[key]
	return field{raw: raw, present: ok, null: ok && bytes.Equal(bytes.TrimSpace(raw), []byte("null"))}
}

// str reads a string member; absent and null read as "".
func (f field) str(path string, issues *issueList) string {
	if !f.present || f.null {
		return ""
	}
	var s string
	if err := json.Unmarshal(f.raw, &s); err != nil {
		issues.add(path, "type", path+" must be a string")
	}
	return s
}

// object reads an object member; absent and null read as nil.
func (f field) object(path, msg string, issues *issueList) map[string]json.RawMessage {
	if !f.present || f.null {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(f.raw, &m); err != nil || m == nil {
		issues.add(path, "type", msg)
		return nil
	}
	return m
}

// sortedKeys gives issues in a stable order.
func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

type environmentJSON struct {
	ID            string            `json:"id"`
	ProjectID     string            `json:"projectId"`
	Name          string            `json:"name"`
	Variables     map[string]string `json:"variables"`
	Secrets       []string          `json:"secrets"` // names only, never values
	ApplicationID *string           `json:"applicationId"`
	Protected     bool              `json:"protected"` // see protected.go; everyone sees it
	CreatedAt     string            `json:"createdAt"`
	UpdatedAt     string            `json:"updatedAt"`
}

func toEnvironmentJSON(e store.Environment) environmentJSON {
	out := environmentJSON{
		ID: e.ID, ProjectID: e.ProjectID, Name: e.Name, Variables: e.Variables, Secrets: e.Secrets, Protected: e.Protected,
		CreatedAt: e.CreatedAt.UTC().Format(timeFormat), UpdatedAt: e.UpdatedAt.UTC().Format(timeFormat),
	}
	if out.Variables == nil {
		out.Variables = map[string]string{}
	}
	if out.Secrets == nil {
		out.Secrets = []string{}
	}
	if e.ApplicationID != "" {
		app := e.ApplicationID
		out.ApplicationID = &app
	}
	return out
}

func (s *Server) listEnvironments(w http.ResponseWriter, r *http.Request) {
	listInProject(s, w, r, "environments", s.store.Environments, toEnvironmentJSON)
}

// environmentInput is a decoded POST /api/environments body.
type environmentInput struct {
	id            string            // "" creates
	name          string            //
	variables     map[string]string // nil keeps (an update without "variables")
	applicationID *string           // nil keeps; "" removes
	protected     *bool             // nil keeps (false on create)
	setSecrets    map[string]string
	deleteSecrets []string
}

func readEnvironmentInput(fields map[string]json.RawMessage) (environmentInput, issueList) {
	var in environmentInput
	var issues issueList
	in.id = strings.TrimSpace(getField(fields, "id").str("id", &issues))
	in.name = strings.TrimSpace(getField(fields, "name").str("name", &issues))
	issues.name("name", in.name)

	if f := getField(fields, "variables"); f.present {
		in.variables = map[string]string{} // null clears them
		vars := f.object("variables", "variables must be an object of names to string values", &issues)
		if len(vars) > maxVariables {
			issues.add("variables", "too_many", "an environment holds at most 200 variables")
			vars = nil
		}
		for _, k := range sortedKeys(vars) {
			path := keyPath("variables", k)
			ok := issues.identifier(path, "variable", k)
			var v string
			if err := json.Unmarshal(vars[k], &v); err != nil || getField(vars, k).null {
				issues.add(path, "type", "a variable's value must be a string")
				continue
			}
			if k == "baseUrl" {
				issues.baseURLVariable(path, v)
			}
			if issues.value(path, "the variable's value", v); ok {
				in.variables[k] = v
			}
		}
	}

	secrets := getField(fields, "secrets").object("secrets", "secrets must be an object of names to string values (null deletes one)", &issues)
	if len(secrets) > store.MaxSecrets {
		issues.add("secrets", "too_many", "an environment holds at most 200 secrets")
		secrets = nil
	}
	for _, k := range sortedKeys(secrets) {
		path := keyPath("secrets", k)
		ok := issues.identifier(path, "secret", k)
		if getField(secrets, k).null {
			in.deleteSecrets = append(in.deleteSecrets, k)
			continue
		}
		var v string
		if err := json.Unmarshal(secrets[k], &v); err != nil {
			issues.add(path, "type", "a secret's value must be a string, or null to delete the secret")
			continue
		}
		if issues.value(path, "the secret's value", v); ok {
			if in.setSecrets == nil {
				in.setSecrets = map[string]string{}
			}
			in.setSecrets[k] = v
		}
	}

	if f := getField(fields, "applicationId"); f.present {
		app := strings.TrimSpace(f.str("applicationId", &issues))
		in.applicationID = &app
	}
	if f := getField(fields, "protected"); f.present && !f.null {
		var p bool
		if err := json.Unmarshal(f.raw, &p); err != nil {
			issues.add("protected", "type", "protected must be true or false")
		} else {
			in.protected = &p
		}
	}
	return in, issues
}

// baseURLVariable refuses a baseUrl variable the browser may not open
// (protocol.RefusedScheme): every relative navigate of a run goes there.
func (l *issueList) baseURLVariable(path, v string) {
	if scheme := protocol.RefusedScheme(v); scheme != "" {
		l.add(path, protocol.CodeURLScheme, fmt.Sprintf("baseUrl is a %s: address: %s; give an http(s) address such as https://staging.example.com",
			clipText(scheme, 40), protocol.OpenRule))
	}
}

// bodyRecord resolves the id of a record named in a create-or-update body:
// it must belong to the header's project. A record of another project is
// refused like a missing one, and audited.
// envProject is an environment's project, for the generic loaders.
func envProject(e store.Environment) string { return e.ProjectID }

func (s *Server) bodyRecord(r *http.Request, sc scope, recordProject string) bool {
	if recordProject == sc.Project.ID {
		return true
	}
	u, _ := currentUser(r)
	s.auditRefusal(r, u.ID, recordProject, sc.Project.ID)
	return false
}

// checkApplication answers false with a 422 unless id names an application
// of the project.
func (s *Server) checkApplication(w http.ResponseWriter, r *http.Request, sc scope, id string) bool {
	app, err := store.Application{}, store.ErrNotFound
	if ids.Valid(kindApplication, id) {
		app, err = s.store.Application(r.Context(), id)
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, r, err)
		return false
	}
	if err == nil && s.bodyRecord(r, sc, app.ProjectID) {
		return true
	}
	noApplication(w)
	return false
}

func noApplication(w http.ResponseWriter) {
	writeIssues(w, "the environment is not valid", []Issue{{Path: "applicationId", Code: "not_found", Message: "no application of this project has this id"}})
}

func tooManySecrets(w http.ResponseWriter) {
	writeIssues(w, "too many secrets", []Issue{{Path: "secrets", Code: "too_many", Message: "an environment holds at most 200 secrets"}})
}

// saveEnvironment creates an environment (201), or updates the header
// project's environment named by id (200). Absent variables or
// applicationId keep their values on update; secrets sets the named secrets,
// a null value deletes one, and unmentioned secrets stay.
func (s *Server) saveEnvironment(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.ManageEnvironments) {
		return
	}
	fields, ok := readObject(w, r)
	if !ok {
		return
	}
	in, issues := readEnvironmentInput(fields)
	if len(issues) > 0 {
		writeIssues(w, "the environment is not valid", issues)
		return
	}
	es := store.EnvironmentSave{
		ID: in.id, ProjectID: sc.Project.ID, Create: in.id == "", Name: in.name,
		Variables: in.variables, ApplicationID: in.applicationID, Protected: in.protected, DeleteSecrets: in.deleteSecrets, Now: s.Now(),
	}
	if es.Create {
		es.ID = ids.New(kindEnvironment)
	} else {
		if _, ok := loadBodyRecord(s, w, r, sc, kindEnvironment, in.id, environmentNotFound, s.store.Environment, envProject); !ok {
			return
		}
	}
	if in.applicationID != nil && *in.applicationID != "" && !s.checkApplication(w, r, sc, *in.applicationID) {
		return
	}
	if len(in.setSecrets) > 0 {
		box := s.secretBox()
		if box == nil {
			errNoSecretBox(w)
			return
		}
		for _, name := range sortedSecretNames(in.setSecrets) {
			ct, nonce, err := box.Seal([]byte(in.setSecrets[name]), secretbox.SecretAAD(es.ID, name))
			if err != nil {
				s.internal(w, r, err)
				return
			}
			es.SetSecrets = append(es.SetSecrets, store.SealedSecret{Name: name, Ciphertext: ct, Nonce: nonce})
		}
	}
	u, _ := currentUser(r)
	es.UserID = u.ID
	e, err := s.store.SaveEnvironment(r.Context(), es)
	switch {
	case errors.Is(err, store.ErrConflict):
		writeError(w, http.StatusConflict, "environment_exists", "the project has an environment with this name")
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, environmentNotFound)
	case errors.Is(err, store.ErrNoApplication):
		noApplication(w)
	case errors.Is(err, store.ErrTooManySecrets):
		tooManySecrets(w)
	case err != nil:
		s.internal(w, r, err)
	case es.Create:
		writeJSON(w, http.StatusCreated, toEnvironmentJSON(e))
	default:
		writeJSON(w, http.StatusOK, toEnvironmentJSON(e))
	}
}

func sortedSecretNames(m map[string]string) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// loadEnvironment resolves /environments/{id} through the shared record
// scoping and checks p.
func (s *Server) loadEnvironment(w http.ResponseWriter, r *http.Request, p access.Permission) (store.Environment, scope, bool) {
	id := chi.URLParam(r, "id")
	e, err := store.Environment{}, store.ErrNotFound
	if ids.Valid(kindEnvironment, id) {
		e, err = s.store.Environment(r.Context(), id)
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, r, err)
		return e, scope{}, false
	}
	if err != nil {
		writeError(w, http.StatusNotFound, codeNotFound, environmentNotFound)
		return e, scope{}, false
	}
	sc, ok := s.recordScope(w, r, e.ProjectID, environmentNotFound)
	if !ok || !allow(w, sc, p) {
		return e, sc, false
	}
	return e, sc, true
}

func (s *Server) deleteEnvironment(w http.ResponseWriter, r *http.Request) {
	e, sc, ok := s.loadEnvironment(w, r, access.ManageEnvironments)
	if !ok {
		return
	}
	if err := s.store.DeleteEnvironment(r.Context(), sc.Project.ID, e.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
