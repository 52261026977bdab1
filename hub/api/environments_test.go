package api

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/secretbox"
)

// envHarness is the harness with an organization: one project, a member
// per role.
func envHarness(t *testing.T) (*harness, org) {
	t.Helper()
	h := newHarness(t)
	return h, h.org(t)
}

// inProject sends a request with the x-project-id header.
func (c *client) projectDo(project, method, path string, body any) response {
	c.h.t.Helper()
	return c.do(method, path, body, ProjectHeader, project)
}

func decodeEnvBody[T any](t *testing.T, r response) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
	return v
}

type envOut struct {
	ID            string            `json:"id"`
	ProjectID     string            `json:"projectId"`
	Name          string            `json:"name"`
	Variables     map[string]string `json:"variables"`
	Secrets       []string          `json:"secrets"`
	ApplicationID *string           `json:"applicationId"`
	CreatedAt     string            `json:"createdAt"`
	UpdatedAt     string            `json:"updatedAt"`
}

func listEnvs(t *testing.T, c *client, project string) []envOut {
	t.Helper()
	return decodeEnvBody[struct {
		Environments []envOut `json:"environments"`
	}](t, c.projectDo(project, "GET", "/api/environments", nil).want(t, 200)).Environments
}

func envIssuePaths(t *testing.T, r response) []string {
	t.Helper()
	var body errorBody
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, is := range body.Issues {
		paths = append(paths, is.Path+":"+is.Code)
	}
	return paths
}

func TestEnvironmentRoles(t *testing.T) {
	h, o := envHarness(t)
	mgr := o.members[access.TestManager]
	env := decodeEnvBody[envOut](t, mgr.projectDo(o.project, "POST", "/api/environments",
		map[string]any{"name": "Staging", "variables": map[string]string{"user": "alice"}, "secrets": map[string]string{"PASSWORD": "pw", "TOKEN": "t"}}).want(t, 201))
	app := mgr.projectDo(o.project, "POST", "/api/applications", map[string]any{"name": "Shop", "baseUrl": "https://shop.example.com"}).want(t, 201).str("id")

	for _, role := range access.Roles {
		c := o.members[role]
		write := 403
		if access.Allows(role, access.ManageEnvironments) {
			write = 200
		}
		created := map[int]int{403: 403, 200: 201}[write]
		t.Run(string(role), func(t *testing.T) {
			// Everyone sees environments, the secret inventory and applications.
			envs := listEnvs(t, c, o.project)
			i := slices.IndexFunc(envs, func(e envOut) bool { return e.ID == env.ID })
			if i < 0 || envs[i].Name != "Staging" || !slices.Equal(envs[i].Secrets, []string{"PASSWORD", "TOKEN"}) {
				t.Errorf("environments as %s: %+v", role, envs)
			}
			c.projectDo(o.project, "GET", "/api/secrets", nil).want(t, 200)
			c.projectDo(o.project, "GET", "/api/applications", nil).want(t, 200)

			// Writes need ManageEnvironments.
			r := c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "Env " + string(role)}).want(t, created)
			if write == 403 && !strings.Contains(r.str("error"), string(role)) {
				t.Errorf("403 should name the role: %s", r.body)
			}
			c.projectDo(o.project, "POST", "/api/environments", map[string]any{"id": env.ID, "name": "Staging", "variables": map[string]string{"by": string(role)}}).want(t, write)
			c.projectDo(o.project, "POST", "/api/secrets", map[string]any{"environmentId": env.ID, "name": "TOKEN", "value": "t"}).want(t, map[int]int{403: 403, 200: 200}[write])
			c.projectDo(o.project, "POST", "/api/applications", map[string]any{"name": "App " + string(role), "baseUrl": "http://localhost:3000"}).want(t, created)
			c.projectDo(o.project, "POST", "/api/applications", map[string]any{"id": app, "name": "Shop", "baseUrl": "https://shop.example.com"}).want(t, write)
			if write == 403 {
				c.do("DELETE", "/api/environments/"+env.ID, nil).want(t, 403)
				c.do("DELETE", "/api/applications/"+app, nil).want(t, 403)
			} else {
				tmp := c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "Tmp " + string(role)}).want(t, 201).str("id")
				c.do("DELETE", "/api/environments/"+tmp, nil).want(t, 204)
				tmpApp := c.projectDo(o.project, "POST", "/api/applications", map[string]any{"name": "Tmp " + string(role), "baseUrl": "http://x.test"}).want(t, 201).str("id")
				c.do("DELETE", "/api/applications/"+tmpApp, nil).want(t, 204)
			}
		})
	}
	// Without a session every route is 401.
	anon := h.client()
	for _, rt := range [][2]string{{"GET", "/api/environments"}, {"POST", "/api/environments"}, {"DELETE", "/api/environments/" + env.ID},
		{"GET", "/api/secrets"}, {"POST", "/api/secrets"}, {"GET", "/api/applications"}, {"POST", "/api/applications"}, {"DELETE", "/api/applications/" + app}} {
		anon.projectDo(o.project, rt[0], rt[1], `{"name":"x"}`).want(t, 401)
	}
	// A Tester's refused writes changed nothing.
	for _, e := range listEnvs(t, mgr, o.project) {
		if strings.HasPrefix(e.Name, "Env Tester") || e.Name == "Env Test Developer" {
			t.Errorf("refused create happened: %+v", e)
		}
	}
}

func TestEnvironmentLifecycle(t *testing.T) {
	h, o := envHarness(t)
	c := o.members[access.TestManager]
	app := c.projectDo(o.project, "POST", "/api/applications", map[string]any{"name": "Shop", "baseUrl": "https://shop.example.com/"}).want(t, 201).str("id")

	created := decodeEnvBody[envOut](t, c.projectDo(o.project, "POST", "/api/environments", map[string]any{
		"name": "  Staging  ", "variables": map[string]string{"user": "alice", "_lang": "en"},
		"secrets": map[string]string{"PASSWORD": "pw-1", "API_KEY": "k-1"}, "applicationId": app,
	}).want(t, 201))
	if !strings.HasPrefix(created.ID, "env_") || created.ProjectID != o.project || created.Name != "Staging" ||
		created.Variables["user"] != "alice" || !slices.Equal(created.Secrets, []string{"API_KEY", "PASSWORD"}) ||
		created.ApplicationID == nil || *created.ApplicationID != app || created.CreatedAt == "" || created.UpdatedAt == "" {
		t.Fatalf("created %+v", created)
	}
	// No variables and no secrets: {} and [], never null.
	bare := c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "Bare"}).want(t, 201)
	if !strings.Contains(string(bare.body), `"variables":{}`) || !strings.Contains(string(bare.body), `"secrets":[]`) || !strings.Contains(string(bare.body), `"applicationId":null`) {
		t.Errorf("bare environment %s", bare.body)
	}

	// Update: absent variables and applicationId stay; secrets: set one,
	// delete one with null, the rest stay.
	h.advance(60e9)
	upd := decodeEnvBody[envOut](t, c.projectDo(o.project, "POST", "/api/environments", map[string]any{
		"id": created.ID, "name": "Staging EU", "secrets": map[string]any{"PASSWORD": "pw-2", "API_KEY": nil, "NEW_ONE": "n", "NEVER_SET": nil},
	}).want(t, 200))
	if upd.ID != created.ID || upd.Name != "Staging EU" || upd.Variables["user"] != "alice" || len(upd.Variables) != 2 ||
		upd.ApplicationID == nil || *upd.ApplicationID != app || !slices.Equal(upd.Secrets, []string{"NEW_ONE", "PASSWORD"}) ||
		upd.CreatedAt != created.CreatedAt || upd.UpdatedAt == created.UpdatedAt {
		t.Fatalf("updated %+v", upd)
	}
	// Variables given replace the whole set; applicationId null removes it.
	upd = decodeEnvBody[envOut](t, c.projectDo(o.project, "POST", "/api/environments", map[string]any{
		"id": created.ID, "name": "Staging EU", "variables": map[string]string{"only": "1"}, "applicationId": nil,
	}).want(t, 200))
	if len(upd.Variables) != 1 || upd.Variables["only"] != "1" || upd.ApplicationID != nil || len(upd.Secrets) != 2 {
		t.Fatalf("updated %+v", upd)
	}
	// The stored secret is the new value.
	rows, err := h.store.EnvironmentSecrets(t.Context(), created.ID)
	if err != nil || len(rows) != 2 || rows[1].Name != "PASSWORD" {
		t.Fatalf("secrets %+v %v", rows, err)
	}
	if plain, err := h.api.Secrets.Open(rows[1].Ciphertext, rows[1].Nonce, secretbox.SecretAAD(created.ID, "PASSWORD")); err != nil || string(plain) != "pw-2" {
		t.Fatalf("PASSWORD decrypts to %q, %v", plain, err)
	}

	// List: by name.
	envs := listEnvs(t, o.members[access.Tester], o.project)
	if len(envs) != 2 || envs[0].Name != "Bare" || envs[1].Name != "Staging EU" {
		t.Fatalf("list %+v", envs)
	}

	// An unknown id is 404, not a create.
	c.projectDo(o.project, "POST", "/api/environments", map[string]any{"id": "env_aaaaaaaaaaaaaaaa", "name": "X"}).want(t, 404)
	c.projectDo(o.project, "POST", "/api/environments", map[string]any{"id": "garbage", "name": "X"}).want(t, 404)

	// Delete removes the environment and its secrets.
	c.do("DELETE", "/api/environments/"+created.ID, nil).want(t, 204)
	c.do("DELETE", "/api/environments/"+created.ID, nil).want(t, 404)
	var n int
	if err := h.store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM secrets WHERE environment_id = $1`, created.ID).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d secrets left after delete (%v)", n, err)
	}
	if envs := listEnvs(t, c, o.project); len(envs) != 1 {
		t.Fatalf("after delete %+v", envs)
	}
}

func TestEnvironmentDuplicateName(t *testing.T) {
	_, o := envHarness(t)
	c := o.owner
	other := c.do("POST", "/api/orgs/"+o.id+"/projects", map[string]string{"name": "Other"}).want(t, 201).str("id")
	c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "Staging"}).want(t, 201)
	if r := c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "staging"}).want(t, 409); r.str("code") != "environment_exists" {
		t.Errorf("duplicate: %s", r.body)
	}
	prod := c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "Production"}).want(t, 201).str("id")
	c.projectDo(o.project, "POST", "/api/environments", map[string]any{"id": prod, "name": "STAGING"}).want(t, 409)
	// Renaming to its own name in another case is fine; so is the same name elsewhere.
	c.projectDo(o.project, "POST", "/api/environments", map[string]any{"id": prod, "name": "PRODUCTION"}).want(t, 200)
	c.projectDo(other, "POST", "/api/environments", map[string]any{"name": "Staging"}).want(t, 201)

	c.projectDo(o.project, "POST", "/api/applications", map[string]any{"name": "Shop", "baseUrl": "https://a.test"}).want(t, 201)
	if r := c.projectDo(o.project, "POST", "/api/applications", map[string]any{"name": "SHOP", "baseUrl": "https://b.test"}).want(t, 409); r.str("code") != "application_exists" {
		t.Errorf("duplicate application: %s", r.body)
	}
}

func TestEnvironmentValidation(t *testing.T) {
	h, o := envHarness(t)
	c := o.owner
	other := c.do("POST", "/api/orgs/"+o.id+"/projects", map[string]string{"name": "Other"}).want(t, 201).str("id")
	foreignApp := c.projectDo(other, "POST", "/api/applications", map[string]any{"name": "Theirs", "baseUrl": "https://t.test"}).want(t, 201).str("id")
	auditBefore := len(readAudit(t, h))

	manyVars := map[string]string{}
	manySecrets := map[string]string{}
	for i := range 201 {
		manyVars["v"+itoa(i)] = "x"
		manySecrets["s"+itoa(i)] = "x"
	}
	long := strings.Repeat("x", 10<<10+1)
	cases := []struct {
		name string
		body any
		want string // an issue path:code
	}{
		{"no name", map[string]any{}, "name:required"},
		{"blank name", map[string]any{"name": "   "}, "name:required"},
		{"long name", map[string]any{"name": strings.Repeat("n", 101)}, "name:too_long"},
		{"name with NUL", map[string]any{"name": "a\x00b"}, "name:format"},
		{"name not a string", map[string]any{"name": 5}, "name:type"},
		{"variables not an object", map[string]any{"name": "E", "variables": []string{"a"}}, "variables:type"},
		{"variables a string", map[string]any{"name": "E", "variables": "a=b"}, "variables:type"},
		{"variable name with dash", map[string]any{"name": "E", "variables": map[string]string{"a-b": "1"}}, `variables["a-b"]:format`},
		{"variable name with digit first", map[string]any{"name": "E", "variables": map[string]string{"1a": "1"}}, `variables["1a"]:format`},
		{"empty variable name", map[string]any{"name": "E", "variables": map[string]string{"": "1"}}, `variables[""]:required`},
		{"long variable name", map[string]any{"name": "E", "variables": map[string]string{strings.Repeat("a", 101): "1"}}, "too_long"},
		{"variable name with NUL", map[string]any{"name": "E", "variables": map[string]string{"a\x00": "1"}}, `variables["a\x00"]:format`},
		{"variable value a number", map[string]any{"name": "E", "variables": map[string]any{"a": 1}}, "variables.a:type"},
		{"variable value null", map[string]any{"name": "E", "variables": map[string]any{"a": nil}}, "variables.a:type"},
		{"variable value too long", map[string]any{"name": "E", "variables": map[string]string{"a": long}}, "variables.a:too_long"},
		{"variable value with NUL", map[string]any{"name": "E", "variables": map[string]string{"a": "x\x00y"}}, "variables.a:format"},
		{"too many variables", map[string]any{"name": "E", "variables": manyVars}, "variables:too_many"},
		{"secrets not an object", map[string]any{"name": "E", "secrets": []string{"a"}}, "secrets:type"},
		{"secret name invalid", map[string]any{"name": "E", "secrets": map[string]string{"my secret": "1"}}, `secrets["my secret"]:format`},
		{"secret value a number", map[string]any{"name": "E", "secrets": map[string]any{"S": 1}}, "secrets.S:type"},
		{"secret value too long", map[string]any{"name": "E", "secrets": map[string]string{"S": long}}, "secrets.S:too_long"},
		{"secret value with NUL", map[string]any{"name": "E", "secrets": map[string]string{"S": "p\x00w"}}, "secrets.S:format"},
		{"too many secrets", map[string]any{"name": "E", "secrets": manySecrets}, "secrets:too_many"},
		{"unknown application", map[string]any{"name": "E", "applicationId": "app_aaaaaaaaaaaaaaaa"}, "applicationId:not_found"},
		{"malformed application", map[string]any{"name": "E", "applicationId": "x\x00"}, "applicationId:not_found"},
		{"application a number", map[string]any{"name": "E", "applicationId": 7}, "applicationId:type"},
		{"application of another project", map[string]any{"name": "E", "applicationId": foreignApp}, "applicationId:not_found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.projectDo(o.project, "POST", "/api/environments", tc.body).want(t, 422)
			paths := envIssuePaths(t, r)
			if !slices.ContainsFunc(paths, func(p string) bool { return strings.Contains(p, tc.want) }) {
				t.Errorf("issues %v, want %s", paths, tc.want)
			}
		})
	}
	for _, body := range []string{``, `[]`, `"x"`, `null`, `{"name":"E"`, `{"name":"E"} {}`} {
		c.projectDo(o.project, "POST", "/api/environments", body).want(t, 400)
	}
	// A body over 1 MiB is 413.
	c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "E", "variables": map[string]string{"a": strings.Repeat("x", 1<<20)}}).want(t, 413)
	if envs := listEnvs(t, c, o.project); len(envs) != 0 {
		t.Fatalf("invalid bodies created %+v", envs)
	}
	// Naming another project's application was audited.
	lines := readAudit(t, h)[auditBefore:]
	if len(lines) != 1 || lines[0]["recordProject"] != other || lines[0]["headerProject"] != o.project {
		t.Errorf("audit %v", lines)
	}
	// Limits are inclusive.
	okVars := map[string]string{}
	for i := range 200 {
		okVars["v"+itoa(i)] = strings.Repeat("x", 1000)
	}
	okVars["big"] = strings.Repeat("x", 10<<10)
	okVars[strings.Repeat("a", 100)] = ""
	c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": strings.Repeat("n", 100), "variables": map[string]string{"big": okVars["big"], strings.Repeat("a", 100): ""}}).want(t, 201)
	delete(okVars, "big")
	delete(okVars, strings.Repeat("a", 100))
	c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "Two hundred", "variables": okVars}).want(t, 201)
}

func TestEnvironmentSecretLimitAcrossRequests(t *testing.T) {
	_, o := envHarness(t)
	c := o.owner
	first, second := map[string]string{}, map[string]string{}
	for i := range 150 {
		first["a"+itoa(i)] = "x"
		second["b"+itoa(i)] = "x"
	}
	id := c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "E", "secrets": first}).want(t, 201).str("id")
	r := c.projectDo(o.project, "POST", "/api/environments", map[string]any{"id": id, "name": "E", "secrets": second}).want(t, 422)
	if paths := envIssuePaths(t, r); !slices.Contains(paths, "secrets:too_many") {
		t.Errorf("issues %v", paths)
	}
	// Nothing of the refused request was kept.
	envs := listEnvs(t, c, o.project)
	if len(envs) != 1 || len(envs[0].Secrets) != 150 {
		t.Fatalf("%d secrets", len(envs[0].Secrets))
	}
	for i := range 50 {
		c.projectDo(o.project, "POST", "/api/secrets", map[string]any{"environmentId": id, "name": "c" + itoa(i), "value": "x"}).want(t, 201)
	}
	c.projectDo(o.project, "POST", "/api/secrets", map[string]any{"environmentId": id, "name": "one_more", "value": "x"}).want(t, 422)
	// Replacing an existing one at the limit is fine.
	c.projectDo(o.project, "POST", "/api/secrets", map[string]any{"environmentId": id, "name": "c0", "value": "y"}).want(t, 200)
}

// TestEnvironmentCrossProject: records of another project are refused as not
// found, whatever the route, and every attempt is audited.
func TestEnvironmentCrossProject(t *testing.T) {
	h, o := envHarness(t)
	owner := o.owner
	other := owner.do("POST", "/api/orgs/"+o.id+"/projects", map[string]string{"name": "Other"}).want(t, 201).str("id")
	env := owner.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "Staging", "secrets": map[string]string{"PW": "v1"}}).want(t, 201).str("id")
	app := owner.projectDo(o.project, "POST", "/api/applications", map[string]any{"name": "Shop", "baseUrl": "https://s.test"}).want(t, 201).str("id")
	stranger, strangerID := h.register("Stranger")
	strangerOrg := stranger.do("POST", "/api/orgs", map[string]string{"name": "Elsewhere"}).want(t, 201).str("id")
	strangerProject := stranger.do("POST", "/api/orgs/"+strangerOrg+"/projects", map[string]string{"name": "Mine"}).want(t, 201).str("id")

	type attempt struct {
		who            *client
		whoID          string
		method, path   string
		header         string
		body           any
		wantHeaderProj string
	}
	ownerID := ""
	for _, m := range owner.do("GET", "/api/projects/"+o.project+"/members", nil).want(t, 200).json()["members"].([]any) {
		if mm := m.(map[string]any); mm["name"] == "Owner" {
			ownerID = mm["userId"].(string)
		}
	}
	attempts := []attempt{
		// the caller is in both projects but names the other one
		{owner, ownerID, "POST", "/api/environments", other, map[string]any{"id": env, "name": "Hijack"}, other},
		{owner, ownerID, "POST", "/api/secrets", other, map[string]any{"environmentId": env, "name": "PW", "value": "evil"}, other},
		{owner, ownerID, "POST", "/api/applications", other, map[string]any{"id": app, "name": "Hijack", "baseUrl": "https://evil.test"}, other},
		{owner, ownerID, "DELETE", "/api/environments/" + env, other, nil, other},
		{owner, ownerID, "DELETE", "/api/applications/" + app, other, nil, other},
		// a stranger in their own project
		{stranger, strangerID, "POST", "/api/environments", strangerProject, map[string]any{"id": env, "name": "Hijack"}, strangerProject},
		{stranger, strangerID, "POST", "/api/secrets", strangerProject, map[string]any{"environmentId": env, "name": "PW", "value": "evil"}, strangerProject},
		{stranger, strangerID, "DELETE", "/api/environments/" + env, "", nil, ""},
		{stranger, strangerID, "DELETE", "/api/applications/" + app, "", nil, ""},
	}
	for _, a := range attempts {
		before := len(readAudit(t, h))
		var r response
		if a.header != "" {
			r = a.who.projectDo(a.header, a.method, a.path, a.body)
		} else {
			r = a.who.do(a.method, a.path, a.body)
		}
		r.want(t, 404)
		lines := readAudit(t, h)
		if len(lines) != before+1 {
			t.Errorf("%s %s: %d new audit lines", a.method, a.path, len(lines)-before)
			continue
		}
		l := lines[before]
		if l["event"] != "cross_project_refused" || l["user"] != a.whoID || l["recordProject"] != o.project || l["headerProject"] != a.wantHeaderProj || l["method"] != a.method {
			t.Errorf("%s %s: audit %v", a.method, a.path, l)
		}
	}
	// The same answer as for records that do not exist.
	missing := owner.projectDo(other, "POST", "/api/environments", map[string]any{"id": "env_aaaaaaaaaaaaaaaa", "name": "Hijack"}).want(t, 404)
	refused := owner.projectDo(other, "POST", "/api/environments", map[string]any{"id": env, "name": "Hijack"}).want(t, 404)
	if string(missing.body) != string(refused.body) {
		t.Errorf("missing %s vs refused %s", missing.body, refused.body)
	}
	// Nothing changed.
	envs := listEnvs(t, owner, o.project)
	if len(envs) != 1 || envs[0].Name != "Staging" {
		t.Fatalf("environments %+v", envs)
	}
	rows, _ := h.store.EnvironmentSecrets(t.Context(), env)
	if plain, err := h.api.Secrets.Open(rows[0].Ciphertext, rows[0].Nonce, secretbox.SecretAAD(env, "PW")); err != nil || string(plain) != "v1" {
		t.Fatalf("secret changed: %q %v", plain, err)
	}
	if apps := owner.projectDo(o.project, "GET", "/api/applications", nil).want(t, 200); !strings.Contains(string(apps.body), `"Shop"`) {
		t.Fatalf("application changed: %s", apps.body)
	}
	// Lists show only the header's project.
	if envs := listEnvs(t, owner, other); len(envs) != 0 {
		t.Errorf("other project lists %+v", envs)
	}
	stranger.projectDo(o.project, "GET", "/api/environments", nil).want(t, 404)
}

func TestEnvironmentHostileInput(t *testing.T) {
	_, o := envHarness(t)
	c := o.owner
	env := c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "E"}).want(t, 201).str("id")
	// Bodies invalid for every route: 4xx everywhere.
	invalid := []string{
		`{"name":"a\u0000b","variables":{"k\u0000":"v\u0000"},"secrets":{"S\u0000":"\u0000"},"applicationId":"app_\u0000","environmentId":"` + env + `","value":"\u0000","baseUrl":"http://a\u0000b.test"}`,
		`{"id":"env_\u0000aaaaaaaaaaaaaaaa","name":"x\u0000","environmentId":"env_\u0000","value":"x"}`,
		`{"id":"` + env + `","name":"E","variables":{"a":"\u0000"},"environmentId":"` + env + `","value":"a\u0000","baseUrl":"nope"}`,
		`{"name":{"x":1},"variables":[],"secrets":5,"applicationId":{},"baseUrl":[],"environmentId":[],"value":{},"description":1}`,
		`{"name":"` + strings.Repeat("n", 500000) + `","variables":{"` + strings.Repeat("k", 400000) + `":"v"}}`,
		`{"name":"x","value":"` + strings.Repeat("v", 900000) + `","environmentId":"` + env + `","baseUrl":"http://` + strings.Repeat("h", 5000) + `.test","variables":{"a":"` + strings.Repeat("v", 20000) + `"}}`,
	}
	// Odd but harmless bodies: whatever the answer, never a 5xx (the
	// harness fails the test on one).
	odd := []string{
		`{"name":"x","secrets":{"S":"` + strings.Repeat("\\u00e9", 100000) + `"},"environmentId":"` + env + `","value":"` + strings.Repeat("\\u00e9", 3000) + `"}`,
		`{"name":"\ud800","variables":{"a":"\udfff"},"baseUrl":"http://\ud800.test"}`,
		`{"name":"x","description":"\u202e","baseUrl":"http://xn--e1afmkfd.test"}`,
	}
	for _, path := range []string{"/api/environments", "/api/secrets", "/api/applications"} {
		for _, b := range invalid {
			if r := c.projectDo(o.project, "POST", path, b); r.status < 400 || r.status >= 500 {
				t.Errorf("POST %s with %.60s: %d %s", path, b, r.status, r.body)
			}
		}
		for _, b := range odd {
			c.projectDo(o.project, "POST", path, b)
		}
	}
	for _, w := range []string{"%00", "a%00b", "%ff%fe", strings.Repeat("x", 3000), "env_%00aaaaaaaaaaaaaaaa", "app_aaaaaaaaaaaaaaaa", "..", "%2e%2e%2f"} {
		for _, p := range []string{"/api/environments/" + w, "/api/applications/" + w} {
			if r := c.do("DELETE", p, nil); r.status != 404 && r.status != 400 {
				t.Errorf("DELETE %s: %d %s", p, r.status, r.body)
			}
		}
		c.do("GET", "/api/environments", nil, ProjectHeader, w)
	}
	// A hub without a secret key refuses secret writes clearly, not with a 500.
	h2, o2 := envHarness(t)
	h2.api.Secrets = nil
	e2 := o2.owner.projectDo(o2.project, "POST", "/api/environments", map[string]any{"name": "E"}).want(t, 201).str("id")
	req, _ := http.NewRequest("POST", h2.srv.URL+"/api/secrets", strings.NewReader(`{"environmentId":"`+e2+`","name":"S","value":"v"}`))
	req.Header.Set(ProjectHeader, o2.project)
	req.Header.Set("Content-Type", "application/json")
	resp, err := o2.owner.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("no secret box: %d", resp.StatusCode)
	}
	o2.owner.projectDo(o2.project, "POST", "/api/environments", map[string]any{"id": e2, "name": "E", "secrets": map[string]any{"GONE": nil}}).want(t, 200)
}
