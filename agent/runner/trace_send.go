package runner

import (
	"encoding/json"
	"strings"

	"github.com/testautomation/ta/protocol"
)

// The trace's sender: one goroutine per traced run takes the step
// executions in the order they ran, waits for each one's snapshot and
// sends them as artifacts (docs/trace.md "The option trace"):
//
//   - on: the snapshot at once, the TraceStep when the next step ended (so
//     the requests the step sent have had a step's time to answer);
//   - failures: the snapshots of the last traceHeld executions (at most
//     traceHeldBytes) are held; a failed step sends them and its own with
//     their TraceSteps; an execution that leaves the hold, or is held when
//     the run ends, sends its TraceStep light (no snapshot).

const (
	traceHeld      = 50
	traceHeldBytes = 32 << 20
)

// traceJob is a step execution's trace handed to the sender.
type traceJob struct {
	ts   protocol.TraceStep // what the step was, its status and times
	x    *traceExec
	snap *snapshotCall // nil: no snapshot (the run ended under it)
}

// traceItem is an execution at the sender.
type traceItem struct {
	traceJob
	html string     // the snapshot, masked; "" when there is none
	name string     // the snapshot's artifact, once sent
	prev *traceItem // the execution before, until this one's TraceStep is sent
}

func (r *run) traceSender(tr *tracer) {
	defer close(tr.sent)
	var last *traceItem
	var held []*traceItem
	heldBytes := 0
	for j := range tr.jobs {
		it := &traceItem{traceJob: j, prev: last, html: r.snapshotHTML(j.snap)}
		last = it
		if tr.mode == protocol.TraceOn {
			r.sendSnapshot(it)
			if it.prev != nil {
				r.sendTrace(tr, it.prev, false)
			}
			continue
		}
		held = append(held, it)
		heldBytes += len(it.html)
		if j.ts.Status == protocol.StepFailed {
			for _, h := range held {
				r.sendSnapshot(h)
				r.sendTrace(tr, h, false)
			}
			held, heldBytes = nil, 0
			continue
		}
		for len(held) > traceHeld || heldBytes > traceHeldBytes {
			h := held[0]
			held = held[1:]
			heldBytes -= len(h.html)
			h.html = ""
			r.sendTrace(tr, h, true)
		}
	}
	if tr.mode == protocol.TraceOn && last != nil {
		r.sendTrace(tr, last, false)
	}
	for _, h := range held {
		r.sendTrace(tr, h, true)
	}
}

// sendSnapshot sends it's snapshot, if any, and names it.
func (r *run) sendSnapshot(it *traceItem) {
	if it.html == "" {
		return
	}
	ts := it.ts
	base := strings.TrimSuffix(protocol.SnapshotArtifact(ts.Index, ts.ID, ts.Iteration, false), ".html")
	it.name = r.out.artifact(ts.Index, base, ".html", "text/html", []byte(it.html))
	it.html = ""
}

// sendTrace sends it's TraceStep with its entries as they are now, masked;
// light, without snapshots.
func (r *run) sendTrace(tr *tracer, it *traceItem, light bool) {
	ts := it.ts
	console, network, dropped := tr.entries(it.x)
	m := r.mask
	for i := range console {
		console[i].Text, console[i].URL = m.String(console[i].Text), m.String(console[i].URL)
	}
	for i := range network {
		network[i].URL, network[i].Failure = m.String(network[i].URL), m.String(network[i].Failure)
	}
	ts.ID, ts.Console, ts.Network, ts.Dropped, ts.Light = m.String(ts.ID), console, network, dropped, light
	if !light {
		ts.Snapshot = it.name
		if it.prev != nil {
			ts.Before = it.prev.name
		}
	}
	it.prev = nil // the chain of executions ends here: what was before is sent
	data, err := json.Marshal(ts)
	if err != nil {
		r.b.log.Warn("encoding a step's trace", "err", err)
		return
	}
	base := strings.TrimSuffix(protocol.TraceArtifact(ts.Index, it.ts.ID, ts.Iteration), ".json")
	r.out.artifact(ts.Index, base, ".json", "application/json", data)
}
