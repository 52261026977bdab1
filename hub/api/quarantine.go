package api

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/audit"
	"github.com/testautomation/ta/hub/store"
)

// maxQuarantineReason bounds a quarantine's reason, in characters.
const maxQuarantineReason = 500

type quarantineInput struct {
	// Reason says why the test's failures should not fail a batch for
	// now: 1 to 500 characters.
	Reason string `json:"reason" minLength:"1" maxLength:"500"`
}

// quarantine answers PUT /api/tests/:id/quarantine: a Test Manager or
// Admin quarantines a test (again: the new reason replaces the old).
// From then on a run that ends records it, and its failure no longer
// fails its batch, agent ci or a webhook's summary (docs/history.md).
func (s *Server) quarantine(w http.ResponseWriter, r *http.Request) {
	t, sc, ok := s.loadTest(w, r)
	if !ok || !allow(w, sc, access.ManageTests) {
		return
	}
	var in quarantineInput
	if !decode(w, r, &in) {
		return
	}
	reason := strings.TrimSpace(in.Reason)
	if n := utf8.RuneCountInString(reason); n == 0 || n > maxQuarantineReason || strings.ContainsRune(reason, 0) {
		writeIssues(w, "the quarantine is not valid", issueList{{Path: "reason", Code: "length", Message: "reason must be 1 to 500 characters"}})
		return
	}
	u, _ := currentUser(r)
	s.setQuarantine(w, r, t, sc, &store.Quarantine{At: s.Now(), ByID: u.ID, Reason: reason}, "test_quarantined")
}

// unquarantine answers DELETE /api/tests/:id/quarantine. Runs that ended
// while the test was quarantined keep saying so: past batches keep their
// outcome.
func (s *Server) unquarantine(w http.ResponseWriter, r *http.Request) {
	t, sc, ok := s.loadTest(w, r)
	if !ok || !allow(w, sc, access.ManageTests) {
		return
	}
	s.setQuarantine(w, r, t, sc, nil, "test_quarantine_lifted")
}

// setQuarantine writes the change, its audit line, and answers the test.
func (s *Server) setQuarantine(w http.ResponseWriter, r *http.Request, t store.Test, sc scope, q *store.Quarantine, event string) {
	t, err := s.store.SetQuarantine(r.Context(), t.ID, q)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.audit(r, audit.Entry{Event: event, User: currentUserID(r), RecordProject: t.ProjectID, HeaderProject: r.Header.Get(ProjectHeader)})
	s.answerTest(w, r, t, sc, http.StatusOK)
}
