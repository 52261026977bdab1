package client

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

func ids(o *outbox) []int64 {
	var out []int64
	for {
		m, ok := o.next()
		if !ok {
			return out
		}
		out = append(out, m.msg.ID)
		o.wrote(m.msg.ID)
	}
}

// Messages are numbered in order, kept until acknowledged, and a new
// connection sends every unacknowledged one again, oldest first.
func TestOutboxResendsWhatWasNotAcknowledged(t *testing.T) {
	o := newOutbox(1 << 20)
	for _, run := range []string{"run_a", "run_a", "run_b", "run_a"} {
		o.put(protocol.Message{Type: protocol.MsgEvent, RunID: run}, nil)
	}
	if got := ids(o); !slices.Equal(got, []int64{1, 2, 3, 4}) {
		t.Fatalf("first connection sent %v", got)
	}
	if got := ids(o); got != nil {
		t.Fatalf("sent twice on one connection: %v", got)
	}
	o.ack(2)
	o.rewind() // the connection broke before 3 and 4 were acknowledged
	if got := ids(o); !slices.Equal(got, []int64{3, 4}) {
		t.Fatalf("after a reconnect sent %v, want 3 and 4 again", got)
	}
	if runs := o.runs(); !runs["run_a"] || !runs["run_b"] || len(runs) != 2 {
		t.Errorf("runs with unacknowledged messages: %v", runs)
	}
	o.ack(4)
	if o.pending() != 0 || len(o.runs()) != 0 {
		t.Errorf("after the last ack: %d pending, runs %v", o.pending(), o.runs())
	}
	o.put(protocol.Message{Type: protocol.MsgFinish, RunID: "run_b"}, nil)
	if got := ids(o); !slices.Equal(got, []int64{5}) {
		t.Errorf("numbering goes on: %v", got)
	}
}

// A run waits while the hub holds back acknowledgements of more artifact
// bytes than the limit, and goes on once they come.
func TestOutboxWaitsWhenFull(t *testing.T) {
	o := newOutbox(10)
	o.put(protocol.Message{Type: protocol.MsgArtifact, RunID: "r"}, make([]byte, 11))
	put := make(chan struct{})
	go func() {
		o.put(protocol.Message{Type: protocol.MsgEvent, RunID: "r"}, nil)
		close(put)
	}()
	select {
	case <-put:
		t.Fatal("put went on while the outbox was over its limit")
	case <-time.After(100 * time.Millisecond):
	}
	o.ack(1)
	select {
	case <-put:
	case <-time.After(5 * time.Second):
		t.Fatal("put still waits after the ack freed the room")
	}
}

// The agent lists a finished run whose finish the hub has not acknowledged
// as still held, so a reconnect does not make the hub run it again.
func TestHeldRunsIncludeUnacknowledgedFinish(t *testing.T) {
	c := New(Config{HubURL: "http://127.0.0.1:1", ConfigDir: t.TempDir()})
	c.mu.Lock()
	c.running["run_live"] = func(error) {}
	c.mu.Unlock()
	c.send(protocol.Message{Type: protocol.MsgFinish, RunID: "run_done"}, nil)
	if got := c.heldRuns(); !slices.Equal(got, []string{"run_done", "run_live"}) {
		t.Errorf("held runs %v", got)
	}
	c.box.ack(1)
	if got := c.heldRuns(); !slices.Equal(got, []string{"run_live"}) {
		t.Errorf("held runs after the ack %v", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	select {
	case <-c.box.wake: // the put's wake-up, already seen by the writer in real use
	default:
	}
	if _, ok := c.box.wait(ctx, c.prio, c.live); ok {
		t.Error("wait must end with its context")
	}
}
