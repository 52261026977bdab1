package api

// Protected environments (dispatch.ProtectedRefusal has the rule): a run
// that may not use one is refused here, when it is started, with 403
// environment_protected and nothing queued; dispatch checks again when it
// builds the run's job, since roles and statuses change while a run waits.
//
// Protected test data (issue 26): the data a run on a protected
// environment uses must be data only a Test Manager or Admin could have
// chosen, or a Test Developer could point ${loginUrl} at their own page and
// receive the protected password. So a run on a protected environment uses
// only protected data sets and pools (else 403 data_unprotected, nothing
// queued; dispatch checks again), and only holders of
// access.ManageEnvironments create, mark, change, reset or delete a
// protected one (else 403 data_protected), decided on the locked record.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/dispatch"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

const (
	codeEnvironmentProtected = "environment_protected"
	codeDataProtected        = "data_protected"
	codeDataUnprotected      = "data_unprotected"
)

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

// dataRefusal says why a run on env may not use the data of plan (the
// data set it runs, the pool its document binds), or "": on a protected
// environment both must be protected. The set's flag is the one read with
// its rows; a pool that no longer exists is left to dispatch, which ends
// the run saying so.
func (s *Server) dataRefusal(ctx context.Context, env store.Environment, plan runPlan) (string, error) {
	if !env.Protected {
		return "", nil
	}
	if plan.dataSetID != "" && !plan.setProtected {
		return dispatch.ProtectedDataRefusal(env, "data set", plan.setName), nil
	}
	var doc protocol.Document
	if err := json.Unmarshal(plan.doc, &doc); err != nil {
		return "", err
	}
	if doc.Data == nil || doc.Data.Pool == "" || !ids.Valid(kindDataPool, doc.Data.Pool) {
		return "", nil
	}
	p, err := s.store.FindDataPool(ctx, doc.Data.Pool)
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && p.ProjectID != env.ProjectID:
		return "", nil
	case err != nil:
		return "", err
	case !p.Protected:
		return dispatch.ProtectedDataRefusal(env, "data pool", p.Name), nil
	}
	return "", nil
}

// decideDataChange is the rule for creating, changing, resetting or
// deleting a data set or pool (kind) named name, applied to the locked
// record: protected says whether it is protected now, want is the flag
// the caller sends (nil: none). Only access.ManageEnvironments may touch a
// protected one or mark one protected; sending false on one that is not
// protected changes nothing and passes.
func decideDataChange(sc scope, kind, name string, protected bool, want *bool) error {
	switch {
	case sc.can(access.ManageEnvironments):
		return nil
	case protected:
		return refuse(http.StatusForbidden, codeDataProtected, fmt.Sprintf(
			"%s %q is protected: only a Test Manager or Admin may change, reset or delete it, since runs on protected environments use it", kind, name))
	case want != nil && *want:
		return refuse(http.StatusForbidden, codeDataProtected, fmt.Sprintf(
			"only a Test Manager or Admin may mark a %s protected (runs on protected environments use only protected data)", kind))
	}
	return nil
}

// readProtected reads an optional "protected": true or false; absent or
// null is nil (keep the flag; false on create).
func readProtected(fields map[string]json.RawMessage, issues *issueList) *bool {
	f := getField(fields, "protected")
	if !f.present || f.null {
		return nil
	}
	var p bool
	if err := json.Unmarshal(f.raw, &p); err != nil {
		issues.add("protected", "type", "protected must be true or false")
		return nil
	}
	return &p
}

// writeDataRefusal answers decideDataChange's refusal of a save, reset or
// delete and says so; other errors are left to the caller.
func writeDataRefusal(w http.ResponseWriter, err error) bool {
	var ae *apiError
	if errors.As(err, &ae) {
		ae.write(w)
		return true
	}
	return false
}
