package api

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// TestHostileRefusals covers the refusals of issue 26 with hostile input:
// every route the router serves (present or future) refuses a request
// addressed to a foreign host, signed in or not; floods of registrations
// and reset requests from one address end in 429 with Retry-After while
// bad input still answers 4xx; webhook addresses hiding a link-local IPv4
// address in an IPv6 form are refused however they are spelled; a pending
// computer's id approves nothing. No answer is a 5xx, every error has the
// standard body (checked by the helpers).
func TestHostileRefusals(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	owner := o.owner
	for _, rt := range walkRoutes(t, h.api.Handler(nil)) {
		path := rt.pattern
		for _, i := range rt.params {
			path = strings.Replace(path, rt.segments[i], "x", 1)
		}
		for _, host := range []string{"evil.example", "evil.example:80", "xn--80ak6aa92e.com", "127.0.0.1.evil.example", "EVIL.EXAMPLE."} {
			req, err := http.NewRequest(rt.method, h.srv.URL+path, strings.NewReader(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			req.Host = host
			req.Header.Set("Origin", "http://"+host)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(ProjectHeader, o.project)
			resp, err := owner.http.Do(req)
			if err != nil {
				t.Fatalf("%s %s as %s: %v", rt.method, path, host, err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusMisdirectedRequest {
				t.Errorf("%s %s addressed to %q answered %d, want 421", rt.method, path, host, resp.StatusCode)
			}
		}
	}

	l := newLimitedHub(t)
	flood := func(path string, valid func(i int) string, limit int) {
		t.Helper()
		junk := []string{`{"name":"X","email":"x\u0000@example.com","password":"correct horse battery"}`, `{"email":5}`, `{`,
			`{"name":"X","email":"` + strings.Repeat("e", 5000) + `@example.com","password":"correct horse battery"}`}
		for i := range limit + 5 {
			r := l.post(t, "127.0.3.1", path, valid(i))
			switch {
			case i < limit && r.status >= 300:
				t.Errorf("%s request %d: %d %s", path, i, r.status, r.body)
			case i >= limit && (r.status != 429 || r.str("code") != codeTooMany || r.header.Get("Retry-After") == ""):
				t.Errorf("%s request %d over the limit: %d %v %s", path, i, r.status, r.header, r.body)
			}
			for _, b := range junk { // bad input is told as such, over the limit or not
				if r := l.post(t, "127.0.3.1", path, b); r.status != 400 && r.status != 422 {
					t.Errorf("%s %.40q: %d %s", path, b, r.status, r.body)
				}
			}
		}
	}
	flood("/api/auth/register", func(i int) string {
		return fmt.Sprintf(`{"name":"Flood %d","email":"flood%d@example.com","password":"correct horse battery"}`, i, i)
	}, 5)
	flood("/api/auth/forgot", func(i int) string { return fmt.Sprintf(`{"email":"flood%d@example.com"}`, i) }, 10)

	mgr := o.members[access.TestManager]
	for _, u := range []string{"http://[64:FF9B::A9FE:A9FE]/", "http://[0:0:0:0:0:ffff:a9fe:a9fe]/", "http://[::ffff:169.254.169.254]:80/",
		"http://[64:ff9b::a9fe:a9fe%25eth0]/", "https://[64:ff9b:0:0:0:0:a9fe:a9fe]:443/x?y", "http://[2002:a9fe:a9fe:0:0:0:0:1]/",
		"http://[64:ff9b::]/", "http://[::ffff:0.0.0.0]/", "http://[64:ff9b::e000:1]/"} {
		mgr.projectDo(o.project, "POST", "/api/webhooks", obj{"name": "Hidden", "url": u}).want(t, 422)
	}
	owner.do("POST", "/api/agent/pair/pnd_aaaaaaaaaaaaaaaa", nil).want(t, 404)
}
