package dispatch

import (
	"testing"

	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

func TestDecideLost(t *testing.T) {
	for _, c := range []struct {
		name string
		run  store.Run
		want fate
		msg  string
	}{
		{"never started: back to the queue quietly", store.Run{Status: protocol.RunQueued, Assignments: 1}, fateRequeue, ""},
		{"handed over 4 times, never started", store.Run{Status: protocol.RunQueued, Assignments: 4}, fateRequeue, ""},
		{"handed over 5 times, never started: given up", store.Run{Status: protocol.RunQueued, Assignments: 5}, fateError,
			"the agent was given this run 5 times and never started it"},
		{"started once: queued again, saying why", store.Run{Status: protocol.RunRunning, Attempts: 1}, fateRetry,
			"the agent stopped answering; the run is queued again"},
		{"started twice: given up", store.Run{Status: protocol.RunRunning, Attempts: 2}, fateError,
			"the agent stopped answering twice; the run was given up"},
		{"cancel asked: cancelled, whatever else", store.Run{Status: protocol.RunRunning, Attempts: 2, CancelRequested: true}, fateCancelled, "cancelled"},
		{"cancel asked before start", store.Run{Status: protocol.RunQueued, Assignments: 5, CancelRequested: true}, fateCancelled, "cancelled"},
	} {
		f, msg := decideLost(c.run, "the agent stopped answering")
		if f != c.want || msg != c.msg {
			t.Errorf("%s: got %d %q, want %d %q", c.name, f, msg, c.want, c.msg)
		}
	}
}

func TestDecideTakeBack(t *testing.T) {
	requeued := store.Run{Status: protocol.RunQueued, UserID: "usr_a"}
	for _, c := range []struct {
		name string
		run  store.Run
		want bool
	}{
		{"queued again while its agent was away", requeued, true},
		{"handed to another agent meanwhile", store.Run{Status: protocol.RunQueued, UserID: "usr_a", AgentID: "agt_other"}, false},
		{"running on another agent", store.Run{Status: protocol.RunRunning, UserID: "usr_a", AgentID: "agt_other"}, false},
		{"cancel asked", store.Run{Status: protocol.RunQueued, UserID: "usr_a", CancelRequested: true}, false},
		{"already over", store.Run{Status: protocol.RunError, UserID: "usr_a"}, false},
		{"another user's run", store.Run{Status: protocol.RunQueued, UserID: "usr_b"}, false},
	} {
		if got := decideTakeBack(c.run, "usr_a"); got != c.want {
			t.Errorf("%s: take back %v, want %v", c.name, got, c.want)
		}
	}
}

func TestDecideStale(t *testing.T) {
	for _, c := range []struct {
		connected, assigned, ends bool
	}{
		{false, false, true}, // nobody will ever run it
		{false, true, true},  // handed to an agent that left
		{true, false, false}, // waiting for a busy agent of its user
		{true, true, true},   // an agent has it and still did not start it
	} {
		if got := decideStale(c.connected, c.assigned); got != c.ends {
			t.Errorf("connected %v assigned %v: ends %v, want %v", c.connected, c.assigned, got, c.ends)
		}
	}
}
