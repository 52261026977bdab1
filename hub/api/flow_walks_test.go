package api

import (
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// TestComponentCalledInsideABlock (issue 29): a call inside a block is a
// use like any other. The component's list and detail count it, deleting
// the component is refused while the call is there (the test would no
// longer run), a component calling it inside a block counts as well, and
// the upgrade moves the call inside the block to the new version.
func TestComponentCalledInsideABlock(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev := o.members[access.TestDeveloper]
	one := []any{map[string]any{"id": "x", "type": "assertTitle", "expected": "T"}}
	cmp := dev.projectDo(o.project, "POST", "/api/components", map[string]any{"name": "Inner", "steps": one}).want(t, 201).json()["component"].(map[string]any)["id"].(string)
	loop := func(call map[string]any) map[string]any {
		return map[string]any{"id": "r", "type": "repeat", "times": 2, "steps": []any{call}}
	}
	caller := dev.createTest(t, o.project, map[string]any{"name": "Caller", "steps": []any{loop(callStep("c", cmp, 0, nil))}})

	list := dev.projectDo(o.project, "GET", "/api/components", nil).want(t, 200).json()["components"].([]any)
	if len(list) != 1 || num(list[0].(map[string]any)["usages"]) != 1 {
		t.Errorf("list %v", list)
	}
	usages := dev.do("GET", "/api/components/"+cmp, nil).want(t, 200).json()["usages"].([]any)
	if len(usages) != 1 || usages[0].(map[string]any)["testId"] != caller || num(usages[0].(map[string]any)["componentVersion"]) != 1 {
		t.Errorf("usages %v", usages)
	}
	if r := dev.do("DELETE", "/api/components/"+cmp, nil).want(t, 409); r.str("code") != "component_in_use" || !strings.Contains(r.str("error"), "1 test") {
		t.Errorf("delete answered %s", r.body)
	}

	dev.do("POST", "/api/components/"+cmp+"/versions", map[string]any{"steps": []any{map[string]any{"id": "x", "type": "assertTitle", "expected": "U"}}}).want(t, 201)
	callers := dev.do("GET", "/api/components/"+cmp+"/impact", nil).want(t, 200).json()["callers"].([]any)
	if len(callers) != 1 || num(callers[0].(map[string]any)["pinnedVersion"]) != 1 {
		t.Fatalf("impact callers %v", callers)
	}
	res := dev.do("POST", "/api/components/"+cmp+"/upgrade", map[string]any{"testIds": []string{caller}}).want(t, 200).json()["results"].([]any)
	if res[0].(map[string]any)["status"] != "upgraded" {
		t.Fatalf("upgrade %v", res)
	}
	inner := docSteps(t, dev.test(t, caller))[0]["steps"].([]any)[0].(map[string]any)
	if num(inner["version"]) != 2 {
		t.Errorf("the call inside the loop after the upgrade: %v", inner)
	}

	// Another component calling it inside a block: still in use once the
	// test no longer calls it.
	dev.do("PUT", "/api/tests/"+caller, map[string]any{"name": "Caller", "steps": one}).want(t, 200)
	outer := dev.projectDo(o.project, "POST", "/api/components", map[string]any{"name": "Outer",
		"steps": []any{loop(callStep("o1", cmp, 0, nil))}}).want(t, 201).json()["component"].(map[string]any)["id"].(string)
	if r := dev.do("DELETE", "/api/components/"+cmp, nil).want(t, 409); !strings.Contains(r.str("error"), "Outer") {
		t.Errorf("refusal does not name the calling component: %s", r.body)
	}
	dev.do("DELETE", "/api/components/"+outer, nil).want(t, 204)
	dev.do("DELETE", "/api/components/"+cmp, nil).want(t, 204)
}

// TestImportSecretLiteralsInsideBlocks: an imported test's literal
// secret values are written as references inside blocks too, a
// condition's expected text included.
func TestImportSecretLiteralsInsideBlocks(t *testing.T) {
	_, o := envHarness(t)
	mgr, c := o.members[access.TestManager], o.members[access.Tester]
	env := mgr.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "Staging",
		"secrets": map[string]string{"PASSWORD": "hunter2"}}).want(t, 201).str("id")
	field := map[string]any{"locators": []any{map[string]any{"kind": "label", "value": "Password"}}}
	doc := map[string]any{"dsl": 2, "name": "Sign in", "steps": []any{
		map[string]any{"id": "again", "type": "repeat", "times": 2, "steps": []any{
			map[string]any{"id": "pw", "type": "fill", "target": field, "value": "hunter2"}}},
		map[string]any{"id": "check", "type": "if", "condition": map[string]any{"kind": "value", "target": field, "expected": "hunter2"},
			"steps": []any{map[string]any{"id": "ok", "type": "log", "message": "typed"}}},
	}}
	r := c.do("POST", "/api/tests/import?environmentId="+env, doc, ProjectHeader, o.project).want(t, 201)
	if n := num(r.json()["secretsReplaced"]); n != 2 || strings.Contains(string(r.body), "hunter2") {
		t.Errorf("secretsReplaced %d: %s", n, r.body)
	}
	steps := docSteps(t, c.test(t, r.json()["test"].(map[string]any)["id"].(string)))
	fill := steps[0]["steps"].([]any)[0].(map[string]any)
	cond := steps[1]["condition"].(map[string]any)
	if fill["value"] != "${secrets.PASSWORD}" || cond["expected"] != "${secrets.PASSWORD}" {
		t.Errorf("stored: fill %v, condition %v", fill["value"], cond["expected"])
	}
}
