package api

import (
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// GET /api/storage shows every project's storage, so only platform
// administrators have it: every project role, an organization's own
// Admin, an outsider and their API tokens are refused (403), a visitor
// signed out 401; whatever a query or a project header says changes
// neither the answer nor who gets it.
func TestHostileStorage(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	admin := o.owner // registered first: the platform administrator
	outsider, _ := h.register("Outsider")
	ownOrg := outsider.do("POST", "/api/orgs", map[string]string{"name": "Own"}).want(t, 201).str("id")
	ownProject := outsider.do("POST", "/api/orgs/"+ownOrg+"/projects", map[string]string{"name": "Mine"}).want(t, 201).str("id")
	refused := map[string]*client{"outsider, Admin of their own organization": outsider}
	for _, role := range access.Roles {
		refused[string(role)] = o.members[role]
	}
	for who, c := range refused {
		for _, path := range []string{"/api/storage", "/api/storage?projectId=" + o.project, "/api/storage?all=1&org=" + o.id} {
			if r := c.do("GET", path, nil, ProjectHeader, ownProject).want(t, 403); r.str("code") != codeForbidden {
				t.Errorf("%s: %s", who, r.body)
			}
		}
		c.do("POST", "/api/storage", nil).want(t, 405)
	}
	_, token := o.members[access.Admin].newToken(t, map[string]any{"name": "ci"})
	h.bearer(token).do("GET", "/api/storage", nil).want(t, 403)
	h.client().do("GET", "/api/storage", nil).want(t, 401)

	first := admin.do("GET", "/api/storage", nil).want(t, 200)
	for _, path := range []string{"/api/storage?projectId=" + ownProject, "/api/storage?limit=-1&cursor=%00"} {
		if r := admin.do("GET", path, nil, ProjectHeader, "prj_zzzzzzzzzzzzzzzz"); r.status != 200 || string(r.body) != string(first.body) {
			t.Errorf("%s with a stray header: %d %s", path, r.status, r.body)
		}
	}
	if n := len(first.json()["projects"].([]any)); n != 2 {
		t.Errorf("the administrator sees %d projects, want both: %s", n, first.body)
	}
	_, adminToken := admin.newToken(t, map[string]any{"name": "ops"})
	h.bearer(adminToken).do("GET", "/api/storage", nil).want(t, 200)
}
