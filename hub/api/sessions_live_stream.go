package api

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
)

// What a live session shows while its steps run: its stream and the
// screenshots of its steps (sessions_live.go).

// liveEvents streams a live session's statuses and its runs' events
// (run.started, step.started, step.finished, log, run.finished) as a
// run's stream does; a client resumes with Last-Event-ID.
func (s *Server) liveEvents(w http.ResponseWriter, r *http.Request) {
	id, _, ok := s.loadLive(w, r)
	if !ok {
		return
	}
	s.streamSession(w, r, id)
}

// streamSession writes an authoring session's stream entries until it
// ends or the caller may no longer see it (streams.go).
func (s *Server) streamSession(w http.ResponseWriter, r *http.Request, id string) {
	_, project, _, _ := s.authoring.Owner(id)
	ctx, done := s.guardStream(r, project)
	defer done()
	flusher, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, codeInternal, "streaming is not supported here")
		return
	}
	var after int64
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		after, _ = strconv.ParseInt(v, 10, 64)
	}
	wake, stop := s.authoring.Watch(id)
	defer stop()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	flusher.Flush()
	keep := time.NewTicker(sseKeepAlive)
	defer keep.Stop()
	for {
		events, ended := s.authoring.Events(id, after)
		for _, e := range events {
			fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", e.N, e.Kind, e.Data)
			after = e.N
		}
		flusher.Flush()
		if ended {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-keep.C:
			fmt.Fprint(w, ": keep-alive\n\n")
			flusher.Flush()
		}
	}
}

// liveScreenshot serves a screenshot a live session's steps took.
func (s *Server) liveScreenshot(w http.ResponseWriter, r *http.Request) {
	id, _, ok := s.loadLive(w, r)
	if !ok {
		return
	}
	png, ok := s.authoring.Screenshot(id, chi.URLParam(r, "name"))
	if !ok {
		writeError(w, http.StatusNotFound, codeNotFound, "no such screenshot in this session")
		return
	}
	ctype := "image/png"
	if !isPNGData(png) {
		ctype = "image/jpeg"
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "sandbox")
	w.Header().Set("Content-Length", strconv.Itoa(len(png)))
	_, _ = w.Write(png)
}

func isPNGData(b []byte) bool { return len(b) > 8 && string(b[:8]) == "\x89PNG\r\n\x1a\n" }
