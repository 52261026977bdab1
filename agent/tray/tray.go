//go:build !headless

// Package tray is the desktop agent's system tray icon, made with Fyne: an
// icon per state (offline, connecting, waiting for approval, idle, running,
// paused) and a menu with the connection status, the pairing code and
// "Open pairing page" while pairing (the page also opens by itself the
// first time), the runs in progress (step k of n, opening the run page),
// recent runs, Pause/Resume, "Open web app", "Start at login", a newer
// agent when the hub serves one, and Quit. It shows the state of an
// agent/client.Client and acts on it; the agent runs the same without it.
//
// Fyne needs cgo and the main thread: Run must be called from the main
// goroutine. Builds with -tags headless leave this package out.
package tray

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/testautomation/ta/agent/client"
)

//go:embed icon.png
var iconPNG []byte

// Icon is the tray and application icon.
var Icon fyne.Resource = fyne.NewStaticResource("testautomation-agent.png", iconPNG)

// AppID is the Fyne application id (where Fyne keeps its preferences).
const AppID = "com.testautomation.agent"

// Config sets the tray up.
type Config struct {
	// Hub is the hub's address; "Open web app" opens <Hub>/.
	Hub string
	// State returns the agent's state now: client.Client.State.
	State func() client.State
	// Changed says the state may have changed; the tray then reads State.
	// Wire it with Changes: client.Config{OnState: changes.OnState}.
	Changed <-chan struct{}
	// Quit is called once the tray has closed: the user picked Quit, or
	// the app was stopped. It should cancel the agent's context.
	Quit func()
	// Logger gets problems such as a browser that would not open.
	Logger *slog.Logger
	// Pause stops (true) or resumes taking runs: client.Client.SetPaused.
	Pause func(bool)
	// Autostart turns starting at login on and off; nil hides the item.
	Autostart Autostart
	// OpenPairing opens the pairing page in the browser the first time the
	// agent waits for approval (a first start).
	OpenPairing bool
}

// Autostart is autostart.Entry.
type Autostart interface {
	Enabled() bool
	Set(on bool) error
}

// Changes carries state changes from a client to the tray. Its OnState
// never blocks the client, and changes that come faster than the tray
// redraws merge into one: the tray always reads the newest state.
type Changes chan struct{}

// NewChanges returns an empty Changes.
func NewChanges() Changes { return make(Changes, 1) }

// OnState fits client.Config.OnState.
func (c Changes) OnState(client.State) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// ErrNoTray says the tray cannot be shown: the platform has none, or the
// display cannot be opened.
var ErrNoTray = errors.New("cannot show a system tray")

// Run shows the tray icon until the user picks Quit or ctx ends, then
// calls cfg.Quit. It must be called from the main goroutine. When the tray
// cannot be shown it returns ErrNoTray at once, without calling cfg.Quit.
func Run(ctx context.Context, cfg Config) error {
	// The name is the tray item's title (its tooltip on most desktops).
	app.SetMetadata(fyne.AppMetadata{ID: AppID, Name: "Test automation agent", Icon: Icon})
	a := app.NewWithID(AppID)
	if _, ok := a.(desktop.App); !ok {
		return ErrNoTray
	}
	t, err := setUp(a, cfg)
	if err != nil {
		return err
	}
	done := make(chan struct{})
	go t.watch(ctx, done)
	a.Run()
	t.closed.Store(true)
	close(done)
	if cfg.Quit != nil {
		cfg.Quit()
	}
	return nil
}

// setUp installs the tray. GLFW panics when it cannot open the display
// (DISPLAY names a server that is not there): that is ErrNoTray too, and
// nothing has been started yet, so the agent can carry on headless.
func setUp(a fyne.App, cfg Config) (t *tray, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrNoTray, r)
		}
	}()
	return newTray(a, cfg), nil
}

// tray is the menu of a running Fyne app. Its fields other than closed
// belong to the Fyne main thread.
type tray struct {
	app   fyne.App
	cfg   Config
	log   *slog.Logger
	menu  *fyne.Menu
	items []Item // what menu shows
	icon  string // the state icon shown
	st    client.State
	// pairingOpened: the pairing page was opened once already.
	pairingOpened bool
	closed        atomic.Bool // the app has stopped: no more updates
}

// newTray builds the menu for the client's current state and, when the app
// has a system tray, installs it with the icon. Call it on the main thread.
func newTray(a fyne.App, cfg Config) *tray {
	t := &tray{app: a, cfg: cfg, log: cfg.Logger, menu: fyne.NewMenu("Test automation agent")}
	if t.log == nil {
		t.log = slog.Default()
	}
	var st client.State
	if cfg.State != nil {
		st = cfg.State()
	}
	t.set(st)
	if d, ok := a.(desktop.App); ok {
		d.SetSystemTrayMenu(t.menu)
		t.icon = IconState(st)
		d.SetSystemTrayIcon(StateIcon(t.icon))
	}
	t.openPairing()
	return t
}

// openPairing opens the approval page once, when the agent first waits
// for it and the tray was asked to.
func (t *tray) openPairing() {
	if t.cfg.OpenPairing && !t.pairingOpened && t.st.Phase == "pairing" && t.st.PairURL != "" {
		t.pairingOpened = true
		t.open(t.st.PairURL)
	}
}

// watch follows the client's state until ctx ends (then it stops the app)
// or the app has stopped (done).
func (t *tray) watch(ctx context.Context, done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		case <-ctx.Done():
			fyne.Do(t.quit)
			return
		case <-t.cfg.Changed:
			fyne.Do(t.refresh)
		}
	}
}

// refresh shows the client's state now; on the main thread.
func (t *tray) refresh() {
	if t.closed.Load() || t.cfg.State == nil {
		return
	}
	if t.set(t.cfg.State()) {
		t.menu.Refresh()
	}
	if d, ok := t.app.(desktop.App); ok {
		if name := IconState(t.st); name != t.icon {
			t.icon = name
			d.SetSystemTrayIcon(StateIcon(name))
		}
	}
	t.openPairing()
}

// set rebuilds the menu's items for st and reports whether they changed.
func (t *tray) set(st client.State) bool {
	t.st = st
	o := Options{Hub: t.cfg.Hub, Autostart: t.cfg.Autostart != nil}
	if o.Autostart {
		o.AtLogin = t.cfg.Autostart.Enabled()
	}
	items := MenuItems(st, o)
	if t.menu.Items != nil && equal(items, t.items) {
		return false
	}
	t.items = items
	t.menu.Items = t.menuItems(items)
	return true
}

func (t *tray) menuItems(items []Item) []*fyne.MenuItem {
	mi := make([]*fyne.MenuItem, 0, len(items))
	for _, it := range items {
		mi = append(mi, t.menuItem(it))
	}
	return mi
}

func (t *tray) menuItem(it Item) *fyne.MenuItem {
	if it.Action == ActionSeparator {
		return fyne.NewMenuItemSeparator()
	}
	m := fyne.NewMenuItem(it.Label, nil)
	m.Disabled = !it.Enabled
	m.Checked = it.Checked
	if len(it.Children) > 0 {
		m.ChildMenu = fyne.NewMenu(it.Label, t.menuItems(it.Children)...)
	}
	switch it.Action {
	case ActionOpen:
		link := it.URL
		m.Action = func() { t.open(link) }
	case ActionOpenWeb:
		hub := t.cfg.Hub
		if t.st.Hub != "" {
			hub = t.st.Hub // the hub connected to now (several hubs)
		}
		m.Action = func() { t.open(webURL(hub)) }
	case ActionPause, ActionResume:
		paused := it.Action == ActionPause
		m.Action = func() {
			if t.cfg.Pause != nil {
				t.cfg.Pause(paused) // the client's new state comes back through Changed
			}
		}
	case ActionAutostart:
		on := !it.Checked
		m.Action = func() {
			if err := t.cfg.Autostart.Set(on); err != nil {
				t.log.Warn("could not change starting at login", "on", on, "err", err)
			}
			t.refresh()
		}
	case ActionQuit:
		m.IsQuit = true
		m.Action = t.quit
	}
	return m
}

func (t *tray) open(link string) {
	u, err := url.Parse(link)
	if err == nil {
		err = t.app.OpenURL(u)
	}
	if err != nil {
		t.log.Warn("could not open the browser", "url", link, "err", err)
	}
}

// quit stops the app; Run then calls cfg.Quit.
func (t *tray) quit() {
	t.closed.Store(true)
	t.app.Quit()
}
