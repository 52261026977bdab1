package authoring

import (
	"context"
	"time"

	"github.com/testautomation/ta/protocol"
)

// groundWait bounds the wait for an agent's grounding answer (the agent
// gives up after 30 s itself).
const groundWait = 40 * time.Second

// Ground asks one of the user's connected agents for a page's snapshot
// (req without targets) or for checks of drafted targets on it. The
// answer is bounded and cleaned: an agent's texts go into prompts and
// pages.
func (m *Manager) Ground(ctx context.Context, userID string, req protocol.GroundRequest) (protocol.GroundResult, error) {
	agentID, ok := m.cfg.Relay.AuthorAgent(userID)
	if !ok {
		return protocol.GroundResult{}, ErrAgentNeeded
	}
	a, err := m.ask(ctx, agentID, protocol.Message{Type: protocol.MsgPageGround, Ground: &req}, groundWait)
	if err != nil {
		return protocol.GroundResult{}, err
	}
	res := protocol.GroundResult{}
	if a.msg.Grounded != nil {
		res = *a.msg.Grounded
	}
	return tidyGround(res, req), nil
}

func tidyGround(res protocol.GroundResult, req protocol.GroundRequest) protocol.GroundResult {
	cut := func(s string) string { return clipRunes(protocol.CleanText(s), protocol.MaxSnapshotText) }
	if s := res.Snapshot; s != nil {
		if len(s.Elements) > protocol.MaxSnapshotElements {
			s.Elements = s.Elements[:protocol.MaxSnapshotElements]
		}
		s.URL, s.Title = clipRunes(protocol.CleanText(s.URL), 2000), cut(s.Title)
		for i := range s.Elements {
			e := &s.Elements[i]
			e.Role, e.Name, e.Label, e.Placeholder = cut(e.Role), cut(e.Name), cut(e.Label), cut(e.Placeholder)
			e.TestID, e.Text, e.Tag = cut(e.TestID), cut(e.Text), cut(e.Tag)
			if len(e.Frame) > 10 {
				e.Frame = e.Frame[:10]
			}
			for j := range e.Frame {
				e.Frame[j].Value, e.Frame[j].Name = cut(e.Frame[j].Value), cut(e.Frame[j].Name)
			}
		}
	}
	// Only checks of the targets asked about, once each.
	asked := map[string]bool{}
	for _, t := range req.Targets {
		asked[t.StepID] = true
	}
	checks := res.Checks[:0]
	for _, c := range res.Checks {
		if asked[c.StepID] {
			asked[c.StepID] = false
			c.Error = cut(c.Error)
			checks = append(checks, c)
		}
	}
	res.Checks = checks
	return res
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}
