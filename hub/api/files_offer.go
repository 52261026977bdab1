package api

// Files chosen while recording (docs/files.md): when a person chooses a
// file in a recorded page, the recording's agent offers it
//
//	POST /api/agent/files?session=rec_...&name=report.pdf   Authorization: Agent <token>
//
// with the file's bytes as the body. The hub holds it (hub/authoring
// offers.go), shows it on the recording's stream (file.offered) and keeps
// the request open until the person answers
//
//	POST /api/sessions/{id}/files/{offerId}   {"accept": true|false}
//
// or the offer lapses (5 minutes, or the recording ends). Accepted, the
// file becomes a project file uploaded by the person, and the agent hears
// its id (201 {id}) to record the upload step naming it; otherwise it
// hears why not (409 declined, 410 offer_expired or session_ended).

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/auth"
	"github.com/testautomation/ta/hub/authoring"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

const agentOfferPath = "/api/agent/files"

// offerAnswerRequest is the person's answer to a file offer.
type offerAnswerRequest struct {
	Accept *bool `json:"accept" openapi:"required"`
}

// offeredFileJSON is what the agent hears when its offer is accepted.
type offeredFileJSON struct {
	ID string `json:"id"`
}

// agentByToken is the agent of "Authorization: Agent <token>"; ok is false
// when an answer (401) was written.
func (s *Server) agentByToken(w http.ResponseWriter, r *http.Request) (string, bool) {
	token, ok := agentToken(r.Header.Get("Authorization"))
	if !ok {
		writeError(w, http.StatusUnauthorized, codeUnauthenticated, "send the agent's token as Authorization: Agent <token>")
		return "", false
	}
	agentID, err := s.store.AgentIDByToken(r.Context(), auth.Digest(token), s.Now())
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusUnauthorized, codeUnauthenticated, "this agent token is not valid")
		return "", false
	}
	if err != nil {
		s.internal(w, r, err)
		return "", false
	}
	return agentID, true
}

// agentOffer takes a file the agent offers for a recording of its own and
// answers once the person has.
func (s *Server) agentOffer(w http.ResponseWriter, r *http.Request) {
	agentID, ok := s.agentByToken(w, r)
	if !ok {
		return
	}
	sessionID, name := r.URL.Query().Get("session"), r.URL.Query().Get("name")
	if s.authoring == nil || !ids.Valid("rec", sessionID) {
		writeError(w, http.StatusNotFound, codeNotFound, "no recording of this agent has this id")
		return
	}
	if msg := fileNameIssue(name); msg != "" {
		writeIssues(w, "the file's name is not valid", []Issue{{Path: "name", Code: codeInvalid, Message: msg}})
		return
	}
	if r.ContentLength > MaxFileSize {
		fileTooLarge(w)
		return
	}
	// Refused before the body is read: an agent's token may not make the
	// hub hold 25 MiB for a recording it would refuse anyway.
	if err := s.authoring.CanOffer(sessionID, agentID); err != nil {
		s.offerRefused(w, err)
		return
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxFileSize))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		fileTooLarge(w)
		return
	case err != nil:
		writeError(w, http.StatusBadRequest, codeInvalid, "the file did not arrive whole")
		return
	}
	// The answer waits for a person: past the per-write limit of the
	// hub's server (netlimit), which would cut it.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(authoring.OfferWait + time.Minute))
	fileID, err := s.authoring.Offer(r.Context(), sessionID, agentID, name, data)
	switch {
	case err == nil:
		writeJSON(w, http.StatusCreated, offeredFileJSON{ID: fileID})
	case errors.Is(err, context.Canceled):
		// The agent went away.
	case !s.offerRefused(w, err):
		s.internal(w, r, err)
	}
}

// offerRefused writes the answer for an offer the hub or the person
// refused, reporting whether err was one.
func (s *Server) offerRefused(w http.ResponseWriter, err error) bool {
	switch {
	case errors.Is(err, authoring.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, "no recording of this agent has this id")
	case errors.Is(err, authoring.ErrEnded):
		writeError(w, http.StatusGone, "session_ended", err.Error())
	case errors.Is(err, authoring.ErrOfferPending):
		writeError(w, http.StatusConflict, "offer_pending", err.Error())
	case errors.Is(err, authoring.ErrOfferDeclined):
		writeError(w, http.StatusConflict, "declined", err.Error())
	case errors.Is(err, authoring.ErrOfferExpired):
		writeError(w, http.StatusGone, "offer_expired", err.Error())
	default:
		return false
	}
	return true
}

// answerOffer carries out the recording person's answer to a file offer:
// accepted, the file is stored in the recording's project with the caller
// as its uploader (201 with it); declined, 204.
func (s *Server) answerOffer(w http.ResponseWriter, r *http.Request) {
	var in offerAnswerRequest
	if !decode(w, r, &in) {
		return
	}
	if in.Accept == nil {
		writeIssues(w, "the answer is not valid", issueList{{Path: "accept", Code: "required", Message: "accept is required: true to upload the file, false not to"}})
		return
	}
	id, project, ok := s.loadAnySession(w, r)
	if !ok {
		return
	}
	offerID := chi.URLParam(r, "offerId")
	offer, err := s.authoring.ClaimOffer(id, offerID)
	if err != nil {
		writeError(w, http.StatusNotFound, codeNotFound, err.Error())
		return
	}
	if !*in.Accept {
		s.authoring.SettleOffer(id, offerID, "")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	f, err := s.keepOffered(r, project, offer)
	if err != nil {
		s.authoring.SettleOffer(id, offerID, "")
		if !asQuotaError(w, err) {
			s.internal(w, r, err)
		}
		return
	}
	s.authoring.SettleOffer(id, offerID, f.ID)
	writeJSON(w, http.StatusCreated, toProjectFileJSON(f))
}

// keepOffered stores an accepted offer as a file of the project, uploaded
// by the caller.
func (s *Server) keepOffered(r *http.Request, projectID string, o authoring.OfferedFile) (store.File, error) {
	files := s.files()
	if files == nil {
		return store.File{}, errors.New("this hub keeps no files")
	}
	id := ids.New(artifacts.FileKind)
	if err := files.PutFile(r.Context(), id, bytes.NewReader(o.Data)); err != nil {
		return store.File{}, err
	}
	sum := sha256.Sum256(o.Data)
	f := store.File{ID: id, ProjectID: projectID, Name: o.Name, Size: int64(len(o.Data)), SHA256: hex.EncodeToString(sum[:]),
		ContentType: fileContentType("", o.Name), CreatedByID: currentUserID(r), CreatedAt: s.Now().Truncate(time.Microsecond)}
	if err := s.store.CreateFile(r.Context(), f, s.fileQuota()); err != nil {
		_ = files.DeleteFile(r.Context(), id)
		return store.File{}, err
	}
	u, _ := currentUser(r)
	f.CreatedByName = u.Name
	return f, nil
}
