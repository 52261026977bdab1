package api

import (
	"fmt"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// TestRefusalsAreAudited: reaching into a project or organization the
// caller is not in is refused as if it did not exist and written to the
// audit log, whichever way it is tried: a list or create route's
// x-project-id, another organization's routes, or another project's
// environment in POST /api/runs. Ids that name nothing are not audited.
func TestRefusalsAreAudited(t *testing.T) {
	h := newHarness(t)
	o, theirs := h.org(t), h.org(t)
	c, cID := o.members[access.TestManager], o.ids[access.TestManager]
	test := c.createTest(t, o.project, doc("Mine", 1))
	env := theirs.owner.projectDo(theirs.project, "POST", "/api/environments", map[string]any{"name": "Theirs"}).want(t, 201).str("id")
	if n := len(readAudit(t, h)); n != 0 {
		t.Fatalf("%d audit lines before any refusal", n)
	}

	type want struct{ event, method, path, record, header, org string }
	var wants []want
	same := func(a, b response) {
		t.Helper()
		if string(a.body) != string(b.body) || a.status != b.status {
			t.Errorf("an existing record answers %d %s, a missing one %d %s", a.status, a.body, b.status, b.body)
		}
	}

	// Another project's environment for a run.
	r := c.do("POST", "/api/runs", map[string]any{"testId": test, "environmentId": env}, ProjectHeader, o.project).want(t, 422)
	same(r, c.do("POST", "/api/runs", map[string]any{"testId": test, "environmentId": "env_aaaaaaaaaaaaaaaa"}, ProjectHeader, o.project))
	wants = append(wants, want{"cross_project_refused", "POST", "/api/runs", theirs.project, o.project, ""})

	// List and create routes with the header of a project the caller is not in.
	for _, rq := range []struct {
		method, path string
		body         any
	}{{"GET", "/api/tests", nil}, {"POST", "/api/tests", doc("Sneaky", 0)}, {"GET", "/api/environments", nil}, {"GET", "/api/runs", nil}} {
		r := c.do(rq.method, rq.path, rq.body, ProjectHeader, theirs.project).want(t, 404)
		same(r, c.do(rq.method, rq.path, rq.body, ProjectHeader, "prj_aaaaaaaaaaaaaaaa"))
		wants = append(wants, want{"cross_project_refused", rq.method, rq.path, theirs.project, theirs.project, ""})
	}

	// Another organization's routes.
	for _, rq := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/orgs/%s/members", nil}, {"POST", "/orgs/%s/members", map[string]any{"email": "x@example.com", "role": "Tester"}},
		{"GET", "/orgs/%s/projects", nil}, {"POST", "/orgs/%s/projects", map[string]string{"name": "Mine now"}},
		{"PUT", "/orgs/%s", map[string]string{"name": "Mine now"}}, {"DELETE", "/orgs/%s", nil},
		{"PUT", "/orgs/%s/members/" + cID, map[string]string{"role": "Admin"}}, {"DELETE", "/orgs/%s/members/" + theirs.ids[access.Admin], nil},
	} {
		path := "/api" + fmt.Sprintf(rq.path, theirs.id)
		r := c.do(rq.method, path, rq.body).want(t, 404)
		same(r, c.do(rq.method, "/api"+fmt.Sprintf(rq.path, "org_aaaaaaaaaaaaaaaa"), rq.body))
		wants = append(wants, want{"cross_org_refused", rq.method, path, "", "", theirs.id})
	}

	lines := readAudit(t, h)
	if len(lines) != len(wants) {
		t.Fatalf("%d audit lines, want %d: %v", len(lines), len(wants), lines)
	}
	for i, w := range wants {
		l := lines[i]
		org, _ := l["org"].(string)
		if l["event"] != w.event || l["user"] != cID || l["method"] != w.method || l["path"] != w.path ||
			l["recordProject"] != w.record || l["headerProject"] != w.header || org != w.org || l["time"] == "" {
			t.Errorf("audit line %d: %v, want %+v", i, l, w)
		}
	}
	// Nothing changed in their organization.
	if r := theirs.owner.do("GET", "/api/orgs/"+theirs.id+"/members", nil).want(t, 200); len(r.json()["members"].([]any)) != 5 {
		t.Errorf("their members: %s", r.body)
	}
}
