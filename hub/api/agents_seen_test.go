package api

import (
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
)

// Connected agents' last seen time moves on with the sweep, once a minute,
// all of them at once.
func TestConnectedAgentsSeen(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c, id := o.members[access.Tester], o.ids[access.Tester]
	h.rawAgent(t, c, "")
	h.rawAgent(t, c, "")
	seen := func() []time.Time {
		agents, err := h.store.UserAgents(t.Context(), id)
		if err != nil || len(agents) != 2 {
			t.Fatalf("%d agents: %v", len(agents), err)
		}
		return []time.Time{agents[0].LastSeenAt, agents[1].LastSeenAt}
	}
	before := seen()
	h.advance(30 * time.Second)
	h.dispatch.Sweep(t.Context())
	if got := seen(); !got[0].Equal(before[0]) || !got[1].Equal(before[1]) {
		t.Errorf("last seen written again after 30 s: %v, was %v", got, before)
	}
	h.advance(31 * time.Second)
	h.dispatch.Sweep(t.Context())
	want := time.Unix(0, h.clock.Load())
	for i, at := range seen() {
		if !at.Equal(want) {
			t.Errorf("agent %d last seen %v after a minute connected, want %v", i, at, want)
		}
	}
}
