package api

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/testautomation/ta/protocol"
)

// sseKeepAlive is how often an idle stream gets a comment line.
var sseKeepAlive = 15 * time.Second

// eventPage is how many stored events a stream reads at once: a reader's
// memory stays the same whatever the run's history.
const eventPage = 256

// runEvents streams a run's events as server-sent events: every stored
// event after Last-Event-ID first (read a page at a time), then new ones as
// they come, until run.finished, or until the caller may no longer see
// them (streams.go).
func (s *Server) runEvents(w http.ResponseWriter, r *http.Request) {
	run, _, ok := s.loadRun(w, r)
	if !ok {
		return
	}
	ctx, done := s.guardStream(r, run.ProjectID)
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
	wake, stop := s.Dispatch.Watch(run.ID)
	defer stop()
	s.sseSubscribers.Add(1)
	defer s.sseSubscribers.Add(-1)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	flusher.Flush()
	keep := time.NewTicker(sseKeepAlive)
	defer keep.Stop()
	finalSeen := false
	for {
		events, err := s.store.Events(ctx, run.ID, after, eventPage)
		if err != nil {
			return
		}
		if len(events) == 0 {
			if finalSeen {
				return // resumed past the end: nothing more will come
			}
			// A final run has its run.finished stored with the status, so
			// one more read finds it if this one came just before.
			if cur, err := s.store.Run(ctx, run.ID); err != nil || protocol.Final(cur.Status) {
				finalSeen = true
				continue
			}
		}
		for _, e := range events {
			fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", e.Seq, e.Kind, e.Data)
			after = e.Seq
			if e.Kind == string(protocol.RunFinished) {
				flusher.Flush()
				return
			}
		}
		flusher.Flush()
		if len(events) == eventPage {
			continue // more history to replay
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
