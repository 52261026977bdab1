package api

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestUnknownAPIRouteNeedsSession(t *testing.T) {
	h := newHarness(t)
	anon := h.client()
	for _, path := range []string{"/api/nope", "/api/tests", "/api/orgs", "/api/auth/login/"} {
		r := anon.do("GET", path, nil).want(t, 401)
		if r.str("code") != "unauthenticated" {
			t.Errorf("GET %s code %q", path, r.str("code"))
		}
	}
	c, _ := h.register("Ann")
	c.do("GET", "/api/nope", nil).want(t, 404)
	if r := c.do("DELETE", "/api/context", nil).want(t, 405); r.str("code") != "method_not_allowed" {
		t.Errorf("405 code %q", r.str("code"))
	}
}

func TestHealthz(t *testing.T) {
	h := newHarness(t)
	r := h.client().do("GET", "/healthz", nil).want(t, 200)
	if r.str("status") != "ok" {
		t.Fatalf("healthz: %s", r.body)
	}
}

func sessionCookie(t *testing.T, r response) *http.Cookie {
	t.Helper()
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Name == CookieName {
			return c
		}
	}
	t.Fatalf("no %s cookie in %v", CookieName, r.header)
	return nil
}

func TestRegisterSignInSignOut(t *testing.T) {
	h := newHarness(t)
	c := h.client()
	if r := c.do("GET", "/api/auth/session", nil).want(t, 200); strings.TrimSpace(string(r.body)) != "null" {
		t.Fatalf("session without sign-in = %s, want null", r.body)
	}
	r := c.do("POST", "/api/auth/register", map[string]string{"name": " Ann Lee ", "email": "Ann@Example.com", "password": "correct horse battery"}).want(t, 201)
	if r.str("email") != "ann@example.com" || r.str("name") != "Ann Lee" || !strings.HasPrefix(r.str("id"), "usr_") {
		t.Fatalf("register answered %s", r.body)
	}
	if r.json()["platformAdmin"] != true {
		t.Error("the first account should become platform administrator")
	}
	if strings.Contains(string(r.body), "scrypt") || strings.Contains(string(r.body), "password") {
		t.Errorf("registration answer leaks the password hash: %s", r.body)
	}
	ck := sessionCookie(t, r)
	if !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || ck.Path != "/" || ck.Secure {
		t.Errorf("cookie flags: HttpOnly=%v SameSite=%v Path=%q Secure=%v", ck.HttpOnly, ck.SameSite, ck.Path, ck.Secure)
	}
	if len(ck.Value) < 40 {
		t.Errorf("session token too short: %d", len(ck.Value))
	}
	// The token is stored only as its digest.
	var stored int
	if err := h.store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM sessions WHERE token_hash = convert_to($1, 'UTF8')`, ck.Value).Scan(&stored); err != nil || stored != 0 {
		t.Errorf("raw session token found in the database (%d, %v)", stored, err)
	}
	if got := c.do("GET", "/api/auth/session", nil).want(t, 200).str("id"); got != r.str("id") {
		t.Fatalf("session user %q, want %q", got, r.str("id"))
	}
	_, secondID := h.register("Bob")
	if u, _ := h.store.UserByID(t.Context(), secondID); u.PlatformAdmin {
		t.Error("the second account must not be platform administrator")
	}

	out := c.do("POST", "/api/auth/logout", nil).want(t, 204)
	if ck := sessionCookie(t, out); ck.MaxAge >= 0 && ck.Value != "" {
		t.Errorf("logout did not clear the cookie: %+v", ck)
	}
	c.do("GET", "/api/context", nil).want(t, 401)

	// Sign in again, with the email in another case.
	in := c.do("POST", "/api/auth/login", map[string]string{"email": "ANN@example.com", "password": "correct horse battery"}).want(t, 200)
	if in.str("id") != r.str("id") {
		t.Fatalf("login answered %s", in.body)
	}
	c.do("GET", "/api/context", nil).want(t, 200)
	c.do("POST", "/api/auth/login", map[string]string{"email": "ann@example.com", "password": "wrong password!"}).want(t, 401)
	c.do("POST", "/api/auth/login", map[string]string{"email": "nobody@example.com", "password": "wrong password!"}).want(t, 401)
}

func TestSecureCookieBehindTLS(t *testing.T) {
	h := newHarness(t)
	h.api.BaseURL = "https://hub.example.com"
	r := h.client().do("POST", "/api/auth/register", map[string]string{"name": "Ann", "email": "ann@example.com", "password": "correct horse battery"}).want(t, 201)
	if !sessionCookie(t, r).Secure {
		t.Error("cookie must be Secure when the hub is served over https")
	}
}

func TestRegisterValidation(t *testing.T) {
	h := newHarness(t)
	h.register("First")
	for _, tc := range []struct {
		name  string
		body  any
		paths []string
	}{
		{"empty", map[string]string{}, []string{"name", "email", "password"}},
		{"bad email", map[string]string{"name": "A", "email": "not-an-email", "password": "long enough pw"}, []string{"email"}},
		{"display name in email", map[string]string{"name": "A", "email": "A <a@example.com>", "password": "long enough pw"}, []string{"email"}},
		{"short password", map[string]string{"name": "A", "email": "a@example.com", "password": "short"}, []string{"password"}},
		{"nine characters", map[string]string{"name": "A", "email": "a@example.com", "password": "123456789"}, []string{"password"}},
		{"blank name", map[string]string{"name": "   ", "email": "a@example.com", "password": "long enough pw"}, []string{"name"}},
		{"long name", map[string]string{"name": strings.Repeat("x", 101), "email": "a@example.com", "password": "long enough pw"}, []string{"name"}},
		{"control in name", map[string]string{"name": "A\x00B", "email": "a@example.com", "password": "long enough pw"}, []string{"name"}},
		{"bidi override in name", map[string]string{"name": "Ann\u202eeL", "email": "a@example.com", "password": "long enough pw"}, []string{"name"}},
		{"zero width joiner in email", map[string]string{"name": "A", "email": "a\u200d@example.com", "password": "long enough pw"}, []string{"email"}},
		{"wrong type", map[string]any{"name": 5, "email": "a@example.com", "password": "long enough pw"}, []string{"name"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.client().do("POST", "/api/auth/register", tc.body).want(t, 422)
			var got []string
			for _, is := range r.json()["issues"].([]any) {
				got = append(got, is.(map[string]any)["path"].(string))
			}
			if strings.Join(got, ",") != strings.Join(tc.paths, ",") {
				t.Errorf("issue paths %v, want %v", got, tc.paths)
			}
		})
	}
	users, _ := h.store.ListUsers(t.Context())
	if len(users) != 1 {
		t.Fatalf("invalid registrations created accounts: %d users", len(users))
	}
	ok := map[string]string{"name": "Ann", "email": "ann@example.com", "password": "1234567890"}
	h.client().do("POST", "/api/auth/register", ok).want(t, 201)
	ok["email"] = "ANN@example.com"
	if r := h.client().do("POST", "/api/auth/register", ok).want(t, 409); r.str("code") != "email_taken" {
		t.Errorf("duplicate code %q", r.str("code"))
	}
}

func TestSessionIdleAndAbsoluteExpiry(t *testing.T) {
	h := newHarness(t)
	idle, _ := h.register("Idle")
	busy, _ := h.register("Busy")
	h.advance(7*24*time.Hour - time.Minute)
	idle.do("GET", "/api/context", nil).want(t, 200) // used within 7 days: renewed
	busy.do("GET", "/api/context", nil).want(t, 200)
	h.advance(7*24*time.Hour + time.Minute)
	idle.do("GET", "/api/context", nil).want(t, 401) // 7 days unused
	if r := idle.do("GET", "/api/auth/session", nil).want(t, 200); strings.TrimSpace(string(r.body)) != "null" {
		t.Fatalf("expired session still answers a user: %s", r.body)
	}
	// busy was used at day 7 - 1 min; keep using it every 6 days until past day 30.
	busy2, _ := h.register("Busy Two")
	for day := 0; day < 4; day++ {
		h.advance(6 * 24 * time.Hour)
		busy2.do("GET", "/api/context", nil).want(t, 200)
	}
	h.advance(6*24*time.Hour + time.Hour) // 30 days and 1 hour after sign-in
	busy2.do("GET", "/api/context", nil).want(t, 401)
}

func TestSignInLimit(t *testing.T) {
	h := newHarness(t)
	tc, _ := h.register("Target")
	target := tc.email()
	c := h.client()
	bad := map[string]string{"email": target, "password": "wrong wrong wrong"}
	good := map[string]string{"email": target, "password": "correct horse battery"}
	for i := 0; i < 5; i++ {
		c.do("POST", "/api/auth/login", bad).want(t, 401)
	}
	r := c.do("POST", "/api/auth/login", bad).want(t, 429)
	if ra, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || ra <= 0 || ra > 900 {
		t.Errorf("Retry-After %q", r.header.Get("Retry-After"))
	}
	c.do("POST", "/api/auth/login", good).want(t, 429) // even the right password waits
	h.advance(15*time.Minute + time.Second)
	c.do("POST", "/api/auth/login", good).want(t, 200)
	// A success clears the email's failures.
	for i := 0; i < 4; i++ {
		c.do("POST", "/api/auth/login", bad).want(t, 401)
	}
	c.do("POST", "/api/auth/login", good).want(t, 200)
	c.do("POST", "/api/auth/login", bad).want(t, 401)
}

func TestSignInLimitPerAddress(t *testing.T) {
	h := newHarness(t)
	c := h.client()
	rc, _ := h.register("Real")
	real := rc.email()
	for i := 0; i < 19; i++ {
		email := "guess" + strconv.Itoa(i/4) + "@example.com"
		c.do("POST", "/api/auth/login", map[string]string{"email": email, "password": "guessing again"}).want(t, 401)
	}
	c.do("POST", "/api/auth/login", map[string]string{"email": real, "password": "wrong password"}).want(t, 401) // 20th
	c.do("POST", "/api/auth/login", map[string]string{"email": real, "password": "correct horse battery"}).want(t, 429)
	c.do("POST", "/api/auth/login", map[string]string{"email": "other@example.com", "password": "whatever it is"}).want(t, 429)
	h.advance(16 * time.Minute)
	c.do("POST", "/api/auth/login", map[string]string{"email": real, "password": "correct horse battery"}).want(t, 200)
}

func TestSuccessKeepsAddressCounter(t *testing.T) {
	h := newHarness(t)
	c := h.client()
	rc, _ := h.register("Real")
	real := rc.email()
	for i := 0; i < 4; i++ {
		c.do("POST", "/api/auth/login", map[string]string{"email": real, "password": "wrong password"}).want(t, 401)
	}
	c.do("POST", "/api/auth/login", map[string]string{"email": real, "password": "correct horse battery"}).want(t, 200)
	for i := 0; i < 16; i++ {
		c.do("POST", "/api/auth/login", map[string]string{"email": "x" + strconv.Itoa(i) + "@example.com", "password": "wrong password"}).want(t, 401)
	}
	// 4 + 16 = 20 failures from this address within the window.
	c.do("POST", "/api/auth/login", map[string]string{"email": "y@example.com", "password": "wrong password"}).want(t, 429)
}

func TestPasswordChangeSignsOutOtherSessions(t *testing.T) {
	h := newHarness(t)
	a, _ := h.register("Ann")
	email := a.email()
	other := h.client()
	other.do("POST", "/api/auth/login", map[string]string{"email": email, "password": "correct horse battery"}).want(t, 200)

	r := a.do("POST", "/api/auth/password", map[string]string{"currentPassword": "not my password", "newPassword": "a brand new password"}).want(t, 422)
	if !strings.Contains(string(r.body), "currentPassword") {
		t.Errorf("wrong current password issue: %s", r.body)
	}
	a.do("POST", "/api/auth/password", map[string]string{"currentPassword": "correct horse battery", "newPassword": "short"}).want(t, 422)
	other.do("GET", "/api/context", nil).want(t, 200) // nothing changed yet

	a.do("POST", "/api/auth/password", map[string]string{"currentPassword": "correct horse battery", "newPassword": "a brand new password"}).want(t, 204)
	a.do("GET", "/api/context", nil).want(t, 200)
	other.do("GET", "/api/context", nil).want(t, 401)
	h.client().do("POST", "/api/auth/login", map[string]string{"email": email, "password": "correct horse battery"}).want(t, 401)
	h.client().do("POST", "/api/auth/login", map[string]string{"email": email, "password": "a brand new password"}).want(t, 200)
}

var resetLink = regexp.MustCompile(`password reset link for (\S+): (http://hub\.test/reset\?token=[A-Za-z0-9_-]+)`)

func TestForgotAndReset(t *testing.T) {
	h := newHarness(t)
	a, _ := h.register("Ann")
	email := a.email()

	h.client().do("POST", "/api/auth/forgot", map[string]string{"email": "nobody@example.com"}).want(t, 204)
	h.api.Wait()
	if strings.Contains(h.logs.String(), "password reset link") {
		t.Fatal("a reset link was printed for an unknown email")
	}
	h.client().do("POST", "/api/auth/forgot", map[string]string{"email": "not an email"}).want(t, 422)
	h.client().do("POST", "/api/auth/forgot", map[string]string{"email": strings.ToUpper(email)}).want(t, 204)
	h.api.Wait()
	m := resetLink.FindStringSubmatch(h.logs.String())
	if m == nil || m[1] != email {
		t.Fatalf("no reset link for %s in the log:\n%s", email, h.logs.String())
	}
	u, _ := url.Parse(m[2])
	token := u.Query().Get("token")

	anon := h.client()
	anon.do("POST", "/api/auth/reset", map[string]string{"token": token, "password": "short"}).want(t, 422)
	anon.do("POST", "/api/auth/reset", map[string]string{"token": "made-up", "password": "a long new password"}).want(t, 422)
	anon.do("POST", "/api/auth/reset", map[string]string{"token": token, "password": "a long new password"}).want(t, 204)
	r := anon.do("POST", "/api/auth/reset", map[string]string{"token": token, "password": "another new password"}).want(t, 422)
	if !strings.Contains(string(r.body), `"token"`) {
		t.Errorf("reused token issue: %s", r.body)
	}
	a.do("GET", "/api/context", nil).want(t, 401) // sessions revoked by the reset
	h.client().do("POST", "/api/auth/login", map[string]string{"email": email, "password": "a long new password"}).want(t, 200)
	h.client().do("POST", "/api/auth/login", map[string]string{"email": email, "password": "another new password"}).want(t, 401)
}

func TestResetTokenExpires(t *testing.T) {
	h := newHarness(t)
	a, _ := h.register("Ann")
	email := a.email()
	h.client().do("POST", "/api/auth/forgot", map[string]string{"email": email}).want(t, 204)
	h.api.Wait()
	m := resetLink.FindStringSubmatch(h.logs.String())
	if m == nil {
		t.Fatal("no reset link")
	}
	u, _ := url.Parse(m[2])
	h.advance(61 * time.Minute)
	h.client().do("POST", "/api/auth/reset", map[string]string{"token": u.Query().Get("token"), "password": "a long new password"}).want(t, 422)
	h.client().do("POST", "/api/auth/login", map[string]string{"email": email, "password": "correct horse battery"}).want(t, 200)
}

func TestRequestBodies(t *testing.T) {
	h := newHarness(t)
	c := h.client()
	big := `{"name":"` + strings.Repeat("a", maxBody) + `","email":"a@example.com","password":"long enough pw"}`
	c.do("POST", "/api/auth/register", big).want(t, 413)
	for _, body := range []string{"", "{", "[1,2]", `{"name":"A"} {"x":1}`, "nul", `"text"`} {
		c.do("POST", "/api/auth/register", body).want(t, 400)
	}
	c.do("POST", "/api/auth/login", `{"email": ["a"], "password": "x"}`).want(t, 422)
	users, _ := h.store.ListUsers(t.Context())
	if len(users) != 0 {
		t.Fatal("bad bodies created accounts")
	}
}

// Parallel attempts cannot slip past the limit: each is counted before its
// password is checked.
func TestSignInLimitUnderParallelAttempts(t *testing.T) {
	h := newHarness(t)
	tc, _ := h.register("Target")
	email := tc.email()
	var wg sync.WaitGroup
	statuses := make([]int, 30)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = h.client().do("POST", "/api/auth/login", map[string]string{"email": email, "password": "wrong guess " + strconv.Itoa(i)}).status
		}()
	}
	wg.Wait()
	count := map[int]int{}
	for _, s := range statuses {
		count[s]++
	}
	if count[401] != 5 || count[429] != 25 {
		t.Fatalf("30 parallel wrong sign-ins: %v; want 5 refused as wrong and 25 as too many", count)
	}
}
