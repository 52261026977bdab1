package authoring

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/protocol"
)

// Relay reaches the agents: the dispatcher is the real one.
type Relay interface {
	// AuthorAgent chooses a connected agent of the user for a new session,
	// one with a display first; ok is false when none is connected.
	AuthorAgent(userID string) (agentID string, ok bool)
	// Connected reports whether the agent is connected now.
	Connected(agentID string) bool
	// SendAuthor sends an authoring message to a connected agent.
	SendAuthor(ctx context.Context, agentID string, m protocol.Message) error
}

// Errors the API turns into answers.
var (
	ErrAgentNeeded = errors.New("no agent of yours is connected: start the agent on your computer (or pair one) and try again")
	ErrNotFound    = errors.New("no such session")
	ErrEnded       = errors.New("this session has ended")
	ErrNoPreview   = errors.New("no screenshot of this session's page yet")
	ErrAgentLost   = errors.New("the agent disconnected before it answered")
	ErrTimeout     = errors.New("the agent did not answer in time")
	ErrTooMany     = fmt.Errorf("you have %d authoring sessions open: stop or close one first", maxLive)
)

// AgentError is a request the agent answered with an error; Message is
// the agent's text, not cleaned nor masked yet.
type AgentError struct{ Message string }

func (e *AgentError) Error() string { return e.Message }

// maxLive bounds the sessions one user has open at once.
const maxLive = 10

// Config sets a Manager up.
type Config struct {
	Relay  Relay
	Logger *slog.Logger
	Now    func() time.Time
	// Idle ends a session nobody used for this long; default 30 minutes.
	Idle time.Duration
	// LiveIdle ends an editor's live session nobody used for this long;
	// default 10 minutes.
	LiveIdle time.Duration
	// Keep is how long an ended session can still be read; default 30
	// minutes.
	Keep time.Duration
	// Answer bounds waiting for an agent's answer to a stop or a preview;
	// default 10 s.
	Answer time.Duration
	// OfferWait bounds waiting for the answer to a file offer; default
	// OfferWait (offers.go).
	OfferWait time.Duration
}

// Manager keeps the authoring sessions.
type Manager struct {
	cfg Config
	log *slog.Logger

	mu       sync.Mutex
	sessions map[string]*Session                   // guarded by mu
	pending  map[string]*pending                   // guarded by mu: request id → waiter
	watchers map[string]map[chan struct{}]struct{} // guarded by mu
	views    views                                 // the live views (view.go)
}

// pending is a request waiting for its agent's answer.
type pending struct {
	agentID string
	at      time.Time // wall clock, to tell connections apart
	reply   chan protocol.Message
	data    []byte
}

// New returns a Manager; Run sweeps idle sessions.
func New(cfg Config) *Manager {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Idle == 0 {
		cfg.Idle = 30 * time.Minute
	}
	if cfg.LiveIdle == 0 {
		cfg.LiveIdle = 10 * time.Minute
	}
	if cfg.Keep == 0 {
		cfg.Keep = 30 * time.Minute
	}
	if cfg.Answer == 0 {
		cfg.Answer = 10 * time.Second
	}
	return &Manager{cfg: cfg, log: cfg.Logger, sessions: map[string]*Session{}, pending: map[string]*pending{},
		watchers: map[string]map[chan struct{}]struct{}{}}
}

// Run sweeps idle and old sessions until ctx ends.
func (m *Manager) Run(ctx context.Context) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			m.Sweep(ctx)
		}
	}
}

// Start is a request for a new session.
type Start struct {
	Kind          string
	UserID        string
	ProjectID     string
	EnvironmentID string
	TestID        string
	URL           string // absolute
	Recording     string // a picker on this recording's page
	Headed        bool
	Subst         Substitution
}

// Start opens a session on a connected agent of the user and asks it to
// start; the session is starting until the agent says more. A picker on a
// recording's page goes to the recording's agent and takes the
// recording's environment.
func (m *Manager) Start(ctx context.Context, in Start) (*Session, error) {
	prefix := map[string]string{protocol.AuthorRecord: "rec", protocol.AuthorPick: "pck", protocol.AuthorLive: "ses"}[in.Kind]
	now := m.cfg.Now()
	m.mu.Lock()
	live := 0
	for _, s := range m.sessions {
		if s.UserID == in.UserID && !final(s.status) {
			live++
		}
	}
	if live >= maxLive {
		m.mu.Unlock()
		return nil, ErrTooMany
	}
	agentID := ""
	if in.Recording != "" {
		rec := m.sessions[in.Recording]
		if rec == nil || rec.UserID != in.UserID || (rec.Kind != protocol.AuthorRecord && rec.Kind != protocol.AuthorLive) {
			m.mu.Unlock()
			return nil, ErrNotFound
		}
		if final(rec.status) {
			m.mu.Unlock()
			return nil, ErrEnded
		}
		agentID, in.Subst, in.EnvironmentID = rec.AgentID, rec.subst, rec.EnvironmentID
	} else {
		var ok bool
		if agentID, ok = m.cfg.Relay.AuthorAgent(in.UserID); !ok {
			m.mu.Unlock()
			return nil, ErrAgentNeeded
		}
	}
	m.forgetEndedLocked(in.UserID)
	s := &Session{ID: ids.New(prefix), Kind: in.Kind, UserID: in.UserID, ProjectID: in.ProjectID, AgentID: agentID,
		EnvironmentID: in.EnvironmentID, TestID: in.TestID, Recording: in.Recording, CreatedAt: now,
		url: in.URL, status: protocol.SessionStarting, used: now, subst: in.Subst.withMasks(), wall: time.Now()}
	if in.Kind == protocol.AuthorPick {
		s.mode = protocol.ModePick
	}
	if in.Kind == protocol.AuthorLive {
		s.live = &liveState{marks: map[string]StepMark{}, shots: map[string][]byte{}}
	}
	s.push("status", 0, map[string]any{"status": s.status, "url": s.url, "error": nil})
	m.sessions[s.ID] = s // counted at once: concurrent starts cannot pass maxLive
	m.mu.Unlock()
	start := protocol.AuthorStart{Kind: in.Kind, URL: in.URL, Recording: in.Recording, Mode: s.mode, Headed: in.Headed}
	if err := m.cfg.Relay.SendAuthor(ctx, agentID, protocol.Message{Type: protocol.MsgAuthorStart, Session: s.ID, Start: &start}); err != nil {
		m.end(s.ID, protocol.SessionError, "the agent could not be reached: "+err.Error())
		return nil, ErrAgentNeeded
	}
	return s, nil
}

// maxKept bounds the sessions kept per user, ended ones included: the
// oldest ended ones are forgotten first.
const maxKept = 50

func (m *Manager) forgetEndedLocked(userID string) {
	var ended []*Session
	n := 0
	for _, s := range m.sessions {
		if s.UserID == userID {
			n++
			if final(s.status) {
				ended = append(ended, s)
			}
		}
	}
	sort.Slice(ended, func(i, j int) bool { return ended[i].ended.Before(ended[j].ended) })
	for i := 0; n >= maxKept && i < len(ended); i++ {
		delete(m.sessions, ended[i].ID)
		n--
	}
}

// EnvironmentOf is the environment a session was started with.
func (m *Manager) EnvironmentOf(id string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.sessions[id]; s != nil {
		return s.EnvironmentID
	}
	return ""
}

// Owner says whose a session is: its user, project and kind; ok is false
// for an unknown session.
func (m *Manager) Owner(id string) (userID, projectID, kind string, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[id]
	if s == nil {
		return "", "", "", false
	}
	return s.UserID, s.ProjectID, s.Kind, true
}

// Recording is a recording's view; it counts as a use.
func (m *Manager) Recording(id string) (RecordingView, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[id]
	if s == nil || s.Kind != protocol.AuthorRecord {
		return RecordingView{}, false
	}
	s.used = m.cfg.Now()
	return s.recording(), true
}

// Picker is a picker's view; it counts as a use.
func (m *Manager) Picker(id string) (PickerView, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[id]
	if s == nil || s.Kind != protocol.AuthorPick {
		return PickerView{}, false
	}
	s.used = m.cfg.Now()
	return s.picker(), true
}

// Events returns a recording's stream entries after n, and whether the
// session has ended.
func (m *Manager) Events(id string, after int64) ([]Event, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[id]
	if s == nil {
		return nil, true
	}
	var out []Event
	for _, e := range s.log {
		if e.N > after {
			out = append(out, e)
		}
	}
	return out, final(s.status)
}

// Watch returns a channel signalled when the session changes.
func (m *Manager) Watch(id string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	m.mu.Lock()
	if m.watchers[id] == nil {
		m.watchers[id] = map[chan struct{}]struct{}{}
	}
	m.watchers[id][ch] = struct{}{}
	m.mu.Unlock()
	return ch, func() {
		m.mu.Lock()
		delete(m.watchers[id], ch)
		if len(m.watchers[id]) == 0 {
			delete(m.watchers, id)
		}
		m.mu.Unlock()
	}
}

// wakeLocked signals the session's watchers; m.mu is held.
func (m *Manager) wakeLocked(id string) {
	for ch := range m.watchers[id] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// end moves a session to a final status and ends the pickers on its page.
func (m *Manager) end(id, status, why string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.endLocked(id, status, why)
}

func (m *Manager) endLocked(id, status, why string) {
	s := m.sessions[id]
	if s == nil {
		return
	}
	if s.setStatus(status, "", why, m.cfg.Now()) {
		m.wakeLocked(id)
	}
	if s.live != nil && s.live.done != nil && final(s.status) {
		close(s.live.done) // a run in flight ends with its session
		s.live.done = nil
	}
	for _, p := range m.sessions {
		if p.Recording == id && !final(p.status) {
			if p.setStatus(protocol.SessionClosed, "", "the recording it picked in ended", m.cfg.Now()) {
				m.wakeLocked(p.ID)
			}
		}
	}
}

// live returns a session that has not ended, counting the call as a use.
func (m *Manager) live(id string) (*Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[id]
	if s == nil {
		return nil, ErrNotFound
	}
	s.used = m.cfg.Now()
	if final(s.status) {
		return s, ErrEnded
	}
	return s, nil
}

// Stop ends a recording: the agent sends its last steps and a screenshot
// of where it ended; the final view is returned. Stopping an ended
// recording answers its view.
func (m *Manager) Stop(ctx context.Context, id string) (RecordingView, error) {
	s, err := m.live(id)
	if errors.Is(err, ErrNotFound) {
		return RecordingView{}, err
	}
	if err == nil {
		if png, err := m.ask(ctx, s.AgentID, protocol.Message{Type: protocol.MsgAuthorPreview, Session: id}, m.cfg.Answer/2); err == nil {
			m.mu.Lock()
			s.preview = png.data
			m.mu.Unlock()
		}
		m.stopAgent(ctx, s, protocol.SessionStopped)
	}
	v, _ := m.Recording(id)
	return v, nil
}

// Close ends a picker.
func (m *Manager) Close(ctx context.Context, id string) error {
	s, err := m.live(id)
	if errors.Is(err, ErrNotFound) {
		return err
	}
	if err == nil {
		_ = m.cfg.Relay.SendAuthor(ctx, s.AgentID, protocol.Message{Type: protocol.MsgAuthorStop, Session: id})
		m.end(id, protocol.SessionClosed, "")
	}
	return nil
}

// stopAgent asks the agent to stop a session and waits a while for it to
// say it has; then the session ends as status either way.
func (m *Manager) stopAgent(ctx context.Context, s *Session, status string) {
	wake, stop := m.Watch(s.ID)
	defer stop()
	if m.cfg.Relay.SendAuthor(ctx, s.AgentID, protocol.Message{Type: protocol.MsgAuthorStop, Session: s.ID}) == nil {
		t := time.NewTimer(m.cfg.Answer)
		defer t.Stop()
	wait:
		for {
			m.mu.Lock()
			done := final(s.status)
			m.mu.Unlock()
			if done {
				break
			}
			select {
			case <-wake:
			case <-t.C:
				break wait
			case <-ctx.Done():
				break wait
			}
		}
	}
	m.end(s.ID, status, "")
}

// Mode sets a picker's mode.
func (m *Manager) Mode(ctx context.Context, id, mode string) (PickerView, error) {
	s, err := m.live(id)
	if err != nil {
		return PickerView{}, err
	}
	if err := m.cfg.Relay.SendAuthor(ctx, s.AgentID, protocol.Message{Type: protocol.MsgAuthorMode, Session: id, Mode: mode}); err != nil {
		return PickerView{}, ErrAgentLost
	}
	m.mu.Lock()
	s.mode = mode
	m.wakeLocked(id)
	m.mu.Unlock()
	v, _ := m.Picker(id)
	return v, nil
}

// Preview is a PNG of the session's page: taken now while it is open, the
// last one taken once it has ended.
func (m *Manager) Preview(ctx context.Context, id string) ([]byte, error) {
	s, err := m.live(id)
	if errors.Is(err, ErrNotFound) {
		return nil, err
	}
	if err == nil {
		a, err := m.ask(ctx, s.AgentID, protocol.Message{Type: protocol.MsgAuthorPreview, Session: id}, m.cfg.Answer)
		var ae *AgentError
		if errors.As(err, &ae) {
			ae.Message = s.subst.scrub(ae.Message)
		}
		if err == nil {
			m.mu.Lock()
			s.preview = a.data
			m.mu.Unlock()
			return a.data, nil
		}
		m.log.Info("session preview", "session", id, "err", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.preview == nil {
		return nil, ErrNoPreview
	}
	return s.preview, nil
}

// Try runs a script on an agent of the user: the recording's when given
// (which must be the user's and open), else any connected one. secrets
// are masked in the result.
func (m *Manager) Try(ctx context.Context, userID, recording string, req protocol.TryRequest) (protocol.TryResult, error) {
	var agentID string
	if recording != "" {
		m.mu.Lock()
		s := m.sessions[recording]
		if s != nil && s.UserID == userID && s.Kind == protocol.AuthorRecord {
			agentID = s.AgentID
			s.used = m.cfg.Now()
			if final(s.status) {
				agentID = "ended"
			}
		}
		m.mu.Unlock()
		switch agentID {
		case "":
			return protocol.TryResult{}, ErrNotFound
		case "ended":
			return protocol.TryResult{}, ErrEnded
		}
		req.Session = recording
	} else {
		var ok bool
		if agentID, ok = m.cfg.Relay.AuthorAgent(userID); !ok {
			return protocol.TryResult{}, ErrAgentNeeded
		}
	}
	wait := time.Duration(req.TimeoutMs)*time.Millisecond + m.cfg.Answer + 5*time.Second
	a, err := m.ask(ctx, agentID, protocol.Message{Type: protocol.MsgScriptTry, Try: &req}, wait)
	var ae *AgentError
	if errors.As(err, &ae) {
		ae.Message = scrubber(req.Secrets)(ae.Message)
	}
	if err != nil {
		return protocol.TryResult{}, err
	}
	res := protocol.TryResult{Console: []protocol.ConsoleLine{}}
	if a.msg.Tried != nil {
		res = *a.msg.Tried
	}
	return tidyTry(res, req.Secrets), nil
}

// answer is an agent's reply to a request.
type answer struct {
	msg  protocol.Message
	data []byte
}

// ask sends a request with a new id and waits for the agent's answer.
func (m *Manager) ask(ctx context.Context, agentID string, req protocol.Message, wait time.Duration) (answer, error) {
	req.ReqID = ids.New("req")
	p := &pending{agentID: agentID, at: time.Now(), reply: make(chan protocol.Message, 1)}
	m.mu.Lock()
	m.pending[req.ReqID] = p
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		delete(m.pending, req.ReqID)
		m.mu.Unlock()
	}()
	if err := m.cfg.Relay.SendAuthor(ctx, agentID, req); err != nil {
		return answer{}, ErrAgentLost
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case msg := <-p.reply:
		if msg.Type == "" {
			return answer{}, ErrAgentLost
		}
		if msg.Error != "" {
			return answer{}, &AgentError{msg.Error}
		}
		m.mu.Lock()
		data := p.data
		m.mu.Unlock()
		return answer{msg: msg, data: data}, nil
	case <-t.C:
		return answer{}, ErrTimeout
	case <-ctx.Done():
		return answer{}, ctx.Err()
	}
}

// idleFor is how long a session may go unused: an editor's live session
// holds a page on the user's agent, so it ends sooner.
func (m *Manager) idleFor(s *Session) time.Duration {
	if s.Kind == protocol.AuthorLive {
		return m.cfg.LiveIdle
	}
	return m.cfg.Idle
}

// Sweep ends sessions idle for too long and forgets ended ones after Keep.
func (m *Manager) Sweep(ctx context.Context) {
	now := m.cfg.Now()
	var idle []*Session
	m.mu.Lock()
	for id, s := range m.sessions {
		switch {
		case final(s.status) && now.Sub(s.ended) > m.cfg.Keep:
			delete(m.sessions, id)
		case !final(s.status) && now.Sub(s.used) > m.idleFor(s):
			idle = append(idle, s)
		}
	}
	m.mu.Unlock()
	for _, s := range idle {
		m.log.Info("authoring session ended after being idle", "session", s.ID, "idle", m.idleFor(s))
		_ = m.cfg.Relay.SendAuthor(ctx, s.AgentID, protocol.Message{Type: protocol.MsgAuthorStop, Session: s.ID})
		status := protocol.SessionStopped
		if s.Kind != protocol.AuthorRecord {
			status = protocol.SessionClosed
		}
		m.end(s.ID, status, fmt.Sprintf("ended after %v without use", m.idleFor(s)))
	}
}
