//go:build !headless

package tray

import (
	"bytes"
	"context"
	"errors"
	"image/color"
	"image/png"
	"net/url"
	"slices"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/protocol"
)

const hub = "http://127.0.0.1:8080"

func labels(items []Item) []string {
	var out []string
	for _, it := range items {
		if it.Action == ActionSeparator {
			out = append(out, "---")
		} else {
			out = append(out, it.Label)
		}
	}
	return out
}

func TestMenuItems(t *testing.T) {
	long := errors.New(`failed to WebSocket dial: failed to send handshake request: Get "http://127.0.0.1:9/api/agent/connect": dial tcp 127.0.0.1:9: connect: connection refused`)
	tail := []string{"---", "Pause taking runs", "Open web app", "---", "Quit"}
	with := func(head ...string) []string { return append(head, tail...) }
	cases := []struct {
		name string
		st   client.State
		want []string
	}{
		{"starting", client.State{}, with("Starting…", "Idle")},
		{"connecting", client.State{Phase: "connecting"}, with("Connecting…", "Idle")},
		{"pairing", client.State{Phase: "pairing", Code: "K7Q-4MP", PairURL: hub + "/pair/K7Q-4MP"},
			with("Waiting for approval: code K7Q-4MP", "Open pairing page…", "Idle")},
		{"connected", client.State{Phase: "connected", Name: "laptop", AgentID: "agt_1"}, with("Connected to 127.0.0.1:8080 as laptop", "Idle")},
		{"runs without detail", client.State{Phase: "disconnected", Err: errors.New("EOF"), Runs: 3}, with("Offline: EOF", "Running 3 tests")},
		{"long error", client.State{Phase: "disconnected", Err: long}, with("Offline: …"+long.Error()[len(long.Error())-maxErr+1:], "Idle")},
		// The pairing code stays in the state after pairing ends; only the
		// pairing phase offers to approve.
		{"code left over", client.State{Phase: "connecting", Code: "K7Q-4MP", PairURL: hub + "/pair/K7Q-4MP"}, with("Connecting…", "Idle")},
		{"running", client.State{Phase: "connected", Name: "laptop", Runs: 2, Current: []client.RunProgress{
			{RunID: "run_1", Test: "Checkout", Done: 2, Total: 5}, {RunID: "run_2", Test: "Logins", Rows: true, Done: 3, Total: 10}, {RunID: "run_3", Test: "New"}}},
			with("Connected to 127.0.0.1:8080 as laptop", "Checkout: step 2 of 5", "Logins: row 3 of 10", "New: starting")},
		{"paused", client.State{Phase: "connected", Paused: true},
			[]string{"Connected to 127.0.0.1:8080", "Paused: taking no runs", "---", "Resume taking runs", "Open web app", "---", "Quit"}},
		{"recent and update", client.State{Phase: "connected", Recent: []client.RunProgress{{RunID: "run_9", Test: "Checkout", Status: "failed"}},
			Update: &protocol.AgentUpdate{Version: "0.2.0", URL: hub + "/agents"}},
			[]string{"Connected to 127.0.0.1:8080", "Idle", "Recent runs", "---", "Pause taking runs", "Open web app", "Update available: version 0.2.0…", "---", "Quit"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			items := MenuItems(c.st, Options{Hub: hub})
			if got := labels(items); !slices.Equal(got, c.want) {
				t.Fatalf("labels\n got %q\nwant %q", got, c.want)
			}
			for _, it := range items {
				if want := it.Action != ActionNone && it.Action != ActionSeparator || len(it.Children) > 0; it.Enabled != want {
					t.Errorf("%q enabled = %v, want %v", it.Label, it.Enabled, want)
				}
			}
		})
	}
	// Runs open their pages; the recent ones are a submenu with their outcome.
	items := MenuItems(client.State{Phase: "connected", Current: []client.RunProgress{{RunID: "run_1", Test: "Checkout"}},
		Recent: []client.RunProgress{{RunID: "run_8", Test: "A", Status: "passed"}, {RunID: "run_9", Test: "B", Status: "error"}}},
		Options{Hub: hub + "/", Autostart: true, AtLogin: true})
	if it := items[1]; it.Action != ActionOpen || it.URL != hub+"/runs/run_1" {
		t.Errorf("current run item %+v", it)
	}
	recent := items[2]
	if got := labels(recent.Children); !slices.Equal(got, []string{"✓ A", "! B"}) || recent.Children[1].URL != hub+"/runs/run_9" {
		t.Errorf("recent runs %+v", recent.Children)
	}
	var login Item
	for _, it := range items {
		if it.Action == ActionAutostart {
			login = it
		}
	}
	if login.Label != "Start at login" || !login.Checked {
		t.Errorf("start at login %+v", login)
	}
}

func TestIconState(t *testing.T) {
	for want, st := range map[string]client.State{
		IconOffline:    {Phase: "disconnected"},
		IconConnecting: {Phase: "connecting"},
		IconPairing:    {Phase: "pairing", Code: "K7Q-4MP"},
		IconIdle:       {Phase: "connected"},
		IconRunning:    {Phase: "connected", Runs: 1, Paused: true},
		IconPaused:     {Phase: "connected", Paused: true},
	} {
		if got := IconState(st); got != want {
			t.Errorf("%+v: icon %s, want %s", st, got, want)
		}
		r := StateIcon(want)
		img, err := png.Decode(bytes.NewReader(r.Content()))
		if err != nil || r == Icon {
			t.Fatalf("%s icon: %v", want, err)
		}
		// The badge's colour is in the lower right corner.
		b := img.Bounds()
		c := color.NRGBAModel.Convert(img.At(b.Max.X-b.Dx()/5, b.Max.Y-b.Dy()/5)).(color.NRGBA)
		if c != badgeColors[want] {
			t.Errorf("%s icon: corner %v, want %v", want, c, badgeColors[want])
		}
	}
	if StateIcon("nonsense") != Icon {
		t.Error("an unknown state has a badge")
	}
}

func TestHubLabel(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:8080":    "127.0.0.1:8080",
		"https://ta.example.com/":  "ta.example.com",
		"https://example.com/ta/":  "example.com/ta",
		"127.0.0.1:8080":           "127.0.0.1:8080",
		"http://":                  "http://",
		"https://ta.example.com//": "ta.example.com",
	} {
		if got := hubLabel(in); got != want {
			t.Errorf("hubLabel(%q) = %q, want %q", in, got, want)
		}
	}
	if got := webURL("https://ta.example.com/"); got != "https://ta.example.com/" {
		t.Errorf("webURL = %q", got)
	}
	if got := webURL(hub); got != hub+"/" {
		t.Errorf("webURL = %q", got)
	}
}

// deskApp is Fyne's test app with the system tray of desktop.App, which
// the test app lacks; it records what the tray does with it.
type deskApp struct {
	fyne.App
	menu   *fyne.Menu
	icon   fyne.Resource
	opened []string
	quits  int
}

func (a *deskApp) SetSystemTrayMenu(m *fyne.Menu)    { a.menu = m }
func (a *deskApp) SetSystemTrayIcon(r fyne.Resource) { a.icon = r }
func (a *deskApp) SetSystemTrayWindow(w fyne.Window) {}
func (a *deskApp) OpenURL(u *url.URL) error          { a.opened = append(a.opened, u.String()); return nil }
func (a *deskApp) Quit()                             { a.quits++ }
func (a *deskApp) menuLabels() (out []string)        { return menuLabels(a.menu) }
func (a *deskApp) item(label string) *fyne.MenuItem  { return menuItem(a.menu, label) }
func menuItem(m *fyne.Menu, label string) *fyne.MenuItem {
	for _, it := range m.Items {
		if it.Label == label {
			return it
		}
	}
	return nil
}

func menuLabels(m *fyne.Menu) (out []string) {
	for _, it := range m.Items {
		if it.IsSeparator {
			out = append(out, "---")
		} else {
			out = append(out, it.Label)
		}
	}
	return out
}

// state is a client's state as the tray reads it.
type state struct {
	mu sync.Mutex
	st client.State
}

func (s *state) get() client.State { s.mu.Lock(); defer s.mu.Unlock(); return s.st }
func (s *state) set(st client.State) {
	s.mu.Lock()
	s.st = st
	s.mu.Unlock()
}

// watchOnce lets the tray's watcher take one change, then stops it.
func watchOnce(ctx context.Context, tr *tray, changed chan struct{}) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { tr.watch(ctx, done) })
	changed <- struct{}{} // unbuffered: the watcher has it
	close(done)
	wg.Wait() // the watcher has shown the change and stopped
}

func TestTrayMenuFollowsState(t *testing.T) {
	a := &deskApp{App: test.NewApp()}
	defer test.NewApp()
	var cl state
	cl.set(client.State{Phase: "connecting"})
	changed := make(chan struct{})
	var quit int
	var paused []bool
	login := &fakeAutostart{}
	tr := newTray(a, Config{Hub: hub, State: cl.get, Changed: changed, Quit: func() { quit++ }, OpenPairing: true,
		Pause: func(p bool) { paused = append(paused, p) }, Autostart: login})

	if a.menu == nil || a.icon != StateIcon(IconConnecting) {
		t.Fatalf("tray menu %v, icon %v: not installed", a.menu, a.icon)
	}
	want := []string{"Connecting…", "Idle", "---", "Pause taking runs", "Open web app", "Start at login", "---", "Quit"}
	if got := a.menuLabels(); !slices.Equal(got, want) {
		t.Fatalf("menu %q, want %q", got, want)
	}
	if it := a.item("Connecting…"); !it.Disabled {
		t.Error("the status line is enabled")
	}
	if it := a.item("Quit"); !it.IsQuit || it.Disabled {
		t.Errorf("Quit: IsQuit %v, disabled %v", it.IsQuit, it.Disabled)
	}

	// Pairing: the code, the approval page opens by itself once, and an
	// item opens it again.
	pairURL := hub + "/pair/K7Q-4MP"
	cl.set(client.State{Phase: "pairing", Code: "K7Q-4MP", PairURL: pairURL})
	watchOnce(t.Context(), tr, changed)
	want = []string{"Waiting for approval: code K7Q-4MP", "Open pairing page…", "Idle", "---", "Pause taking runs", "Open web app", "Start at login", "---", "Quit"}
	if got := a.menuLabels(); !slices.Equal(got, want) || a.icon != StateIcon(IconPairing) {
		t.Fatalf("menu %q, want %q", got, want)
	}
	watchOnce(t.Context(), tr, changed) // still pairing: not opened again
	a.item("Open pairing page…").Action()
	a.item("Open web app").Action()
	if want := []string{pairURL, pairURL, hub + "/"}; !slices.Equal(a.opened, want) {
		t.Errorf("opened %q, want %q", a.opened, want)
	}

	// Start at login toggles.
	a.item("Start at login").Action()
	if !login.on || !a.item("Start at login").Checked {
		t.Error("start at login did not turn on")
	}
	a.item("Start at login").Action()
	if login.on || a.item("Start at login").Checked {
		t.Error("start at login did not turn off")
	}

	// Connected and running: the same menu, with new labels and icon; the
	// run opens its page.
	menu := a.menu
	cl.set(client.State{Phase: "connected", Name: "laptop", Runs: 1, Current: []client.RunProgress{{RunID: "run_1", Test: "Checkout", Done: 1, Total: 4}}})
	watchOnce(t.Context(), tr, changed)
	want = []string{"Connected to 127.0.0.1:8080 as laptop", "Checkout: step 1 of 4", "---", "Pause taking runs", "Open web app", "Start at login", "---", "Quit"}
	if got := a.menuLabels(); !slices.Equal(got, want) || a.menu != menu || a.icon != StateIcon(IconRunning) {
		t.Fatalf("menu %q (same menu: %v), want %q", got, a.menu == menu, want)
	}
	a.item("Checkout: step 1 of 4").Action()
	if last := a.opened[len(a.opened)-1]; last != hub+"/runs/run_1" {
		t.Errorf("the run opened %q", last)
	}
	a.item("Pause taking runs").Action()
	cl.set(client.State{Phase: "connected", Name: "laptop", Paused: true})
	watchOnce(t.Context(), tr, changed)
	a.item("Resume taking runs").Action()
	if !slices.Equal(paused, []bool{true, false}) || a.icon != StateIcon(IconPaused) {
		t.Errorf("pause calls %v, icon paused: %v", paused, a.icon == StateIcon(IconPaused))
	}

	// An unchanged state leaves the items alone.
	before := slices.Clone(a.menu.Items)
	watchOnce(t.Context(), tr, changed)
	if !slices.Equal(before, a.menu.Items) {
		t.Error("an unchanged state rebuilt the menu")
	}

	// Quit in the menu stops the app.
	a.item("Quit").Action()
	if a.quits != 1 {
		t.Errorf("Quit: app stopped %d times, want 1", a.quits)
	}

	// The agent's context ending stops the app too.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	tr.watch(ctx, make(chan struct{})) // returns once it has stopped the app
	if a.quits != 2 {
		t.Errorf("context ended: app stopped %d times, want 2", a.quits)
	}
	if quit != 0 {
		t.Error("cfg.Quit called before Run returned")
	}
}

// The plain test app has no system tray: the tray still builds its menu.
func TestTrayWithoutSystemTray(t *testing.T) {
	a := test.NewApp()
	tr := newTray(a, Config{Hub: hub})
	if got := menuLabels(tr.menu); len(got) == 0 || got[0] != "Starting…" {
		t.Fatalf("menu %q", got)
	}
	tr.refresh() // no State getter: nothing to do
}

type fakeAutostart struct{ on bool }

func (f *fakeAutostart) Enabled() bool     { return f.on }
func (f *fakeAutostart) Set(on bool) error { f.on = on; return nil }

func TestChanges(t *testing.T) {
	c := NewChanges()
	for range 5 { // never blocks; changes merge
		c.OnState(client.State{})
	}
	<-c
	select {
	case <-c:
		t.Fatal("changes did not merge")
	default:
	}
}

// Issue 32: an agent with several hubs shows the one it is connected to
// now, and its run pages open there.
func TestMenuShowsTheHubConnectedTo(t *testing.T) {
	st := client.State{Phase: "connected", Name: "laptop", Hub: "http://hub-2.test:8080",
		Current: []client.RunProgress{{RunID: "run_1", Test: "Checkout", Done: 1, Total: 3}}}
	items := MenuItems(st, Options{Hub: hub})
	if items[0].Label != "Connected to hub-2.test:8080 as laptop" {
		t.Errorf("status line %q", items[0].Label)
	}
	if items[1].URL != "http://hub-2.test:8080/runs/run_1" {
		t.Errorf("run page %q", items[1].URL)
	}
}
