package api

import (
	"slices"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

type appOut struct {
	ID          string `json:"id"`
	ProjectID   string `json:"projectId"`
	Name        string `json:"name"`
	BaseURL     string `json:"baseUrl"`
	Description string `json:"description"`
	CreatedAt   string `json:"createdAt"`
	UpdatedAt   string `json:"updatedAt"`
}

func listApps(t *testing.T, c *client, project string) []appOut {
	t.Helper()
	return decodeEnvBody[struct {
		Applications []appOut `json:"applications"`
	}](t, c.projectDo(project, "GET", "/api/applications", nil).want(t, 200)).Applications
}

func TestApplicationLifecycle(t *testing.T) {
	h, o := envHarness(t)
	c := o.members[access.Admin]
	a := decodeEnvBody[appOut](t, c.projectDo(o.project, "POST", "/api/applications",
		map[string]any{"name": " Shop ", "baseUrl": " https://shop.example.com/ ", "description": "The web shop"}).want(t, 201))
	if !strings.HasPrefix(a.ID, "app_") || a.ProjectID != o.project || a.Name != "Shop" || a.BaseURL != "https://shop.example.com" ||
		a.Description != "The web shop" || a.CreatedAt == "" || a.UpdatedAt != a.CreatedAt {
		t.Fatalf("created %+v", a)
	}
	h.advance(1e9)
	// Update: description absent keeps it.
	u := decodeEnvBody[appOut](t, c.projectDo(o.project, "POST", "/api/applications",
		map[string]any{"id": a.ID, "name": "Shop v2", "baseUrl": "http://localhost:8080/app/"}).want(t, 200))
	if u.ID != a.ID || u.Name != "Shop v2" || u.BaseURL != "http://localhost:8080/app" || u.Description != "The web shop" || u.UpdatedAt == a.UpdatedAt || u.CreatedAt != a.CreatedAt {
		t.Fatalf("updated %+v", u)
	}
	u = decodeEnvBody[appOut](t, c.projectDo(o.project, "POST", "/api/applications",
		map[string]any{"id": a.ID, "name": "Shop v2", "baseUrl": "http://localhost:8080/?x=1", "description": ""}).want(t, 200))
	if u.Description != "" || u.BaseURL != "http://localhost:8080/?x=1" {
		t.Fatalf("updated %+v", u)
	}
	c.projectDo(o.project, "POST", "/api/applications", map[string]any{"name": "Admin", "baseUrl": "https://admin.test"}).want(t, 201)
	if apps := listApps(t, o.members[access.Tester], o.project); len(apps) != 2 || apps[0].Name != "Admin" || apps[1].Name != "Shop v2" {
		t.Fatalf("list %+v", apps)
	}
	c.projectDo(o.project, "POST", "/api/applications", map[string]any{"id": "app_aaaaaaaaaaaaaaaa", "name": "X", "baseUrl": "https://x.test"}).want(t, 404)

	// Validation.
	cases := []struct {
		body  map[string]any
		issue string
	}{
		{map[string]any{"baseUrl": "https://x.test"}, "name:required"},
		{map[string]any{"name": "X"}, "baseUrl:required"},
		{map[string]any{"name": "X", "baseUrl": "shop.example.com"}, "baseUrl:format"},
		{map[string]any{"name": "X", "baseUrl": "/relative"}, "baseUrl:format"},
		{map[string]any{"name": "X", "baseUrl": "ftp://x.test"}, "baseUrl:format"},
		{map[string]any{"name": "X", "baseUrl": "javascript:alert(1)"}, "baseUrl:format"},
		{map[string]any{"name": "X", "baseUrl": "http://"}, "baseUrl:format"},
		{map[string]any{"name": "X", "baseUrl": "https://user:pw@x.test"}, "baseUrl:format"},
		{map[string]any{"name": "X", "baseUrl": "https://exa mple.com"}, "baseUrl:format"},
		{map[string]any{"name": "X", "baseUrl": "https://x.test/\x00"}, "baseUrl:format"},
		{map[string]any{"name": "X", "baseUrl": "https://x.test/" + strings.Repeat("p", 2048)}, "baseUrl:too_long"},
		{map[string]any{"name": "X", "baseUrl": 5}, "baseUrl:type"},
		{map[string]any{"name": "X", "baseUrl": "https://x.test", "description": strings.Repeat("d", 2001)}, "description:too_long"},
		{map[string]any{"name": "X", "baseUrl": "https://x.test", "description": "a\x00b"}, "description:format"},
		{map[string]any{"name": "X", "baseUrl": "https://x.test", "description": []int{1}}, "description:type"},
	}
	for _, tc := range cases {
		r := c.projectDo(o.project, "POST", "/api/applications", tc.body).want(t, 422)
		if paths := envIssuePaths(t, r); !slices.Contains(paths, tc.issue) {
			t.Errorf("%v: issues %v, want %s", tc.body, paths, tc.issue)
		}
	}
	// Multi-line descriptions and upper-case schemes are fine.
	c.projectDo(o.project, "POST", "/api/applications", map[string]any{"name": "Y", "baseUrl": "HTTPS://Y.test", "description": "line 1\nline 2\ttab"}).want(t, 201)
}

// Deleting an application leaves its environments without one.
func TestApplicationDeleteNullsEnvironments(t *testing.T) {
	_, o := envHarness(t)
	c := o.members[access.TestManager]
	app := c.projectDo(o.project, "POST", "/api/applications", map[string]any{"name": "Shop", "baseUrl": "https://s.test"}).want(t, 201).str("id")
	keep := c.projectDo(o.project, "POST", "/api/applications", map[string]any{"name": "Keep", "baseUrl": "https://k.test"}).want(t, 201).str("id")
	for _, name := range []string{"A", "B"} {
		c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": name, "applicationId": app, "secrets": map[string]string{"S": "v"}}).want(t, 201)
	}
	c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "C", "applicationId": keep}).want(t, 201)
	c.do("DELETE", "/api/applications/"+app, nil).want(t, 204)
	c.do("DELETE", "/api/applications/"+app, nil).want(t, 404)
	envs := listEnvs(t, c, o.project)
	if len(envs) != 3 {
		t.Fatalf("environments %+v", envs)
	}
	for _, e := range envs {
		switch e.Name {
		case "A", "B":
			if e.ApplicationID != nil || !slices.Equal(e.Secrets, []string{"S"}) {
				t.Errorf("%s after its application was deleted: %+v", e.Name, e)
			}
		case "C":
			if e.ApplicationID == nil || *e.ApplicationID != keep {
				t.Errorf("C lost its application: %+v", e)
			}
		}
	}
	// The deleted application can no longer be named.
	r := c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "D", "applicationId": app}).want(t, 422)
	if !slices.Contains(envIssuePaths(t, r), "applicationId:not_found") {
		t.Errorf("issues %s", r.body)
	}
}
