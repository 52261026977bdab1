package api

// Protected environments. Anyone who may run tests can write a test that
// sends ${secrets.X} somewhere they can read it (their own agent runs it,
// and masking cannot catch every transformation of a value). A protected
// environment therefore gives its secrets only to runs of Ready tests (the
// content a Test Manager reviewed and froze) started by a Test Manager or
// Admin: access.MayUseProtected. The rule is checked twice: when the run is
// started (403 environment_protected, nothing queued) and again when the
// run is dispatched, with the starter's role as it is then and the status
// of the version the run executes, since roles and statuses change while a
// run waits in the queue.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

const codeEnvironmentProtected = "environment_protected"

// protectedReason says why MayUseProtected refuses: who means "your" (the
// caller, at start) or "its starter's" (at dispatch). It is "" when the
// rule holds.
func protectedReason(env store.Environment, role access.Role, status string, who string) string {
	if !env.Protected || access.MayUseProtected(role, status) {
		return ""
	}
	why := "the test is " + status + ", not Ready"
	switch {
	case status != access.ReadyStatus:
	case role == "":
		why = who + " account is no longer a member of the project"
	default:
		why = who + " role in the project is " + string(role)
	}
	return fmt.Sprintf("environment %s is protected: its secrets go only to runs of Ready tests started by a Test Manager or Admin, and %s",
		strconv.Quote(env.Name), why)
}

// refuseProtected answers 403 environment_protected, before anything is
// queued, when the caller may not run test t against env.
func refuseProtected(w http.ResponseWriter, sc scope, env store.Environment, t store.Test) bool {
	msg := protectedReason(env, sc.Role, t.Status, "your")
	if msg == "" {
		return false
	}
	writeError(w, http.StatusForbidden, codeEnvironmentProtected, msg)
	return true
}

// checkProtectedJob is the dispatch-time check of Job, before any secret is
// decrypted: the starter's role now, and the status of the version the run
// executes. doc is the document Job read for that version; it must still be
// that version's content, so a Draft edited and marked Ready between the
// two reads cannot slip unreviewed content through.
func (s *Server) checkProtectedJob(ctx context.Context, run store.Run, env store.Environment, doc protocol.Document) error {
	if !env.Protected {
		return nil
	}
	_, role, err := s.store.ProjectRole(ctx, env.ProjectID, run.UserID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("the starter's role: %w", err)
	}
	v, err := s.store.TestVersion(ctx, run.TestID, run.Version)
	if err != nil {
		return fmt.Errorf("test version: %w", err)
	}
	if msg := protectedReason(env, role, v.Status, "its starter's"); msg != "" {
		return errors.New(msg)
	}
	if !sameDocument(doc, v.Document) {
		return errors.New("the test changed while this run was being prepared; start it again")
	}
	return nil
}
