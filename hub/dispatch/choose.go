package dispatch

import (
	"slices"
	"strings"

	"github.com/testautomation/ta/hub/store"
)

// Which agent takes a run, as pure functions over what the hub knows of
// its connected agents: pickAgent and Waiting apply them.

// candidate is a connected agent as the choice sees it.
type candidate struct {
	id, userID string
	ephemeral  bool // a CI command's: only the runs pinned to it
	paused     bool
	display    bool // it can show a headed run's window
	labels     []string
	busy       int
	parallel   int
	// picked orders the agents by when they were last given a run (a
	// counter, 0: never), so equally busy agents take turns.
	picked uint64
}

// serves reports whether c may ever take r, busy or not: the run's user's,
// the agent it is pinned to (else not a CI command's), with a display for
// a headed run and all of the labels it asks for.
func (c candidate) serves(r store.Run) bool {
	if c.userID != r.UserID {
		return false
	}
	if r.AgentPin != "" && c.id != r.AgentPin || r.AgentPin == "" && c.ephemeral {
		return false
	}
	if r.Headed && !c.display {
		return false
	}
	for _, l := range r.AgentLabels {
		if !slices.Contains(c.labels, l) {
			return false
		}
	}
	return true
}

// decideAgent returns the index of the agent that takes r now, -1 for
// none: of those that serve it and have room, the least busy, then the one
// given a run longest ago (so idle agents share the work), then by id.
func decideAgent(r store.Run, cs []candidate) int {
	best := -1
	for i, c := range cs {
		if !c.serves(r) || c.paused || c.busy >= c.parallel {
			continue
		}
		if best < 0 || before(c, cs[best]) {
			best = i
		}
	}
	return best
}

func before(a, b candidate) bool {
	if a.busy != b.busy {
		return a.busy < b.busy
	}
	if a.picked != b.picked {
		return a.picked < b.picked
	}
	return a.id < b.id
}

// constrained reports whether r asks for more than any agent of its user:
// a run that cannot go now does not mean the others cannot.
func constrained(r store.Run) bool {
	return r.AgentPin != "" || r.Headed || len(r.AgentLabels) > 0
}

// decideWaiting says why a queued run waits when no connected agent
// serves it (busy or not): "" when one does, or when its user has none
// connected at all (GET /api/agent's needed says that).
func decideWaiting(r store.Run, cs []candidate, pinName string) string {
	connected := false
	for _, c := range cs {
		if c.serves(r) {
			return ""
		}
		connected = connected || c.userID == r.UserID && !c.ephemeral
	}
	if r.AgentPin != "" {
		if pinName == "" {
			pinName = "the agent it was started for"
		}
		if r.Headed && slices.ContainsFunc(cs, func(c candidate) bool { return c.id == r.AgentPin }) {
			return "waiting for " + pinName + ", which has no display: start its agent on a computer with a desktop"
		}
		return "waiting for " + pinName + " to connect"
	}
	if !connected {
		return ""
	}
	var wants []string
	if r.Headed {
		wants = append(wants, "a display")
	}
	if len(r.AgentLabels) > 0 {
		wants = append(wants, "labels "+strings.Join(r.AgentLabels, ", "))
	}
	return "waiting for an agent with " + strings.Join(wants, " and ")
}
