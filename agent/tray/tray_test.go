//go:build !headless

package tray

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/testautomation/ta/agent/client"
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
	cases := []struct {
		name string
		st   client.State
		want []string
	}{
		{"starting", client.State{}, []string{"Starting…", "Idle", "---", "Open web app", "---", "Quit"}},
		{"connecting", client.State{Phase: "connecting"}, []string{"Connecting…", "Idle", "---", "Open web app", "---", "Quit"}},
		{"pairing", client.State{Phase: "pairing", Code: "K7Q-4MP", PairURL: hub + "/pair/K7Q-4MP"},
			[]string{"Pairing: enter code K7Q-4MP", "Approve this computer…", "Idle", "---", "Open web app", "---", "Quit"}},
		{"connected", client.State{Phase: "connected", Name: "laptop", AgentID: "agt_1"},
			[]string{"Connected to 127.0.0.1:8080 as laptop", "Idle", "---", "Open web app", "---", "Quit"}},
		{"one run", client.State{Phase: "connected", Name: "laptop", Runs: 1},
			[]string{"Connected to 127.0.0.1:8080 as laptop", "Running 1 test", "---", "Open web app", "---", "Quit"}},
		{"runs while disconnected", client.State{Phase: "disconnected", Err: errors.New("EOF"), Runs: 3},
			[]string{"Disconnected: EOF", "Running 3 tests", "---", "Open web app", "---", "Quit"}},
		{"long error", client.State{Phase: "disconnected", Err: long},
			[]string{"Disconnected: …" + long.Error()[len(long.Error())-maxErr+1:], "Idle", "---", "Open web app", "---", "Quit"}},
		// The pairing code stays in the state after pairing ends; only the
		// pairing phase offers to approve.
		{"code left over", client.State{Phase: "connecting", Code: "K7Q-4MP", PairURL: hub + "/pair/K7Q-4MP"},
			[]string{"Connecting…", "Idle", "---", "Open web app", "---", "Quit"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			items := MenuItems(c.st, hub)
			if got := labels(items); !slices.Equal(got, c.want) {
				t.Fatalf("labels\n got %q\nwant %q", got, c.want)
			}
			for _, it := range items {
				if want := it.Action != ActionNone && it.Action != ActionSeparator; it.Enabled != want {
					t.Errorf("%q enabled = %v, want %v", it.Label, it.Enabled, want)
				}
			}
		})
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
	tr := newTray(a, Config{Hub: hub, State: cl.get, Changed: changed, Quit: func() { quit++ }})

	if a.menu == nil || a.icon != Icon {
		t.Fatalf("tray menu %v, icon %v: not installed", a.menu, a.icon)
	}
	want := []string{"Connecting…", "Idle", "---", "Open web app", "---", "Quit"}
	if got := a.menuLabels(); !slices.Equal(got, want) {
		t.Fatalf("menu %q, want %q", got, want)
	}
	if it := a.item("Connecting…"); !it.Disabled {
		t.Error("the status line is enabled")
	}
	if it := a.item("Quit"); !it.IsQuit || it.Disabled {
		t.Errorf("Quit: IsQuit %v, disabled %v", it.IsQuit, it.Disabled)
	}

	// Pairing: the code, and an item that opens the approval page.
	pairURL := hub + "/pair/K7Q-4MP"
	cl.set(client.State{Phase: "pairing", Code: "K7Q-4MP", PairURL: pairURL})
	watchOnce(t.Context(), tr, changed)
	want = []string{"Pairing: enter code K7Q-4MP", "Approve this computer…", "Idle", "---", "Open web app", "---", "Quit"}
	if got := a.menuLabels(); !slices.Equal(got, want) {
		t.Fatalf("menu %q, want %q", got, want)
	}
	a.item("Approve this computer…").Action()
	a.item("Open web app").Action()
	if want := []string{pairURL, hub + "/"}; !slices.Equal(a.opened, want) {
		t.Errorf("opened %q, want %q", a.opened, want)
	}

	// Connected and running: the same menu, with new labels.
	menu := a.menu
	cl.set(client.State{Phase: "connected", Name: "laptop", Runs: 2})
	watchOnce(t.Context(), tr, changed)
	want = []string{"Connected to 127.0.0.1:8080 as laptop", "Running 2 tests", "---", "Open web app", "---", "Quit"}
	if got := a.menuLabels(); !slices.Equal(got, want) || a.menu != menu {
		t.Fatalf("menu %q (same menu: %v), want %q", got, a.menu == menu, want)
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
