package api

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/testautomation/ta/hub/store"
)

// Long-lived answers (a run's or a recording's event stream) end within a
// second once their caller may no longer see them (DESIGN.md, "The
// runner's computer belongs to the person who runs the test"): signing
// out, a password change or reset, a revoked or expired API token, removal
// from the organization, a deleted account. Every stream registers with
// the server's streamGuard under who opened it; while any is open, the
// guard asks the database every streamRecheck whether each holder still
// may watch (one query for all of them, so a change made on another hub
// counts too), and ends those that may not. Changes made on this hub nudge
// it to ask at once.

// streamRecheck is how often open streams' access is checked again.
var streamRecheck = 500 * time.Millisecond

// errAccessEnded is the cause a stream's context ends with when its
// caller lost access.
var errAccessEnded = errors.New("the caller's access to this stream ended")

// streamGuard keeps the open streams and ends those whose holder lost
// access.
type streamGuard struct {
	mu      sync.Mutex
	open    map[*guardedStream]struct{} // guarded by mu
	running bool                        // guarded by mu: the check loop runs
	nudged  chan struct{}               // buffered: check now
}

type guardedStream struct {
	holder store.StreamHolder
	cancel context.CancelCauseFunc
}

// guardStream registers the request's stream of a record of projectID and
// returns the context the stream must end with; done unregisters it.
func (s *Server) guardStream(r *http.Request, projectID string) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(r.Context())
	u, _ := currentUser(r)
	holder := store.StreamHolder{UserID: u.ID, Session: currentSession(r), ProjectID: projectID}
	if tok, ok := currentToken(r); ok {
		holder.TokenID = tok.ID
	}
	st := &guardedStream{holder: holder, cancel: cancel}
	g := &s.streams
	g.mu.Lock()
	if g.open == nil {
		g.open = map[*guardedStream]struct{}{}
		g.nudged = make(chan struct{}, 1)
	}
	g.open[st] = struct{}{}
	if !g.running {
		g.running = true
		go s.guardStreams()
	}
	g.mu.Unlock()
	return ctx, func() {
		g.mu.Lock()
		delete(g.open, st)
		g.mu.Unlock()
		cancel(context.Canceled)
	}
}

// nudgeStreams makes the guard check open streams at once: this hub has
// just ended a session, revoked a token or changed a membership.
func (s *Server) nudgeStreams() {
	g := &s.streams
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.nudged == nil {
		return
	}
	select {
	case g.nudged <- struct{}{}:
	default:
	}
}

// guardStreams checks open streams until none is left.
func (s *Server) guardStreams() {
	g := &s.streams
	t := time.NewTicker(streamRecheck)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-g.nudged:
		}
		g.mu.Lock()
		if len(g.open) == 0 {
			g.running = false
			g.mu.Unlock()
			return
		}
		open := make([]*guardedStream, 0, len(g.open))
		for st := range g.open {
			open = append(open, st)
		}
		g.mu.Unlock()
		s.recheckStreams(open)
	}
}

// recheckStreams ends the streams whose holder may no longer watch. When
// the database cannot say, the streams go on: they read from it too, and
// end by themselves if it is gone.
func (s *Server) recheckStreams(open []*guardedStream) {
	index := map[string]int{} // one question per distinct holder
	var holders []store.StreamHolder
	of := make([]int, len(open))
	for i, st := range open {
		h := st.holder
		key := h.UserID + "\x00" + string(h.Session) + "\x00" + h.TokenID + "\x00" + h.ProjectID
		n, ok := index[key]
		if !ok {
			n = len(holders)
			index[key] = n
			holders = append(holders, h)
		}
		of[i] = n
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	allowed, err := s.store.StreamsAllowed(ctx, holders, s.Now(), s.SessionIdle)
	if err != nil {
		s.log.Warn("check who may still watch open event streams", "streams", len(open), "err", err)
		return
	}
	for i, st := range open {
		if !allowed[of[i]] {
			st.cancel(errAccessEnded)
		}
	}
}

// accessChanged tells this hub's watchers that a session, token or
// membership just ended here, so they act at once rather than at their
// next periodic check (which catches changes made on other hubs).
func (s *Server) accessChanged() {
	s.nudgeStreams()
	if s.Dispatch != nil {
		s.Dispatch.CITokensChanged()
	}
}

// errHubStopping is the cause streams end with when this hub drains:
// browsers' EventSource reconnects, with Last-Event-ID, to another hub.
var errHubStopping = errors.New("this hub is stopping")

// EndStreams ends every open stream (the hub is draining,
// docs/several-hubs.md): the web app reconnects at once and the load
// balancer sends it to another hub, where the stream resumes.
func (s *Server) EndStreams() {
	g := &s.streams
	g.mu.Lock()
	defer g.mu.Unlock()
	for st := range g.open {
		st.cancel(errHubStopping)
	}
}
