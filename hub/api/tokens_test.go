package api

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/auth"
)

// bearerClient is a client without cookies that sends an API token.
type bearerClient struct {
	c     *client
	token string
}

func (h *harness) bearer(token string) bearerClient { return bearerClient{c: h.client(), token: token} }

func (b bearerClient) do(method, path string, body any, headers ...string) response {
	b.c.h.t.Helper()
	return b.c.do(method, path, body, append([]string{"Authorization", "Bearer " + b.token}, headers...)...)
}

// newToken creates a token for c and returns its id and text.
func (c *client) newToken(t *testing.T, body map[string]any) (id, token string) {
	t.Helper()
	r := c.do("POST", "/api/tokens", body).want(t, 201)
	return r.str("id"), r.str("token")
}

func listTokens(t *testing.T, c *client) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, v := range c.do("GET", "/api/tokens", nil).want(t, 200).json()["tokens"].([]any) {
		out = append(out, v.(map[string]any))
	}
	return out
}

func wantCode(t *testing.T, r response, status int, code string) {
	t.Helper()
	if r.status != status || r.str("code") != code {
		t.Fatalf("got %d %s, want %d %s", r.status, r.body, status, code)
	}
}

func TestTokenLifecycle(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	r := o.owner.do("POST", "/api/tokens", map[string]any{"name": "  CI pipeline "}).want(t, 201)
	id, token := r.str("id"), r.str("token")
	if !strings.HasPrefix(id, "tok_") || !auth.WellFormedAPIToken(token) || len(token) < 4+32 {
		t.Fatalf("created %s", r.body)
	}
	if r.str("name") != "CI pipeline" || r.json()["role"] != nil || r.json()["projectId"] != nil || r.json()["expiresAt"] != nil {
		t.Fatalf("created %s", r.body)
	}
	ci := h.bearer(token)
	if got := ci.do("GET", "/api/auth/session", nil).want(t, 200).str("id"); got != o.owner.do("GET", "/api/auth/session", nil).str("id") {
		t.Fatalf("token acts as %q", got)
	}
	ci.do("GET", "/api/tests", nil, ProjectHeader, o.project).want(t, 200)
	testID := ci.do("POST", "/api/tests", doc("From CI", 1), ProjectHeader, o.project).want(t, 201).str("id")
	o.owner.do("GET", "/api/tests/"+testID, nil).want(t, 200)

	// The use is recorded, at most once a minute; the list never holds the token.
	used := func() (string, string) {
		for _, tok := range listTokens(t, o.owner) {
			if tok["id"] == id {
				at, _ := tok["lastUsedAt"].(string)
				from, _ := tok["lastUsedFrom"].(string)
				return at, from
			}
		}
		t.Fatalf("token %s not listed", id)
		return "", ""
	}
	first, from := used()
	if first == "" || from != "127.0.0.1" {
		t.Fatalf("last use %q from %q", first, from)
	}
	h.advance(30 * time.Second)
	ci.do("GET", "/api/context", nil).want(t, 200)
	if at, _ := used(); at != first {
		t.Fatalf("last use written again within a minute: %s then %s", first, at)
	}
	h.advance(31 * time.Second)
	ci.do("GET", "/api/context", nil).want(t, 200)
	if at, _ := used(); at == first {
		t.Fatalf("last use not written after a minute")
	}
	if body := string(o.owner.do("GET", "/api/tokens", nil).body); strings.Contains(body, token) || strings.Contains(body, `"token"`) {
		t.Fatalf("the list shows the token: %s", body)
	}

	// Revocation is immediate; a revoked token is listed with revokedAt.
	o.owner.do("DELETE", "/api/tokens/"+id, nil).want(t, 204)
	wantCode(t, ci.do("GET", "/api/context", nil), 401, codeTokenRevoked)
	o.owner.do("DELETE", "/api/tokens/"+id, nil).want(t, 204)
	if l := listTokens(t, o.owner); len(l) != 1 || l[0]["revokedAt"] == nil {
		t.Fatalf("after revoking: %v", l)
	}
	// Someone else's token, or a malformed id, is not found.
	_, other := o.members[access.Tester].newToken(t, map[string]any{"name": "mine"})
	otherID := listTokens(t, o.members[access.Tester])[0]["id"].(string)
	o.owner.do("DELETE", "/api/tokens/"+otherID, nil).want(t, 404)
	o.owner.do("DELETE", "/api/tokens/tok_!!", nil).want(t, 404)
	h.bearer(other).do("GET", "/api/context", nil).want(t, 200)
}

func TestTokenRefused(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	_, token := o.owner.newToken(t, map[string]any{"name": "short", "expiresAt": "2026-11-01T10:00:00Z"})
	h.bearer(token).do("GET", "/api/context", nil).want(t, 200)
	h.advance(2 * time.Hour)
	r := h.bearer(token).do("GET", "/api/context", nil)
	wantCode(t, r, 401, codeTokenExpired)
	if !strings.Contains(r.str("error"), "2026-11-01T10:00:00Z") {
		t.Errorf("message %q does not say when", r.str("error"))
	}
	if l := listTokens(t, o.owner); l[0]["expired"] != true {
		t.Errorf("listed as %v", l[0])
	}
	unknown, _ := auth.NewAPIToken()
	for _, bad := range []string{"", "abc", "tat_", unknown, strings.ToUpper(unknown), token + "a", "tat_" + strings.Repeat("!", 52)} {
		wantCode(t, h.bearer(bad).do("GET", "/api/context", nil), 401, codeTokenInvalid)
	}
	// A bad token is refused on public routes too, and wins over a session.
	wantCode(t, h.bearer(unknown).do("GET", "/api/auth/session", nil), 401, codeTokenInvalid)
	wantCode(t, o.owner.do("GET", "/api/context", nil, "Authorization", "Bearer "+unknown), 401, codeTokenInvalid)
	// Other schemes are not tokens: the session cookie decides.
	o.owner.do("GET", "/api/context", nil, "Authorization", "Basic dXNlcjpwYXNz").want(t, 200)
	wantCode(t, h.client().do("GET", "/api/context", nil, "Authorization", "Basic dXNlcjpwYXNz"), 401, codeUnauthenticated)
}

func TestTokenCreateInput(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	tester := o.members[access.Tester]
	now := time.Unix(0, h.clock.Load()).UTC()
	for _, tc := range []struct {
		body map[string]any
		path string
	}{
		{map[string]any{}, "name"},
		{map[string]any{"name": "   "}, "name"},
		{map[string]any{"name": strings.Repeat("n", 101)}, "name"},
		{map[string]any{"name": "x\u202ey"}, "name"},
		{map[string]any{"name": "ci", "expiresAt": now.Add(-time.Minute).Format(time.RFC3339)}, "expiresAt"},
		{map[string]any{"name": "ci", "expiresAt": now.Format(time.RFC3339)}, "expiresAt"},
		{map[string]any{"name": "ci", "expiresAt": "next week"}, "expiresAt"},
		{map[string]any{"name": "ci", "expiresAt": "2030-01-01"}, "expiresAt"},
		{map[string]any{"name": "ci", "role": "Boss"}, "role"},
		{map[string]any{"name": "ci", "role": "admin"}, "role"},
		{map[string]any{"name": "ci", "projectId": "project-1"}, "projectId"},
	} {
		r := tester.do("POST", "/api/tokens", tc.body).want(t, 422)
		if !strings.Contains(string(r.body), `"path":"`+tc.path+`"`) {
			t.Errorf("%v: %s", tc.body, r.body)
		}
	}
	tester.do("POST", "/api/tokens", `{"name": 3}`).want(t, 422)
	tester.do("POST", "/api/tokens", `{"name": "a"`).want(t, 400)

	// A project the caller is not in: 404 and an audit line.
	other := h.org(t)
	before := len(readAudit(t, h))
	tester.do("POST", "/api/tokens", map[string]any{"name": "ci", "projectId": other.project}).want(t, 404)
	tester.do("POST", "/api/tokens", map[string]any{"name": "ci", "projectId": "prj_aaaaaaaaaaaaaaaa"}).want(t, 404)
	if lines := readAudit(t, h); len(lines) != before+1 || lines[before]["recordProject"] != other.project {
		t.Errorf("audit lines %v", lines[before:])
	}
	// Never above the caller's role, in the project or anywhere.
	wantCode(t, tester.do("POST", "/api/tokens", map[string]any{"name": "ci", "projectId": o.project, "role": "Test Developer"}), 403, codeRoleTooHigh)
	wantCode(t, tester.do("POST", "/api/tokens", map[string]any{"name": "ci", "role": "Admin"}), 403, codeRoleTooHigh)
	loner, _ := h.register("Loner")
	wantCode(t, loner.do("POST", "/api/tokens", map[string]any{"name": "ci", "role": "Tester"}), 403, codeRoleTooHigh)
	if l := listTokens(t, tester); len(l) != 0 {
		t.Fatalf("refused requests made tokens: %v", l)
	}
	// A Test Manager of one project who is Tester elsewhere may make a
	// Test Manager token for all projects (capped per project on use).
	o.owner.do("PUT", "/api/projects/"+o.project+"/members/"+o.ids[access.Tester], map[string]string{"role": "Test Manager"}).want(t, 200)
	r := tester.do("POST", "/api/tokens", map[string]any{"name": "ci", "projectId": o.project, "role": "Test Manager",
		"expiresAt": "2027-01-31T12:00:00+01:00"}).want(t, 201)
	if r.str("role") != "Test Manager" || r.str("projectId") != o.project || r.str("projectName") != "Shop" || r.str("expiresAt") != "2027-01-31T11:00:00.000Z" {
		t.Fatalf("created %s", r.body)
	}
	tester.do("POST", "/api/tokens", map[string]any{"name": "ci", "role": "Test Manager"}).want(t, 201)
}

func TestTokenRoleCap(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	admin := o.members[access.Admin]
	_, capped := admin.newToken(t, map[string]any{"name": "tester", "role": "Tester"})
	_, full := admin.newToken(t, map[string]any{"name": "full"})
	id := admin.createTest(t, o.project, doc("Flow", 1))
	h.bearer(capped).do("GET", "/api/tests/"+id, nil).want(t, 200)
	wantCode(t, h.bearer(capped).do("PUT", "/api/tests/"+id, map[string]any{"status": "Ready"}), 403, codeForbidden)
	wantCode(t, h.bearer(capped).do("PUT", "/api/projects/"+o.project, map[string]any{"name": "Mine"}), 403, codeForbidden)
	wantCode(t, h.bearer(capped).do("POST", "/api/orgs/"+o.id+"/projects", map[string]any{"name": "More"}), 403, codeForbidden)
	if got := admin.test(t, id)["status"]; got != "Draft" {
		t.Fatalf("status %v", got)
	}
	role := func(token string) string {
		return h.bearer(token).do("GET", "/api/probe", nil, ProjectHeader, o.project).want(t, 200).str("role")
	}
	if role(capped) != "Tester" || role(full) != "Admin" {
		t.Fatalf("roles %q %q", role(capped), role(full))
	}
	ctx := h.bearer(capped).do("GET", "/api/context", nil).want(t, 200).json()
	if org := ctx["organizations"].([]any)[0].(map[string]any); org["role"] != "Tester" || org["projects"].([]any)[0].(map[string]any)["role"] != "Tester" {
		t.Fatalf("context %v", ctx)
	}
	// The cap holds a role's current value: demoted, the full token follows.
	o.owner.do("PUT", "/api/orgs/"+o.id+"/members/"+o.ids[access.Admin], map[string]string{"role": "Tester"}).want(t, 200)
	if role(full) != "Tester" {
		t.Fatalf("demoted Admin's token acts as %q", role(full))
	}
	wantCode(t, h.bearer(full).do("PUT", "/api/tests/"+id, map[string]any{"status": "Ready"}), 403, codeForbidden)
	o.owner.do("DELETE", "/api/orgs/"+o.id+"/members/"+o.ids[access.Admin], nil).want(t, 204)
	h.bearer(full).do("GET", "/api/probe", nil, ProjectHeader, o.project).want(t, 404)

	// Platform administration goes only with an uncapped, unscoped token.
	_, ownerCapped := o.owner.newToken(t, map[string]any{"name": "capped", "role": "Test Manager"})
	_, ownerFull := o.owner.newToken(t, map[string]any{"name": "full"})
	_, ownerScoped := o.owner.newToken(t, map[string]any{"name": "scoped", "projectId": o.project})
	h.bearer(ownerFull).do("GET", "/api/members", nil).want(t, 200)
	h.bearer(ownerCapped).do("GET", "/api/members", nil).want(t, 403)
	h.bearer(ownerScoped).do("GET", "/api/members", nil).want(t, 403)
	if h.bearer(ownerCapped).do("GET", "/api/auth/session", nil).json()["platformAdmin"] != false {
		t.Error("a capped token shows platform administration")
	}
}

func TestTokenProjectScope(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	second := o.owner.do("POST", "/api/orgs/"+o.id+"/projects", map[string]string{"name": "Warehouse"}).want(t, 201).str("id")
	elsewhere := o.owner.createTest(t, second, doc("Elsewhere", 1))
	here := o.owner.createTest(t, o.project, doc("Here", 1))
	_, token := o.owner.newToken(t, map[string]any{"name": "shop ci", "projectId": o.project})
	ci := h.bearer(token)
	ci.do("GET", "/api/tests/"+here, nil).want(t, 200)
	ci.do("GET", "/api/tests", nil, ProjectHeader, o.project).want(t, 200)

	r := ci.do("GET", "/api/tests", nil, ProjectHeader, second)
	wantCode(t, r, 403, codeTokenProject)
	if !strings.Contains(r.str("error"), `"Shop"`) || !strings.Contains(r.str("error"), o.project) {
		t.Errorf("message %q does not name the token's project", r.str("error"))
	}
	wantCode(t, ci.do("GET", "/api/tests/"+here, nil, ProjectHeader, second), 403, codeTokenProject)
	before := len(readAudit(t, h))
	ci.do("GET", "/api/tests/"+elsewhere, nil).want(t, 404)
	ci.do("DELETE", "/api/tests/"+elsewhere, nil).want(t, 404)
	lines := readAudit(t, h)
	if len(lines) != before+2 || lines[before]["recordProject"] != second || lines[before]["event"] != "cross_project_refused" {
		t.Fatalf("audit lines %v", lines[before:])
	}
	o.owner.do("GET", "/api/tests/"+elsewhere, nil).want(t, 200)
	wantCode(t, ci.do("PUT", "/api/orgs/"+o.id, map[string]string{"name": "Mine"}), 403, codeTokenProject)
	wantCode(t, ci.do("POST", "/api/orgs", map[string]string{"name": "New"}), 403, codeTokenProject)
	ci.do("PUT", "/api/projects/"+second, map[string]string{"name": "Mine"}).want(t, 404)
	orgs := ci.do("GET", "/api/context", nil).want(t, 200).json()["organizations"].([]any)
	if len(orgs) != 1 || len(orgs[0].(map[string]any)["projects"].([]any)) != 1 {
		t.Fatalf("context shows %v", orgs)
	}
	// The profile's recent runs are the token's project's only.
	o.owner.projectDo(second, "POST", "/api/runs", map[string]any{"testId": elsewhere}).want(t, 201)
	mine := o.owner.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": here}).want(t, 201).str("runId")
	if all := o.owner.do("GET", "/api/profile", nil).want(t, 200).json()["recentRuns"].([]any); len(all) != 2 {
		t.Fatalf("the session sees %d recent runs", len(all))
	}
	recent := ci.do("GET", "/api/profile", nil).want(t, 200).json()["recentRuns"].([]any)
	if len(recent) != 1 || recent[0].(map[string]any)["runId"] != mine {
		t.Errorf("the project token's profile shows %v", recent)
	}
}

func TestTokenPrivateTests(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	tester := o.members[access.Tester]
	private := tester.createTest(t, o.project, doc("Mine", 1, "visibility", "Private"))
	_, adminToken := o.owner.newToken(t, map[string]any{"name": "admin"})
	_, testerToken := tester.newToken(t, map[string]any{"name": "tester"})
	h.bearer(adminToken).do("GET", "/api/tests/"+private, nil).want(t, 404)
	if body := string(h.bearer(adminToken).do("GET", "/api/tests", nil, ProjectHeader, o.project).want(t, 200).body); strings.Contains(body, private) {
		t.Fatal("the Admin's token lists another user's private test")
	}
	h.bearer(testerToken).do("GET", "/api/tests/"+private, nil).want(t, 200)
	if body := string(h.bearer(testerToken).do("GET", "/api/tests", nil, ProjectHeader, o.project).body); !strings.Contains(body, private) {
		t.Fatal("the owner's token does not list their private test")
	}
}

func TestTokenSessionRequired(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	id, token := o.owner.newToken(t, map[string]any{"name": "ci"})
	ci := h.bearer(token)
	for _, rq := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/api/tokens", nil},
		{"POST", "/api/tokens", map[string]any{"name": "more"}},
		{"DELETE", "/api/tokens/" + id, nil},
		{"POST", "/api/auth/password", map[string]any{"currentPassword": "correct horse battery", "newPassword": "another horse battery"}},
		{"POST", "/api/auth/logout", nil},
		{"PUT", "/api/profile", map[string]any{"name": "Renamed"}},
		{"POST", "/api/agent/pair/K7Q-4MP", nil},
		{"POST", "/api/agent/agt_aaaaaaaaaaaaaaaa/token", nil},
	} {
		wantCode(t, ci.do(rq.method, rq.path, rq.body), 403, codeSessionRequired)
	}
	if l := listTokens(t, o.owner); len(l) != 1 || l[0]["revokedAt"] != nil {
		t.Fatalf("tokens %v", l)
	}
	ci.do("GET", "/api/profile", nil).want(t, 200)
}

func TestTokenBadTokenLimit(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	_, good := o.owner.newToken(t, map[string]any{"name": "ci"})
	for i := range tokenRefusalLimit {
		unknown, _ := auth.NewAPIToken()
		if r := h.bearer(unknown).do("GET", "/api/context", nil); r.status != 401 {
			t.Fatalf("refusal %d: %d %s", i+1, r.status, r.body)
		}
	}
	r := h.bearer("tat_nonsense").do("GET", "/api/context", nil)
	wantCode(t, r, 429, codeRateLimited)
	if s, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || s <= 0 || s > 15*60 {
		t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
	}
	// A valid token still works from the address (a CI runner behind the
	// same NAT); sign-in failures are counted apart.
	h.bearer(good).do("GET", "/api/context", nil).want(t, 200)
	h.client().do("POST", "/api/auth/login", map[string]string{"email": o.owner.email(), "password": "correct horse battery"}).want(t, 200)
	other := h.clientFrom(t, "127.0.0.2", "Far")
	wantCode(t, other.do("GET", "/api/context", nil, "Authorization", "Bearer tat_x"), 401, codeTokenInvalid)
	h.advance(15*time.Minute + time.Second)
	wantCode(t, h.bearer("tat_nonsense").do("GET", "/api/context", nil), 401, codeTokenInvalid)
}
