package api

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// org is an organization with one project and a member per role.
type org struct {
	id, project string
	owner       *client
	members     map[access.Role]*client
	ids         map[access.Role]string
}

func (h *harness) org(t testing.TB) org {
	t.Helper()
	owner, _ := h.register("Owner")
	o := org{owner: owner, members: map[access.Role]*client{}, ids: map[access.Role]string{}}
	r := owner.do("POST", "/api/orgs", map[string]string{"name": "Acme"}).want(t, 201)
	o.id = r.str("id")
	if r.str("role") != "Admin" {
		t.Fatalf("creator's role %q", r.str("role"))
	}
	o.project = owner.do("POST", "/api/orgs/"+o.id+"/projects", map[string]string{"name": "Shop"}).want(t, 201).str("id")
	for _, role := range access.Roles {
		c, id := h.register(string(role))
		owner.do("POST", "/api/orgs/"+o.id+"/members", map[string]any{"email": c.email(), "role": role}).want(t, 201)
		o.members[role], o.ids[role] = c, id
	}
	return o
}

// TestRoleMatrix tries every permission as every role through HTTP: 2xx
// where DESIGN.md's matrix allows it, 403 where it does not.
func TestRoleMatrix(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	// DESIGN.md's matrix: the roles that hold each permission.
	design := map[access.Permission]string{
		access.ViewProject:        "Tester,Test Developer,Test Manager,Admin",
		access.RunTests:           "Tester,Test Developer,Test Manager,Admin",
		access.AuthorTests:        "Tester,Test Developer,Test Manager,Admin",
		access.EditSharedTests:    "Test Developer,Test Manager,Admin",
		access.ManageTests:        "Test Manager,Admin",
		access.ManageEnvironments: "Test Manager,Admin",
		access.ManageWebhooks:     "Test Manager,Admin",
		access.ManageSchedules:    "Test Manager,Admin",
		access.RunProtected:       "Test Manager,Admin",
		access.AdministerProject:  "Admin",
	}
	if len(design) != len(access.Matrix) {
		t.Fatalf("matrix has %d permissions, design %d", len(access.Matrix), len(design))
	}
	for p, holders := range design {
		for _, role := range access.Roles {
			c := o.members[role]
			want := 403
			if strings.Contains(","+holders+",", ","+string(role)+",") {
				want = 200
			}
			r := c.do("GET", "/api/probe?perm="+string(p), nil, ProjectHeader, o.project)
			if r.status != want {
				t.Errorf("%s as %s: %d, want %d: %s", p, role, r.status, want, r.body)
			}
			if want == 403 && !strings.Contains(r.str("error"), string(role)) {
				t.Errorf("403 should name the caller's role: %s", r.body)
			}
		}
	}
	// The routes that exist today, per role.
	for _, role := range access.Roles {
		c := o.members[role]
		adminOnly := 403
		if role == access.Admin {
			adminOnly = 200
		}
		c.do("GET", "/api/projects/"+o.project+"/members", nil).want(t, 200)
		c.do("PUT", "/api/projects/"+o.project, map[string]string{"name": "Shop " + string(role)}).want(t, adminOnly)
		c.do("PUT", "/api/projects/"+o.project+"/members/"+o.ids[access.Tester], map[string]string{"role": "Tester"}).want(t, adminOnly)
		c.do("GET", "/api/orgs/"+o.id+"/members", nil).want(t, 200)
		c.do("GET", "/api/orgs/"+o.id+"/projects", nil).want(t, 200)
		c.do("PUT", "/api/orgs/"+o.id, map[string]string{"name": "Acme " + string(role)}).want(t, adminOnly)
		r := c.do("POST", "/api/orgs/"+o.id+"/projects", map[string]string{"name": "New " + string(role)})
		if want := map[int]int{200: 201, 403: 403}[adminOnly]; r.status != want {
			t.Errorf("create project as %s: %d, want %d", role, r.status, want)
		}
	}
	// GET /api/roles serves the same matrix.
	r := o.members[access.Tester].do("GET", "/api/roles", nil).want(t, 200)
	var roles struct {
		Roles       []access.Role
		Permissions []struct {
			ID    access.Permission
			Roles []access.Role
		}
	}
	if err := json.Unmarshal(r.body, &roles); err != nil {
		t.Fatal(err)
	}
	if len(roles.Roles) != 4 || len(roles.Permissions) != len(access.Matrix) {
		t.Fatalf("roles answered %s", r.body)
	}
	for _, p := range roles.Permissions {
		for _, role := range access.Roles {
			listed := strings.Contains(","+joinRoles(p.Roles)+",", ","+string(role)+",")
			if listed != access.Allows(role, p.ID) {
				t.Errorf("/api/roles says %s for %s = %v; checks say %v", p.ID, role, listed, !listed)
			}
		}
	}
}

func joinRoles(rs []access.Role) string {
	var s []string
	for _, r := range rs {
		s = append(s, string(r))
	}
	return strings.Join(s, ",")
}

func TestProjectRoleOverridesOrgRole(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	tester, dev := o.members[access.Tester], o.members[access.TestDeveloper]
	tester.do("GET", "/api/probe?perm=tests.manage", nil, ProjectHeader, o.project).want(t, 403)
	o.owner.do("PUT", "/api/projects/"+o.project+"/members/"+o.ids[access.Tester], map[string]string{"role": "Test Manager"}).want(t, 200)
	tester.do("GET", "/api/probe?perm=tests.manage", nil, ProjectHeader, o.project).want(t, 200)
	// A project role can also lower a member's role in one project.
	o.owner.do("PUT", "/api/projects/"+o.project+"/members/"+o.ids[access.TestDeveloper], map[string]string{"role": "Tester"}).want(t, 200)
	dev.do("GET", "/api/probe?perm=tests.edit_shared", nil, ProjectHeader, o.project).want(t, 403)

	// /api/context shows effective roles.
	ctx := tester.do("GET", "/api/context", nil).want(t, 200)
	var c struct {
		Organizations []struct {
			ID       string
			Role     string
			Projects []struct{ ID, Role string }
		}
	}
	_ = json.Unmarshal(ctx.body, &c)
	if len(c.Organizations) != 1 || c.Organizations[0].Role != "Tester" || len(c.Organizations[0].Projects) != 1 || c.Organizations[0].Projects[0].Role != "Test Manager" {
		t.Fatalf("context: %s", ctx.body)
	}
	// The member list shows both levels.
	ms := o.owner.do("GET", "/api/projects/"+o.project+"/members", nil).want(t, 200)
	if !strings.Contains(string(ms.body), `"role":"Test Manager","orgRole":"Tester","projectRole":"Test Manager"`) {
		t.Errorf("project members: %s", ms.body)
	}
	// Removing the project role restores the organization role.
	o.owner.do("DELETE", "/api/projects/"+o.project+"/members/"+o.ids[access.Tester], nil).want(t, 204)
	tester.do("GET", "/api/probe?perm=tests.manage", nil, ProjectHeader, o.project).want(t, 403)
	o.owner.do("DELETE", "/api/projects/"+o.project+"/members/"+o.ids[access.Tester], nil).want(t, 404)
	// Organization Admins are Admin everywhere.
	o.owner.do("PUT", "/api/projects/"+o.project+"/members/"+o.ids[access.Admin], map[string]string{"role": "Tester"}).want(t, 409)
	o.owner.do("PUT", "/api/projects/"+o.project+"/members/"+o.ids[access.Admin], map[string]string{"role": "Boss"}).want(t, 422)
	outsider, outsiderID := h.register("Outsider")
	o.owner.do("PUT", "/api/projects/"+o.project+"/members/"+outsiderID, map[string]string{"role": "Tester"}).want(t, 404)
	outsider.do("GET", "/api/probe", nil, ProjectHeader, o.project).want(t, 404)
}

func readAudit(t *testing.T, h *harness) []map[string]any {
	t.Helper()
	f, err := os.Open(filepath.Join(h.dataDir, "audit.log"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("audit line is not JSON: %q", sc.Text())
		}
		out = append(out, m)
	}
	return out
}

func TestProjectScoping(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	other := o.owner.do("POST", "/api/orgs/"+o.id+"/projects", map[string]string{"name": "Other"}).want(t, 201).str("id")
	c := o.members[access.Tester]

	// List and create routes: the header names the project.
	if r := c.do("GET", "/api/probe", nil).want(t, 400); r.str("code") != "project_required" {
		t.Errorf("missing header: %s", r.body)
	}
	c.do("GET", "/api/probe", nil, ProjectHeader, "Shop").want(t, 400)
	c.do("GET", "/api/probe", nil, ProjectHeader, "prj_aaaaaaaaaaaaaaaa").want(t, 404)
	if r := c.do("GET", "/api/probe", nil, ProjectHeader, o.project).want(t, 200); r.str("project") != o.project || r.str("role") != "Tester" {
		t.Errorf("probe: %s", r.body)
	}
	if n := len(readAudit(t, h)); n != 0 {
		t.Fatalf("%d audit lines before any cross-project request", n)
	}

	// Routes with an id use the record's project: naming another project in
	// the header is refused as not found and audited.
	c.do("GET", "/api/projects/"+o.project+"/members", nil, ProjectHeader, o.project).want(t, 200)
	r := c.do("GET", "/api/projects/"+o.project+"/members", nil, ProjectHeader, other).want(t, 404)
	if r.str("code") != "not_found" {
		t.Errorf("cross-project code %q", r.str("code"))
	}
	// A malformed header is a bad request, not a cross-project attempt.
	c.do("GET", "/api/projects/"+o.project+"/members", nil, ProjectHeader, strings.Repeat("x", 5000)).want(t, 400)
	lines := readAudit(t, h)
	if len(lines) != 1 {
		t.Fatalf("audit lines %d, want 1", len(lines))
	}
	l := lines[0]
	if l["user"] != o.ids[access.Tester] || l["method"] != "GET" || l["path"] != "/api/projects/"+o.project+"/members" ||
		l["recordProject"] != o.project || l["headerProject"] != other || l["time"] == "" {
		t.Errorf("audit line %v", l)
	}

	// A project of an organization the caller is not in: 404, audited, the
	// same answer as for a project that does not exist.
	stranger, strangerID := h.register("Stranger")
	a := stranger.do("PUT", "/api/projects/"+o.project, map[string]string{"name": "Mine"}).want(t, 404)
	b := stranger.do("PUT", "/api/projects/prj_aaaaaaaaaaaaaaaa", map[string]string{"name": "Mine"}).want(t, 404)
	if string(a.body) != string(b.body) {
		t.Errorf("existing and missing projects answer differently: %s vs %s", a.body, b.body)
	}
	lines = readAudit(t, h)
	if len(lines) != 2 || lines[1]["user"] != strangerID || lines[1]["recordProject"] != o.project || lines[1]["headerProject"] != "" {
		t.Errorf("audit lines %v", lines)
	}
	ctx := o.owner.do("GET", "/api/context", nil).want(t, 200)
	if strings.Contains(string(ctx.body), "Mine") {
		t.Error("a refused rename changed the project")
	}
}

func TestOrganizationLifecycle(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	owner := o.owner
	ownerID := ""
	for _, m := range owner.do("GET", "/api/orgs/"+o.id+"/members", nil).want(t, 200).json()["members"].([]any) {
		if mm := m.(map[string]any); mm["role"] == "Admin" && mm["name"] == "Owner" {
			ownerID = mm["userId"].(string)
		}
	}
	if ownerID == "" {
		t.Fatal("owner not listed as Admin")
	}
	owner.do("POST", "/api/orgs", map[string]string{"name": ""}).want(t, 422)
	owner.do("PUT", "/api/orgs/"+o.id, map[string]string{"name": "Acme Ltd"}).want(t, 200)

	// Invitations.
	newbie, newbieID := h.register("Newbie")
	owner.do("POST", "/api/orgs/"+o.id+"/members", map[string]any{"email": "ghost@example.com", "role": "Tester"}).want(t, 422)
	owner.do("POST", "/api/orgs/"+o.id+"/members", map[string]any{"email": newbie.email(), "role": "Chief"}).want(t, 422)
	newbie.do("GET", "/api/orgs/"+o.id+"/members", nil).want(t, 404)
	owner.do("POST", "/api/orgs/"+o.id+"/members", map[string]any{"email": strings.ToUpper(newbie.email()), "role": "Tester"}).want(t, 201)
	owner.do("POST", "/api/orgs/"+o.id+"/members", map[string]any{"email": newbie.email(), "role": "Admin"}).want(t, 409)
	newbie.do("GET", "/api/orgs/"+o.id+"/members", nil).want(t, 200)
	newbie.do("POST", "/api/orgs/"+o.id+"/members", map[string]any{"email": o.members[access.Tester].email(), "role": "Admin"}).want(t, 403)

	// Roles; the last Admin stays.
	owner.do("PUT", "/api/orgs/"+o.id+"/members/"+newbieID, map[string]string{"role": "Test Manager"}).want(t, 200)
	owner.do("PUT", "/api/orgs/"+o.id+"/members/usr_aaaaaaaaaaaaaaaa", map[string]string{"role": "Tester"}).want(t, 404)
	owner.do("DELETE", "/api/orgs/"+o.id+"/members/"+o.ids[access.Admin], nil).want(t, 204)
	if r := owner.do("PUT", "/api/orgs/"+o.id+"/members/"+ownerID, map[string]string{"role": "Tester"}).want(t, 409); r.str("code") != "last_admin" {
		t.Errorf("last admin code: %s", r.body)
	}
	owner.do("DELETE", "/api/orgs/"+o.id+"/members/"+ownerID, nil).want(t, 409)

	// Project roles go with the organization membership.
	owner.do("PUT", "/api/projects/"+o.project+"/members/"+newbieID, map[string]string{"role": "Admin"}).want(t, 200)
	newbie.do("DELETE", "/api/orgs/"+o.id+"/members/"+newbieID, nil).want(t, 204) // leaving is allowed
	newbie.do("GET", "/api/projects/"+o.project+"/members", nil).want(t, 404)
	owner.do("POST", "/api/orgs/"+o.id+"/members", map[string]any{"email": newbie.email(), "role": "Tester"}).want(t, 201)
	newbie.do("PUT", "/api/projects/"+o.project, map[string]string{"name": "X"}).want(t, 403)

	// Projects: rename, delete.
	tester := o.members[access.Tester]
	tester.do("DELETE", "/api/projects/"+o.project, nil).want(t, 403)
	owner.do("PUT", "/api/projects/"+o.project, map[string]string{"name": ""}).want(t, 422)
	owner.do("PUT", "/api/projects/"+o.project, map[string]string{"name": "Storefront"}).want(t, 200)
	p2 := owner.do("POST", "/api/orgs/"+o.id+"/projects", map[string]string{"name": "Back office"}).want(t, 201).str("id")
	owner.do("DELETE", "/api/projects/"+p2, nil).want(t, 204)
	owner.do("DELETE", "/api/projects/"+p2, nil).want(t, 404)
	list := tester.do("GET", "/api/orgs/"+o.id+"/projects", nil).want(t, 200)
	if !strings.Contains(string(list.body), "Storefront") || strings.Contains(string(list.body), "Back office") {
		t.Errorf("projects: %s", list.body)
	}

	// Deleting the organization takes its projects along.
	tester.do("DELETE", "/api/orgs/"+o.id, nil).want(t, 403)
	owner.do("DELETE", "/api/orgs/"+o.id, nil).want(t, 204)
	tester.do("GET", "/api/projects/"+o.project+"/members", nil).want(t, 404)
	if r := tester.do("GET", "/api/context", nil).want(t, 200); strings.Contains(string(r.body), o.id) {
		t.Errorf("deleted org still in context: %s", r.body)
	}
	owner.do("GET", "/api/orgs/org_zzzz/members", nil).want(t, 404)
}

func TestPlatformAccounts(t *testing.T) {
	h := newHarness(t)
	admin, adminID := h.register("Admin") // first account: platform administrator
	user, userID := h.register("User")
	user.do("GET", "/api/members", nil).want(t, 403)
	user.do("POST", "/api/members", map[string]string{"name": "X", "email": "x@example.com", "password": "long enough pw"}).want(t, 403)
	user.do("DELETE", "/api/members/"+adminID, nil).want(t, 403)

	list := admin.do("GET", "/api/members", nil).want(t, 200)
	if n := len(list.json()["members"].([]any)); n != 2 {
		t.Fatalf("members %d: %s", n, list.body)
	}
	if strings.Contains(string(list.body), "scrypt") {
		t.Fatal("member list leaks password hashes")
	}
	admin.do("POST", "/api/members", map[string]string{"name": "X", "email": "bad", "password": "long enough pw"}).want(t, 422)
	made := admin.do("POST", "/api/members", map[string]any{"name": "Second Admin", "email": "second@example.com", "password": "long enough pw", "platformAdmin": true}).want(t, 201)
	if made.json()["platformAdmin"] != true {
		t.Errorf("created account: %s", made.body)
	}
	h.client().do("POST", "/api/auth/login", map[string]string{"email": "second@example.com", "password": "long enough pw"}).want(t, 200)
	admin.do("POST", "/api/members", map[string]string{"name": "Dup", "email": "SECOND@example.com", "password": "long enough pw"}).want(t, 409)

	admin.do("DELETE", "/api/members/"+adminID, nil).want(t, 409) // not oneself
	// Nor the only Admin of an organization.
	orgID := user.do("POST", "/api/orgs", map[string]string{"name": "Users org"}).want(t, 201).str("id")
	if r := admin.do("DELETE", "/api/members/"+userID, nil).want(t, 409); !strings.Contains(r.str("error"), "Users org") {
		t.Errorf("sole org Admin refusal: %s", r.body)
	}
	user.do("GET", "/api/orgs/"+orgID+"/members", nil).want(t, 200)
	user.do("DELETE", "/api/orgs/"+orgID, nil).want(t, 204)
	admin.do("DELETE", "/api/members/"+userID, nil).want(t, 204)
	admin.do("DELETE", "/api/members/"+userID, nil).want(t, 404)
	user.do("GET", "/api/context", nil).want(t, 401) // its sessions went with it
}
