package ci

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

// Issue 32: --hub (and TA_HUB) takes several hubs, preferred first; the
// first is the one links point at.
func TestParseHubList(t *testing.T) {
	t.Setenv("TA_TOKEN", "tat_env")
	t.Setenv("TA_HUB", "http://env-a.test,http://env-b.test")
	o, err := ParseFlags([]string{"--suite", "a"}, io.Discard)
	if err != nil || o.Hub != "http://env-a.test" || !slices.Equal(o.Hubs, []string{"http://env-a.test", "http://env-b.test"}) {
		t.Fatalf("TA_HUB: %q %q %v", o.Hub, o.Hubs, err)
	}
	o, err = ParseFlags([]string{"--hub", "https://a.test/,https://b.test", "--hub", "https://c.test", "--suite", "a"}, io.Discard)
	if err != nil || o.Hub != "https://a.test" || !slices.Equal(o.Hubs, []string{"https://a.test", "https://b.test", "https://c.test"}) {
		t.Fatalf("--hub: %q %q %v", o.Hub, o.Hubs, err)
	}
	if _, err := ParseFlags([]string{"--hub", "https://a.test,ftp://b.test", "--suite", "a"}, io.Discard); err == nil || !strings.Contains(err.Error(), "ftp://b.test") {
		t.Errorf("a bad second hub: %v", err)
	}
}

// The command's REST calls go to the next hub when one does not answer,
// without waiting a backoff for it, and stay there.
func TestHubAPIFailsOver(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	hits := 0
	live := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	defer live.Close()
	api := newHubAPI(dead, "tat_x", 10*time.Second).with([]string{dead, live.URL})
	for range 2 {
		start := time.Now()
		var out struct{ OK bool }
		if err := api.do(context.Background(), "GET", "/api/context", nil, &out); err != nil || !out.OK {
			t.Fatalf("do: %v %v", out, err)
		}
		if d := time.Since(start); d > 200*time.Millisecond {
			t.Errorf("the dead hub cost %v", d)
		}
	}
	if hits != 2 || api.hub() != live.URL {
		t.Errorf("hits %d, now on %s", hits, api.hub())
	}
}
