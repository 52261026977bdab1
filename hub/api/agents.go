package api

import (
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/dispatch"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

type agentJSON struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	OS        string `json:"os"`
	Connected bool   `json:"connected"`
	Busy      int    `json:"busy"`
	// Headless: the agent has no display, so headed runs run without a
	// window (as it said when it last connected).
	Headless bool `json:"headless"`
	// Paused: connected but taking no new runs (its tray's Pause).
	Paused bool `json:"paused"`
	// Ephemeral: a CI command's agent (agent ci): it takes only the runs
	// its command starts and goes when the command ends.
	Ephemeral bool   `json:"ephemeral"`
	LastSeen  string `json:"lastSeen"`
	CreatedAt string `json:"createdAt"`
	// ConnectedFrom is the client address of its connection, while
	// connected: the owner tells their own computer's from another.
	ConnectedFrom string `json:"connectedFrom,omitempty"`
	// RefusedAt and RefusedFrom: the last connection refused because the
	// computer was connected with the same token (someone may have its
	// token); null until one is, and again after the token is rotated.
	RefusedAt   *string `json:"refusedAt"`
	RefusedFrom *string `json:"refusedFrom"`
	// Labels its owner gave it; a run may ask for agents with some.
	Labels []string `json:"labels"`
	// BrowserVersion is its Chromium's ("Chrome/131.0.6778.85"), "" when
	// its agent did not say.
	BrowserVersion string `json:"browserVersion"`
	// Display: it can show a headed run's window (not headless); a headed
	// run goes only to such an agent.
	Display bool `json:"display"`
	// State is what it does now.
	State string `json:"state" enum:"idle|busy|paused|offline"`
}

// toAgentJSON is an agent as its owner sees it, with its live state.
func (s *Server) toAgentJSON(a store.Agent, st dispatch.AgentStatus) agentJSON {
	aj := agentJSON{ID: a.ID, Name: a.Name, OS: a.OS, Connected: st.Connected, Busy: st.Busy, ConnectedFrom: st.From,
		Headless: a.Headless, Paused: st.Paused, Ephemeral: a.Ephemeral, LastSeen: a.LastSeenAt.UTC().Format(timeFormat),
		CreatedAt: a.CreatedAt.UTC().Format(timeFormat), Labels: a.Labels, BrowserVersion: a.BrowserVersion, Display: !a.Headless,
		State: agentState(st)}
	if aj.Labels == nil {
		aj.Labels = []string{}
	}
	if a.RefusedAt != nil {
		at, from := a.RefusedAt.UTC().Format(timeFormat), a.RefusedFrom
		aj.RefusedAt, aj.RefusedFrom = &at, &from
	}
	return aj
}

// listAgents answers the caller's paired computers and whether runs are
// waiting for one: needed is true while the caller has no connected agent.
func (s *Server) listAgents(w http.ResponseWriter, r *http.Request) {
	u, _ := currentUser(r)
	agents, err := s.store.UserAgents(r.Context(), u.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := make([]agentJSON, 0, len(agents))
	connected := false
	for _, a := range agents {
		st := s.Dispatch.Status(a.ID)
		connected = connected || st.Connected && !a.Ephemeral
		aj := s.toAgentJSON(a, st)
		out = append(out, aj)
	}
	writeJSON(w, http.StatusOK, map[string]any{"agents": out, "needed": !connected})
}

// disconnectAgent revokes a computer's token and closes its connection.
func (s *Server) disconnectAgent(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	err := store.ErrNotFound
	if ids.Valid("agt", id) {
		err = s.store.DeleteAgent(r.Context(), id, currentUserID(r))
	}
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, codeNotFound, "no such computer among yours")
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.Dispatch.Disconnect(id)
	w.WriteHeader(http.StatusNoContent)
}

// pairGuard limits wrong pairing codes per user: 10 in 10 minutes.
type pairGuard struct {
	mu     sync.Mutex
	misses map[string][]time.Time // guarded by mu: user → recent wrong codes
}

const (
	pairMisses = 10
	pairWindow = 10 * time.Minute
)

// try counts an attempt as a miss before the code is checked, so parallel
// guesses cannot slip past the limit; false when the limit is reached.
func (g *pairGuard) try(userID string, now time.Time) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	kept := g.misses[userID][:0]
	for _, t := range g.misses[userID] {
		if now.Sub(t) < pairWindow {
			kept = append(kept, t)
		}
	}
	if len(kept) >= pairMisses {
		g.misses[userID] = kept
		return false
	}
	g.misses[userID] = append(kept, now)
	return true
}

// hit takes back the attempt of a right code.
func (g *pairGuard) hit(userID string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if n := len(g.misses[userID]); n > 0 {
		g.misses[userID] = g.misses[userID][:n-1]
	}
}

// pairingCode reads {code}, answering 429 after too many wrong codes and
// 404 for a code no computer is waiting on.
func (s *Server) pairingCode(w http.ResponseWriter, r *http.Request) (string, store.Pairing, bool) {
	u, _ := currentUser(r)
	now := s.Now()
	if !s.pairs.try(u.ID, now) {
		w.Header().Set("Retry-After", "600")
		writeError(w, http.StatusTooManyRequests, codeTooMany, "too many wrong pairing codes; try again in a few minutes")
		return "", store.Pairing{}, false
	}
	code := dispatch.NormalizeCode(chi.URLParam(r, "code"))
	p, err := store.Pairing{}, dispatch.ErrNoPairing
	if code != "" {
		p, err = s.Dispatch.Pairing(r.Context(), code)
	}
	if errors.Is(err, dispatch.ErrNoPairing) {
		writeError(w, http.StatusNotFound, codeNotFound, "no computer is waiting with this code: it may have expired (codes last 10 minutes) or been used")
		return "", p, false
	}
	if errors.Is(err, dispatch.ErrPairingGone) {
		// A right code: the limit does not count it.
		s.pairs.hit(u.ID)
		writeError(w, http.StatusGone, codePairingGone, "this computer is no longer waiting (its agent was stopped): start the agent again for a new code")
		return "", p, false
	}
	if err != nil {
		s.internal(w, r, err)
		return "", p, false
	}
	s.pairs.hit(u.ID)
	return code, p, true
}

// codePairingGone: the code is right but its computer no longer waits.
const codePairingGone = "pairing_gone"

// pendingJSON is a computer waiting for approval, without its code: id is
// an opaque handle, good for nothing but telling entries apart.
type pendingJSON struct {
	ID       string `json:"id"`
	Hostname string `json:"hostname"`
	OS       string `json:"os"`
	Since    string `json:"since"`
}

// pendingAgents lists the computers waiting for approval whose pairing
// connection comes from the caller's own address: computers near the
// caller. An address is shared behind NAT or a proxy, so the list shows
// names, never codes: approving still takes the code the computer shows.
func (s *Server) pendingAgents(w http.ResponseWriter, r *http.Request) {
	out := []pendingJSON{}
	for _, p := range s.Dispatch.WaitingFrom(clientAddress(r)) {
		out = append(out, pendingJSON{ID: p.ID, Hostname: p.Hostname, OS: p.OS, Since: p.Since.UTC().Format(timeFormat)})
	}
	writeJSON(w, http.StatusOK, map[string]any{"pending": out})
}

type pairingJSON struct {
	Code        string `json:"code"`
	Hostname    string `json:"hostname"`
	OS          string `json:"os"`
	RequestedAt string `json:"requestedAt"`
	ExpiresAt   string `json:"expiresAt"`
}

func (s *Server) getPairing(w http.ResponseWriter, r *http.Request) {
	code, p, ok := s.pairingCode(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, pairingJSON{Code: code, Hostname: p.Hostname, OS: p.OS,
		RequestedAt: p.CreatedAt.UTC().Format(timeFormat), ExpiresAt: p.ExpiresAt.UTC().Format(timeFormat)})
}

// approvePairing pairs the waiting computer with the caller.
func (s *Server) approvePairing(w http.ResponseWriter, r *http.Request) {
	code, _, ok := s.pairingCode(w, r)
	if !ok {
		return
	}
	a, err := s.Dispatch.Approve(r.Context(), code, currentUserID(r))
	if errors.Is(err, dispatch.ErrNoPairing) {
		writeError(w, http.StatusGone, codePairingGone, "this computer is no longer waiting (its agent was stopped): start the agent again for a new code")
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.log.Info("agent paired", "agent", a.ID, "user", a.UserID, "name", a.Name)
	// Approve waited for the connection: its status is the agent's now
	// (it may have left meanwhile), with what its hello said.
	if cur, err := s.store.UserAgent(r.Context(), a.ID, a.UserID); err == nil {
		a = cur
	}
	writeJSON(w, http.StatusCreated, s.toAgentJSON(a, s.Dispatch.Status(a.ID)))
}
