package authoring

import (
	"context"
	"errors"
	"unicode/utf8"

	"github.com/testautomation/ta/protocol"
)

// Tabs in the live view (protocol/authoring_view_tabs.go): the frames
// list the session's open tabs, and a tab or closeTab input is asked of
// the agent, which answers once it is done, or why not (the tab closed
// meanwhile): the person hears it.

// TabError is the agent's answer that it could not show or close a tab:
// the API answers it 409.
type TabError struct{ Message string }

func (e *TabError) Error() string { return e.Message }

func tabInput(kind string) bool { return kind == protocol.InputTab || kind == protocol.InputCloseTab }

// validTabs accepts a frame's tab list: at most MaxViewTabs, each with
// text of valid UTF-8 (cut and masked after).
func validTabs(tabs []protocol.ViewTab) bool {
	if len(tabs) > protocol.MaxViewTabs {
		return false
	}
	for _, t := range tabs {
		if !utf8.ValidString(t.Title) || !utf8.ValidString(t.URL) {
			return false
		}
	}
	return true
}

// frameTabs are a frame's tabs as its watchers see them: cleaned, the
// session's secrets masked, cut to their bounds.
func (m *Manager) frameTabs(id string, tabs []protocol.ViewTab) []protocol.ViewTab {
	if len(tabs) == 0 {
		return nil
	}
	m.mu.Lock()
	var scrub func(string) string
	if s := m.sessions[id]; s != nil {
		scrub = s.subst.scrub
	}
	m.mu.Unlock()
	if scrub == nil {
		scrub = scrubber(nil)
	}
	out := make([]protocol.ViewTab, len(tabs))
	for i, t := range tabs {
		out[i] = protocol.ViewTab{Title: scrub(t.Title), URL: scrub(t.URL), Current: t.Current}.Clip()
	}
	return out
}

// tabInput asks the agent to show or close a tab and waits for it.
func (m *Manager) tabInput(ctx context.Context, s *Session, in protocol.ViewInput) error {
	_, err := m.ask(ctx, s.AgentID, protocol.Message{Type: protocol.MsgAuthorInput, Session: s.ID, Input: &in}, m.cfg.Answer)
	var ae *AgentError
	if errors.As(err, &ae) {
		m.mu.Lock()
		scrub := s.subst.scrub
		m.mu.Unlock()
		if scrub == nil {
			scrub = scrubber(nil)
		}
		return &TabError{Message: scrub(ae.Message)}
	}
	return err
}
