package authoring

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"sync"
	"time"

	"github.com/testautomation/ta/protocol"
)

// The live view (protocol/authoring_view.go): the hub relays a session's
// frames to whoever watches and asks the agent for them only while someone
// does. It works on any session the manager keeps, whatever its kind.

// Errors of the live view the API turns into answers.
var (
	ErrInputTooFast = errors.New("too many inputs to this session's view: slow down")
)

// InputIssues is an input the API answers 422 with.
type InputIssues []protocol.Issue

func (InputIssues) Error() string { return "the input is not valid" }

// Input rate: a steady rate and a burst, per session (mouse moves come
// throttled by the web app; a person types far slower).
const (
	inputRate  = 30 // per second
	inputBurst = 60
)

// views keeps the watchers and last frame of each session's view. Its
// mutex is taken after Manager.mu, never before.
type views struct {
	toggle sync.Mutex // held while a view is switched on or off: the agent gets them in order

	mu    sync.Mutex
	watch map[string]map[chan []byte]struct{} // guarded by mu: session → watchers
	last  map[string]lastFrame                // guarded by mu
	input map[string]*bucket                  // guarded by mu
}

// lastFrame is the frame a new watcher gets first (a still page sends no
// new ones) and the size inputs are checked against.
type lastFrame struct {
	event []byte // the SSE data
	frame protocol.ViewFrame
}

type bucket struct {
	tokens float64
	at     time.Time
}

// FrameEvent is what a frame event of GET /api/sessions/:id/view holds:
// the JPEG (base64) and how its pixels map to the page, with the
// JavaScript dialog open on the page (the picture does not show it).
type FrameEvent struct {
	Seq        int64                `json:"seq"`
	Data       []byte               `json:"data"`
	Width      int                  `json:"width"`
	Height     int                  `json:"height"`
	PageWidth  float64              `json:"pageWidth"`
	PageHeight float64              `json:"pageHeight"`
	ScrollX    float64              `json:"scrollX"`
	ScrollY    float64              `json:"scrollY"`
	Dialog     *protocol.ViewDialog `json:"dialog,omitempty"`
	Tabs       []protocol.ViewTab   `json:"tabs,omitempty"` // view_tabs.go
	// FileChooser is the file choice the page waits for (input kind
	// files answers it).
	FileChooser *protocol.ViewFileChooser `json:"fileChooser,omitempty"`
}

// frame takes a frame an agent sent for one of its sessions.
func (m *Manager) frame(agentID string, msg protocol.Message) {
	f := msg.Frame
	if f == nil || !validFrame(*f) {
		m.log.Debug("view frame dropped: not a valid frame", "session", msg.Session)
		return
	}
	m.mu.Lock()
	s := m.sessions[msg.Session]
	ok := s != nil && s.AgentID == agentID && !final(s.status)
	if ok {
		s.frames++
	}
	var seq int64
	if ok {
		seq = s.frames
	}
	m.mu.Unlock()
	if !ok {
		return
	}
	ev, _ := json.Marshal(FrameEvent{Seq: seq, Data: f.Data, Width: f.Width, Height: f.Height,
		PageWidth: f.PageWidth, PageHeight: f.PageHeight, ScrollX: f.ScrollX, ScrollY: f.ScrollY, Dialog: f.Dialog,
		FileChooser: f.FileChooser, Tabs: m.frameTabs(msg.Session, f.Tabs)})
	v := &m.views
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.watch[msg.Session]) == 0 {
		return // a frame sent before the agent heard the view is off
	}
	if v.last == nil {
		v.last = map[string]lastFrame{}
	}
	v.last[msg.Session] = lastFrame{event: ev, frame: protocol.ViewFrame{Width: f.Width, Height: f.Height, PageWidth: f.PageWidth, PageHeight: f.PageHeight,
		FileChooser: f.FileChooser}}
	for ch := range v.watch[msg.Session] {
		latest(ch, ev)
	}
}

// latest puts ev in ch, replacing a frame the watcher has not taken yet: a
// slow watcher sees the newest picture, never a backlog.
func latest(ch chan []byte, ev []byte) {
	for {
		select {
		case ch <- ev:
			return
		default:
		}
		select {
		case <-ch:
		default:
		}
	}
}

func validFrame(f protocol.ViewFrame) bool {
	isJPEG := len(f.Data) > 3 && f.Data[0] == 0xff && f.Data[1] == 0xd8 && f.Data[2] == 0xff
	size := func(x float64) bool { return !math.IsNaN(x) && x > 0 && x <= 100_000 }
	scroll := func(x float64) bool { return !math.IsNaN(x) && math.Abs(x) <= 1e9 }
	return isJPEG && len(f.Data) <= protocol.MaxViewFrame &&
		f.Width > 0 && f.Width <= protocol.ViewMaxWidth && f.Height > 0 && f.Height <= protocol.ViewMaxHeight &&
		size(f.PageWidth) && size(f.PageHeight) && scroll(f.ScrollX) && scroll(f.ScrollY) &&
		(f.Dialog == nil || protocol.DialogTypes[f.Dialog.Type]) && validTabs(f.Tabs)
}

// WatchView adds a watcher of a session's view: frames receives each
// frame's event data (the last one first, when there is one); stop
// removes it. The first watcher turns the agent's screencast on, the last
// one leaving turns it off.
func (m *Manager) WatchView(ctx context.Context, id string) (frames <-chan []byte, stop func(), err error) {
	s, err := m.live(id)
	if err != nil {
		return nil, nil, err
	}
	ch := make(chan []byte, 1)
	v := &m.views
	v.toggle.Lock()
	v.mu.Lock()
	if v.watch == nil {
		v.watch = map[string]map[chan []byte]struct{}{}
	}
	first := len(v.watch[id]) == 0
	if first {
		v.watch[id] = map[chan []byte]struct{}{}
	}
	v.watch[id][ch] = struct{}{}
	if last, ok := v.last[id]; ok {
		ch <- last.event
	}
	v.mu.Unlock()
	if first {
		m.sendView(ctx, s, true)
	}
	v.toggle.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			v.toggle.Lock()
			defer v.toggle.Unlock()
			v.mu.Lock()
			delete(v.watch[id], ch)
			gone := len(v.watch[id]) == 0
			if gone {
				delete(v.watch, id)
			}
			v.mu.Unlock()
			if gone {
				m.sendView(context.WithoutCancel(ctx), s, false)
				m.pruneViews()
			}
		})
	}, nil
}

// sendView switches the agent's screencast of a session on or off; an
// ended session's is off already.
func (m *Manager) sendView(ctx context.Context, s *Session, on bool) {
	m.mu.Lock()
	ended := final(s.status)
	m.mu.Unlock()
	if ended && !on {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	msg := protocol.Message{Type: protocol.MsgAuthorView, Session: s.ID, View: &protocol.ViewToggle{On: on}}
	if err := m.cfg.Relay.SendAuthor(ctx, s.AgentID, msg); err != nil {
		m.log.Info("view toggle not sent", "session", s.ID, "on", on, "err", err)
	}
}

// pruneViews forgets the last frames of sessions nobody watches that
// ended or are gone.
func (m *Manager) pruneViews() {
	m.mu.Lock()
	defer m.mu.Unlock()
	v := &m.views
	v.mu.Lock()
	defer v.mu.Unlock()
	for id := range v.last {
		if s := m.sessions[id]; (s == nil || final(s.status)) && len(v.watch[id]) == 0 {
			delete(v.last, id)
			delete(v.input, id)
		}
	}
}

// Ended reports whether a session has ended (or is unknown).
func (m *Manager) Ended(id string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[id]
	return s == nil || final(s.status)
}

// Input sends an input through a session's view to its agent: checked
// against the last frame relayed (InputIssues), rate-limited
// (ErrInputTooFast).
func (m *Manager) Input(ctx context.Context, id string, in protocol.ViewInput) error {
	s, err := m.live(id)
	if err != nil {
		return err
	}
	v := &m.views
	v.mu.Lock()
	last, ok := v.last[id]
	v.mu.Unlock()
	issues := in.Check(last.frame.Width, last.frame.Height)
	if len(issues) == 0 && in.Kind == protocol.InputFiles {
		issues = chooserIssues(last.frame.FileChooser, in.Files)
	}
	if len(issues) > 0 {
		return InputIssues(issues)
	}
	if !m.takeInput(id) {
		return ErrInputTooFast
	}
	if tabInput(in.Kind) {
		return m.tabInput(ctx, s, in)
	}
	if in.Kind == protocol.InputFiles {
		// The API checked they are the session's project's files.
		m.grantFiles(s, in.Files)
	}
	if ok {
		in.FrameWidth, in.FrameHeight = last.frame.Width, last.frame.Height
		in.PageWidth, in.PageHeight = last.frame.PageWidth, last.frame.PageHeight
	}
	if err := m.cfg.Relay.SendAuthor(ctx, s.AgentID, protocol.Message{Type: protocol.MsgAuthorInput, Session: id, Input: &in}); err != nil {
		return ErrAgentLost
	}
	return nil
}

// takeInput takes one input from the session's bucket.
func (m *Manager) takeInput(id string) bool {
	now := m.cfg.Now()
	v := &m.views
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.input == nil {
		v.input = map[string]*bucket{}
	}
	b := v.input[id]
	if b == nil {
		b = &bucket{tokens: inputBurst, at: now}
		v.input[id] = b
	}
	b.tokens = math.Min(inputBurst, b.tokens+now.Sub(b.at).Seconds()*inputRate)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// ViewFrames counts the frames the agent sent for a session's view, those
// nobody watched any more included (how tests see the screencast stop).
func (m *Manager) ViewFrames(id string) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.sessions[id]; s != nil {
		return s.frames
	}
	return 0
}
