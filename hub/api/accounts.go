package api

import (
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

// platformAdmin answers 403 unless the caller administers the platform.
func platformAdmin(w http.ResponseWriter, r *http.Request) bool {
	if u, _ := currentUser(r); u.PlatformAdmin {
		return true
	}
	writeError(w, http.StatusForbidden, codeForbidden, "only platform administrators manage sign-in accounts")
	return false
}

func (s *Server) listAccounts(w http.ResponseWriter, r *http.Request) {
	if !platformAdmin(w, r) {
		return
	}
	users, err := s.store.ListUsers(r.Context())
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := make([]userJSON, 0, len(users))
	for _, u := range users {
		out = append(out, toUserJSON(u))
	}
	writeJSON(w, http.StatusOK, map[string]any{"members": out})
}

type accountInput struct {
	registration
	PlatformAdmin bool `json:"platformAdmin"`
}

func (s *Server) createAccount(w http.ResponseWriter, r *http.Request) {
	if !platformAdmin(w, r) {
		return
	}
	var in accountInput
	if !decode(w, r, &in) {
		return
	}
	u, ok := s.newAccount(w, r, in.registration, in.PlatformAdmin)
	if !ok {
		return
	}
	caller, _ := currentUser(r)
	s.log.Info("account created", "user", u.ID, "by", caller.ID, "platformAdmin", u.PlatformAdmin)
	writeJSON(w, http.StatusCreated, toUserJSON(u))
}

func (s *Server) deleteAccount(w http.ResponseWriter, r *http.Request) {
	if !platformAdmin(w, r) {
		return
	}
	id := chi.URLParam(r, "id")
	caller, _ := currentUser(r)
	if id == caller.ID {
		writeError(w, http.StatusConflict, codeConflict, "you cannot delete your own account; ask another platform administrator")
		return
	}
	err := store.ErrNotFound
	if ids.Valid(ids.User, id) {
		err = s.store.DeleteUser(r.Context(), id)
	}
	var sole *store.SoleAdminError
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, "no such account")
	case errors.As(err, &sole):
		writeError(w, http.StatusConflict, "last_admin", "this account is the only Admin of organization \""+sole.Org+"\": make someone else Admin there first")
	case errors.Is(err, store.ErrLastAdmin):
		writeError(w, http.StatusConflict, "last_admin", "the last platform administrator cannot be deleted")
	case err != nil:
		s.internal(w, r, err)
	default:
		s.log.Info("account deleted", "user", id, "by", caller.ID)
		w.WriteHeader(http.StatusNoContent)
	}
}
