package api

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/audit"
	"github.com/testautomation/ta/hub/auth"
	"github.com/testautomation/ta/hub/dbtest"
	"github.com/testautomation/ta/hub/dispatch"
	"github.com/testautomation/ta/hub/metrics"
	"github.com/testautomation/ta/hub/secretbox"
	"github.com/testautomation/ta/hub/store"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// syncBuffer collects the hub's log lines for assertions.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// harness is a real hub API over HTTP on a fresh database.
type harness struct {
	t        testing.TB
	srv      *httptest.Server
	ln       *conns // srv's listener: restart drops agents' connections too
	api      *Server
	store    *store.Store
	dataDir  string
	dispatch *dispatch.Hub
	logs     *syncBuffer
	clock    atomic.Int64    // unix nanoseconds the server sees as now
	limits   store.RunLimits // per-run limits; zero fields take the dispatcher's defaults
	stall    time.Duration   // dispatch.Config.Stall; 0 takes the default
	lease    time.Duration   // dispatch.Config.Lease; 0 takes 3 s
	metrics  *metrics.Metrics
	allow    []netip.Prefix  // Config.MetricsAllow
	quota    int64           // Config.FileQuota; 0 takes the default
	arts     artifacts.Store // where artifacts go; nil: <dataDir>/artifacts
	// handlers counts the requests being served, agents' connections
	// (hijacked, so httptest's Close does not wait for them) included.
	handlers sync.WaitGroup
}

func newHarness(t testing.TB) *harness { return newHarnessOn(t, dbtest.Pool(t)) }

// newHarnessOn is newHarness on a database of the test's choosing.
func newHarnessOn(t testing.TB, pool *pgxpool.Pool) *harness {
	t.Helper()
	h := &harness{t: t, dataDir: t.TempDir(), logs: &syncBuffer{}}
	h.clock.Store(time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC).UnixNano())
	h.store = store.New(pool)
	h.listen(t, "127.0.0.1:0")
	t.Cleanup(h.close)
	return h
}

// listen starts the hub's server on addr.
func (h *harness) listen(t testing.TB, addr string) {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	h.ln = &conns{Listener: ln}
	h.srv = &httptest.Server{Listener: h.ln, Config: &http.Server{Handler: h.handler(t)}}
	h.srv.Start()
}

// close stops the hub before the test's folders go: an agent's connection
// is served until the agent (stopped by an earlier cleanup) hangs up, and
// the artifacts it sent last are written meanwhile. Without the wait the
// data folder's removal raced those writes ("directory not empty").
func (h *harness) close() {
	h.srv.Close()
	done := make(chan struct{})
	go func() { h.handlers.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second): // a connection a test left open
	}
}

// restart replaces the hub with a new one on the same address, data and
// database, as a restarted hub process would be: every connection drops,
// agents' WebSockets too (httptest's CloseClientConnections leaves
// hijacked connections open, and the old hub went on serving its agents).
func (h *harness) restart(t testing.TB) {
	t.Helper()
	addr := h.srv.Listener.Addr().String()
	h.ln.kill()
	h.srv.Close()
	h.listen(t, addr)
	t.Cleanup(h.close)
}

// handler builds a hub (dispatcher and API) over the harness's store.
func (h *harness) handler(t testing.TB) http.Handler {
	now := func() time.Time { return time.Unix(0, h.clock.Load()).UTC() }
	logger := slog.New(slog.NewTextHandler(h.logs, nil))
	box, err := secretbox.Load(h.dataDir, "")
	if err != nil {
		t.Fatal(err)
	}
	var arts artifacts.Store = artifacts.Dir{Root: filepath.Join(h.dataDir, "artifacts")}
	if h.arts != nil {
		arts = h.arts
	}
	h.dispatch = dispatch.New(dispatch.Config{Store: h.store, Artifacts: arts, Logger: logger, BaseURL: "http://hub.test",
		Lease: cmp.Or(h.lease, 3*time.Second), Now: now, Limits: h.limits, Stall: h.stall, Secrets: box, Metrics: h.metrics})
	h.api, err = New(Config{
		Store:     h.store,
		Logger:    logger,
		Audit:     audit.Open(filepath.Join(h.dataDir, "audit.log")),
		BaseURL:   "http://hub.test",
		Hasher:    auth.Hasher{N: 1 << 10, R: 8, P: 1}, // cheap for tests; the format is the same
		Now:       now,
		Secrets:   box,
		Dispatch:  h.dispatch,
		Artifacts: arts,
		Metrics:   h.metrics, MetricsAllow: h.allow,
		FileQuota: h.quota,
		// Tests register many accounts from 127.0.0.1; limits_test.go
		// lowers it to test the limit itself.
		RegisterPerAddress: 1000,
	})
	if err != nil {
		t.Fatal(err)
	}
	// A list route using the shared x-project-id scoping, as later resources will.
	probe := chi.NewRouter()
	probe.Use(h.api.authenticate)
	probe.With(h.api.headerProject).Get("/api/probe", func(w http.ResponseWriter, r *http.Request) {
		sc := headerScope(r)
		if p := r.URL.Query().Get("perm"); p != "" && !allow(w, sc, access.Permission(p)) {
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"project": sc.Project.ID, "role": string(sc.Role)})
	})
	main := h.api.Handler(nil)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.handlers.Add(1)
		defer h.handlers.Done()
		if r.URL.Path == "/api/probe" {
			probe.ServeHTTP(w, r)
			return
		}
		main.ServeHTTP(w, r)
	})
}

func (h *harness) advance(d time.Duration) { h.clock.Add(int64(d)) }

// client is one browser: its own cookie jar.
type client struct {
	h    *harness
	http *http.Client
}

func (h *harness) client() *client {
	jar, _ := cookiejar.New(nil)
	return &client{h: h, http: &http.Client{Jar: jar}}
}

// response is a decoded answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(r.body, &m)
	return m
}

func (r response) str(key string) string {
	s, _ := r.json()[key].(string)
	return s
}

// do sends a request; body is JSON-encoded unless it is a string or []byte.
func (c *client) do(method, path string, body any, headers ...string) response {
	c.h.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			c.h.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, c.h.srv.URL+path, rd)
	if err != nil {
		c.h.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.h.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	out := response{status: resp.StatusCode, header: resp.Header, body: data}
	if resp.StatusCode >= 400 {
		checkErrorBody(c.h.t, method, path, out)
	}
	checkOpenAPI(c.h.t, method, path, out)
	// 502 agent_failed relays an agent's own failure (authoring.go), 502
	// language_model_failed a language model's, and 503
	// language_model_not_configured says the hub has none (DESIGN.md); any
	// other 5xx is the hub's fault.
	code := out.str("code")
	relayed := resp.StatusCode == http.StatusBadGateway && (code == "agent_failed" || code == codeModelFailed) ||
		resp.StatusCode == http.StatusServiceUnavailable && code == codeNotConfigured
	if resp.StatusCode >= 500 && !relayed {
		c.h.t.Errorf("%s %s answered %d: %s", method, path, resp.StatusCode, data)
	}
	return out
}

// checkErrorBody asserts every error answer has the standard shape.
func checkErrorBody(t testing.TB, method, path string, r response) {
	t.Helper()
	var body struct {
		Error  *string `json:"error"`
		Code   *string `json:"code"`
		Issues []Issue `json:"issues"`
	}
	if err := json.Unmarshal(r.body, &body); err != nil || body.Error == nil || body.Code == nil || *body.Error == "" || *body.Code == "" {
		t.Errorf("%s %s: %d error body is not {error, code}: %s", method, path, r.status, r.body)
		return
	}
	if r.status == http.StatusUnprocessableEntity && len(body.Issues) == 0 {
		t.Errorf("%s %s: 422 without issues: %s", method, path, r.body)
	}
}

// want fails the test unless the response has the status.
func (r response) want(t testing.TB, status int) response {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	return r
}

var userSeq atomic.Int64

// register makes a new account and returns its signed-in client and id.
func (h *harness) register(name string) (*client, string) {
	h.t.Helper()
	c := h.client()
	email := strings.ToLower(strings.ReplaceAll(name, " ", ".")) + "." + strconv.FormatInt(userSeq.Add(1), 10) + "@example.com"
	r := c.do("POST", "/api/auth/register", map[string]string{"name": name, "email": email, "password": "correct horse battery"}).want(h.t, 201)
	return c, r.str("id")
}

func (c *client) email() string {
	r := c.do("GET", "/api/auth/session", nil).want(c.h.t, 200)
	return r.str("email")
}
