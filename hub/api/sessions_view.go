package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/authoring"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// The live view of an authoring session (DESIGN.md, "Agents chosen, live
// view, step-by-step runs"): GET /api/sessions/{id}/view streams the
// agent's page as JPEG frames, POST /api/sessions/{id}/input sends mouse
// and keyboard input to it. Both take any session of the authoring
// manager (rec_, pck_, the editor's live sessions), keyed on its id.

const sessionNotFound = "no such session"

// viewInputRequest is POST /api/sessions/{id}/input's body: x and y in the
// pixels of the last frame the view sent; kind dialog answers the page's
// open dialog with accept and text (no x and y); kind files answers the
// page's file chooser with files (project file ids; none: cancel).
type viewInputRequest struct {
	Kind      string   `json:"kind" openapi:"required"`
	X         float64  `json:"x"`
	Y         float64  `json:"y"`
	Button    string   `json:"button"`
	Clicks    int      `json:"clicks"`
	DeltaX    float64  `json:"deltaX"`
	DeltaY    float64  `json:"deltaY"`
	Key       string   `json:"key"`
	Text      string   `json:"text"`
	Accept    bool     `json:"accept"`
	Files     []string `json:"files"`
	Modifiers []string `json:"modifiers"`
	// Kind drag: where it ends; kinds tab and closeTab: which tab.
	ToX   *float64 `json:"toX"`
	ToY   *float64 `json:"toY"`
	Index *int     `json:"index"`
}

// loadAnySession resolves the authoring session {id} of any kind for the
// caller: someone else's is not found, another project's is not found and
// audited.
func (s *Server) loadAnySession(w http.ResponseWriter, r *http.Request) (string, string, bool) {
	id := chi.URLParam(r, "id")
	kind, _, _ := strings.Cut(id, "_")
	if len(kind) == 0 || len(kind) > 8 || strings.ContainsFunc(kind, func(c rune) bool { return c < 'a' || c > 'z' }) {
		kind = "-" // not an id: ids.Valid refuses it, 404
	}
	get := func(_ context.Context, id string) (sessionOwner, error) {
		user, project, _, ok := s.authoring.Owner(id)
		if !ok {
			return sessionOwner{}, store.ErrNotFound
		}
		return sessionOwner{user, project}, nil
	}
	o, sc, ok := loadVisible(s, w, r, kind, id, sessionNotFound, get,
		func(o sessionOwner) string { return o.project },
		func(o sessionOwner) (bool, string) { return true, o.user })
	if !ok || !allow(w, sc, access.AuthorTests) {
		return "", "", false
	}
	return id, o.project, true
}

// sessionView streams a session's page: event frame (data: a
// FrameEvent), and event end when the session ends. The agent sends
// frames only while someone watches; the stream ends within a second when
// the caller may no longer see it (streams.go).
func (s *Server) sessionView(w http.ResponseWriter, r *http.Request) {
	id, project, ok := s.loadAnySession(w, r)
	if !ok {
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, codeInternal, "streaming is not supported here")
		return
	}
	ctx, done := s.guardStream(r, project)
	defer done()
	frames, stop, err := s.authoring.WatchView(ctx, id)
	if err != nil {
		s.authorError(w, r, err, sessionNotFound)
		return
	}
	defer stop()
	wake, unwatch := s.authoring.Watch(id)
	defer unwatch()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	flusher.Flush()
	keep := time.NewTicker(sseKeepAlive)
	defer keep.Stop()
	for {
		if s.authoring.Ended(id) {
			fmt.Fprint(w, "event: end\ndata: {}\n\n")
			flusher.Flush()
			return
		}
		select {
		case <-ctx.Done():
			return
		case ev := <-frames:
			fmt.Fprintf(w, "event: frame\ndata: %s\n\n", ev)
			flusher.Flush()
		case <-wake:
		case <-keep.C:
			fmt.Fprint(w, ": keep-alive\n\n")
			flusher.Flush()
		}
	}
}

// sessionInput sends one input through a session's view as real input.
func (s *Server) sessionInput(w http.ResponseWriter, r *http.Request) {
	var in viewInputRequest
	if !decode(w, r, &in) {
		return
	}
	id, project, ok := s.loadAnySession(w, r)
	if !ok {
		return
	}
	vin := protocol.ViewInput{Kind: in.Kind, X: in.X, Y: in.Y, Button: in.Button, Clicks: in.Clicks, DeltaX: in.DeltaX,
		DeltaY: in.DeltaY, Key: in.Key, Text: in.Text, Accept: in.Accept, Files: in.Files, Modifiers: in.Modifiers,
		ToX: in.ToX, ToY: in.ToY, Index: in.Index}
	// Chosen files must be the project's: checked once their shape is
	// (a malformed id is said so by the input's own check, below).
	if in.Kind == protocol.InputFiles && len(vin.Check(0, 0)) == 0 && !s.chosenFilesKnown(w, r, project, in.Files) {
		return
	}
	err := s.authoring.Input(r.Context(), id, vin)
	var bad authoring.InputIssues
	var tab *authoring.TabError
	switch {
	case errors.As(err, &bad):
		issues := make(issueList, 0, len(bad))
		for _, i := range bad {
			issues.add(i.Path, i.Code, i.Message)
		}
		writeIssues(w, "the input is not valid", issues)
	case errors.As(err, &tab):
		writeError(w, http.StatusConflict, "tab_gone", "the tab is not there: "+protocol.CleanText(tab.Message))
	case errors.Is(err, authoring.ErrInputTooFast):
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusTooManyRequests, codeTooMany, err.Error())
	case err != nil:
		s.authorError(w, r, err, sessionNotFound)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}
