package runner

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/testautomation/ta/protocol"
)

// A run's trace (docs/trace.md): per execution of a step, what its pages
// logged and requested from the end of the step before to its own end, and
// the DOM after it (trace_snapshot.go). The event reader records into the
// execution open now (traceEvent); the run's goroutine closes it when a
// step ends (traceStep) and hands it to the sender (trace_send.go), which
// sends it as artifacts without holding up the next step. A run with the
// trace off has no tracer: it enables nothing and records nothing.

// tracer records a run's trace.
type tracer struct {
	mode  string    // protocol.TraceOn or TraceFailures
	start time.Time // the run's start: the trace's times count from it

	mu   sync.Mutex           // guards the fields below; held for no call
	open *traceExec           // where entries go: the step running, or the next
	reqs map[string]*traceReq // requests in flight, by session and request id
	// By session: the uniqueId of its page's main world, and the
	// serializer installed in it (trace_install.go).
	worlds map[string]string
	fns    map[string]snapshotFn

	jobs chan traceJob // to the sender, in the order the steps ran
	sent chan struct{} // closed when the sender is done
}

// traceExec is what one step execution recorded.
type traceExec struct {
	console []protocol.ConsoleEntry
	network []*protocol.NetworkEntry // updated as their answers come (under tracer.mu)
	dropped int
}

// traceReq is a request in flight.
type traceReq struct {
	e  *protocol.NetworkEntry
	ts float64 // the browser's clock when it was sent, in seconds
}

// traceTextMax cuts texts: a console line, a URL.
const traceTextMax = 4 << 10

func newTracer(mode string, start time.Time) *tracer {
	return &tracer{mode: mode, start: start, open: &traceExec{}, reqs: map[string]*traceReq{},
		worlds: map[string]string{}, fns: map[string]snapshotFn{},
		jobs: make(chan traceJob, 64), sent: make(chan struct{})}
}

// since is t's time in milliseconds since the run started.
func (tr *tracer) since(t time.Time) int64 { return t.Sub(tr.start).Milliseconds() }

// console records a console entry in the execution open.
func (tr *tracer) console(e protocol.ConsoleEntry, now time.Time) {
	e.TimeMs = tr.since(now)
	e.Text, e.URL = cutText(e.Text), cutText(e.URL)
	tr.mu.Lock()
	defer tr.mu.Unlock()
	x := tr.open
	if len(x.console) >= protocol.MaxTraceEntries {
		x.dropped++
		return
	}
	x.console = append(x.console, e)
}

// network records a Network event of a page's session.
func (tr *tracer) network(session, method string, params json.RawMessage, now time.Time) {
	var p struct {
		RequestID string  `json:"requestId"`
		Timestamp float64 `json:"timestamp"`
		Type      string  `json:"type"`
		Request   *struct {
			URL         string `json:"url"`
			Method      string `json:"method"`
			PostData    string `json:"postData"`
			HasPostData bool   `json:"hasPostData"`
		} `json:"request"`
		RedirectResponse *traceResponse `json:"redirectResponse"`
		Response         *traceResponse `json:"response"`
		// loadingFinished, loadingFailed
		EncodedDataLength float64   `json:"encodedDataLength"`
		ErrorText         string    `json:"errorText"`
		Canceled          bool      `json:"canceled"`
		BlockedReason     string    `json:"blockedReason"`
		CorsErrorStatus   *struct{} `json:"corsErrorStatus"`
	}
	switch method {
	case "Network.requestWillBeSent", "Network.responseReceived", "Network.loadingFinished", "Network.loadingFailed":
	default:
		return
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	key := session + "/" + p.RequestID
	tr.mu.Lock()
	defer tr.mu.Unlock()
	q := tr.reqs[key]
	switch method {
	case "Network.requestWillBeSent":
		if q != nil && p.RedirectResponse != nil { // the same id goes on to the redirect's target
			q.e.Status, q.e.ResponseBytes = p.RedirectResponse.Status, int64(p.RedirectResponse.EncodedDataLength)
			q.e.DurationMs = durationMs(q.ts, p.Timestamp)
		}
		delete(tr.reqs, key)
		if p.Request == nil {
			return
		}
		x := tr.open
		if len(x.network) >= protocol.MaxTraceEntries {
			x.dropped++
			return
		}
		e := &protocol.NetworkEntry{TimeMs: tr.since(now), Method: p.Request.Method, URL: cutText(p.Request.URL),
			Type: p.Type, RequestBytes: int64(len(p.Request.PostData))}
		x.network = append(x.network, e)
		tr.reqs[key] = &traceReq{e: e, ts: p.Timestamp}
	case "Network.responseReceived":
		if q != nil && p.Response != nil {
			q.e.Status = p.Response.Status
			if p.Type != "" {
				q.e.Type = p.Type
			}
		}
	case "Network.loadingFinished":
		if q != nil {
			q.e.ResponseBytes, q.e.DurationMs = int64(p.EncodedDataLength), durationMs(q.ts, p.Timestamp)
			delete(tr.reqs, key)
		}
	case "Network.loadingFailed":
		if q != nil {
			q.e.Failure = failureName(p.ErrorText, p.Canceled, p.BlockedReason, p.CorsErrorStatus != nil)
			q.e.DurationMs = durationMs(q.ts, p.Timestamp)
			if p.Type != "" {
				q.e.Type = p.Type
			}
			delete(tr.reqs, key)
		}
	}
}

type traceResponse struct {
	Status            int     `json:"status"`
	EncodedDataLength float64 `json:"encodedDataLength"`
}

func durationMs(from, to float64) int64 {
	if to < from {
		return 0
	}
	return int64((to - from) * 1000)
}

// cut closes the execution open and opens the next one's.
func (tr *tracer) cut() *traceExec {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	x := tr.open
	tr.open = &traceExec{}
	return x
}

// entries copies what x recorded as it stands now: a request still in
// flight has no status (the step ended first).
func (tr *tracer) entries(x *traceExec) ([]protocol.ConsoleEntry, []protocol.NetworkEntry, int) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	console := append([]protocol.ConsoleEntry{}, x.console...)
	network := make([]protocol.NetworkEntry, len(x.network))
	for i, e := range x.network {
		network[i] = *e
	}
	return console, network, x.dropped
}

// cutText cuts s to traceTextMax bytes (on a character's boundary), "…"
// saying so; the masker then masks a secret cut in two (cutEnds).
func cutText(s string) string {
	if len(s) <= traceTextMax {
		return s
	}
	n := traceTextMax
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
