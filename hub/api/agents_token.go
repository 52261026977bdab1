package api

import (
	"errors"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/dispatch"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

// codeAgentNotConnected: the computer must be connected for this.
const codeAgentNotConnected = "agent_not_connected"

// rotateAgentToken gives one of the caller's connected computers a new
// token over its connection; once the agent has stored it, the old token
// no longer works (dispatch.RotateToken). Another user's computer, or an
// unknown one, is 404.
func (s *Server) rotateAgentToken(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	err := store.ErrNotFound
	if ids.Valid("agt", id) {
		_, err = s.store.UserAgent(r.Context(), id, currentUserID(r))
	}
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, codeNotFound, "no such computer among yours")
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	err = s.Dispatch.RotateToken(r.Context(), id)
	switch {
	case err == nil:
		s.log.Info("agent token rotated", "agent", id, "user", currentUserID(r))
		w.WriteHeader(http.StatusNoContent)
	case errors.Is(err, dispatch.ErrAgentAway):
		writeError(w, http.StatusConflict, codeAgentNotConnected, "this computer is not connected, so its token cannot be rotated: "+
			"the new token travels over its connection. If you think its token was taken, disconnect the computer here and pair it again")
	case errors.Is(err, dispatch.ErrRotationReplaced):
		writeError(w, http.StatusConflict, codeConflict, "another rotation of this computer's token was asked for meanwhile; that one counts")
	case errors.Is(err, dispatch.ErrTokenNotSaved):
		writeError(w, http.StatusBadGateway, "agent_failed", strings.Replace(err.Error(), "the agent", "the computer", 1))
	default:
		s.internal(w, r, err)
	}
}
