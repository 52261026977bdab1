package dispatch

import (
	"testing"

	"github.com/testautomation/ta/hub/store"
)

func TestDecideAgent(t *testing.T) {
	headless := candidate{id: "agt_a", userID: "u", parallel: 1, labels: []string{"linux"}}
	shown := candidate{id: "agt_b", userID: "u", parallel: 1, display: true, labels: []string{"linux", "vpn"}}
	for _, tc := range []struct {
		name string
		run  store.Run
		cs   []candidate
		want int
	}{
		{"headed: the agent with a display, though the other sorts first", store.Run{UserID: "u", Headed: true}, []candidate{headless, shown}, 1},
		{"headed, no display: none", store.Run{UserID: "u", Headed: true}, []candidate{headless}, -1},
		{"headed, the display busy: none", store.Run{UserID: "u", Headed: true}, []candidate{headless, with(shown, func(c *candidate) { c.busy = 1 })}, -1},
		{"idle agents take turns: the one given a run longest ago", store.Run{UserID: "u"},
			[]candidate{with(headless, func(c *candidate) { c.picked = 7 }), with(shown, func(c *candidate) { c.picked = 3 })}, 1},
		{"least busy first", store.Run{UserID: "u"},
			[]candidate{with(headless, func(c *candidate) { c.parallel, c.busy = 4, 1 }), with(shown, func(c *candidate) { c.parallel, c.busy, c.picked = 4, 2, 0 })}, 0},
		{"labels: all of them", store.Run{UserID: "u", AgentLabels: []string{"vpn", "linux"}}, []candidate{headless, shown}, 1},
		{"labels nobody has", store.Run{UserID: "u", AgentLabels: []string{"gpu"}}, []candidate{headless, shown}, -1},
		{"pinned", store.Run{UserID: "u", AgentPin: "agt_a"}, []candidate{headless, shown}, 0},
		{"someone else's agent", store.Run{UserID: "v"}, []candidate{headless}, -1},
		{"paused", store.Run{UserID: "u"}, []candidate{with(headless, func(c *candidate) { c.paused = true })}, -1},
		{"a CI agent takes only its own", store.Run{UserID: "u"}, []candidate{with(headless, func(c *candidate) { c.ephemeral = true })}, -1},
	} {
		if got := decideAgent(tc.run, tc.cs); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestDecideWaiting(t *testing.T) {
	headless := candidate{id: "agt_a", userID: "u", parallel: 1, labels: []string{"linux"}}
	for _, tc := range []struct {
		run  store.Run
		cs   []candidate
		want string
	}{
		{store.Run{UserID: "u", Headed: true}, []candidate{headless}, "waiting for an agent with a display"},
		{store.Run{UserID: "u", AgentLabels: []string{"gpu", "vpn"}}, []candidate{headless}, "waiting for an agent with labels gpu, vpn"},
		{store.Run{UserID: "u", Headed: true, AgentLabels: []string{"gpu"}}, []candidate{headless}, "waiting for an agent with a display and labels gpu"},
		{store.Run{UserID: "u", Headed: true}, nil, ""}, // no agent at all: GET /api/agent's needed says it
		{store.Run{UserID: "u"}, []candidate{with(headless, func(c *candidate) { c.busy = 1 })}, ""},
		{store.Run{UserID: "u", AgentPin: "agt_z"}, []candidate{headless}, "waiting for Laptop to connect"},
		{store.Run{UserID: "u", AgentPin: "agt_a", Headed: true}, []candidate{headless}, "waiting for Laptop, which has no display: start its agent on a computer with a desktop"},
	} {
		if got := decideWaiting(tc.run, tc.cs, "Laptop"); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.run, got, tc.want)
		}
	}
}

func with(c candidate, f func(*candidate)) candidate {
	f(&c)
	return c
}
