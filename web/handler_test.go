package web

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

const indexHTML = `<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>`

func builtFS() fstest.MapFS {
	return fstest.MapFS{
		"index.html":              {Data: []byte(indexHTML)},
		"assets/index-abc123.js":  {Data: []byte(strings.Repeat("console.log('app');\n", 200))},
		"assets/index-def456.css": {Data: []byte("body{margin:0}")},
		"robots.txt":              {Data: []byte("User-agent: *\n")},
		".keep":                   {Data: []byte("placeholder")},
	}
}

func get(t *testing.T, h http.Handler, method, target string, hdr map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestServesBuiltApplication(t *testing.T) {
	h, err := NewHandler(builtFS())
	if err != nil {
		t.Fatal(err)
	}
	if !h.Built() {
		t.Fatal("Built() = false with an index.html")
	}
	cases := []struct {
		name, path   string
		status       int
		cache, ctype string
		bodyHas      string
	}{
		{"root is the app", "/", 200, "no-cache", "text/html", `<div id="root">`},
		{"app route falls back to index", "/tests/tc_abc", 200, "no-cache", "text/html", `<div id="root">`},
		{"pairing link loads the app", "/pair/K7Q-4MP", 200, "no-cache", "text/html", `<div id="root">`},
		{"reset link with a query loads the app", "/reset?token=xyz", 200, "no-cache", "text/html", `<div id="root">`},
		{"index.html itself is not cached", "/index.html", 200, "no-cache", "text/html", `<div id="root">`},
		{"hashed script is immutable", "/assets/index-abc123.js", 200, "public, max-age=31536000, immutable", "javascript", "console.log"},
		{"hashed style is immutable", "/assets/index-def456.css", 200, "public, max-age=31536000, immutable", "text/css", "margin:0"},
		{"other files are revalidated", "/robots.txt", 200, "no-cache", "text/plain", "User-agent"},
		{"an asset of an older build is 404, not the page", "/assets/index-old999.js", 404, "", "", ""},
		{"dot files are not served", "/.keep", 200, "no-cache", "text/html", `<div id="root">`},
		{"dot-dot cannot climb", "/../../etc/passwd", 200, "no-cache", "text/html", `<div id="root">`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := get(t, h, "GET", c.path, nil)
			if rec.Code != c.status {
				t.Fatalf("status %d, want %d", rec.Code, c.status)
			}
			if c.status != 200 {
				return
			}
			if got := rec.Header().Get("Cache-Control"); got != c.cache {
				t.Errorf("Cache-Control %q, want %q", got, c.cache)
			}
			if got := rec.Header().Get("Content-Type"); !strings.Contains(got, c.ctype) {
				t.Errorf("Content-Type %q, want it to contain %q", got, c.ctype)
			}
			if !strings.Contains(rec.Body.String(), c.bodyHas) {
				t.Errorf("body %.80q lacks %q", rec.Body.String(), c.bodyHas)
			}
		})
	}
}

func TestIndexCarriesSecurityHeaders(t *testing.T) {
	h, _ := NewHandler(builtFS())
	rec := get(t, h, "GET", "/runs/run_1", nil)
	csp := rec.Header().Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if rec.Header().Get("X-Frame-Options") != "DENY" {
		t.Errorf("X-Frame-Options %q", rec.Header().Get("X-Frame-Options"))
	}
}

func TestConditionalAndCompressed(t *testing.T) {
	h, _ := NewHandler(builtFS())
	first := get(t, h, "GET", "/", nil)
	etag := first.Header().Get("ETag")
	if etag == "" {
		t.Fatal("no ETag on index.html")
	}
	if rec := get(t, h, "GET", "/tests", map[string]string{"If-None-Match": etag}); rec.Code != http.StatusNotModified {
		t.Fatalf("revalidation answered %d, want 304", rec.Code)
	}

	rec := get(t, h, "GET", "/assets/index-abc123.js", map[string]string{"Accept-Encoding": "gzip, br"})
	if rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("script not compressed for a gzip client: %v", rec.Header())
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if !strings.HasPrefix(string(plain), "console.log('app');") {
		t.Fatalf("decompressed body %.40q", plain)
	}
	if rec := get(t, h, "GET", "/assets/index-abc123.js", nil); rec.Header().Get("Content-Encoding") != "" {
		t.Fatal("compressed for a client that did not ask")
	}
}

func TestMethodsOtherThanGetAreRefused(t *testing.T) {
	h, _ := NewHandler(builtFS())
	if rec := get(t, h, "POST", "/tests", nil); rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("POST answered %d", rec.Code)
	}
	if rec := get(t, h, "HEAD", "/", nil); rec.Code != 200 || rec.Body.Len() != 0 {
		t.Fatalf("HEAD answered %d with %d bytes", rec.Code, rec.Body.Len())
	}
}

func TestBeforeTheFirstBuildSaysHowToBuild(t *testing.T) {
	h, err := NewHandler(fstest.MapFS{".keep": {Data: []byte("x")}})
	if err != nil {
		t.Fatal(err)
	}
	if h.Built() {
		t.Fatal("Built() = true without index.html")
	}
	for _, p := range []string{"/", "/tests"} {
		rec := get(t, h, "GET", p, nil)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), "npm run build") || !strings.Contains(rec.Body.String(), "make run") {
			t.Fatalf("%s: %d %.200q", p, rec.Code, rec.Body.String())
		}
	}
}

// The embedded build is whatever web/dist held at compile time; either way
// the handler must come up.
func TestEmbeddedDistLoads(t *testing.T) {
	if _, err := NewHandler(Dist()); err != nil {
		t.Fatal(err)
	}
}
