package authoring

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/testautomation/ta/hub/dispatch"
	"github.com/testautomation/ta/protocol"
)

func scrubber(secrets map[string]string) func(string) string { return dispatch.Scrubber(secrets) }

// FromAgent takes an authoring message from a connected agent; data is
// the binary frame that followed it (a preview's PNG). Messages about
// sessions or requests that are not this agent's are dropped.
func (m *Manager) FromAgent(agentID string, msg protocol.Message, data []byte) {
	if msg.Type == protocol.MsgAuthorFrame {
		m.frame(agentID, msg)
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	switch msg.Type {
	case protocol.MsgAuthorPreview, protocol.MsgScriptResult, protocol.MsgPageGrounded, protocol.MsgAuthorInputDone:
		p := m.pending[msg.ReqID]
		if p == nil || p.agentID != agentID {
			return
		}
		if msg.Type == protocol.MsgAuthorPreview && msg.Error == "" && !isPNG(data) {
			msg.Error = "the agent's screenshot is not a PNG"
		}
		p.data = data
		select {
		case p.reply <- msg:
		default:
		}
		return
	}
	s := m.sessions[msg.Session]
	if s == nil || s.AgentID != agentID {
		return
	}
	s.used = m.cfg.Now()
	switch msg.Type {
	case protocol.MsgAuthorStatus:
		m.status(s, msg)
	case protocol.MsgAuthorStep:
		if msg.Captured != nil && s.Kind == protocol.AuthorRecord && !final(s.status) {
			m.step(s, *msg.Captured)
		}
	case protocol.MsgLiveEvent:
		m.liveEvent(s, msg, data)
	case protocol.MsgAuthorPicked:
		if msg.Picked != nil && s.Kind == protocol.AuthorPick && !final(s.status) {
			p := *msg.Picked
			s.subst.Picked(&p)
			s.picked = &p
			s.setStatus(protocol.SessionPicked, "", "", m.cfg.Now())
			m.wakeLocked(s.ID)
		}
	}
}

// status applies a status the agent reports, if it fits the session's
// kind.
func (m *Manager) status(s *Session, msg protocol.Message) {
	st := msg.Status
	ok := st == protocol.SessionError
	switch s.Kind {
	case protocol.AuthorRecord:
		ok = ok || st == protocol.SessionRecording || st == protocol.SessionStopped
	case protocol.AuthorPick:
		ok = ok || st == protocol.SessionReady || st == protocol.SessionClosed
		if st == protocol.SessionReady && s.picked != nil {
			st = protocol.SessionPicked
		}
	case protocol.AuthorLive:
		// Ready only ends starting: the hub keeps running and paused. Else
		// it says where the page is now.
		if st == protocol.SessionReady && s.status != protocol.SessionStarting && !final(s.status) {
			s.url = orElse(s.subst.scrub(msg.URL), s.url)
			m.wakeLocked(s.ID)
			return
		}
		ok = ok || st == protocol.SessionClosed || st == protocol.SessionReady
	}
	if !ok {
		return
	}
	why := ""
	if st == protocol.SessionError {
		why = s.subst.scrub(msg.Error)
		if why == "" {
			why = "the agent ended the session"
		}
	}
	url := s.subst.scrub(msg.URL)
	if final(st) {
		s.url = orElse(url, s.url)
		m.endLocked(s.ID, st, why)
		return
	}
	if s.setStatus(st, url, why, m.cfg.Now()) {
		m.wakeLocked(s.ID)
	}
}

func orElse(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// step keeps a captured step: a new seq is added, a known one replaced or
// withdrawn. A step that is not valid DSL is dropped (and logged).
func (m *Manager) step(s *Session, c protocol.Captured) {
	if c.Seq < 1 {
		return
	}
	at := -1
	for i, old := range s.steps {
		if old.seq == c.Seq {
			at = i
			break
		}
	}
	if c.Removed {
		if at >= 0 {
			s.steps = append(s.steps[:at], s.steps[at+1:]...)
			s.push("step", c.Seq, map[string]any{"seq": c.Seq, "removed": true})
			m.wakeLocked(s.ID)
			m.checkLog(s)
		}
		return
	}
	st := c.Step
	s.subst.Step(&st)
	if issues := (protocol.Document{DSL: protocol.DSLVersion, Name: "recording", Steps: []protocol.Step{st}}).Validate(); len(issues) > 0 {
		m.log.Warn("recorded step dropped: not a valid step", "session", s.ID, "type", st.Type, "issue", issues[0].Message)
		return
	}
	if at >= 0 {
		s.steps[at] = captured{seq: c.Seq, step: st}
	} else {
		if len(s.steps) >= protocol.MaxCapturedSteps {
			m.endLocked(s.ID, protocol.SessionError, fmt.Sprintf("the recording captured more than %d steps; it was stopped with the steps so far", protocol.MaxCapturedSteps))
			go m.cfg.Relay.SendAuthor(context.Background(), s.AgentID, protocol.Message{Type: protocol.MsgAuthorStop, Session: s.ID}) //nolint:errcheck
			return
		}
		// Keep seq order: the agent numbers in the order it captured.
		i := len(s.steps)
		for i > 0 && s.steps[i-1].seq > c.Seq {
			i--
		}
		s.steps = append(s.steps, captured{})
		copy(s.steps[i+1:], s.steps[i:])
		s.steps[i] = captured{seq: c.Seq, step: st}
	}
	s.push("step", c.Seq, map[string]any{"seq": c.Seq, "step": st})
	m.wakeLocked(s.ID)
	m.checkLog(s)
}

// maxLog bounds a recording's stream entries (steps, withdrawals,
// statuses): a recording that changes more than this ends.
const maxLog = 4 * protocol.MaxCapturedSteps

func (m *Manager) checkLog(s *Session) {
	if len(s.log) > maxLog {
		m.endLocked(s.ID, protocol.SessionError, "the recording sent too many changes; it was stopped with the steps so far")
		go m.cfg.Relay.SendAuthor(context.Background(), s.AgentID, protocol.Message{Type: protocol.MsgAuthorStop, Session: s.ID}) //nolint:errcheck
	}
}

// AgentGone ends the sessions and requests of an agent whose connection
// ended: those begun before the time given (a newer connection of the
// same agent keeps its own).
func (m *Manager) AgentGone(agentID string, before time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, s := range m.sessions {
		if s.AgentID == agentID && !final(s.status) && s.wall.Before(before) {
			m.endLocked(id, protocol.SessionError, "the agent disconnected")
		}
	}
	for _, p := range m.pending {
		if p.agentID == agentID && p.at.Before(before) {
			select {
			case p.reply <- protocol.Message{}:
			default:
			}
		}
	}
}

func isPNG(b []byte) bool {
	return len(b) > 8 && string(b[:8]) == "\x89PNG\r\n\x1a\n"
}

// maxValue bounds a tried script's value as JSON.
const maxValue = 256 << 10

// tidyTry cleans and masks what an agent answers to a tried script.
func tidyTry(r protocol.TryResult, secrets map[string]string) protocol.TryResult {
	scrub, mask := dispatch.Scrubber(secrets), dispatch.Masker(secrets)
	out := protocol.TryResult{DurationMs: max(r.DurationMs, 0), Console: []protocol.ConsoleLine{}, Value: json.RawMessage("null")}
	if len(r.Value) > 0 && json.Valid(r.Value) {
		// Mask inside the JSON text: a secret value in a string stays a
		// string with *** in it.
		masked := mask(string(r.Value))
		if len(r.Value) > maxValue || !json.Valid([]byte(masked)) || !utf8.ValidString(masked) {
			s, _ := json.Marshal(fmt.Sprintf("(a value of %d bytes, too large or not showable)", len(r.Value)))
			masked = string(s)
		}
		out.Value = json.RawMessage(masked)
	}
	for i, l := range r.Console {
		if i >= protocol.MaxConsoleLines {
			break
		}
		level := clean(l.Level)
		switch level {
		case "log", "info", "warn", "warning", "error", "debug":
		default:
			level = "log"
		}
		out.Console = append(out.Console, protocol.ConsoleLine{Level: level, Text: scrub(l.Text)})
	}
	if r.Error != nil {
		msg := scrub(r.Error.Message)
		if msg == "" {
			msg = "the script failed"
		}
		out.Error = &protocol.TryError{Message: msg}
	}
	return out
}
