package dispatch

import (
	"strconv"

	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// The rules of a run's life that do not need a connection or a database,
// as pure functions: Sweep, reconcile and expireQueued apply them.

// fate is what becomes of a run taken back from its agent.
type fate int

const (
	fateRequeue   fate = iota // back to the queue, quietly: it never started
	fateRetry                 // back to the queue, saying why: it started once
	fateCancelled             // someone asked to stop it
	fateError                 // given up
)

// maxAssignments bounds hand-overs of a run no agent starts.
const maxAssignments = 5

// maxAttempts bounds starts of a run whose agent vanishes mid-run.
const maxAttempts = 2

// decideLost says what becomes of a run whose agent vanished (its lease
// lapsed) or reconnected without it, and the message that goes with it: a
// run never started goes back to the queue, up to maxAssignments
// hand-overs; a started one is queued again once, then ends as error; a
// cancelled one ends as cancelled.
func decideLost(r store.Run, why string) (fate, string) {
	switch {
	case r.CancelRequested:
		return fateCancelled, "cancelled"
	case r.Status == protocol.RunQueued && r.Assignments >= maxAssignments:
		return fateError, "the agent was given this run " + strconv.Itoa(r.Assignments) + " times and never started it"
	case r.Status == protocol.RunQueued:
		return fateRequeue, ""
	case r.Attempts < maxAttempts:
		return fateRetry, why + "; the run is queued again"
	default:
		return fateError, why + " twice; the run was given up"
	}
}

// decideTakeBack says whether a run an agent says it holds, which the hub
// has queued again meanwhile, goes back to that agent: only while no other
// agent has it, nobody asked to cancel it, and it is the agent's user's.
func decideTakeBack(r store.Run, agentUser string) bool {
	return r.Status == protocol.RunQueued && r.AgentID == "" && !r.CancelRequested && r.UserID == agentUser
}

// decideStale says whether a run queued for longer than the queue time-out
// ends as error: not while it waits for a busy agent of its user (one is
// connected and has not been handed the run yet).
func decideStale(userConnected, assigned bool) bool {
	return !userConnected || assigned
}
