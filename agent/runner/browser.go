package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
)

// Options configure Launch.
type Options struct {
	// BrowserPath is the Chromium or Google Chrome binary; "" finds one
	// (see FindBrowser).
	BrowserPath string
	// Logger receives the runner's own diagnostics; nil discards them.
	Logger *slog.Logger
	// CanHead says a display is available for headed runs (DISPLAY or
	// WAYLAND_DISPLAY is set). Without it a headed job runs headless and
	// its run gets a warning log event.
	CanHead bool
	// HeadlessShell is the headless shell headless runs use (see
	// frames.go): "" finds one (FindHeadlessShell), "off" uses BrowserPath.
	HeadlessShell string
	// MaxRunTime bounds a whole run; 0 derives the bound from the steps'
	// timeouts (their sum plus a minute).
	MaxRunTime time.Duration
}

// DisplayAvailable reports whether a visible browser can open here: always
// on macOS and Windows, and elsewhere when DISPLAY or WAYLAND_DISPLAY is
// set. The agent passes it as Options.CanHead.
func DisplayAvailable() bool {
	switch runtime.GOOS {
	case "darwin", "windows":
		return true
	}
	return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != ""
}

// browserNames are looked up on PATH, in order.
var browserNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// browserPaths are tried after PATH.
func browserPaths() []string {
	switch runtime.GOOS {
	case "darwin":
		return []string{"/Applications/Chromium.app/Contents/MacOS/Chromium",
			"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"}
	case "windows":
		return []string{`C:\Program Files\Google\Chrome\Application\chrome.exe`,
			`C:\Program Files (x86)\Google\Chrome\Application\chrome.exe`}
	}
	return []string{"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"}
}

// FindBrowser returns the browser binary to run: path itself when given (a
// file or a name on PATH), else the first of chromium, chromium-browser,
// google-chrome and google-chrome-stable on PATH, else a well-known
// install location such as /usr/bin/chromium.
func FindBrowser(path string) (string, error) {
	if path != "" {
		if p, err := exec.LookPath(path); err == nil {
			return p, nil
		}
		return "", fmt.Errorf("browser %q not found or not executable: install Chromium (apt-get install chromium) or pass the path of Chromium or Google Chrome with --browser", path)
	}
	for _, name := range browserNames {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	for _, p := range browserPaths() {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", errors.New("no Chromium or Google Chrome found: install one (apt-get install chromium) or pass --browser")
}

// Browser is one running Chromium shared by runs.
type Browser struct {
	opts    Options
	log     *slog.Logger
	path    string     // the binary
	frames  bool       // pages render on the runner's demand (frames.go)
	frameMu sync.Mutex // orders the frames of all pages (frames.go)
	// dropImages (tests) makes the frames come without an image, as they
	// now and then do: screenshots are then taken the browser's way.
	dropImages atomic.Bool
	// starveFrames (tests) keeps every frame from the pages, as when a
	// page stops drawing (errStalled).
	starveFrames atomic.Bool
	url          string // the DevTools WebSocket address
	dataDir      string // --user-data-dir, removed on Close
	l            *launcher.Launcher
	unguard      func()   // ends GuardDevTools' hold on its port, once the process is gone
	root         session  // the browser-level session
	tabs         sync.Map // session id -> *tab: every tab open, for observe (guard.go)

	bg     context.Context // ends on Close or when the browser is gone
	stopBg context.CancelFunc
	spare  chan *tab      // a prepared context and page; nil for a headed run's browser
	wg     sync.WaitGroup // keepSpare and the disposals release starts
	gone   chan struct{}  // closed when the connection to the browser ends

	mu        sync.Mutex      // guards the fields below
	watched   map[string]*tab // by session id: pages of runs in progress
	closed    bool
	closeErr  error
	closeOnce sync.Once
}

// Launch starts a warm headless Chromium with a fresh temporary profile
// (removed by Close) and starts preparing a spare context for the first
// run. ctx bounds the start only.
func Launch(ctx context.Context, opts Options) (*Browser, error) {
	return launch(ctx, opts, false)
}

func launch(ctx context.Context, opts Options, headed bool) (*Browser, error) {
	path, err := FindBrowser(opts.BrowserPath)
	if err != nil {
		return nil, err
	}
	frames := false
	if !headed {
		shell, err := FindHeadlessShell(opts.HeadlessShell)
		if err != nil {
			return nil, err
		}
		if shell != "" {
			path, frames = shell, true
		}
	}
	dir, err := os.MkdirTemp("", "ta-chromium-")
	if err != nil {
		return nil, fmt.Errorf("creating the browser's profile folder: %w", err)
	}
	l := launcher.New().Context(ctx).Bin(path).UserDataDir(dir).
		NoSandbox(true).
		Set("disable-gpu").
		Set("disable-background-networking").
		Set("disable-component-update").
		Set("no-first-run").
		Set("disable-dev-shm-usage").
		Set("hide-scrollbars").
		Set("mute-audio").
		Set("window-size", "1280,800")
	// Site isolation off: every frame, cross-origin ones too, lives in the
	// page's renderer, as in the authoring browser, so that frame paths
	// recorded there replay here (see agent/author's doc.go).
	l = WithoutSiteIsolation(l)
	switch {
	case headed:
		l = l.Headless(false)
	case frames: // the headless shell is headless by itself
		l = l.Set("enable-begin-frame-control").Set("run-all-compositor-stages-before-draw").
			Set("disable-threaded-scrolling")
	default:
		l = l.HeadlessNew(true).Set("disable-frame-rate-limit").Set("disable-gpu-vsync")
	}
	u, err := l.Launch()
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	unguard := GuardDevTools(u) // request steps never call it (steps_request.go)
	ws := &cdp.WebSocket{}
	if err := ws.Connect(ctx, u, nil); err != nil {
		l.Kill()
		unguard()
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("connecting to %s: %w", path, err)
	}
	w := newWire(ws)
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	b := &Browser{opts: opts, log: log, path: path, frames: frames, url: u, dataDir: dir, l: l, unguard: unguard,
		gone: make(chan struct{}), watched: map[string]*tab{}}
	w.observe = b.observe // before the client starts reading
	b.root = session{c: cdp.New().Start(w), w: w}
	c := b.root.c
	b.bg, b.stopBg = context.WithCancel(context.Background())
	go b.events(c.Event())
	// Pages a run's page opens (window.open, target=_blank) are attached to
	// as the browser creates them, and held until tabs.go has prepared them.
	if err := holdNewPages.Call(b.root.with(ctx)); err != nil {
		b.Close()
		return nil, fmt.Errorf("watching for new tabs in %s: %w", path, err)
	}
	if !headed {
		b.spare = make(chan *tab, 1)
		b.wg.Add(1)
		go b.keepSpare()
	}
	log.Debug("browser started", "path", path, "headed", headed, "frame control", frames)
	return b, nil
}

// WithoutSiteIsolation turns site isolation off in the browser l launches:
// cross-origin iframes then share their page's renderer and one CDP session
// on the page reaches every frame.
func WithoutSiteIsolation(l *launcher.Launcher) *launcher.Launcher {
	return l.Set("disable-site-isolation-trials").Set("disable-features", "IsolateOrigins,site-per-process")
}

// Path returns the browser binary in use.
func (b *Browser) Path() string { return b.path }

// Close ends the browser and removes its profile folder. Runs still going
// end with status error.
func (b *Browser) Close() error {
	b.closeOnce.Do(func() {
		if b.l == nil {
			b.closeAttached()
			return
		}
		b.mu.Lock()
		b.closed = true
		b.mu.Unlock()
		b.stopBg()
		b.wg.Wait()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = proto.BrowserClose{}.Call(b.root.with(ctx))
		exited := make(chan struct{})
		go func() { b.l.Cleanup(); close(exited) }() // waits for the process, removes dataDir
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			b.l.Kill()
			<-exited
		}
		b.unguard()
		if err := removeProfile(b.dataDir); err != nil {
			b.closeErr = fmt.Errorf("removing the browser profile: %w", err)
		}
	})
	return b.closeErr
}

// removeProfile removes the browser's profile folder. Helper processes of a
// browser that died may still write to it for a moment after the browser
// is gone, so it checks again shortly after.
func removeProfile(dir string) error {
	var err error
	for range 10 {
		if err = os.RemoveAll(dir); err == nil {
			time.Sleep(100 * time.Millisecond)
			if _, serr := os.Stat(dir); os.IsNotExist(serr) {
				return nil
			}
		}
	}
	if err == nil {
		err = errors.New("it keeps being recreated")
	}
	return err
}

// alive reports whether the browser can still take runs.
func (b *Browser) alive() error {
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return errors.New("the browser is closed")
	}
	select {
	case <-b.gone:
		return errBrowserGone
	default:
		return nil
	}
}

// Version is the browser's product and version as the agent reports it
// to the hub ("Chrome/131.0.6778.85"), "" when the browser does not say.
// The headless shell calls itself HeadlessChrome: it is the same build.
func (b *Browser) Version(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	v, err := proto.BrowserGetVersion{}.Call(b.root.with(ctx))
	if err != nil {
		b.log.Warn("browser version", "err", err)
		return ""
	}
	return strings.TrimPrefix(v.Product, "Headless")
}
