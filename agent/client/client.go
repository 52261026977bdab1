// Package client is the desktop agent's connection to the hub: it pairs
// (printing the code for the user to approve), keeps its token in the
// config folder, reconnects with capped jittered backoff, runs what the hub
// assigns with a Runner, renews leases and streams events, artifacts and
// results back. A run keeps going while the connection is down: what it
// sends waits in an outbox and leaves when the agent is back. No Fyne here:
// the tray and --headless modes both drive this package.
package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/testautomation/ta/protocol"
)

// Runner runs one job; agent/runner.Browser is the real one.
type Runner interface {
	Run(ctx context.Context, job protocol.Job, emit Emitter) protocol.RunResult
}

// Emitter receives a run's events and artifacts as they happen.
type Emitter interface {
	Event(e protocol.Event)
	Artifact(info protocol.ArtifactInfo, data []byte)
}

// State is what the agent shows: in the tray, or in the log when headless.
type State struct {
	Phase   string // connecting, pairing, connected, disconnected
	Code    string // while pairing
	PairURL string
	AgentID string
	Name    string
	Runs    int   // runs in progress
	Err     error // the last connection problem
	// Paused: the agent takes no new runs (SetPaused); those it runs go on.
	Paused bool
	// Current are the runs in progress, oldest first; Recent the last
	// ones finished, newest first (at most RecentRuns).
	Current []RunProgress
	Recent  []RunProgress
	// Update is a newer agent the hub serves, as it said at connect.
	Update *protocol.AgentUpdate
	// Hub is the hub the agent is connected to (or was last), one of
	// Config.Hubs; "" before the first connection.
	Hub string
}

// RunProgress is a run as the tray shows it: its test, how far it is (step
// or row Done of Total) and, once finished, its status.
type RunProgress struct {
	RunID  string
	Test   string
	Done   int // steps (rows, for a data-driven run) started so far
	Total  int
	Rows   bool   // Total counts rows
	Status string // when finished
}

// RecentRuns is how many finished runs State keeps.
const RecentRuns = 5

// Config sets the client up.
type Config struct {
	HubURL string // http(s)://host:port
	// Hubs, when set, are several hubs sharing one database, preferred
	// first (ParseHubs reads them); HubURL is then ignored. The agent
	// fails over between them and returns (hubs.go).
	Hubs      []string
	ConfigDir string // where the token is kept
	Hostname  string
	OS        string // the pairing request's: runtime.GOOS
	Arch      string // runtime.GOARCH, for the hub's update notice
	Version   string // the agent's build
	Parallel  int
	// Headless: this computer has no display, so headed runs run without
	// a window; hello tells the hub.
	Headless bool
	// Browser is the version of the Chromium it drives, for hello.
	Browser string
	Runner  Runner
	// Author runs recording, picking and script sessions; nil answers
	// every one with an error.
	Author  Author
	Logger  *slog.Logger
	OnState func(State) // may be nil
	// Out, when set, gets the lines a person at a terminal needs: the
	// pairing code and where to approve it.
	Out io.Writer
	// Backoff bounds between reconnect attempts; defaults 500 ms and 30 s.
	MinBackoff, MaxBackoff time.Duration
	// ReturnEvery is how often an agent on a hub other than its first
	// checks whether an earlier one answers again; default 30 s.
	ReturnEvery time.Duration
	// APIToken makes this a CI command's agent (agent ci): without a
	// stored agent token it joins with this API token instead of a
	// pairing code, and takes only the runs pinned to it. A hub that
	// refuses the token (or has too many CI agents for it already) ends
	// Run with a *RefusedError.
	APIToken string
}

// RefusedError is the hub refusing a CI agent's API token (or one more CI
// agent for it): trying again would not help.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string { return e.Reason }

// Client is one agent's link to the hub.
type Client struct {
	cfg  Config
	log  *slog.Logger
	hubs []string    // Config.Hubs, or HubURL alone
	box  *outbox     // run messages until the hub acknowledges them
	prio chan outMsg // lease renewals: they overtake queued screenshots
	live chan outMsg // authoring messages: for the current connection only

	mu      sync.Mutex
	running map[string]context.CancelCauseFunc // guarded by mu: run id → cancel
	state   State                              // guarded by mu
	cur     int                                // guarded by mu: the index in hubs to dial
	// sessions are the authoring sessions open on this connection and
	// authoredAt the last authoring message, guarded by mu: the agent
	// does not move to another hub under them (hubs.go).
	sessions   map[string]bool
	authoredAt time.Time
	// authorFiles are the project files fetched for authoring sessions
	// (files_session.go), guarded by mu: session id → its files.
	authorFiles map[string]*runFiles
}

// outMsg is a message for the hub with an artifact's content, if any.
type outMsg struct {
	msg  protocol.Message
	data []byte
}

// New returns a client; Run connects it.
func New(cfg Config) *Client {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Parallel < 1 {
		cfg.Parallel = 1
	}
	if cfg.MinBackoff == 0 {
		cfg.MinBackoff = 500 * time.Millisecond
	}
	if cfg.MaxBackoff == 0 {
		cfg.MaxBackoff = 30 * time.Second
	}
	if cfg.ReturnEvery == 0 {
		cfg.ReturnEvery = returnEvery
	}
	hubs := hubList(cfg)
	cfg.HubURL = hubs[0]
	return &Client{cfg: cfg, log: cfg.Logger, hubs: hubs, box: newOutbox(outboxLimit), prio: make(chan outMsg, 64), live: make(chan outMsg, 256),
		running: map[string]context.CancelCauseFunc{}, sessions: map[string]bool{}}
}

// tokenFile holds the agent's credentials. Hub is the preferred hub;
// Hubs, with several, all of them: the token is good on every hub of the
// database they share.
type tokenFile struct {
	Hub     string   `json:"hub"`
	Hubs    []string `json:"hubs,omitempty"`
	AgentID string   `json:"agentId"`
	Token   string   `json:"token"`
}

func (c *Client) tokenPath() string { return filepath.Join(c.cfg.ConfigDir, "agent.json") }

// Token returns the stored token for these hubs, or "": one paired
// through any hub of the list (or stored with a list that shares a hub
// with this one) is good, since such hubs share one database.
func (c *Client) Token() string {
	data, err := os.ReadFile(c.tokenPath())
	if err != nil {
		return ""
	}
	var tf tokenFile
	if json.Unmarshal(data, &tf) != nil {
		return ""
	}
	for _, h := range append(tf.Hubs, tf.Hub) {
		if slices.ContainsFunc(c.hubs, func(mine string) bool { return strings.TrimRight(mine, "/") == strings.TrimRight(h, "/") }) {
			return tf.Token
		}
	}
	return ""
}

// saveToken stores the token for its owner's eyes only: the folder 0700,
// the file 0600, written to a fresh temporary file (CreateTemp makes it
// 0600 whatever lies around) and renamed over the old one.
func (c *Client) saveToken(agentID, token string) error {
	if err := os.MkdirAll(c.cfg.ConfigDir, 0o700); err != nil {
		return err
	}
	c.ownerOnly()
	tf := tokenFile{Hub: c.hubs[0], AgentID: agentID, Token: token}
	if len(c.hubs) > 1 {
		tf.Hubs = c.hubs
	}
	data, _ := json.Marshal(tf)
	f, err := os.CreateTemp(c.cfg.ConfigDir, "agent-*.json.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o600)
	}
	if err == nil {
		err = os.Rename(tmp, c.tokenPath())
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}

// ownerOnly takes away others' access to the config folder and the token
// file, which an older agent, a copy or a permissive umask may have left
// readable: whoever reads the token can connect as this computer. On
// Windows, Chmod only sets the read-only flag: there the folder under the
// user's profile (%AppData%, the default) is private by its inherited ACL
// (the user, SYSTEM and Administrators), which is what owner-only means
// there.
func (c *Client) ownerOnly() {
	for path, mode := range map[string]os.FileMode{c.cfg.ConfigDir: 0o700, c.tokenPath(): 0o600} {
		info, err := os.Stat(path)
		if err != nil || info.Mode().Perm()&^mode == 0 {
			continue
		}
		if err := os.Chmod(path, info.Mode().Perm()&mode); err != nil {
			c.log.Warn("cannot make the agent's token private", "path", path, "err", err)
			continue
		}
		if _, err := os.Stat(c.tokenPath()); err != nil {
			// No token yet (a folder made for a first start): nothing was exposed.
			c.log.Info("made the agent's folder readable by its owner only", "path", path, "was", info.Mode().Perm().String())
			continue
		}
		c.log.Warn("others could read the agent's token: made it readable by its owner only", "path", path,
			"was", info.Mode().Perm().String())
	}
}

func (c *Client) setState(f func(*State)) {
	c.mu.Lock()
	f(&c.state)
	st := c.snapshotLocked()
	c.mu.Unlock()
	if c.cfg.OnState != nil {
		c.cfg.OnState(st)
	}
}

// State returns what the agent shows now.
func (c *Client) State() State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.snapshotLocked()
}

// snapshotLocked copies the state with its lists, so the caller's copy
// does not change under it.
func (c *Client) snapshotLocked() State {
	c.state.Runs = len(c.running)
	st := c.state
	st.Current = append([]RunProgress(nil), c.state.Current...)
	st.Recent = append([]RunProgress(nil), c.state.Recent...)
	return st
}

// SetPaused stops (true) or resumes taking new runs; the hub hears it at
// once when connected, else at the next connect. Runs in progress go on.
func (c *Client) SetPaused(paused bool) {
	c.setState(func(s *State) { s.Paused = paused })
	c.log.Info("taking new runs", "paused", paused)
	select {
	case c.prio <- outMsg{msg: protocol.Message{Type: protocol.MsgPause, Paused: paused}}:
	default:
	}
}

// errUnauthorized says the hub refused the token: pair again.
var errUnauthorized = errors.New("the hub refused this computer's token")

// errAlreadyConnected is the hub refusing this connection because another
// one with the same token is connected and answering
// (protocol.ErrAgentConnected): another copy of the agent, or someone who
// has its token. The agent keeps trying, more slowly: if the other
// connection is its own old one, dead, the hub lets it in.
var errAlreadyConnected = errors.New("the hub refused this connection: another connection with this computer's token is " +
	"connected (another copy of this agent, or someone who has its token); trying again")

// alreadyConnectedBackoff is the least backoff after errAlreadyConnected
// (capped by MaxBackoff); the wait is half of it to all of it.
const alreadyConnectedBackoff = 10 * time.Second

// Run keeps the agent connected until ctx ends. With several hubs it
// dials them in turn (hubs.go): the backoff is waited once per round of
// the list, and not at all when a hub that stops sends it away.
func (c *Client) Run(ctx context.Context) error {
	c.ownerOnly()
	c.sweepStaleFiles()
	backoff := c.cfg.MinBackoff
	tries := 0 // attempts since the last welcome
	for {
		i := c.hubAt()
		c.setState(func(s *State) { s.Phase = "connecting" })
		connected, err := c.session(ctx, i)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if refused := (*RefusedError)(nil); errors.As(err, &refused) {
			c.setState(func(s *State) { s.Phase, s.Err = "disconnected", err })
			return err
		}
		if errors.Is(err, errUnauthorized) {
			c.log.Warn("the hub no longer accepts this computer; pairing again")
			_ = os.Remove(c.tokenPath())
		}
		if connected {
			backoff, tries = c.cfg.MinBackoff, 0
		}
		tries++
		c.setState(func(s *State) { s.Phase, s.Err = "disconnected", err })
		next, wait := c.next(i, connected, err, tries)
		c.setHub(next)
		if !wait && !errors.Is(err, errAlreadyConnected) {
			c.log.Info("reconnecting at once", "to", c.hubs[next], "from", c.hubs[i], "err", err)
			if connected && graceful(err) {
				tries = 0 // a fresh start: the hub that sent it away is no failure
			}
			continue
		}
		// Full jitter keeps many agents from reconnecting in step.
		pause := time.Duration(rand.Int64N(int64(backoff))) + c.cfg.MinBackoff/2
		if errors.Is(err, errAlreadyConnected) {
			// Not a network blip: each try is shown to the computer's
			// owner, so try slowly (at least half the floor, jittered).
			c.log.Warn(err.Error())
			backoff = max(backoff, min(alreadyConnectedBackoff, c.cfg.MaxBackoff))
			pause = max(pause, backoff/2+time.Duration(rand.Int64N(int64(backoff/2)+1)))
		}
		c.log.Info("disconnected from the hub; reconnecting", "err", err, "in", pause.Round(time.Millisecond), "to", c.hubs[next])
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		backoff = min(backoff*2, c.cfg.MaxBackoff)
	}
}

func wsURL(hub string) (string, error) {
	u, err := url.Parse(hub)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("--hub %q is not a URL like http://127.0.0.1:8080", hub)
	}
	switch u.Scheme {
	case "http":
		u.Scheme = "ws"
	case "https":
		u.Scheme = "wss"
	default:
		return "", fmt.Errorf("--hub %q must start with http:// or https://", hub)
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/api/agent/connect"
	return u.String(), nil
}
