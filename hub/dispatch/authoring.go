package dispatch

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// AuthoringSink takes what agents report about authoring sessions
// (hub/authoring.Manager is the real one).
type AuthoringSink interface {
	// FromAgent gets an authoring message of a connected agent and the
	// binary frame that followed it, if any.
	FromAgent(agentID string, m protocol.Message, data []byte)
	// AgentGone says an agent's connection ended: its sessions and
	// requests begun before the time given end (after it: they are a
	// newer connection's, which replaced this one).
	AgentGone(agentID string, before time.Time)
}

// SetAuthoring sets where authoring messages go; call it before agents
// connect.
func (h *Hub) SetAuthoring(a AuthoringSink) {
	h.mu.Lock()
	h.authoring = a
	h.mu.Unlock()
}

func (h *Hub) authoringSink() AuthoringSink {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.authoring
}

// authoringFromAgent reports whether a message type belongs to authoring
// sessions (agent to hub).
func authoringFromAgent(t string) bool {
	switch t {
	case protocol.MsgAuthorStatus, protocol.MsgAuthorStep, protocol.MsgAuthorPicked, protocol.MsgAuthorPreview, protocol.MsgScriptResult, protocol.MsgPageGrounded,
		protocol.MsgAuthorFrame, protocol.MsgLiveEvent, protocol.MsgAuthorInputDone:
		return true
	}
	return false
}

// AuthorAgent chooses a connected agent of the user for an authoring
// session: one that can show a window first, then the least busy.
func (h *Hub) AuthorAgent(userID string) (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var mine []*conn
	for _, c := range h.agents {
		if c.agent.UserID == userID && !c.agent.Ephemeral {
			mine = append(mine, c)
		}
	}
	if len(mine) == 0 {
		return "", false
	}
	sort.Slice(mine, func(i, j int) bool {
		a, b := mine[i], mine[j]
		if a.agent.Headless != b.agent.Headless {
			return !a.agent.Headless
		}
		if len(a.runs) != len(b.runs) {
			return len(a.runs) < len(b.runs)
		}
		return a.agent.ID < b.agent.ID
	})
	return mine[0].agent.ID, true
}

// Connected reports whether an agent is connected now.
func (h *Hub) Connected(agentID string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.agents[agentID] != nil
}

var errNotConnected = errors.New("the agent is not connected")

// SendAuthor sends an authoring message to a connected agent.
func (h *Hub) SendAuthor(ctx context.Context, agentID string, m protocol.Message) error {
	h.mu.Lock()
	c := h.agents[agentID]
	h.mu.Unlock()
	if c == nil {
		return errNotConnected
	}
	return c.send(ctx, m)
}

// EnvironmentValues reads an environment's variables and the secrets want
// names, as a run's job does (Jobs.EnvironmentValues).
func (h *Hub) EnvironmentValues(ctx context.Context, env store.Environment, want func(name string) bool) (vars, secrets map[string]string, err error) {
	return h.jobs.EnvironmentValues(ctx, env, want)
}
