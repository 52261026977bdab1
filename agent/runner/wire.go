package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/go-rod/rod/lib/cdp"
)

// wire is the transport of the browser connection: rod's WebSocket, plus
// pipelined requests. rod's client waits for each answer before the caller
// can send the next request; a pipeline writes several requests in order
// at once and then waits for all their answers. Chromium handles a
// session's requests in the order they come, so the order is kept, and a
// click's mouse move no longer waits for the animation frame Blink aligns
// moves to before the press can follow (about 14 ms a click).
type wire struct {
	ws   *cdp.WebSocket
	next atomic.Int64 // the last pipelined request's id, from pipeBase up
	// observe, set before the first Read, sees every event before rod's
	// client does, on the reader (Browser.observe); it must not block.
	observe func(event []byte)

	mu      sync.Mutex                // guards the fields below
	waiting map[int64]chan wireAnswer // by request id: answers to pipelined requests
	err     error                     // set when the connection ended
}

// pipeBase starts the ids of pipelined requests, far above the ids rod's
// client gives its own (counting from 1; a billion requests apart), and
// below 2^31: Chromium reads a request's id as a 32-bit integer.
const pipeBase = 1 << 30

type wireAnswer struct {
	raw    []byte     // the whole message
	Error  *cdp.Error `json:"error"`
	Result struct {
		// An evaluation that threw answers without an error.
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	} `json:"result"`
}

// wireRequest is one request of a pipeline.
type wireRequest struct {
	Method string
	Params any
}

func newWire(ws *cdp.WebSocket) *wire {
	w := &wire{ws: ws, waiting: map[int64]chan wireAnswer{}}
	w.next.Store(pipeBase)
	return w
}

// Send writes one of rod's requests.
func (w *wire) Send(data []byte) error { return w.ws.Send(data) }

// Read returns the next message for rod's client; answers to pipelined
// requests go to their pipeline instead.
func (w *wire) Read() ([]byte, error) {
	for {
		data, err := w.ws.Read()
		if err != nil {
			w.mu.Lock()
			w.err = err
			for id, ch := range w.waiting {
				close(ch)
				delete(w.waiting, id)
			}
			w.mu.Unlock()
			return nil, err
		}
		id := answerID(data)
		if id == 0 && w.observe != nil {
			w.observe(data)
		}
		if id < pipeBase {
			return data, nil
		}
		a := wireAnswer{raw: data}
		_ = json.Unmarshal(data, &a)
		w.mu.Lock()
		ch := w.waiting[id]
		delete(w.waiting, id)
		w.mu.Unlock()
		if ch != nil {
			ch <- a
		}
	}
}

// answerID reads the id of an answer; 0 for an event. Chromium writes the
// id first ({"id":12,"result":...}); anything else is decoded.
func answerID(data []byte) int64 {
	if rest, ok := bytes.CutPrefix(data, []byte(`{"id":`)); ok {
		if end := bytes.IndexByte(rest, ','); end > 0 {
			if id, err := strconv.ParseInt(string(rest[:end]), 10, 64); err == nil {
				return id
			}
		}
	}
	if bytes.HasPrefix(data, []byte(`{"method":`)) {
		return 0
	}
	var m struct {
		ID int64 `json:"id"`
	}
	_ = json.Unmarshal(data, &m)
	return m.ID
}

// pipeline sends reqs on the session in order without waiting between them,
// then waits for every answer; it returns the first request's error.
func (w *wire) pipeline(ctx context.Context, sessionID string, reqs ...wireRequest) error {
	posted := make([]postedRequest, 0, len(reqs))
	defer func() {
		for _, p := range posted {
			w.forget(p)
		}
	}()
	for _, r := range reqs {
		p, err := w.post(sessionID, r)
		if err != nil {
			return err
		}
		posted = append(posted, p)
	}
	var first error
	for _, p := range posted {
		if _, err := w.answer(ctx, p); err != nil {
			if ctx.Err() != nil || errors.Is(err, errConnectionEnded) {
				return err
			}
			if first == nil {
				first = err
			}
		}
	}
	return first
}

// postedRequest is a request sent without waiting for its answer.
type postedRequest struct {
	id int64
	ch chan wireAnswer
}

var errConnectionEnded = errors.New("the browser connection ended")

// post sends r on the session and returns at once; answer waits for its
// answer, forget stops waiting.
func (w *wire) post(sessionID string, r wireRequest) (postedRequest, error) {
	p := postedRequest{id: w.next.Add(1), ch: make(chan wireAnswer, 1)}
	data, err := json.Marshal(struct {
		ID        int64  `json:"id"`
		SessionID string `json:"sessionId,omitempty"`
		Method    string `json:"method"`
		Params    any    `json:"params,omitempty"`
	}{p.id, sessionID, r.Method, r.Params})
	if err != nil {
		return p, err
	}
	w.mu.Lock()
	if w.err != nil {
		w.mu.Unlock()
		return p, w.err
	}
	w.waiting[p.id] = p.ch
	w.mu.Unlock()
	if err := w.ws.Send(data); err != nil {
		w.forget(p)
		return p, err
	}
	return p, nil
}

// answer waits for the answer to p and returns it whole, or its error.
func (w *wire) answer(ctx context.Context, p postedRequest) ([]byte, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case a, ok := <-p.ch:
		switch {
		case !ok:
			return nil, errConnectionEnded
		case a.Error != nil:
			return nil, a.Error
		case a.Result.ExceptionDetails != nil:
			return nil, errors.New("the page threw: " + a.Result.ExceptionDetails.Text)
		}
		return a.raw, nil
	}
}

// call sends one request and returns its result. Unlike rod's client, it
// never blocks the connection's reader when the connection ends while the
// request is being sent: the frame clock calls 60 times a second.
func (w *wire) call(ctx context.Context, sessionID, method string, params, result any) error {
	p, err := w.post(sessionID, wireRequest{method, params})
	if err != nil {
		return err
	}
	defer w.forget(p)
	raw, err := w.answer(ctx, p)
	if err != nil || result == nil {
		return err
	}
	var m struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return err
	}
	return json.Unmarshal(m.Result, result)
}

// forget stops waiting for p's answer.
func (w *wire) forget(p postedRequest) {
	w.mu.Lock()
	delete(w.waiting, p.id)
	w.mu.Unlock()
}
