package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// doc is a valid DSL 2 document body with n steps.
func doc(name string, n int, extra ...string) map[string]any {
	steps := []map[string]any{}
	for i := range n {
		steps = append(steps, map[string]any{"id": fmt.Sprintf("s%d", i+1), "type": "navigate", "url": fmt.Sprintf("https://example.com/%d", i)})
	}
	d := map[string]any{"dsl": 2, "name": name, "steps": steps}
	for i := 0; i+1 < len(extra); i += 2 {
		d[extra[i]] = extra[i+1]
	}
	return d
}

func (c *client) createTest(t testing.TB, project string, body map[string]any) string {
	t.Helper()
	r := c.do("POST", "/api/tests", body, ProjectHeader, project).want(t, 201)
	id := r.str("id")
	if !strings.HasPrefix(id, "tc_") {
		t.Fatalf("create answered %s", r.body)
	}
	return id
}

func (c *client) test(t *testing.T, id string) map[string]any {
	t.Helper()
	return c.do("GET", "/api/tests/"+id, nil).want(t, 200).json()
}

func num(v any) int {
	f, _ := v.(float64)
	return int(f)
}

func TestCreateAndGetTest(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.Tester]
	r := c.do("POST", "/api/tests", map[string]any{"name": "  Sign in ", "suite": "Accounts", "visibility": "Private"}, ProjectHeader, o.project).want(t, 201)
	got := r.json()
	if got["name"] != "Sign in" || got["suite"] != "Accounts" || got["visibility"] != "Private" || got["status"] != "Draft" ||
		num(got["version"]) != 1 || num(got["steps"]) != 0 || got["lastRun"] != nil {
		t.Fatalf("created test: %s", r.body)
	}
	if owner := got["owner"].(map[string]any); owner["id"] != o.ids[access.Tester] {
		t.Errorf("owner %v", owner)
	}
	if r.header.Get("ETag") == "" {
		t.Error("no ETag")
	}
	can := got["can"].(map[string]any)
	if can["edit"] != true || can["markReady"] != false || can["delete"] != true || can["share"] != true {
		t.Errorf("a Tester's can on their own Draft: %v", can)
	}
	// Name is required; visibility is Shared or Private.
	c.do("POST", "/api/tests", map[string]any{"suite": "Accounts"}, ProjectHeader, o.project).want(t, 422)
	c.do("POST", "/api/tests", map[string]any{"name": "X", "visibility": "Public"}, ProjectHeader, o.project).want(t, 422)
	c.do("POST", "/api/tests", map[string]any{"name": "X"}).want(t, 400)
	// A full document is accepted too, and a suite joins the suite list.
	id := c.createTest(t, o.project, doc("Checkout", 3, "suite", "Shop"))
	if got := c.test(t, id); num(got["steps"]) != 3 || got["visibility"] != "Shared" {
		t.Errorf("document create: %v", got)
	}
	// The count of steps counts the steps inside blocks too (docs/flow.md).
	blocks := doc("Blocks", 2)
	blocks["steps"] = append(blocks["steps"].([]map[string]any), map[string]any{"id": "loop", "type": "repeat", "times": 2,
		"steps": []any{map[string]any{"id": "in", "type": "log", "message": "x"}, map[string]any{"id": "in2", "type": "log", "message": "y"}}})
	if got := c.test(t, c.createTest(t, o.project, blocks)); num(got["steps"]) != 5 {
		t.Errorf("a test with a block of 2 steps after 2 steps counts %v steps, want 5", got["steps"])
	}
	suites := c.do("GET", "/api/settings", nil, ProjectHeader, o.project).want(t, 200)
	if !strings.Contains(string(suites.body), `"Accounts"`) || !strings.Contains(string(suites.body), `"Shop"`) {
		t.Errorf("settings modules: %s", suites.body)
	}
}

// roleSet lists which roles an action is allowed for.
func roleSet(roles ...access.Role) map[access.Role]bool {
	m := map[access.Role]bool{}
	for _, r := range roles {
		m[r] = true
	}
	return m
}

var (
	everyone = roleSet(access.Tester, access.TestDeveloper, access.TestManager, access.Admin)
	devsUp   = roleSet(access.TestDeveloper, access.TestManager, access.Admin)
	managers = roleSet(access.TestManager, access.Admin)
)

// TestLifecycleTable walks every row of the spec's transition table and
// DESIGN.md's lifecycle decisions, for each role, on a shared test that
// someone else owns and on the caller's own test.
func TestLifecycleTable(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	author, _ := h.register("Author")
	o.owner.do("POST", "/api/orgs/"+o.id+"/members", map[string]any{"email": author.email(), "role": "Test Developer"}).want(t, 201)
	manager := o.members[access.TestManager]

	// setup makes a test in the wanted status, owned by owner.
	setup := func(owner *client, status string) string {
		id := owner.createTest(t, o.project, doc("Flow", 2))
		if status == "Ready" || status == "Deprecated" {
			manager.do("PUT", "/api/tests/"+id, map[string]any{"status": "Ready"}).want(t, 200)
		}
		if status == "Deprecated" {
			manager.do("PUT", "/api/tests/"+id, map[string]any{"status": "Deprecated"}).want(t, 200)
		}
		return id
	}
	type row struct {
		name   string
		status string // of the test before the action
		own    bool   // the caller owns the test
		method string
		path   string // %s is the test id
		body   any
		// allowed roles get okStatus; the others get refused (403 unless set)
		allowed  map[access.Role]bool
		okStatus int
		refused  int
		after    string // status after success
	}
	rows := []row{
		{"save own draft", "Draft", true, "PUT", "/api/tests/%s", doc("Flow v2", 3), everyone, 200, 403, "Draft"},
		{"save others' shared draft", "Draft", false, "PUT", "/api/tests/%s", doc("Flow v2", 3), devsUp, 200, 403, "Draft"},
		{"mark Ready", "Draft", false, "PUT", "/api/tests/%s", map[string]any{"status": "Ready"}, managers, 200, 403, "Ready"},
		{"save with status Ready", "Draft", true, "PUT", "/api/tests/%s", func() map[string]any { d := doc("Flow", 2); d["status"] = "Ready"; return d }(), managers, 200, 403, "Ready"},
		{"Draft to Deprecated refused", "Draft", true, "PUT", "/api/tests/%s", map[string]any{"status": "Deprecated"}, roleSet(), 0, 409, ""},
		{"edit Ready refused", "Ready", true, "PUT", "/api/tests/%s", doc("Changed", 1), roleSet(), 0, 409, ""},
		{"Ready to Draft refused", "Ready", true, "PUT", "/api/tests/%s", map[string]any{"status": "Draft"}, roleSet(), 0, 409, ""},
		{"deprecate", "Ready", false, "PUT", "/api/tests/%s", map[string]any{"status": "Deprecated"}, managers, 200, 403, "Deprecated"},
		{"edit Deprecated refused", "Deprecated", false, "PUT", "/api/tests/%s", doc("Changed", 1), roleSet(), 0, 409, ""},
		{"revise own Ready", "Ready", true, "POST", "/api/tests/%s/revisions", nil, everyone, 201, 403, "Draft"},
		{"revise others' Ready", "Ready", false, "POST", "/api/tests/%s/revisions", nil, devsUp, 201, 403, "Draft"},
		{"revise Draft refused", "Draft", true, "POST", "/api/tests/%s/revisions", nil, roleSet(), 0, 409, ""},
		{"revise Deprecated refused", "Deprecated", false, "POST", "/api/tests/%s/revisions", nil, roleSet(), 0, 409, ""},
		{"delete own", "Draft", true, "DELETE", "/api/tests/%s", nil, everyone, 204, 403, ""},
		{"delete others' shared", "Ready", false, "DELETE", "/api/tests/%s", nil, managers, 204, 403, ""},
		{"delete Deprecated refused", "Deprecated", false, "DELETE", "/api/tests/%s", nil, roleSet(), 0, 409, ""},
		{"restore on Draft", "Draft", false, "POST", "/api/tests/%s/versions/1/restore", nil, devsUp, 201, 403, "Draft"},
		{"restore Deprecated", "Deprecated", false, "POST", "/api/tests/%s/versions/1/restore", nil, managers, 201, 403, "Draft"},
		{"duplicate", "Deprecated", false, "POST", "/api/tests/%s/duplicate", nil, everyone, 201, 403, "Draft"},
		{"transfer others' shared test", "Draft", false, "PUT", "/api/tests/%s/sharing", "OWNER", managers, 200, 403, "Draft"},
		{"make others' test private", "Draft", false, "PUT", "/api/tests/%s/sharing", map[string]any{"visibility": "Private"}, roleSet(), 0, 403, ""},
	}
	for _, rw := range rows {
		for _, role := range access.Roles {
			t.Run(rw.name+"/"+string(role), func(t *testing.T) {
				caller := o.members[role]
				owner := author
				if rw.own {
					owner = caller
				}
				id := setup(owner, rw.status)
				before := caller.test(t, id)
				body := rw.body
				if body == "OWNER" {
					body = map[string]any{"ownerId": o.ids[role]}
				}
				r := caller.do(rw.method, fmt.Sprintf(rw.path, id), body)
				want := rw.refused
				if rw.allowed[role] {
					want = rw.okStatus
				}
				if r.status != want {
					t.Fatalf("%s %s as %s: %d, want %d: %s", rw.method, rw.path, role, r.status, want, r.body)
				}
				after := author.do("GET", "/api/tests/"+id, nil)
				if want >= 400 || rw.method == "DELETE" || strings.HasSuffix(rw.path, "duplicate") {
					// Refusals and copies change nothing on the test itself.
					if rw.method == "DELETE" && want == 204 {
						after.want(t, 404)
						return
					}
					got := caller.test(t, id)
					for _, k := range []string{"status", "version", "name", "steps"} {
						if got[k] != before[k] {
							t.Errorf("%s changed from %v to %v", k, before[k], got[k])
						}
					}
					if r.status == 201 && strings.HasSuffix(rw.path, "duplicate") {
						cp := r.json()
						if cp["status"] != "Draft" || cp["owner"].(map[string]any)["id"] != o.ids[role] || num(cp["version"]) != 1 || cp["id"] == id {
							t.Errorf("duplicate: %s", r.body)
						}
					}
					return
				}
				if got := r.json(); got["status"] != rw.after {
					t.Errorf("status after: %v, want %s", got["status"], rw.after)
				}
			})
		}
	}
}

func TestVersionsAndRestore(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c, mgr := o.members[access.TestDeveloper], o.members[access.TestManager]
	id := c.createTest(t, o.project, doc("Flow", 1))
	c.do("PUT", "/api/tests/"+id, doc("Flow", 2)).want(t, 200) // overwrites version 1
	if got := c.test(t, id); num(got["version"]) != 1 || num(got["steps"]) != 2 {
		t.Fatalf("a Draft save must overwrite version 1: %v", got)
	}
	mgr.do("PUT", "/api/tests/"+id, map[string]any{"status": "Ready"}).want(t, 200)
	r := c.do("POST", "/api/tests/"+id+"/revisions", nil).want(t, 201)
	if num(r.json()["version"]) != 2 || r.json()["status"] != "Draft" {
		t.Fatalf("revision: %s", r.body)
	}
	c.do("PUT", "/api/tests/"+id, doc("Flow", 5)).want(t, 200)
	v1 := c.do("GET", "/api/tests/"+id+"/versions/1", nil).want(t, 200).json()
	if v1["status"] != "Ready" || len(v1["document"].(map[string]any)["steps"].([]any)) != 2 {
		t.Errorf("frozen version 1 changed: %v", v1)
	}
	r = c.do("POST", "/api/tests/"+id+"/versions/1/restore", nil).want(t, 201)
	if num(r.json()["version"]) != 3 || num(r.json()["steps"]) != 2 || r.json()["status"] != "Draft" {
		t.Fatalf("restore: %s", r.body)
	}
	vs := c.do("GET", "/api/tests/"+id+"/versions", nil).want(t, 200).json()["versions"].([]any)
	if len(vs) != 3 {
		t.Fatalf("versions: %v", vs)
	}
	newest := vs[0].(map[string]any)
	if num(newest["version"]) != 3 || newest["note"] != "restored from version 1" || newest["current"] != true ||
		newest["author"].(map[string]any)["id"] != o.ids[access.TestDeveloper] || newest["createdAt"] == "" {
		t.Errorf("version 3: %v", newest)
	}
	if v2 := vs[1].(map[string]any); num(v2["steps"]) != 5 || v2["status"] != "Draft" {
		t.Errorf("version 2 must keep its 5 steps: %v", v2)
	}
	c.do("GET", "/api/tests/"+id+"/versions/9", nil).want(t, 404)
	c.do("GET", "/api/tests/"+id+"/versions/x", nil).want(t, 404)
	c.do("POST", "/api/tests/"+id+"/versions/0/restore", nil).want(t, 404)
}

func TestSaveValidationAndETag(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.Tester]
	id := c.createTest(t, o.project, doc("Flow", 1))
	bad := doc("Flow", 1)
	bad["steps"] = []map[string]any{{"id": "s1", "type": "navigate"}, {"id": "s1", "type": "clik"}}
	r := c.do("PUT", "/api/tests/"+id, bad).want(t, 422)
	var body struct{ Issues []Issue }
	_ = json.Unmarshal(r.body, &body)
	if len(body.Issues) < 2 {
		t.Errorf("every issue at once, with paths: %s", r.body)
	}
	for _, is := range body.Issues {
		if !strings.HasPrefix(is.Path, "steps[") {
			t.Errorf("issue path %q", is.Path)
		}
	}
	c.do("PUT", "/api/tests/"+id, map[string]any{"status": "Done"}).want(t, 422)
	c.do("PUT", "/api/tests/"+id, "[]").want(t, 400)

	first := c.do("GET", "/api/tests/"+id, nil).want(t, 200)
	tag := first.header.Get("ETag")
	c.do("PUT", "/api/tests/"+id, doc("Flow", 2), "If-Match", tag).want(t, 200)
	r = c.do("PUT", "/api/tests/"+id, doc("Flow", 3), "If-Match", tag).want(t, 412)
	if r.str("code") != "stale" {
		t.Errorf("412 code %q", r.str("code"))
	}
	if got := c.test(t, id); num(got["steps"]) != 2 {
		t.Errorf("a stale save changed the test: %v", got["steps"])
	}
	now := c.do("GET", "/api/tests/"+id, nil).header.Get("ETag")
	c.do("PUT", "/api/tests/"+id, doc("Flow", 3), "If-Match", now).want(t, 200)

	// validate saves nothing.
	v := c.do("POST", "/api/tests/"+id+"/validate", bad).want(t, 200).json()
	if v["valid"] != false || len(v["issues"].([]any)) == 0 {
		t.Errorf("validate: %v", v)
	}
	if v := c.do("POST", "/api/tests/"+id+"/validate", doc("Fine", 1)).want(t, 200).json(); v["valid"] != true {
		t.Errorf("validate good: %v", v)
	}
}

// TestPrivateTestsInvisible: a private test is visible to its owner alone,
// whatever anyone's role, on every tests route, in lists and counts.
func TestPrivateTestsInvisible(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	owner := o.members[access.Tester]
	id := owner.createTest(t, o.project, map[string]any{"name": "Secret flow", "suite": "Hidden", "visibility": "Private"})
	owner.test(t, id)
	routes := []struct {
		method, path string
		body         any
	}{
		{"GET", "/api/tests/%s", nil}, {"PUT", "/api/tests/%s", doc("X", 1)}, {"DELETE", "/api/tests/%s", nil},
		{"POST", "/api/tests/%s/validate", doc("X", 1)}, {"POST", "/api/tests/%s/revisions", nil},
		{"POST", "/api/tests/%s/duplicate", nil}, {"PUT", "/api/tests/%s/sharing", map[string]any{"visibility": "Shared"}},
		{"GET", "/api/tests/%s/versions", nil}, {"GET", "/api/tests/%s/versions/1", nil},
		{"POST", "/api/tests/%s/versions/1/restore", nil},
	}
	missing := "tc_aaaaaaaaaaaaaaaa"
	for _, role := range []access.Role{access.TestDeveloper, access.TestManager, access.Admin} {
		c := o.members[role]
		for _, rt := range routes {
			a := c.do(rt.method, fmt.Sprintf(rt.path, id), rt.body).want(t, 404)
			b := c.do(rt.method, fmt.Sprintf(rt.path, missing), rt.body).want(t, 404)
			if string(a.body) != string(b.body) {
				t.Errorf("%s %s as %s: private test answers differently from a missing one", rt.method, rt.path, role)
			}
		}
		c.do("POST", "/api/script", map[string]any{"testId": id}).want(t, 404)
		list := c.do("GET", "/api/tests", nil, ProjectHeader, o.project).want(t, 200)
		if strings.Contains(string(list.body), id) || num(list.json()["total"]) != 0 {
			t.Errorf("list as %s shows the private test: %s", role, list.body)
		}
		suites := c.do("GET", "/api/suites", nil, ProjectHeader, o.project).want(t, 200)
		// A suite only a private test makes does not exist for others.
		if strings.Contains(string(suites.body), "Hidden") {
			t.Errorf("suites as %s name the private test's suite: %s", role, suites.body)
		}
	}
	if got := owner.test(t, id); got["name"] != "Secret flow" || num(got["version"]) != 1 {
		t.Fatalf("refused requests changed the private test: %v", got)
	}
	// Handing it to another member makes it visible to them alone.
	dev := o.members[access.TestDeveloper]
	owner.do("PUT", "/api/tests/"+id+"/sharing", map[string]any{"ownerId": o.ids[access.TestDeveloper]}).want(t, 200)
	owner.do("GET", "/api/tests/"+id, nil).want(t, 404)
	dev.test(t, id)
	o.members[access.Admin].do("GET", "/api/tests/"+id, nil).want(t, 404)
	dev.do("PUT", "/api/tests/"+id+"/sharing", map[string]any{"ownerId": "usr_aaaaaaaaaaaaaaaa"}).want(t, 422)
	dev.do("PUT", "/api/tests/"+id+"/sharing", map[string]any{"visibility": "Shared"}).want(t, 200)
	o.members[access.Admin].test(t, id)
	if v := dev.do("GET", "/api/tests/"+id+"/versions", nil).want(t, 200).json()["versions"].([]any); len(v) != 1 {
		t.Errorf("sharing must not add versions: %v", v)
	}
}
