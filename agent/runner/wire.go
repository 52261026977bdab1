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

	mu      sync.Mutex                // guards the fields below
	waiting map[int64]chan wireAnswer // by request id: answers to pipelined requests
	err     error                     // set when the connection ended
}

// pipeBase starts the ids of pipelined requests, far above the ids rod's
// client gives its own (counting from 1; a billion requests apart), and
// below 2^31: Chromium reads a request's id as a 32-bit integer.
const pipeBase = 1 << 30

type wireAnswer struct {
	Error *cdp.Error `json:"error"`
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
		if id < pipeBase {
			return data, nil
		}
		var a wireAnswer
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
	chans := make([]chan wireAnswer, len(reqs))
	ids := make([]int64, len(reqs))
	defer func() {
		w.mu.Lock()
		for _, id := range ids {
			delete(w.waiting, id)
		}
		w.mu.Unlock()
	}()
	for i, r := range reqs {
		ids[i] = w.next.Add(1)
		chans[i] = make(chan wireAnswer, 1)
		data, err := json.Marshal(struct {
			ID        int64  `json:"id"`
			SessionID string `json:"sessionId,omitempty"`
			Method    string `json:"method"`
			Params    any    `json:"params,omitempty"`
		}{ids[i], sessionID, r.Method, r.Params})
		if err != nil {
			return err
		}
		w.mu.Lock()
		if w.err != nil {
			w.mu.Unlock()
			return w.err
		}
		w.waiting[ids[i]] = chans[i]
		w.mu.Unlock()
		if err := w.ws.Send(data); err != nil {
			return err
		}
	}
	var first error
	for _, ch := range chans {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case a, ok := <-ch:
			switch {
			case !ok:
				return errors.New("the browser connection ended")
			case a.Error != nil && first == nil:
				first = a.Error
			}
		}
	}
	return first
}
