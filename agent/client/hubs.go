package client

// Several hubs (issue 32, docs/several-hubs-agent.md): hubs that share one
// database are one service to the agent. It is given their URLs, preferred
// first; it connects to one at a time, moves on to the next when it cannot
// connect or its connection ends, and goes back to an earlier one once that
// answers again and nothing is in progress. Behind a load balancer the list
// is one URL and every reconnect may land on another hub: the agent keeps
// nothing per hub process (the outbox resends what no hub acknowledged, and
// hubs take repeats as no-ops), so any hub of the database will do.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// ParseHubs reads hub URLs as --hub takes them: each value may hold several
// separated by commas, and the flag may be repeated. Each must be an
// http(s) URL; a bad one is refused, named. Blank items (a trailing comma)
// are skipped, trailing slashes dropped, and a URL given twice counts once,
// where it first appears.
func ParseHubs(values ...string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, v := range values {
		for _, h := range strings.Split(v, ",") {
			h = strings.TrimRight(strings.TrimSpace(h), "/")
			if h == "" {
				continue
			}
			if _, err := wsURL(h); err != nil {
				return nil, err
			}
			if !seen[h] {
				seen[h] = true
				out = append(out, h)
			}
		}
	}
	return out, nil
}

// hubList returns the configured hubs: Hubs, else HubURL alone.
func hubList(cfg Config) []string {
	if len(cfg.Hubs) > 0 {
		return append([]string(nil), cfg.Hubs...)
	}
	return []string{cfg.HubURL}
}

// Hubs returns the agent's hubs, preferred first.
func (c *Client) Hubs() []string { return append([]string(nil), c.hubs...) }

// hubAt returns the index of the hub to dial next.
func (c *Client) hubAt() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cur
}

// setHub makes hubs[i] the next to dial.
func (c *Client) setHub(i int) {
	c.mu.Lock()
	c.cur = i % len(c.hubs)
	c.mu.Unlock()
}

// httpHub is the hub for the agent's HTTP requests (project files): the
// one it is connected to, or was last, so they go where its runs are.
func (c *Client) httpHub() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state.Hub != "" {
		return c.state.Hub
	}
	return c.hubs[c.cur]
}

// graceful reports whether the hub ended the connection on purpose while
// going away: a hub that stops (or drains) closes with 1012 Service Restart
// or 1001 Going Away, and another hub is ready to take the agent at once.
func graceful(err error) bool {
	s := websocket.CloseStatus(err)
	return s == websocket.StatusServiceRestart || s == websocket.StatusGoingAway
}

// errMoveBack ends a connection to a later hub of the list when an earlier
// one answers again (watchPreferred).
type errMoveBack struct{ to int }

func (e *errMoveBack) Error() string { return fmt.Sprintf("moving back to hub %d of the list", e.to+1) }

// next decides, after a connection (or an attempt) to hub i ended with
// err, which hub to dial and whether to wait before. tries counts the
// attempts since the last connection that was welcomed; the backoff is
// waited once per full round of the list, so a dead hub costs one failed
// dial, not a backoff.
func (c *Client) next(i int, connected bool, err error, tries int) (hub int, wait bool) {
	n := len(c.hubs)
	var back *errMoveBack
	switch {
	case errors.As(err, &back):
		return back.to, false
	case connected && graceful(err):
		// The hub is stopping: go to another at once (behind a load
		// balancer, the same URL lands on another hub).
		return (i + 1) % n, false
	}
	return (i + 1) % n, tries%n == 0
}

// returnEvery is how often, by default, an agent connected to a hub other
// than its first checks whether an earlier one answers again: a hub back
// from a restart gets its agents within half a minute, and the checks cost
// nothing worth counting.
const returnEvery = 30 * time.Second

// authorQuiet is how long after the last authoring message the agent
// counts an authoring exchange (a script try, a page read) as in progress;
// sessionQuiet how long an open session with no message either way keeps
// it busy. The hub closes an idle live session after 10 minutes, so a
// session still listed after 15 lost its end on the way and holds nothing.
const (
	authorQuiet  = time.Minute
	sessionQuiet = 15 * time.Minute
)

var healthClient = &http.Client{Timeout: 5 * time.Second}

// watchPreferred runs while the agent is connected to hubs[i], i > 0:
// every ReturnEvery it asks each earlier hub's /healthz, first to last;
// when one answers 200 and the agent is idle, it ends the connection with
// errMoveBack so Run dials that hub next. It never moves mid-run.
func (c *Client) watchPreferred(ctx context.Context, i int, end context.CancelCauseFunc) {
	t := time.NewTicker(c.cfg.ReturnEvery)
	defer t.Stop()
	told := false // the wait is logged once, not every check
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for j := range i {
			if !c.answers(ctx, c.hubs[j]) {
				continue
			}
			if why := c.busy(); why != "" {
				if !told {
					c.log.Info("an earlier hub answers again; staying here while "+why, "hub", c.hubs[i], "preferred", c.hubs[j])
					told = true
				}
				break
			}
			c.log.Info("an earlier hub answers again; moving back to it", "from", c.hubs[i], "to", c.hubs[j])
			end(&errMoveBack{to: j})
			return
		}
	}
}

// answers reports whether the hub at base answers GET /healthz with 200.
func (c *Client) answers(ctx context.Context, base string) bool {
	u, err := url.JoinPath(base, "healthz")
	if err != nil {
		return false
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false
	}
	resp, err := healthClient.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// busy says what keeps the agent on its hub now ("" when nothing does): a
// run it runs, run messages the hub has not acknowledged, an authoring
// session (it ends with its connection) or a recent authoring request.
func (c *Client) busy() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case len(c.running) > 0:
		return "a run is in progress"
	case len(c.sessions) > 0 && time.Since(c.authoredAt) < sessionQuiet, time.Since(c.authoredAt) < authorQuiet:
		return "an authoring session is open"
	case !c.box.empty():
		return "the hub has not acknowledged the last run messages"
	}
	return ""
}

// authored notes an authoring message on the connection, either way: a
// session that starts, or any exchange, keeps the agent on its hub (busy).
func (c *Client) authored(session string, start bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.authoredAt = time.Now()
	if start && session != "" {
		c.sessions[session] = true
	}
}

// sessionGone forgets an ended authoring session ("" all of them: the
// connection ended).
func (c *Client) sessionGone(session string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if session == "" {
		clear(c.sessions)
		return
	}
	delete(c.sessions, session)
}
