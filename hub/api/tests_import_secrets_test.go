package api

import (
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// TestImportSecretLiterals: a .side project recorded with real passwords
// is imported against an environment; values equal to its secrets (3
// characters or more) become ${secrets.NAME}, the answer counts them and
// never holds a value, and an environment not of the project is refused
// with nothing created.
func TestImportSecretLiterals(t *testing.T) {
	h, o := envHarness(t)
	mgr, c := o.members[access.TestManager], o.members[access.Tester]
	env := mgr.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "Staging",
		"secrets": map[string]string{"PASSWORD": "hunter2", "PIN": "12", "USER_MAIL": "ann@example.com"}}).want(t, 201).str("id")
	other := h.org(t)
	foreign := other.members[access.TestManager].projectDo(other.project, "POST", "/api/environments", map[string]any{"name": "Theirs",
		"secrets": map[string]string{"PASSWORD": "hunter2"}}).want(t, 201).str("id")

	typed := func(id, value string) map[string]any {
		return map[string]any{"id": id, "command": "type", "target": "id=" + id, "targets": []any{}, "value": value}
	}
	side := map[string]any{
		"id": "p1", "version": "2.0", "name": "Shop", "url": "https://shop.example.com",
		"tests": []map[string]any{{"id": "t1", "name": "Sign in", "commands": []map[string]any{
			{"id": "c0", "command": "open", "target": "/login", "targets": []any{}, "value": ""},
			typed("email", "ann@example.com"), typed("password", "hunter2"), typed("pin", "12"), typed("note", "hunter2 and more"),
		}}},
		"suites": []any{}, "urls": []string{"https://shop.example.com"}, "plugins": []any{},
	}
	imp := func(query string, want int) response {
		t.Helper()
		return c.do("POST", "/api/tests/import"+query, side, ProjectHeader, o.project).want(t, want)
	}
	count := func() int {
		return len(c.projectDo(o.project, "GET", "/api/tests", nil).want(t, 200).json()["tests"].([]any))
	}

	r := imp("?environmentId="+env, 201)
	if n := num(r.json()["secretsReplaced"]); n != 2 {
		t.Errorf("secretsReplaced %d, want 2: %s", n, r.body)
	}
	if strings.Contains(string(r.body), `"hunter2"`) || strings.Contains(string(r.body), `"ann@example.com"`) {
		t.Errorf("the answer holds a secret value: %s", r.body)
	}
	id := r.json()["test"].(map[string]any)["id"].(string)
	var values []string
	for _, s := range c.test(t, id)["document"].(map[string]any)["steps"].([]any)[1:] {
		values = append(values, s.(map[string]any)["value"].(string))
	}
	want := []string{"${secrets.USER_MAIL}", "${secrets.PASSWORD}", "12", "hunter2 and more"}
	if strings.Join(values, "|") != strings.Join(want, "|") {
		t.Errorf("values %q, want %q", values, want)
	}

	// Without an environment nothing is replaced.
	if r := imp("", 201); num(r.json()["secretsReplaced"]) != 0 || !strings.Contains(string(r.body), `"hunter2"`) {
		t.Errorf("import without an environment: %s", r.body)
	}
	before := count()
	for _, q := range []string{"?environmentId=" + foreign, "?environmentId=env_nosuchenvironment", "?environmentId=../x"} {
		if r := imp(q, 422); !strings.Contains(string(r.body), `"path":"environmentId"`) {
			t.Errorf("%s: %s", q, r.body)
		}
	}
	if after := count(); after != before {
		t.Errorf("refused imports created tests: %d before, %d after", before, after)
	}
}
