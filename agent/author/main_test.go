package author

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// testManager is one authoring browser shared by the package's tests,
// started by the first test that needs it; its browser ends with the test
// process (the launcher's leakless guard), as target_test.go's does.
var (
	testManager *Manager
	testPort    int
	managerOnce sync.Once
)

func manager(t *testing.T) *Manager {
	t.Helper()
	managerOnce.Do(func() {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			panic(err)
		}
		testPort = l.Addr().(*net.TCPAddr).Port
		l.Close()
		testManager = New(Options{BrowserPath: os.Getenv("TA_BROWSER"), DebugPort: testPort})
	})
	return testManager
}

// sink records what sessions report.
type sink struct {
	mu       sync.Mutex
	statuses []string // "status url error"
	steps    map[int]protocol.Step
	picked   []protocol.Picked
	calls    int
}

func newSink() *sink { return &sink{steps: map[int]protocol.Step{}} }

func (s *sink) Status(session, status, url, errText string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.statuses = append(s.statuses, status+" "+url+" "+errText)
}

func (s *sink) Step(session string, c protocol.Captured) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if c.Removed {
		delete(s.steps, c.Seq)
		return
	}
	s.steps[c.Seq] = c.Step
}

func (s *sink) Picked(session string, p protocol.Picked) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.picked = append(s.picked, p)
}

// recorded is the recording as the hub would keep it, in Seq order.
func (s *sink) recorded() []protocol.Step {
	s.mu.Lock()
	defer s.mu.Unlock()
	seqs := make([]int, 0, len(s.steps))
	for k := range s.steps {
		seqs = append(seqs, k)
	}
	slices.Sort(seqs)
	out := make([]protocol.Step, 0, len(seqs))
	for _, k := range seqs {
		out = append(out, s.steps[k])
	}
	return out
}

func types(steps []protocol.Step) string {
	var t []string
	for _, s := range steps {
		t = append(t, s.Type)
	}
	return strings.Join(t, ",")
}

func (s *sink) lastStatus() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.statuses) == 0 {
		return ""
	}
	return s.statuses[len(s.statuses)-1]
}

// waitFor polls cond for up to 30 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	end := time.Now().Add(30 * time.Second)
	for time.Now().Before(end) {
		if cond() {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

// waitStatus waits for the session's status to start with status.
func (s *sink) waitStatus(t *testing.T, status string) string {
	t.Helper()
	var last string
	waitFor(t, "status "+status, func() bool {
		last = s.lastStatus()
		if strings.HasPrefix(last, protocol.SessionError) && status != protocol.SessionError {
			t.Fatalf("session failed: %s", last)
		}
		return strings.HasPrefix(last, status+" ")
	})
	return last
}

// waitSteps waits until the recording has steps of these types.
func (s *sink) waitSteps(t *testing.T, want string) []protocol.Step {
	t.Helper()
	var got []protocol.Step
	end := time.Now().Add(30 * time.Second)
	for time.Now().Before(end) {
		got = s.recorded()
		if types(got) == want {
			return got
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("recorded %s, want %s", types(got), want)
	return nil
}

// waitStepsWithin is waitSteps with a limit, answering an error.
func (s *sink) waitStepsWithin(want string, limit time.Duration) error {
	end := time.Now().Add(limit)
	var got []protocol.Step
	for time.Now().Before(end) {
		if got = s.recorded(); types(got) == want {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("recorded %s within %v, want %s", types(got), limit, want)
}

var sessionN int
var sessionMu sync.Mutex

// start opens a session on the shared manager and its page, and closes it
// at the end of the test.
func start(t *testing.T, kind, url string) (string, *sink, *rod.Page) {
	t.Helper()
	sessionMu.Lock()
	sessionN++
	id := fmt.Sprintf("%s_%d", kind[:3], sessionN)
	sessionMu.Unlock()
	out := newSink()
	if err := manager(t).Start(context.Background(), id, protocol.AuthorStart{Kind: kind, URL: url}, out); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = testManager.Stop(id) })
	if kind == protocol.AuthorRecord {
		out.waitStatus(t, protocol.SessionRecording)
	} else {
		out.waitStatus(t, protocol.SessionReady)
	}
	s, err := testManager.session(id)
	if err != nil {
		t.Fatal(err)
	}
	return id, out, s.page().Timeout(20 * time.Second)
}

// site serves pages from a map of path to HTML; {{other}} in a page is the
// same server under another origin (localhost for 127.0.0.1).
func site(t *testing.T, pages map[string]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, port, _ := net.SplitHostPort(r.Host)
		fmt.Fprint(w, strings.ReplaceAll(body, "{{other}}", "http://localhost:"+port))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// clickAt dispatches a trusted left click at x, y; count 2 makes it the
// second click of a double-click.
func clickAt(t *testing.T, p *rod.Page, x, y float64, count int) {
	t.Helper()
	for _, typ := range []proto.InputDispatchMouseEventType{proto.InputDispatchMouseEventTypeMouseMoved,
		proto.InputDispatchMouseEventTypeMousePressed, proto.InputDispatchMouseEventTypeMouseReleased} {
		e := proto.InputDispatchMouseEvent{Type: typ, X: x, Y: y, Button: proto.InputMouseButtonLeft, ClickCount: count}
		if typ == proto.InputDispatchMouseEventTypeMouseMoved {
			e.Button, e.ClickCount = proto.InputMouseButtonNone, 0
		}
		if err := e.Call(p); err != nil {
			t.Fatal(err)
		}
	}
}

// center is the middle of the element sel in the viewport.
func center(t *testing.T, p *rod.Page, sel string) (float64, float64) {
	t.Helper()
	shape := p.MustElement(sel).MustShape()
	b := shape.Box()
	return b.X + b.Width/2, b.Y + b.Height/2
}
