package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/coder/websocket"
	"github.com/testautomation/ta/protocol"
)

// session is one connection to hubs[hub]: hello, then messages until it
// breaks. connected reports whether the hub welcomed the agent.
func (c *Client) session(ctx context.Context, hub int) (connected bool, err error) {
	hubURL := c.hubs[hub]
	u, err := wsURL(hubURL)
	if err != nil {
		return false, err
	}
	dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	ws, _, err := websocket.Dial(dctx, u, nil)
	cancel()
	if err != nil {
		return false, err
	}
	defer ws.CloseNow()
	ws.SetReadLimit(protocol.MaxMessage)
	// end ends the connection; its cause (a move back to an earlier hub)
	// is what session returns.
	sctx, end := context.WithCancelCause(ctx)
	stop := func() { end(nil) }
	defer stop()

	hello := protocol.Message{Type: protocol.MsgHello, Protocol: protocol.Version, Agent: c.cfg.Version, Parallel: c.cfg.Parallel,
		Headless: c.cfg.Headless, Paused: c.State().Paused, OS: hubOS(c.cfg.OS), Arch: c.cfg.Arch, Browser: c.cfg.Browser}
	hello.Runs = c.heldRuns()
	if tok := c.Token(); tok != "" {
		hello.Token = tok
	} else {
		hello.Pair = &protocol.PairRequest{Hostname: c.cfg.Hostname, OS: c.cfg.OS, APIToken: c.cfg.APIToken}
	}
	if err := write(sctx, ws, hello); err != nil {
		return false, err
	}
	writerDone := make(chan struct{})
	welcomed := make(chan struct{})
	go func() {
		defer close(writerDone)
		select {
		case <-welcomed:
			go c.pinger(sctx, ws, stop)
			if hub > 0 {
				go c.watchPreferred(sctx, hub, end)
			}
			c.writer(sctx, ws)
		case <-sctx.Done():
		}
	}()
	defer func() { stop(); <-writerDone }()
	// Authoring sessions live on one connection: the hub ends them when it
	// goes, so does the agent.
	defer func() {
		if c.cfg.Author != nil {
			c.cfg.Author.CloseAll()
		}
		c.dropSessionFiles("", true)
		c.sessionGone("")
		c.drainLive()
	}()

	for {
		_, data, err := ws.Read(sctx)
		if err != nil {
			if back := (*errMoveBack)(nil); errors.As(context.Cause(sctx), &back) {
				return connected, back
			}
			return connected, err
		}
		var m protocol.Message
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		switch m.Type {
		case protocol.MsgPairing:
			c.log.Info("pairing code: " + m.Code)
			c.log.Info("open " + m.URL + " to approve this computer")
			if c.cfg.Out != nil {
				fmt.Fprintf(c.cfg.Out, "pairing code: %s\nopen %s\n", m.Code, m.URL)
			}
			c.setState(func(s *State) { s.Phase, s.Code, s.PairURL = "pairing", m.Code, m.URL })
		case protocol.MsgPaired:
			if err := c.saveToken(m.AgentID, m.Token); err != nil {
				return connected, fmt.Errorf("store the token: %w", err)
			}
			c.log.Info("paired with the hub", "agent", m.AgentID, "name", m.Name)
		case protocol.MsgWelcome:
			connected = true
			c.box.rewind()
			close(welcomed)
			c.log.Info("connected to the hub", "hub", hubURL, "agent", m.AgentID)
			c.setState(func(s *State) {
				s.Phase, s.Code, s.PairURL, s.AgentID, s.Name, s.Err = "connected", "", "", m.AgentID, m.Name, nil
				s.Update, s.Hub = m.Update, hubURL
			})
			if m.Update != nil {
				c.log.Info("a newer agent is available from the hub", "version", m.Update.Version, "get it at", m.Update.URL)
			}
		case protocol.MsgError:
			// A refused API token, or one with too many CI agents already:
			// trying again would not help.
			if (m.ErrorCode == "unauthorized" || m.ErrorCode == "too_many_ci_agents") && hello.Pair != nil && hello.Pair.APIToken != "" {
				return connected, &RefusedError{Reason: m.Error}
			}
			if m.ErrorCode == "unauthorized" {
				return connected, errUnauthorized
			}
			if m.ErrorCode == protocol.ErrAgentConnected {
				return connected, errAlreadyConnected
			}
			return connected, errors.New(m.Error)
		case protocol.MsgAssign:
			if m.Job != nil {
				c.start(ctx, *m.Job)
			}
		case protocol.MsgCancel:
			c.cancel(m.RunID)
		case protocol.MsgAck:
			c.box.ack(m.Ack)
		case protocol.MsgToken:
			if connected {
				c.rotated(m)
			}
		case protocol.MsgAuthorStart, protocol.MsgAuthorMode, protocol.MsgAuthorStop, protocol.MsgAuthorPreview, protocol.MsgScriptTry, protocol.MsgPageGround,
			protocol.MsgAuthorView, protocol.MsgAuthorInput, protocol.MsgLiveRun:
			if connected {
				c.authored(m.Session, m.Type == protocol.MsgAuthorStart || m.Type == protocol.MsgLiveRun)
				c.authoring(sctx, m)
			}
		}
	}
}

// hubOS names an OS as the hub's downloads do: darwin is macos.
func hubOS(goos string) string {
	if goos == "darwin" {
		return "macos"
	}
	return goos
}

func write(ctx context.Context, ws *websocket.Conn, m protocol.Message) error {
	data, err := m.Encode()
	if err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return ws.Write(wctx, websocket.MessageText, data)
}

// heldRuns lists the runs this agent still holds for the hub: those
// running, and those whose messages (their finish, say) the hub has not
// acknowledged yet.
func (c *Client) heldRuns() []string {
	// running first: a run puts its finish in the outbox before it leaves
	// running, so read in this order it is in one or the other.
	c.mu.Lock()
	held := make(map[string]bool, len(c.running))
	for id := range c.running {
		held[id] = true
	}
	c.mu.Unlock()
	for id := range c.box.runs() {
		held[id] = true
	}
	out := make([]string, 0, len(held))
	for id := range held {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// writer sends lease renewals first, then the outbox's messages not yet
// written on this connection; what a broken connection did not deliver
// stays in the outbox for the next one.
func (c *Client) writer(ctx context.Context, ws *websocket.Conn) {
	for {
		var m outMsg
		select {
		case m = <-c.prio:
		case m = <-c.live:
		default:
			var ok bool
			if m, ok = c.box.next(); !ok {
				if m, ok = c.box.wait(ctx, c.prio, c.live); !ok {
					return
				}
				if m.msg.Type == "" {
					continue // woken: look again
				}
			}
		}
		if err := c.sendOne(ctx, ws, m); err != nil {
			return
		}
		if m.msg.ID > 0 {
			c.box.wrote(m.msg.ID)
		}
	}
}

// drainLive drops authoring messages a closed connection did not send.
func (c *Client) drainLive() {
	for {
		select {
		case <-c.live:
		default:
			return
		}
	}
}

// sendOne writes a message; an artifact's content follows as a binary frame.
func (c *Client) sendOne(ctx context.Context, ws *websocket.Conn, m outMsg) error {
	if err := write(ctx, ws, m.msg); err != nil {
		return err
	}
	if m.data != nil || m.msg.Type == protocol.MsgArtifact {
		wctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		return ws.Write(wctx, websocket.MessageBinary, m.data)
	}
	return nil
}

// pingEvery is how often the agent checks that the hub still answers; a
// half-open connection is dropped and redialled instead of waiting forever.
var pingEvery = 20 * time.Second

func (c *Client) pinger(ctx context.Context, ws *websocket.Conn, drop context.CancelFunc) {
	t := time.NewTicker(pingEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := ws.Ping(pctx)
		cancel()
		if err != nil && ctx.Err() == nil {
			c.log.Warn("the hub does not answer pings; reconnecting", "err", err)
			drop()
			return
		}
	}
}

// rotated stores the new token the hub sent and tells it so on this
// connection; from then on the hub accepts only the new one. An error
// keeps the old token in use and is reported to the hub.
func (c *Client) rotated(m protocol.Message) {
	answer := protocol.Message{Type: protocol.MsgTokenSaved, ReqID: m.ReqID}
	if m.Token == "" {
		answer.Error = "the hub sent no token"
	} else if err := c.saveToken(m.AgentID, m.Token); err != nil {
		c.log.Error("cannot store the new token the hub sent; the old one stays in use", "err", err)
		answer.Error = "the agent could not store it: " + err.Error()
	} else {
		c.log.Info("the hub rotated this computer's token; the new one is stored")
	}
	select {
	case c.live <- outMsg{msg: answer}:
	default: // the connection is stuck: the hub times out, the old token stays
	}
}
