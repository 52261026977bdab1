package author

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// corpusSite serves testdata/corpus on two origins, 127.0.0.1:A (main)
// and localhost:B (other), so that frame-cross.html embeds a really
// cross-origin iframe. Every HTML page gets the mutation script (see
// quality_mutate_test.go) when a mutation is armed.
type corpusSite struct {
	main, other *httptest.Server

	mu  sync.Mutex
	mut *mutation // armed for the next page loads; nil serves pages as they are
}

func newCorpusSite(t testing.TB) *corpusSite {
	t.Helper()
	s := &corpusSite{}
	s.main = httptest.NewServer(http.HandlerFunc(s.serve))
	s.other = httptest.NewServer(http.HandlerFunc(s.serve))
	// httptest listens on 127.0.0.1; the other origin is named localhost
	// so that its scheme-host-port differs from main's.
	s.other.URL = strings.Replace(s.other.URL, "127.0.0.1", "localhost", 1)
	t.Cleanup(s.main.Close)
	t.Cleanup(s.other.Close)
	return s
}

// url is the address of a corpus page on the main origin; the page learns
// the other origin's address from ?other=.
func (s *corpusSite) url(page string) string {
	u := s.main.URL + "/" + page
	if strings.Contains(page, "?") {
		return u + "&other=" + s.other.URL
	}
	return u + "?other=" + s.other.URL
}

func (s *corpusSite) arm(m *mutation) {
	s.mu.Lock()
	s.mut = m
	s.mu.Unlock()
}

func (s *corpusSite) serve(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/")
	// router.html's routes (/router.html/products/1) are the same page,
	// as a server behind a client-side router answers.
	if strings.HasPrefix(name, "router.html/") {
		name = "router.html"
	}
	if name == "" || strings.Contains(name, "/") || !strings.HasSuffix(name, ".html") {
		http.NotFound(w, r)
		return
	}
	body, err := os.ReadFile(filepath.Join("testdata", "corpus", name))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	m := s.mut
	s.mu.Unlock()
	if m != nil {
		body = bytes.Replace(body, []byte("</body>"), []byte("<script>"+m.script()+"</script></body>"), 1)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(body) //nolint:errcheck
}
