package authoring

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/testautomation/ta/hub/dispatch"
	"github.com/testautomation/ta/protocol"
)

// The editor's live session (protocol/authoring_live.go): kind live, id
// ses_..., a page kept open on the user's agent on which the editor runs
// steps; closed after LiveIdle without use. The hub keeps its status
// (ready, running, paused at a failed step), the marks of the steps run,
// their screenshots, and where the page is: the step it stands before.

// ErrBusy and ErrNotReady refuse a run on a live session.
var (
	ErrBusy     = errors.New("steps are running on this session: wait for them to finish")
	ErrNotReady = errors.New("the session's page is still opening: try again in a moment")
	ErrNotLive  = errors.New("not a live session")
)

// Bounds of what a live session keeps.
const (
	maxLiveShots   = 60      // screenshots kept, the newest
	maxLiveShot    = 4 << 20 // bytes of one screenshot
	maxLiveLog     = 2000    // stream entries kept, the newest
	liveRunTimeout = 30 * time.Minute
)

// StepMark is the last outcome of one step of the document on a live
// session, for the editor's step list.
type StepMark struct {
	Status     string  `json:"status" enum:"running|passed|failed|skipped"`
	Error      *string `json:"error"`
	Screenshot *string `json:"screenshot"`
	DurationMs int64   `json:"durationMs"`
}

// LiveView is what GET /api/sessions/:id answers.
type LiveView struct {
	ID            string              `json:"id"`
	Kind          string              `json:"kind"`
	Status        string              `json:"status" enum:"starting|ready|running|paused|closed|error"`
	URL           string              `json:"url"`
	TestID        string              `json:"testId"`
	EnvironmentID *string             `json:"environmentId"`
	Error         *string             `json:"error"`
	FailedStepID  *string             `json:"failedStepId"`
	At            *string             `json:"at"` // the step the page stands before; null when unknown or at the end
	Steps         map[string]StepMark `json:"steps"`
	// LastRun is how the last steps sent ended; null before any.
	LastRun   *LiveOutcome `json:"lastRun"`
	CreatedAt time.Time    `json:"createdAt"`
}

// LiveOutcome is how a run on a live session ended: passed, failed, or
// error when the steps could not run (the page could not open, say).
type LiveOutcome struct {
	Status string  `json:"status" enum:"passed|failed|error|cancelled"`
	Error  *string `json:"error"`
}

// liveState is what a live session adds to a Session; guarded by the
// Manager's mu.
type liveState struct {
	runN      int
	pause     bool
	secrets   map[string]string // the run in flight's, masked in what comes back
	ids       []string          // the run's steps' top-level ids, in order
	next      string            // the step after the run's last one ("" at the end)
	contig    bool              // the run began where the page stood
	failed    string
	at        string
	atKnown   bool
	marks     map[string]StepMark
	shots     map[string][]byte
	shotOrder []string
	done      chan struct{} // closed when the run in flight ends
	outcome   string        // the last run's status
	runErr    string        // the last run's error

	// files are the project files the run in flight's upload steps
	// name: its agent may read those (files.go).
	files map[string]bool

	// nextUnknown: the run's last step ran alone from inside a block, so
	// where the page stands after it is not known.
	nextUnknown bool
}

// LiveRun is a request to run steps on a live session.
type LiveRun struct {
	// Steps is the sub-document to run (components expanded); IDs are
	// their top-level step ids in order; Next is the id of the document's
	// step after the last one run ("" when it is the last).
	Run    protocol.LiveRun
	IDs    []string
	Next   string
	Pause  bool
	Replay bool // a picker's replay: the caller waits for it

	// NextUnknown: where the page stands after the steps is not known
	// (the last ran alone from inside a block).
	NextUnknown bool
}

// Live is a live session's view; it counts as a use.
func (m *Manager) Live(id string) (LiveView, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[id]
	if s == nil || s.Kind != protocol.AuthorLive {
		return LiveView{}, false
	}
	s.used = m.cfg.Now()
	return s.liveView(), true
}

func (s *Session) liveView() LiveView {
	l := s.live
	v := LiveView{ID: s.ID, Kind: s.Kind, Status: s.status, URL: s.url, TestID: s.TestID, EnvironmentID: strp(s.EnvironmentID),
		Error: strp(s.err), Steps: map[string]StepMark{}, CreatedAt: s.CreatedAt}
	if s.status == protocol.SessionPaused {
		v.FailedStepID = strp(l.failed)
	}
	if l.atKnown {
		v.At = strp(l.at)
	}
	for k, mk := range l.marks {
		v.Steps[k] = mk
	}
	if l.outcome != "" {
		v.LastRun = &LiveOutcome{Status: l.outcome, Error: strp(l.runErr)}
	}
	return v
}

// At says which step a live session's page stands before: ok is false
// when that is not known (nothing ran yet, or steps ran out of order).
func (m *Manager) At(id string) (at string, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[id]
	if s == nil || s.live == nil {
		return "", false
	}
	return s.live.at, s.live.atKnown
}

// RunLive sends steps to run on a live session's page. It returns once
// they are sent; the events come on the session's stream. done is closed
// when they have run.
func (m *Manager) RunLive(ctx context.Context, id string, in LiveRun) (done <-chan struct{}, err error) {
	m.mu.Lock()
	s := m.sessions[id]
	switch {
	case s == nil:
		err = ErrNotFound
	case s.live == nil:
		err = ErrNotLive
	case final(s.status):
		err = ErrEnded
	case s.status == protocol.SessionRunning:
		err = ErrBusy
	case s.status == protocol.SessionStarting:
		err = ErrNotReady
	}
	if err != nil {
		m.mu.Unlock()
		return nil, err
	}
	l := s.live
	s.used = m.cfg.Now()
	l.runN++
	// Masked in what comes back: the secrets sent, and every secret of the
	// environment the session compares with (an error may quote another).
	masked := map[string]string{}
	for k, v := range s.subst.Secrets {
		masked[k] = v
	}
	for k, v := range in.Run.Secrets {
		masked["run."+k] = v
	}
	l.pause, l.secrets, l.ids, l.next, l.nextUnknown, l.failed = in.Pause, masked, in.IDs, in.Next, in.NextUnknown, ""
	l.contig = in.Run.Fresh || (l.atKnown && len(in.IDs) > 0 && l.at == in.IDs[0])
	l.outcome, l.runErr = "", ""
	l.files = uploadFiles(in.Run.Document.Steps)
	l.done = make(chan struct{})
	for _, sid := range in.IDs {
		delete(l.marks, sid)
	}
	// The steps inside blocks start over too: a mark of a failure there in
	// an earlier run would otherwise stay (liveStep keeps a failure).
	protocol.WalkSteps(protocol.CloneSteps(in.Run.Document.Steps), func(_ string, _ int, st *protocol.Step) bool {
		delete(l.marks, st.ID)
		if st.Call != "" {
			delete(l.marks, st.Call)
		}
		return true
	})
	ch := l.done
	s.setStatus(protocol.SessionRunning, "", "", m.cfg.Now())
	m.wakeLocked(id)
	agentID := s.AgentID
	m.mu.Unlock()
	run := in.Run
	if err := m.cfg.Relay.SendAuthor(ctx, agentID, protocol.Message{Type: protocol.MsgLiveRun, Session: id, LiveRun: &run}); err != nil {
		m.mu.Lock()
		m.liveEndLocked(s, protocol.RunError, "the agent could not be reached")
		m.mu.Unlock()
		return nil, ErrAgentLost
	}
	return ch, nil
}

// LiveOutcome is the last run's status and error on a live session.
func (m *Manager) LiveOutcome(id string) (status, errText string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.sessions[id]; s != nil && s.live != nil {
		return s.live.outcome, s.live.runErr
	}
	return "", ""
}

func isJPEG(b []byte) bool { return len(b) > 3 && string(b[:3]) == "\xff\xd8\xff" }

// Screenshot is a screenshot a live session's steps took, PNG or JPEG.
func (m *Manager) Screenshot(id, name string) ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[id]
	if s == nil || s.live == nil {
		return nil, false
	}
	b, ok := s.live.shots[name]
	return b, ok
}

// liveEvent takes a live.event of the session's agent; m.mu is held.
func (m *Manager) liveEvent(s *Session, msg protocol.Message, data []byte) {
	l := s.live
	if l == nil || s.status != protocol.SessionRunning {
		return
	}
	switch {
	case msg.Artifact != nil:
		if len(data) > 0 && len(data) <= maxLiveShot && (isPNG(data) || isJPEG(data)) {
			name := fmt.Sprintf("%d-%s", l.runN, protocol.CleanText(msg.Artifact.Name))
			if _, dup := l.shots[name]; !dup {
				l.shotOrder = append(l.shotOrder, name)
			}
			l.shots[name] = data
			for len(l.shotOrder) > maxLiveShots {
				delete(l.shots, l.shotOrder[0])
				l.shotOrder = l.shotOrder[1:]
			}
		}
	case msg.Event != nil:
		e := *msg.Event
		dispatch.MaskEvent(&e, l.secrets)
		e.RunID, e.Time = s.ID, m.cfg.Now()
		if e.Screenshot != "" {
			e.Screenshot = fmt.Sprintf("%d-%s", l.runN, e.Screenshot)
		}
		if e.Name != "" && e.Kind == protocol.ArtifactMade {
			e.Name = fmt.Sprintf("%d-%s", l.runN, e.Name)
		}
		m.liveStep(s, e)
		s.push(string(e.Kind), 0, e)
		if e.Kind == protocol.RunFinished {
			m.liveEndLocked(s, e.Status, e.Error)
		}
		m.trimLog(s)
		m.wakeLocked(s.ID)
	case msg.Error != "":
		why := dispatch.Scrubber(l.secrets)(msg.Error)
		s.push(string(protocol.RunFinished), 0, protocol.Event{RunID: s.ID, Kind: protocol.RunFinished, Status: protocol.RunError, Error: why, Time: m.cfg.Now()})
		m.liveEndLocked(s, protocol.RunError, why)
	}
}

// liveStep keeps a step's mark; m.mu is held.
func (m *Manager) liveStep(s *Session, e protocol.Event) {
	l := s.live
	top := e.StepID
	if e.Call != "" {
		top = e.Call
	}
	if top == "" || (e.Kind != protocol.StepStarted && e.Kind != protocol.StepFinished) {
		return
	}
	old, seen := l.marks[top]
	mk := StepMark{Status: "running", Error: old.Error, Screenshot: old.Screenshot, DurationMs: old.DurationMs}
	if e.Kind == protocol.StepFinished {
		mk.Status, mk.Error, mk.Screenshot = e.Status, strp(e.Error), strp(e.Screenshot)
		if e.DurationMs != nil {
			mk.DurationMs = old.DurationMs + *e.DurationMs
		}
		if seen && old.Status == protocol.StepFailed { // an inner step of a component failed before
			mk.Status, mk.Error = old.Status, old.Error
		}
		if mk.Status == protocol.StepFailed && l.failed == "" {
			l.failed = top
		}
	} else if seen && old.Status == protocol.StepFailed {
		return
	}
	l.marks[top] = mk
}

// liveEndLocked ends a live session's run: paused at the failed step when
// asked, else ready; the page now stands before the failed step, or after
// the last one run when all passed (known only when the run began where
// the page stood). m.mu is held.
func (m *Manager) liveEndLocked(s *Session, outcome, errText string) {
	l := s.live
	if s.status != protocol.SessionRunning {
		return
	}
	l.outcome, l.runErr = outcome, errText
	switch {
	case l.contig && outcome == protocol.RunPassed && !l.nextUnknown:
		l.at, l.atKnown = l.next, true
	case l.contig && outcome == protocol.RunFailed && l.failed != "":
		l.at, l.atKnown = l.failed, true
	default:
		l.at, l.atKnown = "", false
	}
	status := protocol.SessionReady
	if outcome == protocol.RunFailed && l.pause && l.failed != "" {
		status = protocol.SessionPaused
	}
	l.secrets = nil
	s.status = status // setStatus would keep the error of a run as the session's
	s.push("status", 0, map[string]any{"status": s.status, "url": s.url, "error": nil, "failedStepId": strp(l.failedIf(status))})
	if l.done != nil {
		close(l.done)
		l.done = nil
	}
	m.wakeLocked(s.ID)
}

func (l *liveState) failedIf(status string) string {
	if status == protocol.SessionPaused {
		return l.failed
	}
	return ""
}

// trimLog keeps a live session's newest stream entries; m.mu is held.
func (m *Manager) trimLog(s *Session) {
	if n := len(s.log) - maxLiveLog; n > 0 {
		s.log = append([]Event(nil), s.log[n:]...)
	}
}
