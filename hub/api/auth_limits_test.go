package api

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/auth"
	"github.com/testautomation/ta/hub/store"
)

// limitedHub is an API with its default limits (the harness raises the
// registration limit for the many accounts tests make) and its own clock.
type limitedHub struct {
	srv   *httptest.Server
	api   *Server
	store *store.Store
	logs  *syncBuffer
	clock atomic.Int64
}

func newLimitedHub(t *testing.T) *limitedHub {
	t.Helper()
	h := newHarness(t)
	l := &limitedHub{store: h.store, logs: &syncBuffer{}}
	l.clock.Store(time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC).UnixNano())
	s, err := New(Config{Store: h.store, BaseURL: "http://hub.test", Hasher: auth.Hasher{N: 1 << 10, R: 8, P: 1},
		Logger: slog.New(slog.NewTextHandler(l.logs, nil)), Now: func() time.Time { return time.Unix(0, l.clock.Load()).UTC() }})
	if err != nil {
		t.Fatal(err)
	}
	l.api = s
	l.srv = httptest.NewServer(s.Handler(nil))
	t.Cleanup(l.srv.Close)
	return l
}

func (l *limitedHub) advance(d time.Duration) { l.clock.Add(int64(d)) }

// post sends a JSON body as a fresh browser from the address from
// ("127.0.0.2" is loopback too on Linux: another person's computer).
func (l *limitedHub) post(t *testing.T, from, path, body string) response {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar, Transport: fromAddress(from)}
	return sendTo(t, hc, l.srv.URL, "POST", path, body, "Content-Type", "application/json")
}

func (l *limitedHub) exists(t *testing.T, email string) bool {
	t.Helper()
	_, err := l.store.UserByEmail(t.Context(), email)
	return err == nil
}

// Registration is limited per client address: 5 accounts an hour, then 429
// with Retry-After and nothing created; bad input does not count; another
// address has its own count; an hour later the address may register again.
func TestRegistrationLimitPerAddress(t *testing.T) {
	l := newLimitedHub(t)
	register := func(from, email string) response {
		return l.post(t, from, "/api/auth/register", fmt.Sprintf(`{"name":"Person","email":%q,"password":"correct horse battery"}`, email))
	}
	for range 3 {
		register("127.0.0.1", "not an email").want(t, 422)
	}
	for i := range 5 {
		register("127.0.0.1", fmt.Sprintf("p%d@example.com", i)).want(t, 201)
	}
	r := register("127.0.0.1", "p5@example.com").wantCode(t, 429, codeTooMany)
	if got := r.header.Get("Retry-After"); got != "3600" {
		t.Errorf("Retry-After %q, want 3600", got)
	}
	if !strings.Contains(r.str("error"), "too many accounts") {
		t.Errorf("message %q", r.str("error"))
	}
	if l.exists(t, "p5@example.com") {
		t.Error("a refused registration made the account")
	}
	register("127.0.0.2", "far@example.com").want(t, 201)

	l.advance(30 * time.Minute)
	if got := register("127.0.0.1", "p5@example.com").wantCode(t, 429, codeTooMany).header.Get("Retry-After"); got != "1800" {
		t.Errorf("Retry-After after 30 minutes %q, want 1800", got)
	}
	l.advance(30 * time.Minute)
	register("127.0.0.1", "p5@example.com").want(t, 201)
}

// Reset links are limited: 3 links per account an hour, after which the
// answer stays 204 (as for an unknown email) but no link is written; and 10
// requests per address in 15 minutes, then 429 whatever the email.
func TestForgotLimits(t *testing.T) {
	l := newLimitedHub(t)
	l.post(t, "127.0.0.9", "/api/auth/register", `{"name":"Ann","email":"ann@example.com","password":"correct horse battery"}`).want(t, 201)
	forgot := func(from, email string) response {
		return l.post(t, from, "/api/auth/forgot", fmt.Sprintf(`{"email":%q}`, email))
	}
	links := func() int {
		t.Helper()
		l.api.Wait() // the links are written after the answer
		var n int
		if err := l.store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM password_resets`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if logged := strings.Count(l.logs.String(), "password reset link for ann@example.com: "); logged != n {
			t.Errorf("%d links logged, %d stored", logged, n)
		}
		return n
	}
	// Each from its own address, so only the per-account limit applies.
	for i := range 5 {
		forgot(fmt.Sprintf("127.0.1.%d", i), "ann@example.com").want(t, 204)
	}
	if n := links(); n != 3 {
		t.Errorf("%d reset links for one account within the hour, want 3", n)
	}
	if !strings.Contains(l.logs.String(), "not written") {
		t.Error("the hub's log does not say a link was held back")
	}
	l.advance(time.Hour)
	forgot("127.0.1.9", "ann@example.com").want(t, 204)
	if n := links(); n != 4 {
		t.Errorf("%d reset links an hour later, want 4", n)
	}

	// One address: 10 requests, whatever the emails, then 429.
	for i := range 10 {
		forgot("127.0.2.1", fmt.Sprintf("nobody%d@example.com", i)).want(t, 204)
	}
	r := forgot("127.0.2.1", "ann@example.com").wantCode(t, 429, codeTooMany)
	if got := r.header.Get("Retry-After"); got != "900" {
		t.Errorf("Retry-After %q, want 900", got)
	}
	forgot("127.0.2.1", "not an email").want(t, 422) // bad input is told as such
	if n := links(); n != 4 {
		t.Errorf("a refused request wrote a link: %d", n)
	}
	forgot("127.0.2.2", "nobody@example.com").want(t, 204)
	l.advance(15 * time.Minute)
	forgot("127.0.2.1", "ann@example.com").want(t, 204)
	if n := links(); n != 5 {
		t.Errorf("%d links after the address's window, want 5", n)
	}
}

// fromAddress is a transport whose connections come from the local address
// ip.
func fromAddress(ip string) *http.Transport {
	return &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}).DialContext}
}
