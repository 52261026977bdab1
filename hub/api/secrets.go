package api

// Secrets: write-only values of an environment (see environments.go).
//
// GET /api/secrets is the project's inventory: which environment has which
// secret, when it was set and by whom, never a value. Every member of the
// project may read it (access.ViewProject), as they see the secret names on
// the environments themselves; knowing that a PASSWORD exists discloses
// nothing a run does not already use. Setting a secret needs
// access.ManageEnvironments.

import (
	"errors"
	"net/http"
	"strings"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/secretbox"
	"github.com/testautomation/ta/hub/store"
)

type secretJSON struct {
	EnvironmentID   string   `json:"environmentId"`
	EnvironmentName string   `json:"environmentName"`
	Name            string   `json:"name"`
	UpdatedAt       string   `json:"updatedAt"`
	UpdatedBy       *refJSON `json:"updatedBy"` // null once the account is deleted
}

func toSecretJSON(si store.SecretInfo) secretJSON {
	return secretJSON{
		EnvironmentID: si.EnvironmentID, EnvironmentName: si.EnvironmentName, Name: si.Name,
		UpdatedAt: si.UpdatedAt.UTC().Format(timeFormat), UpdatedBy: ref(si.UpdatedByID, si.UpdatedByName),
	}
}

func (s *Server) listSecrets(w http.ResponseWriter, r *http.Request) {
	listInProject(s, w, r, "secrets", s.store.ProjectSecrets, toSecretJSON)
}

// setSecret sets one secret { environmentId, name, value } of an
// environment of the header's project: 201 when new, 200 when replaced; the
// answer never holds the value.
func (s *Server) setSecret(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.ManageEnvironments) {
		return
	}
	fields, ok := readObject(w, r)
	if !ok {
		return
	}
	var issues issueList
	envID := strings.TrimSpace(getField(fields, "environmentId").str("environmentId", &issues))
	if envID == "" && len(issues) == 0 {
		issues.add("environmentId", "required", "environmentId is required")
	}
	name := getField(fields, "name").str("name", &issues)
	issues.identifier("name", "secret", name)
	var plain string
	if value := getField(fields, "value"); !value.present || value.null {
		issues.add("value", "required", "value is required (a string)")
	} else {
		plain = value.str("value", &issues)
		issues.value("value", "the secret's value", plain)
	}
	if len(issues) > 0 {
		writeIssues(w, "the secret is not valid", issues)
		return
	}
	e, ok := loadBodyRecord(s, w, r, sc, kindEnvironment, envID, environmentNotFound, s.store.Environment, envProject)
	if !ok {
		return
	}
	box := s.secretBox()
	if box == nil {
		errNoSecretBox(w)
		return
	}
	ct, nonce, err := box.Seal([]byte(plain), secretbox.SecretAAD(e.ID, name))
	if err != nil {
		s.internal(w, r, err)
		return
	}
	u, _ := currentUser(r)
	info, created, err := s.store.SetSecret(r.Context(), sc.Project.ID, e.ID,
		store.SealedSecret{Name: name, Ciphertext: ct, Nonce: nonce}, u.ID, s.Now())
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, environmentNotFound)
	case errors.Is(err, store.ErrTooManySecrets):
		tooManySecrets(w)
	case err != nil:
		s.internal(w, r, err)
	case created:
		writeJSON(w, http.StatusCreated, toSecretJSON(info))
	default:
		writeJSON(w, http.StatusOK, toSecretJSON(info))
	}
}
