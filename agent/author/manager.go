package author

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/agent/runner"
	"github.com/testautomation/ta/protocol"
)

// Options configure New.
type Options struct {
	// BrowserPath is the Chromium or Google Chrome binary; "" finds one
	// (runner.FindBrowser).
	BrowserPath string
	// CanHead says a display is available: a session asking for a window
	// gets one only then.
	CanHead bool
	// DebugPort, when above 0, opens the authoring browser's DevTools on
	// 127.0.0.1:DebugPort, so that tests (or a developer) can drive its
	// pages with trusted input.
	DebugPort int
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// IdleClose is how long the browser stays up with no session; a minute
	// when 0.
	IdleClose time.Duration
}

// Manager runs authoring sessions in a browser of its own, started on the
// first session and closed when none is left for a while. It implements
// client.Author.
type Manager struct {
	opts Options
	log  *slog.Logger

	mu       sync.Mutex
	br       *browser
	sessions map[string]*session
	idle     *time.Timer
	tries    int // scripts running in fresh contexts: the browser stays up for them
	closed   bool
	views    casts // the live views (screencast.go)
}

var _ client.Author = (*Manager)(nil)

// New returns a Manager; no browser starts until a session needs one.
func New(opts Options) *Manager {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.IdleClose <= 0 {
		opts.IdleClose = time.Minute
	}
	return &Manager{opts: opts, log: opts.Logger, sessions: map[string]*session{}}
}

// browser is one running Chromium of the manager.
type browser struct {
	rod       *rod.Browser
	l         *launcher.Launcher
	dir       string
	headed    bool
	gone      chan struct{} // closed when the connection to it ends
	closeOnce sync.Once

	controlURL string          // its DevTools address, for runner.Attach (live.go)
	unguard    func()          // ends runner.GuardDevTools' hold on its port, once it has exited
	attachMu   sync.Mutex      // guards attached
	attached   *runner.Browser // the runner's connection for live sessions, made on first use
}

func (b *browser) close() {
	b.closeOnce.Do(func() {
		b.attachMu.Lock()
		if b.attached != nil {
			_ = b.attached.Close()
		}
		b.attachMu.Unlock()
		_ = b.rod.Close()
		done := make(chan struct{})
		go func() { b.l.Cleanup(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			b.l.Kill()
			<-done
		}
		b.unguard()
		_ = os.RemoveAll(b.dir)
	})
}

func (b *browser) alive() bool {
	select {
	case <-b.gone:
		return false
	default:
		return true
	}
}

// launch starts a browser: the runner's flags, site isolation off (see
// doc.go), a window when headed, DevTools on 127.0.0.1 when asked.
func (m *Manager) launch(headed bool) (*browser, error) {
	path, err := runner.FindBrowser(m.opts.BrowserPath)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "ta-author-")
	if err != nil {
		return nil, fmt.Errorf("creating the browser's profile folder: %w", err)
	}
	l := launcher.New().Bin(path).UserDataDir(dir).Leakless(true).
		NoSandbox(true).
		Set("disable-gpu").
		Set("disable-background-networking").
		Set("disable-component-update").
		Set("no-first-run").
		Set("disable-dev-shm-usage").
		Set("mute-audio").
		Set("window-size", "1280,800")
	l = runner.WithoutSiteIsolation(l)
	if m.opts.DebugPort > 0 {
		l = l.Set("remote-debugging-port", strconv.Itoa(m.opts.DebugPort)).Set("remote-debugging-address", "127.0.0.1")
	}
	if headed {
		l = l.Headless(false)
	} else {
		l = l.HeadlessNew(true)
	}
	u, err := l.Launch()
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	unguard := runner.GuardDevTools(u) // a run's request step never calls it
	rb := rod.New().ControlURL(u)
	if err := rb.Connect(); err != nil {
		l.Kill()
		unguard()
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("connecting to %s: %w", path, err)
	}
	b := &browser{rod: rb, l: l, dir: dir, headed: headed, gone: make(chan struct{}), controlURL: u, unguard: unguard}
	go func() {
		// The event stream ends when the browser connection does.
		for range rb.Event() {
		}
		close(b.gone)
	}()
	m.log.Info("authoring browser started", "path", path, "headed", headed, "debugPort", m.opts.DebugPort)
	return b, nil
}

// browserFor returns the running browser, starting one when there is none
// (or the one there is died). A browser of the other kind (headed or not)
// is replaced when no session uses it, else shared.
func (m *Manager) browserFor(headed bool) (*browser, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, errors.New("the agent is shutting down")
	}
	if m.idle != nil {
		m.idle.Stop()
		m.idle = nil
	}
	if m.br != nil && (!m.br.alive() || (m.br.headed != headed && len(m.sessions) == 0 && m.tries == 0)) {
		// Closed before the next starts: they would share the debugging port.
		m.br.close()
		m.br = nil
	}
	if m.br == nil {
		b, err := m.launch(headed)
		if err != nil {
			return nil, err
		}
		m.br = b
	}
	return m.br, nil
}

// anyBrowser is the running browser, or a new headless one (trying a
// script in a fresh context shows no window).
// The caller calls idleCheck when done with it.
func (m *Manager) anyBrowser() (*browser, error) {
	m.mu.Lock()
	m.tries++
	b := m.br
	if b != nil && b.alive() {
		if m.idle != nil {
			m.idle.Stop()
			m.idle = nil
		}
		m.mu.Unlock()
		return b, nil
	}
	m.mu.Unlock()
	b, err := m.browserFor(false)
	if err != nil {
		m.idleCheck()
	}
	return b, err
}

// idleCheck ends a script's use of the browser and arms the idle timer
// when nothing uses it.
func (m *Manager) idleCheck() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tries--
	if len(m.sessions) == 0 && m.tries == 0 && m.br != nil && m.idle == nil && !m.closed {
		m.idle = time.AfterFunc(m.opts.IdleClose, m.closeIdle)
	}
}

// Start implements client.Author.
func (m *Manager) Start(ctx context.Context, id string, s protocol.AuthorStart, out client.AuthorSink) error {
	switch s.Kind {
	case protocol.AuthorRecord, protocol.AuthorPick:
	case protocol.AuthorLive:
		return m.startLive(id, s, out)
	default:
		return fmt.Errorf("unknown session kind %q: record, pick or live", s.Kind)
	}
	mode := s.Mode
	if s.Kind == protocol.AuthorPick {
		if mode == "" {
			mode = protocol.ModePick
		}
		if err := checkMode(mode); err != nil {
			return err
		}
	}
	m.mu.Lock()
	if _, dup := m.sessions[id]; dup {
		m.mu.Unlock()
		return fmt.Errorf("session %s is already open", id)
	}
	var host *session
	if s.Kind == protocol.AuthorPick && s.Recording != "" {
		host = m.sessions[s.Recording]
		if host == nil || (host.kind != protocol.AuthorRecord && host.kind != protocol.AuthorLive) {
			m.mu.Unlock()
			return fmt.Errorf("recording %s is not open on this agent", s.Recording)
		}
	}
	m.mu.Unlock()

	if host != nil {
		host.mu.Lock()
		pg := host.pg
		host.mu.Unlock()
		if pg == nil {
			return fmt.Errorf("recording %s has no page open yet: try again in a moment", s.Recording)
		}
		ss := &session{m: m, id: id, kind: s.Kind, sink: out, mode: mode, pg: pg, done: make(chan struct{})}
		m.mu.Lock()
		m.sessions[id] = ss
		m.mu.Unlock()
		out.Status(id, protocol.SessionStarting, "", "")
		pg.attachPicker(ss)
		out.Status(id, protocol.SessionReady, pg.url(), "")
		return nil
	}

	if s.URL == "" {
		return errors.New("no start URL")
	}
	if why := protocol.CheckOpenURL(s.URL); why != "" {
		return fmt.Errorf("opening %s refused: %s", s.URL, why)
	}
	headed := s.Headed && m.opts.CanHead
	out.Status(id, protocol.SessionStarting, s.URL, "")
	// Known before the browser starts (seconds, the first time), so a stop
	// or close arriving meanwhile finds it and it never opens.
	ss := &session{m: m, id: id, kind: s.Kind, sink: out, mode: mode, done: make(chan struct{})}
	if s.Kind == protocol.AuthorRecord {
		ss.mode = "record"
	}
	m.mu.Lock()
	m.sessions[id] = ss
	m.mu.Unlock()
	b, err := m.browserFor(headed)
	if err != nil {
		ss.end(protocol.SessionError, err.Error())
		return nil
	}
	ss.mu.Lock()
	ended := ss.ended
	ss.mu.Unlock()
	if ended {
		return nil // stopped while the browser started
	}
	go ss.open(b, s.URL)
	return nil
}

func checkMode(mode string) error {
	switch mode {
	case protocol.ModePick, protocol.ModeInspect, protocol.ModeOff:
		return nil
	}
	return fmt.Errorf("unknown picker mode %q: pick, inspect or off", mode)
}

func (m *Manager) session(id string) (*session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[id]
	if s == nil {
		return nil, fmt.Errorf("no session %s on this agent", id)
	}
	return s, nil
}

// forget drops an ended session and arms the idle timer when none is left.
func (m *Manager) forget(s *session) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sessions[s.id] == s {
		delete(m.sessions, s.id)
	}
	if len(m.sessions) == 0 && m.tries == 0 && m.br != nil && m.idle == nil && !m.closed {
		m.idle = time.AfterFunc(m.opts.IdleClose, m.closeIdle)
	}
}

func (m *Manager) closeIdle() {
	m.mu.Lock()
	b := m.br
	if len(m.sessions) > 0 || m.tries > 0 || b == nil {
		m.mu.Unlock()
		return
	}
	m.br, m.idle = nil, nil
	m.mu.Unlock()
	m.log.Info("authoring browser closed: no session left")
	b.close()
}

// Mode implements client.Author.
func (m *Manager) Mode(id, mode string) error {
	if err := checkMode(mode); err != nil {
		return err
	}
	s, err := m.session(id)
	if err != nil {
		return err
	}
	if s.kind != protocol.AuthorPick {
		return fmt.Errorf("session %s is a recording: only a picker has modes", id)
	}
	s.setMode(mode)
	return nil
}

// Preview implements client.Author.
func (m *Manager) Preview(ctx context.Context, id string) ([]byte, error) {
	s, err := m.session(id)
	if err != nil {
		return nil, err
	}
	p := s.page()
	if p == nil {
		return nil, errors.New("the session's page is not open yet")
	}
	shot, err := proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng}.Call(p.Context(ctx))
	if err != nil {
		return nil, fmt.Errorf("taking the preview: %w", err)
	}
	return shot.Data, nil
}

// Stop implements client.Author.
func (m *Manager) Stop(id string) error {
	s, err := m.session(id)
	if err != nil {
		return err
	}
	s.stop()
	return nil
}

// CloseAll implements client.Author: every session ends silently and the
// browser closes.
func (m *Manager) CloseAll() {
	m.mu.Lock()
	all := make([]*session, 0, len(m.sessions))
	for _, s := range m.sessions {
		all = append(all, s)
	}
	m.mu.Unlock()
	for _, s := range all {
		s.end("", "")
	}
	m.mu.Lock()
	b := m.br
	m.br = nil
	if m.idle != nil {
		m.idle.Stop()
		m.idle = nil
	}
	m.mu.Unlock()
	if b != nil {
		b.close()
	}
}

// Close ends every session and the browser for good (the agent exits).
func (m *Manager) Close() {
	m.CloseAll()
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
}
