package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// TestSideImportRun: a .side project whose test runs another imports the
// called test as a component of the project, once, named after it (with
// " (2)" when the project has the name: a second import), and the calls
// name it; the calling test, its calls inside a loop and its result read
// by an if, passes through the hub and a paired agent. A tester, who
// cannot create components, is refused; blocks that do not pair are 422;
// neither creates anything.
func TestSideImportRun(t *testing.T) {
	f := newRunFixture(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join(sideExamples, "site"))))
	t.Cleanup(srv.Close)
	c := func(command, target, value string) map[string]any {
		return map[string]any{"command": command, "target": target, "value": value}
	}
	project := map[string]any{"name": "Runs", "url": srv.URL, "tests": []any{
		map[string]any{"id": "m", "name": "Main", "commands": []any{
			c("open", "/text.html", ""),
			c("store", "0", "n"),
			c("times", "2", ""), c("run", "Add one", ""), c("end", "", ""),
			c("if", "${n} === 2", ""), c("executeScript", `return "yes"`, "out"),
			c("else", "", ""), c("executeScript", `return "no"`, "out"),
			c("end", "", ""),
			c("assert", "out", "yes"),
		}},
		map[string]any{"id": "a", "name": "Add one", "commands": []any{c("executeScript", "return Number(${n}) + 1", "n")}},
	}}
	components := func() []string {
		var names []string
		for _, x := range f.user.projectDo(f.o.project, "GET", "/api/components", nil).want(t, 200).json()["components"].([]any) {
			names = append(names, x.(map[string]any)["name"].(string))
		}
		slices.Sort(names)
		return names
	}
	tests := func() int {
		return len(f.user.projectDo(f.o.project, "GET", "/api/tests", nil).want(t, 200).json()["tests"].([]any))
	}

	// A tester cannot create components: refused, nothing saved.
	tester := f.o.members[access.Tester]
	r := tester.projectDo(f.o.project, "POST", "/api/tests/import", project).want(t, 403)
	if !strings.Contains(r.str("error"), "Add one") {
		t.Errorf("refusal %s", r.body)
	}
	if n := tests(); n != 0 || len(components()) != 0 {
		t.Fatalf("a refused import saved %d tests, components %v", n, components())
	}

	r = f.user.projectDo(f.o.project, "POST", "/api/tests/import", project).want(t, 201)
	var out struct {
		Skipped []any
		Tests   []struct{ Test testJSON }
	}
	if err := json.Unmarshal(r.body, &out); err != nil || len(out.Skipped) != 0 || len(out.Tests) != 2 {
		t.Fatalf("import: %v %s", err, r.body)
	}
	if got := components(); len(got) != 1 || got[0] != "Add one" {
		t.Fatalf("components %v", got)
	}
	cmp := f.user.projectDo(f.o.project, "GET", "/api/components", nil).json()["components"].([]any)[0].(map[string]any)["id"].(string)
	loop := out.Tests[0].Test.Document.Steps[2]
	if loop.Type != "repeat" || len(loop.Steps) != 1 || loop.Steps[0].Type != "callComponent" || loop.Steps[0].Component != cmp {
		t.Fatalf("the loop %+v does not call %s", loop, cmp)
	}
	if run := f.runToEnd(t, out.Tests[0].Test.ID); run.Status != "passed" {
		t.Errorf("run %s: %s %+v", run.Status, run.Error, run.Result.Steps)
	}

	// Imported again: a component of its own, the name taken.
	f.user.projectDo(f.o.project, "POST", "/api/tests/import", project).want(t, 201)
	if got := components(); strings.Join(got, "|") != "Add one|Add one (2)" {
		t.Errorf("components after a second import %v", got)
	}

	// Blocks that do not pair: 422 at the command, nothing saved.
	before := tests()
	bad := map[string]any{"url": srv.URL, "tests": []any{map[string]any{"name": "Bad", "commands": []any{
		c("run", "Other", ""), c("end", "", "")}}, map[string]any{"name": "Other", "commands": []any{c("open", "/", "")}}}}
	r = f.user.projectDo(f.o.project, "POST", "/api/tests/import", bad).want(t, 422)
	if !strings.Contains(string(r.body), "tests[0].commands[1].command") {
		t.Errorf("issues %s", r.body)
	}
	if n := tests(); n != before || len(components()) != 2 {
		t.Errorf("a refused import saved: %d tests (was %d), components %v", n, before, components())
	}
}

// An import against an environment writes secret values as
// ${secrets.NAME} inside blocks and in the steps of a called test's
// component too, not only in a test's own top steps.
func TestImportSecretLiteralsInBlocks(t *testing.T) {
	_, o := envHarness(t)
	mgr := o.members[access.TestManager]
	env := mgr.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "Staging",
		"secrets": map[string]string{"PASSWORD": "hunter2"}}).want(t, 201).str("id")
	c := func(command, target, value string) map[string]any {
		return map[string]any{"command": command, "target": target, "value": value}
	}
	side := map[string]any{"url": "https://shop.example.com", "tests": []any{
		map[string]any{"name": "Sign in", "commands": []any{c("open", "/login", ""),
			c("if", "true", ""), c("type", "id=password", "hunter2"), c("end", "", ""), c("run", "Again", "")}},
		map[string]any{"name": "Again", "commands": []any{c("type", "id=password", "hunter2")}},
	}}
	r := mgr.projectDo(o.project, "POST", "/api/tests/import?environmentId="+env, side).want(t, 201)
	if n := num(r.json()["secretsReplaced"]); n != 3 || strings.Contains(string(r.body), "hunter2") {
		t.Errorf("secretsReplaced %d, want 3 (the if's step, the test Again, its component): %s", n, r.body)
	}
	list := mgr.projectDo(o.project, "GET", "/api/components", nil).want(t, 200).json()["components"].([]any)
	if len(list) != 1 {
		t.Fatalf("components %v", list)
	}
	cmp := mgr.do("GET", "/api/components/"+list[0].(map[string]any)["id"].(string), nil).want(t, 200)
	if !strings.Contains(string(cmp.body), `${secrets.PASSWORD}`) || strings.Contains(string(cmp.body), "hunter2") {
		t.Errorf("the component keeps the secret's value: %s", cmp.body)
	}
}
