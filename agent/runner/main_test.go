package runner

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

// The tests share one Browser (a launch costs hundreds of milliseconds)
// and one fixture site.
var (
	testBrowser *Browser
	site        *httptest.Server
)

func TestMain(m *testing.M) {
	path := os.Getenv("TA_BROWSER")
	if _, err := FindBrowser(path); err != nil {
		fmt.Fprintln(os.Stderr, "the runner tests drive a real Chromium:", err)
		os.Exit(1)
	}
	site = httptest.NewServer(siteHandler())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	// The agent's default: the browser's own capture, no headless shell.
	b, err := Launch(ctx, Options{BrowserPath: path, HeadlessShell: "off"})
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "launching Chromium:", err)
		site.Close()
		os.Exit(1)
	}
	testBrowser = b
	code := m.Run()
	if shellBrowser != nil {
		_ = shellBrowser.Close()
	}
	if err := b.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "closing Chromium:", err)
		code = 1
	}
	site.Close()
	os.Exit(code)
}

// shellBrowser is a Browser in the headless shell with frames on demand
// (frames.go, --headless-shell auto), for the tests and benchmarks that
// cover it; see shell.
var (
	shellOnce    sync.Once
	shellBrowser *Browser
	shellErr     error
)

// shell returns shellBrowser, launched on first use; it skips the test when
// no headless shell is installed.
func shell(tb testing.TB) *Browser {
	shellOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		shellBrowser, shellErr = Launch(ctx, Options{BrowserPath: os.Getenv("TA_BROWSER")})
	})
	if shellErr != nil {
		tb.Fatal(shellErr)
	}
	if !shellBrowser.frames {
		tb.Skip("no headless shell installed")
	}
	return shellBrowser
}

// unlessStalled runs a job with run, and once more should the headless
// shell have left its page undrawn (errStalled: a Chromium fault now and
// then after a navigation, see frames.go); it returns the last run's result
// and events.
func unlessStalled(t *testing.T, b *Browser, run func(*recorder) protocol.RunResult) (protocol.RunResult, *recorder) {
	t.Helper()
	rec := &recorder{}
	res := run(rec)
	if b.frames && stalled(res, rec) {
		t.Log("the headless shell left the page undrawn (a Chromium fault, see errStalled): once more")
		rec = &recorder{}
		res = run(rec)
	}
	return res, rec
}

// stalled reports whether a run lost a page to errStalled.
func stalled(res protocol.RunResult, rec *recorder) bool {
	if strings.Contains(res.Error, "stopped drawing the page") {
		return true
	}
	for _, l := range rec.logs() {
		if strings.Contains(l, "stopped drawing the page") {
			return true
		}
	}
	return false
}

// cookieGate lets a test hold a page until another run has set its cookie.
var (
	cookieMu    sync.Mutex
	cookieGates = map[string]chan struct{}{}
)

func gate(name string) chan struct{} {
	cookieMu.Lock()
	defer cookieMu.Unlock()
	if cookieGates[name] == nil {
		cookieGates[name] = make(chan struct{})
	}
	return cookieGates[name]
}

// siteHandler serves testdata/site plus a few dynamic pages:
//
//	/cookie?set=V&gate=G  sets the cookie who=V, then opens gate G
//	/cookie?wait=G        waits for gate G, then shows the request's cookies
//	/redirect?to=U        redirects to U (302), whatever it is
//	/slow                 answers after 300 ms
//	/api/fail             answers 500 (trace.html)
func siteHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("testdata/site")))
	mux.HandleFunc("/cookie", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if v := q.Get("set"); v != "" {
			http.SetCookie(w, &http.Cookie{Name: "who", Value: v, Path: "/"})
		}
		if g := q.Get("wait"); g != "" {
			select {
			case <-gate(g):
			case <-time.After(10 * time.Second):
			}
		}
		var names []string
		for _, c := range r.Cookies() {
			names = append(names, c.Name+"="+c.Value)
		}
		shown := strings.Join(names, ",")
		if shown == "" {
			shown = "none"
		}
		fmt.Fprintf(w, "<!doctype html><title>Cookies</title><div id=cookies>%s</div>", shown)
		if g := q.Get("gate"); g != "" {
			defer close(gate(g))
		}
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", r.URL.Query().Get("to"))
		w.WriteHeader(http.StatusFound)
	})
	mux.HandleFunc("/api/fail", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":"orders are down"}`, http.StatusInternalServerError)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(300 * time.Millisecond)
		fmt.Fprint(w, "<!doctype html><title>Slow</title><p id=slow>Slow page</p>")
	})
	return mux
}

// recorder is an Emitter that keeps everything.
type recorder struct {
	mu        sync.Mutex
	events    []protocol.Event
	times     []time.Time // when each event came
	artifacts map[string][]byte
	infos     []protocol.ArtifactInfo
}

func (r *recorder) Event(e protocol.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
	r.times = append(r.times, time.Now())
}

// since is the time from the first event of kind a to the last of kind b.
func (r *recorder) since(a, b protocol.EventKind) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	var from, to time.Time
	for i, e := range r.events {
		if e.Kind == a && from.IsZero() {
			from = r.times[i]
		}
		if e.Kind == b {
			to = r.times[i]
		}
	}
	return to.Sub(from)
}

func (r *recorder) Artifact(info protocol.ArtifactInfo, data []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.artifacts == nil {
		r.artifacts = map[string][]byte{}
	}
	r.artifacts[info.Name] = bytes.Clone(data)
	r.infos = append(r.infos, info)
}

// kinds lists the events' kinds, steps' ones with their index and status.
func (r *recorder) kinds() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		k := string(e.Kind)
		if e.Index != nil {
			k += fmt.Sprintf("[%d]", *e.Index)
		}
		if e.Kind == protocol.StepFinished || e.Kind == protocol.RunFinished {
			k += ":" + e.Status
		}
		if e.Kind == protocol.LogLine {
			k += ":" + e.Level
		}
		out = append(out, k)
	}
	return out
}

// logs returns the messages of the log events.
func (r *recorder) logs() []string {
	var m []string
	for _, e := range r.ofKind(protocol.LogLine) {
		m = append(m, e.Message)
	}
	return m
}

func (r *recorder) ofKind(k protocol.EventKind) []protocol.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []protocol.Event
	for _, e := range r.events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// Helpers that build documents.

func siteURL(path string) string { return site.URL + path }

func loc(kind, value string) protocol.Locator { return protocol.Locator{Kind: kind, Value: value} }

func role(r, name string) protocol.Locator {
	return protocol.Locator{Kind: "role", Value: r, Name: name}
}

func tgt(ls ...protocol.Locator) *protocol.Target { return &protocol.Target{Locators: ls} }

func css(sel string) *protocol.Target { return tgt(loc("css", sel)) }

func nav(path string) protocol.Step { return protocol.Step{Type: "navigate", URL: siteURL(path)} }

func click(t *protocol.Target) protocol.Step { return protocol.Step{Type: "click", Target: t} }

func fillStep(t *protocol.Target, v string) protocol.Step {
	return protocol.Step{Type: "fill", Target: t, Value: protocol.Ptr(v)}
}

func textIs(t *protocol.Target, match, want string) protocol.Step {
	return protocol.Step{Type: "assertText", Target: t, Expected: protocol.Ptr(want), Match: match}
}

func valueIs(t *protocol.Target, want string) protocol.Step {
	return protocol.Step{Type: "assertValue", Target: t, Expected: protocol.Ptr(want), Match: "equals"}
}

// short gives a step a short timeout, for steps expected to fail.
func short(st protocol.Step, ms int) protocol.Step {
	st.TimeoutMs = ms
	return st
}

// document numbers the steps s1, s2 ... and checks the document is valid.
func document(t testing.TB, steps ...protocol.Step) protocol.Document {
	t.Helper()
	for i := range steps {
		if steps[i].ID == "" {
			steps[i].ID = fmt.Sprintf("s%d", i+1)
		}
	}
	d := protocol.Document{DSL: protocol.DSLVersion, Name: t.Name(), Steps: steps}
	if issues := d.Validate(); len(issues) > 0 {
		t.Fatalf("test document is invalid: %+v", issues)
	}
	return d
}

// runJob runs a job on the shared browser.
func runJob(t testing.TB, ctx context.Context, job protocol.Job) (protocol.RunResult, *recorder) {
	t.Helper()
	if job.RunID == "" {
		job.RunID = "run_test"
	}
	rec := &recorder{}
	res := testBrowser.Run(ctx, job, rec)
	return res, rec
}

// runSteps runs steps without screenshots and returns the result.
func runSteps(t testing.TB, steps ...protocol.Step) (protocol.RunResult, *recorder) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	return runJob(t, ctx, protocol.Job{Version: 1, Document: document(t, steps...)})
}

// mustPass fails the test with the failing step's error unless res passed.
func mustPass(t testing.TB, res protocol.RunResult) {
	t.Helper()
	if res.Status != protocol.RunPassed {
		t.Fatalf("run %s: %s (steps: %+v)", res.Status, res.Error, res.Steps)
	}
}
