package api

// Protected environments (dispatch.ProtectedRefusal has the rule): a run
// that may not use one is refused here, when it is started, with 403
// environment_protected and nothing queued; dispatch checks again when it
// builds the run's job, since roles and statuses change while a run waits.

import (
	"net/http"

	"github.com/testautomation/ta/hub/dispatch"
	"github.com/testautomation/ta/hub/store"
)

const codeEnvironmentProtected = "environment_protected"

// refuseProtected answers 403 environment_protected, before anything is
// queued, when the caller may not run test t against env.
func refuseProtected(w http.ResponseWriter, sc scope, env store.Environment, t store.Test) bool {
	msg := protectedRefusal(env, sc, t)
	if msg == "" {
		return false
	}
	writeError(w, http.StatusForbidden, codeEnvironmentProtected, msg)
	return true
}

// protectedRefusal says why the caller may not run test t against env, or "".
func protectedRefusal(env store.Environment, sc scope, t store.Test) string {
	return dispatch.ProtectedRefusal(env, sc.Role, t.Status, "your")
}
