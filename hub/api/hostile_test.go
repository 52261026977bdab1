package api

import (
	"net/http"
	"strings"
	"testing"
)

// TestHostileInputNever500 sends malformed values to every route: each must
// answer 4xx with the standard error body (the harness fails on any 5xx).
func TestHostileInputNever500(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.owner
	weird := []string{"%00", "a%00b", "%ff%fe", strings.Repeat("x", 3000), "usr_%00aaaaaaaaaaaaaaaa", "..", "%2e%2e%2f"}
	bodies := []string{
		`{"email":"a\u0000b@example.com","password":"x\u0000y","name":"n\u0000","role":"Admin\u0000","token":"t\u0000"}`,
		`{"email":"` + strings.Repeat("e", 5000) + `","password":"` + strings.Repeat("p", 5000) + `"}`,
		`{"name":{"x":1},"email":[],"role":5}`,
	}
	routes := []struct{ method, path string }{
		{"POST", "/api/auth/login"}, {"POST", "/api/auth/register"}, {"POST", "/api/auth/forgot"},
		{"POST", "/api/auth/reset"}, {"POST", "/api/auth/password"}, {"POST", "/api/members"},
		{"POST", "/api/orgs"}, {"PUT", "/api/orgs/" + o.id}, {"POST", "/api/orgs/" + o.id + "/members"},
		{"POST", "/api/orgs/" + o.id + "/projects"}, {"PUT", "/api/projects/" + o.project},
		{"PUT", "/api/projects/" + o.project + "/members/" + o.ids["Tester"]},
		{"PUT", "/api/orgs/" + o.id + "/members/" + o.ids["Tester"]},
	}
	for _, rt := range routes {
		for _, b := range bodies {
			r := c.do(rt.method, rt.path, b)
			if r.status < 400 || r.status >= 500 {
				t.Errorf("%s %s with %.40s...: %d %s", rt.method, rt.path, b, r.status, r.body)
			}
		}
	}
	for _, w := range weird {
		for _, rt := range []struct{ method, path string }{
			{"PUT", "/api/orgs/" + w}, {"DELETE", "/api/orgs/" + w}, {"GET", "/api/orgs/" + w + "/members"},
			{"PUT", "/api/orgs/" + o.id + "/members/" + w}, {"DELETE", "/api/orgs/" + o.id + "/members/" + w},
			{"PUT", "/api/projects/" + w}, {"GET", "/api/projects/" + w + "/members"},
			{"PUT", "/api/projects/" + o.project + "/members/" + w}, {"DELETE", "/api/projects/" + o.project + "/members/" + w},
			{"DELETE", "/api/members/" + w},
		} {
			r := c.do(rt.method, rt.path, `{"name":"x","role":"Tester"}`)
			if r.status != http.StatusNotFound && r.status != http.StatusBadRequest {
				t.Errorf("%s %s: %d %s", rt.method, rt.path, r.status, r.body)
			}
		}
		c.do("GET", "/api/probe", nil, ProjectHeader, w)
	}
	h.client().do("POST", "/api/auth/login", `{"email":"a\u0000@x.y","password":"p"}`)
	if _, err := h.store.ListUsers(t.Context()); err != nil {
		t.Fatal(err)
	}
}
