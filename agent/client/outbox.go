package client

import (
	"context"
	"sync"

	"github.com/testautomation/ta/protocol"
)

// outbox keeps the run messages the hub must store (accept, event,
// artifact, finish) until it acknowledges them. Each gets the next ID when
// it is put in; a new connection starts again from the oldest
// unacknowledged one, so nothing is lost when the connection, the hub or
// its database goes away mid-run. The hub takes repeats as no-ops.
type outbox struct {
	mu    sync.Mutex
	space *sync.Cond // signalled when acknowledgements free room
	wake  chan struct{}
	// guarded by mu:
	lastID  int64    // the last ID given out
	items   []outMsg // unacknowledged, in ID order
	written int64    // highest ID written on the current connection
	bytes   int64    // artifact bytes held in items
	limit   int64    // put waits while bytes is over this
}

// outboxLimit bounds the artifact bytes an agent keeps while the hub does
// not acknowledge them; runs wait (and their leases lapse) beyond it.
const outboxLimit = 256 << 20

func newOutbox(limit int64) *outbox {
	o := &outbox{wake: make(chan struct{}, 1), limit: limit}
	o.space = sync.NewCond(&o.mu)
	return o
}

func (o *outbox) signal() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// put numbers a message and keeps it until it is acknowledged. It waits
// while the outbox holds more than its limit of artifact bytes.
func (o *outbox) put(m protocol.Message, data []byte) {
	o.mu.Lock()
	for o.bytes > o.limit && len(o.items) > 0 {
		o.space.Wait()
	}
	o.lastID++
	m.ID = o.lastID
	o.items = append(o.items, outMsg{msg: m, data: data})
	o.bytes += int64(len(data))
	o.mu.Unlock()
	o.signal()
}

// rewind starts a new connection: every unacknowledged message is sent
// again, oldest first.
func (o *outbox) rewind() {
	o.mu.Lock()
	o.written = 0
	o.mu.Unlock()
	o.signal()
}

// empty reports whether the hub has acknowledged every message.
func (o *outbox) empty() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.items) == 0
}

// ack drops the messages the hub has stored: every ID up to id.
func (o *outbox) ack(id int64) {
	o.mu.Lock()
	n := 0
	for n < len(o.items) && o.items[n].msg.ID <= id {
		o.bytes -= int64(len(o.items[n].data))
		n++
	}
	if n > 0 {
		o.items = append(o.items[:0:0], o.items[n:]...)
		o.space.Broadcast()
	}
	o.mu.Unlock()
}

// next returns the oldest message not yet written on this connection.
func (o *outbox) next() (outMsg, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, m := range o.items {
		if m.msg.ID > o.written {
			return m, true
		}
	}
	return outMsg{}, false
}

// wrote records that a message went out on this connection.
func (o *outbox) wrote(id int64) {
	o.mu.Lock()
	o.written = max(o.written, id)
	o.mu.Unlock()
}

// runs lists the runs that still have unacknowledged messages: the hub must
// keep counting them as held by this agent until their finish is stored.
func (o *outbox) runs() map[string]bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := map[string]bool{}
	for _, m := range o.items {
		out[m.msg.RunID] = true
	}
	return out
}

// pending counts the unacknowledged messages.
func (o *outbox) pending() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.items)
}

// wait blocks until something may have changed (a put, an ack, a rewind),
// a renewal or an authoring message is to be sent,
// or ctx ends.
func (o *outbox) wait(ctx context.Context, prio, live <-chan outMsg) (outMsg, bool) {
	select {
	case m := <-prio:
		return m, true
	case m := <-live:
		return m, true
	case <-o.wake:
		return outMsg{}, true
	case <-ctx.Done():
		return outMsg{}, false
	}
}
