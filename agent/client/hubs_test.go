package client

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/testautomation/ta/protocol"
)

func TestParseHubs(t *testing.T) {
	got, err := ParseHubs("http://a.test/, https://b.test:8443/ta", "", "http://c.test,,http://a.test")
	if want := []string{"http://a.test", "https://b.test:8443/ta", "http://c.test"}; err != nil || !slices.Equal(got, want) {
		t.Fatalf("ParseHubs = %q, %v; want %q", got, err, want)
	}
	for _, bad := range []string{"ftp://x", "127.0.0.1:8080", "http://", "http://ok.test,ws://x.test"} {
		if _, err := ParseHubs(bad); err == nil || !strings.Contains(err.Error(), "--hub") {
			t.Errorf("ParseHubs(%q): %v", bad, err)
		}
	}
}

// After a connection (or an attempt) ends: the next hub of the list, with
// the backoff once per full round; a hub that stops gracefully sends the
// agent on at once, and a move back goes where it says.
func TestNextHub(t *testing.T) {
	c3 := New(Config{Hubs: []string{"http://a", "http://b", "http://c"}})
	c1 := New(Config{HubURL: "http://lb"})
	restart := websocket.CloseError{Code: websocket.StatusServiceRestart}
	away := fmt.Errorf("read: %w", websocket.CloseError{Code: websocket.StatusGoingAway})
	refused := errors.New("dial: connection refused")
	for _, tc := range []struct {
		name      string
		c         *Client
		i         int
		connected bool
		err       error
		tries     int
		hub       int
		wait      bool
	}{
		{"first of three refused", c3, 0, false, refused, 1, 1, false},
		{"second refused", c3, 1, false, refused, 2, 2, false},
		{"the round is over", c3, 2, false, refused, 3, 0, true},
		{"a connection that ended", c3, 1, true, refused, 1, 2, false},
		{"1012 from the last", c3, 2, true, restart, 1, 0, false},
		{"1001", c3, 0, true, away, 1, 1, false},
		{"1012 before the welcome is no shortcut", c3, 2, false, restart, 3, 0, true},
		{"move back", c3, 2, true, &errMoveBack{to: 0}, 1, 0, false},
		{"one hub: the backoff every time", c1, 0, false, refused, 1, 0, true},
		{"one hub: a dropped connection waits", c1, 0, true, refused, 1, 0, true},
		{"one hub behind a load balancer: 1012 redials at once", c1, 0, true, restart, 1, 0, false},
	} {
		hub, wait := tc.c.next(tc.i, tc.connected, tc.err, tc.tries)
		if hub != tc.hub || wait != tc.wait {
			t.Errorf("%s: next = %d, %v; want %d, %v", tc.name, hub, wait, tc.hub, tc.wait)
		}
	}
}

// A token paired through any hub of the list is good on all of them (they
// share one database), and kept with the list; a trailing slash does not
// make another hub.
func TestTokenFileSeveralHubs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cfg")
	c := New(Config{Hubs: []string{"http://a.test", "http://b.test"}, ConfigDir: dir})
	if err := c.saveToken("agt_x", "secret"); err != nil {
		t.Fatal(err)
	}
	for _, hubs := range [][]string{{"http://a.test"}, {"http://b.test/"}, {"http://c.test", "http://b.test"}} {
		if got := New(Config{Hubs: hubs, ConfigDir: dir}).Token(); got != "secret" {
			t.Errorf("hubs %q: token %q", hubs, got)
		}
	}
	if got := New(Config{HubURL: "http://c.test", ConfigDir: dir}).Token(); got != "" {
		t.Errorf("another hub got the token")
	}
	one := New(Config{HubURL: "http://a.test/", ConfigDir: t.TempDir()})
	if err := one.saveToken("agt_y", "t1"); err != nil {
		t.Fatal(err)
	}
	if got := New(Config{HubURL: "http://a.test", ConfigDir: one.cfg.ConfigDir}).Token(); got != "t1" {
		t.Errorf("a trailing slash lost the token: %q", got)
	}
}

// Issue 32: a run's project files come from the hub the agent is
// connected to now, not the first of its list (which may be down).
func TestRunFilesFromTheHubConnectedTo(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	hub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Disposition", `attachment; filename="a.txt"`)
		fmt.Fprint(w, "from the second hub")
	}))
	defer hub.Close()
	c := New(Config{Hubs: []string{"http://127.0.0.1:1", hub.URL}, ConfigDir: filepath.Join(t.TempDir(), "cfg")})
	if err := c.saveToken("agt_x", "secret-token"); err != nil {
		t.Fatal(err)
	}
	c.setState(func(s *State) { s.Phase, s.Hub = "connected", hub.URL }) // as the welcome does
	rf := &runFiles{c: c, for_: "run", id: "run_one"}
	defer rf.remove()
	p, err := rf.FetchFile(t.Context(), "fil_a")
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(p); string(data) != "from the second hub" {
		t.Errorf("fetched %q", data)
	}
}

// The agent moves back to its preferred hub only when idle: no run, no
// unacknowledged run message, no authoring session or recent exchange;
// a session whose end was lost stops holding it after sessionQuiet.
func TestBusy(t *testing.T) {
	c := New(Config{Hubs: []string{"http://a", "http://b"}})
	if why := c.busy(); why != "" {
		t.Fatalf("a new agent is busy: %s", why)
	}
	c.running["run_1"] = func(error) {}
	if why := c.busy(); !strings.Contains(why, "run") {
		t.Errorf("running: %q", why)
	}
	delete(c.running, "run_1")
	c.send(protocol.Message{Type: protocol.MsgEvent, RunID: "run_1"}, nil)
	if why := c.busy(); !strings.Contains(why, "acknowledged") {
		t.Errorf("unacknowledged: %q", why)
	}
	c.box.ack(1)
	ago := func(d time.Duration) { c.mu.Lock(); c.authoredAt = time.Now().Add(-d); c.mu.Unlock() }
	c.authored("rec_1", true)
	ago(10 * time.Minute)
	if why := c.busy(); !strings.Contains(why, "authoring") {
		t.Errorf("a quiet open session: %q", why)
	}
	ago(16 * time.Minute)
	if why := c.busy(); why != "" {
		t.Errorf("a session silent for 16 minutes: %q", why)
	}
	c.sessionGone("rec_1")
	c.authored("", false) // a script try
	if why := c.busy(); !strings.Contains(why, "authoring") {
		t.Errorf("a try just now: %q", why)
	}
	ago(2 * time.Minute)
	if why := c.busy(); why != "" {
		t.Errorf("idle: %q", why)
	}
}
