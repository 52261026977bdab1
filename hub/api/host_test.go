package api

import (
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// sendHost sends a request addressed (Host) to host, with extra headers.
func sendHost(t *testing.T, base, method, path, host, body string, headers ...string) response {
	t.Helper()
	return sendTo(t, http.DefaultClient, base, method, path, body, append([]string{"Host", host}, headers...)...)
}

// DNS rebinding: a page of evil.example whose name is then pointed at the
// hub's address sends its requests with Host and Origin evil.example.
// Without HUB_BASE_URL the cross-site check took that for the hub's own
// origin; now every request to a name that is not loopback, nor an IP
// address, answers 421 host_not_allowed, whatever the route.
func TestForeignHostRefused(t *testing.T) {
	h := newHarness(t)
	_, port, _ := net.SplitHostPort(h.srv.Listener.Addr().String())
	port = ":" + port
	for _, host := range []string{"evil.example" + port, "evil.example", "hub.test" + port, "127.0.0.1.nip.io" + port, "localhost.evil.example"} {
		r := sendHost(t, h.srv.URL, "POST", "/api/orgs", host, `{"name":"Rebound"}`, "Origin", "http://"+host, "Content-Type", "application/json")
		r.wantCode(t, http.StatusMisdirectedRequest, codeHostNotAllowed)
		if !strings.Contains(r.str("error"), "HUB_BASE_URL") {
			t.Errorf("the refusal does not say what to set: %s", r.body)
		}
		for _, path := range []string{"/api/auth/session", "/api/agent/connect", "/api/no-such-route", "/healthz", "/"} {
			sendHost(t, h.srv.URL, "GET", path, host, "").wantCode(t, http.StatusMisdirectedRequest, codeHostNotAllowed)
		}
	}
	// Loopback names and IP addresses cannot be a rebinding page's: they
	// pass, on any port.
	for _, host := range []string{"127.0.0.1" + port, "localhost" + port, "LOCALHOST.", "app.localhost:5173", "[::1]" + port, "10.0.0.7:8080", "[fd00::7]"} {
		sendHost(t, h.srv.URL, "POST", "/api/orgs", host, `{"name":"Local"}`, "Origin", "http://"+host, "Content-Type", "application/json").
			wantCode(t, 401, codeUnauthenticated) // past the host and cross-site checks
		sendHost(t, h.srv.URL, "GET", "/api/auth/session", host, "").want(t, 200)
	}
}

// With HUB_BASE_URL, its host name is served too (on any port a proxy
// forwards), beside loopback names and addresses; other names are not.
func TestConfiguredHostOnly(t *testing.T) {
	h := newHarness(t)
	s, err := New(Config{Store: h.store, Origin: "https://tests.example.com", BaseURL: "https://tests.example.com", Hasher: h.api.Hasher})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler(nil))
	defer srv.Close()
	for _, host := range []string{"tests.example.com", "TESTS.example.com:443", "tests.example.com.", "127.0.0.1:8080", "localhost"} {
		sendHost(t, srv.URL, "GET", "/api/auth/session", host, "").want(t, 200)
	}
	for _, host := range []string{"evil.example.com", "example.com", "tests.example.com.evil.example", "hub.internal:8080"} {
		r := sendHost(t, srv.URL, "GET", "/api/auth/session", host, "").wantCode(t, http.StatusMisdirectedRequest, codeHostNotAllowed)
		if !strings.Contains(r.str("error"), "tests.example.com (HUB_BASE_URL)") {
			t.Errorf("%s: %s", host, r.body)
		}
	}
	if u, _ := url.Parse(srv.URL); !s.hostAllowed(u.Host) {
		t.Errorf("the listener's own address %s is refused", u.Host)
	}
}
