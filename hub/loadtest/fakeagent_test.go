package loadtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/testautomation/ta/protocol"
)

// fakeAgent speaks the agent protocol as a real agent does, without a
// browser: it accepts each run at once and finishes it passed with a few
// events. Idle agents never get a run; they ping as a real agent does.
type fakeAgent struct {
	ws  *websocket.Conn
	ids atomic.Int64 // IDs of acknowledged messages
	// onAssign, when set, hears of every assign as it arrives.
	onAssign func(runID string, at time.Time)
	assigns  atomic.Int64
	gone     chan struct{} // closed when the connection ends
	err      error         // why it ended; read after gone
}

// pingEvery is the real agent's (agent/client pingEvery).
const pingEvery = 20 * time.Second

// dialAgent connects with a token and waits for welcome.
func dialAgent(ctx context.Context, base, token string, parallel int) (*fakeAgent, error) {
	url := "ws" + strings.TrimPrefix(base, "http") + "/api/agent/connect"
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(dctx, url, nil)
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(protocol.MaxMessage)
	a := &fakeAgent{ws: ws, gone: make(chan struct{})}
	if err := a.send(dctx, protocol.Message{Type: protocol.MsgHello, Protocol: protocol.Version, Token: token, Parallel: parallel,
		Headless: true, Agent: "loadtest", OS: "linux", Arch: "amd64"}); err != nil {
		ws.CloseNow()
		return nil, err
	}
	for {
		m, err := a.read(dctx)
		if err != nil {
			ws.CloseNow()
			return nil, err
		}
		switch m.Type {
		case protocol.MsgWelcome:
			return a, nil
		case protocol.MsgError:
			ws.CloseNow()
			return nil, fmt.Errorf("hub refused the agent: %s", m.Error)
		}
	}
}

func (a *fakeAgent) send(ctx context.Context, m protocol.Message) error {
	data, err := m.Encode()
	if err != nil {
		return err
	}
	return a.ws.Write(ctx, websocket.MessageText, data)
}

func (a *fakeAgent) read(ctx context.Context) (protocol.Message, error) {
	_, data, err := a.ws.Read(ctx)
	if err != nil {
		return protocol.Message{}, err
	}
	var m protocol.Message
	return m, json.Unmarshal(data, &m)
}

// serve reads until the connection ends, answering assigns and pinging.
func (a *fakeAgent) serve(ctx context.Context) {
	var wg sync.WaitGroup
	pctx, stop := context.WithCancel(ctx)
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(pingEvery)
		defer t.Stop()
		for {
			select {
			case <-pctx.Done():
				return
			case <-t.C:
				c, cancel := context.WithTimeout(pctx, 10*time.Second)
				_ = a.ws.Ping(c)
				cancel()
			}
		}
	}()
	defer func() {
		stop()
		wg.Wait()
		close(a.gone)
	}()
	for {
		m, err := a.read(ctx)
		if err != nil {
			a.err = err
			return
		}
		if m.Type != protocol.MsgAssign || m.Job == nil {
			continue // ack, cancel of nothing
		}
		a.assigns.Add(1)
		if a.onAssign != nil {
			a.onAssign(m.RunID, time.Now())
		}
		if err := a.run(ctx, m.RunID, m.Job.FirstSeq); err != nil {
			a.err = err
			return
		}
	}
}

// run accepts a run and finishes it passed: run.started, one step
// started and finished, run.finished, then the result.
func (a *fakeAgent) run(ctx context.Context, runID string, seq int64) error {
	index, now := 0, time.Now().UTC()
	events := []protocol.Event{
		{Kind: protocol.RunStarted},
		{Kind: protocol.StepStarted, Index: &index, StepID: "s1", StepType: "navigate"},
		{Kind: protocol.StepFinished, Index: &index, StepID: "s1", StepType: "navigate", Status: protocol.RunPassed},
		{Kind: protocol.RunFinished},
	}
	if err := a.send(ctx, protocol.Message{Type: protocol.MsgAccept, ID: a.ids.Add(1), RunID: runID}); err != nil {
		return err
	}
	for i := range events {
		e := events[i]
		e.Seq, e.Time = seq+int64(i), now
		if err := a.send(ctx, protocol.Message{Type: protocol.MsgEvent, ID: a.ids.Add(1), RunID: runID, Event: &e}); err != nil {
			return err
		}
	}
	return a.send(ctx, protocol.Message{Type: protocol.MsgFinish, ID: a.ids.Add(1), RunID: runID, Result: &protocol.RunResult{
		Status: protocol.RunPassed, Passed: 1, Total: 1,
		Steps: []protocol.StepResult{{Index: 0, ID: "s1", Type: "navigate", Status: protocol.RunPassed, DurationMs: 1}}}})
}

// connectAgents dials one agent per token, width at a time, and serves
// each until ctx ends.
func connectAgents(ctx context.Context, base string, tokens []string, parallel, width int) ([]*fakeAgent, error) {
	agents := make([]*fakeAgent, len(tokens))
	errs := make([]error, len(tokens))
	var wg sync.WaitGroup
	sem := make(chan struct{}, width)
	for i, tok := range tokens {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			agents[i], errs[i] = dialAgent(ctx, base, tok, parallel)
			if errs[i] == nil {
				go agents[i].serve(ctx)
			}
		}()
	}
	wg.Wait()
	return agents, errors.Join(errs...)
}

// connected counts the agents whose connection is still open.
func connected(agents []*fakeAgent) int {
	n := 0
	for _, a := range agents {
		select {
		case <-a.gone:
		default:
			n++
		}
	}
	return n
}
