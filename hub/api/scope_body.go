package api

import (
	"context"
	"errors"
	"net/http"

	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

// loadBodyRecord resolves the record of kind that a request body names by
// id (an update's "id", a secret's environment) for the header project's
// scope sc: an id of the wrong shape, an unknown record, or one of another
// project (refused and audited by bodyRecord) all answer the same 404
// notFound. On false it has answered.
func loadBodyRecord[R any](s *Server, w http.ResponseWriter, r *http.Request, sc scope, kind, id, notFound string,
	get func(context.Context, string) (R, error), project func(R) string) (R, bool) {
	rec, err := getByID(r.Context(), kind, id, get)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, r, err)
		return rec, false
	}
	if err != nil || !s.bodyRecord(r, sc, project(rec)) {
		writeError(w, http.StatusNotFound, codeNotFound, notFound)
		return rec, false
	}
	return rec, true
}

// getByID gets the record of kind by id; an id of the wrong shape is
// store.ErrNotFound without a query.
func getByID[R any](ctx context.Context, kind, id string, get func(context.Context, string) (R, error)) (R, error) {
	if !ids.Valid(kind, id) {
		var none R
		return none, store.ErrNotFound
	}
	return get(ctx, id)
}
