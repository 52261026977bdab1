package api

import (
	"fmt"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

func fiveSteps() []any {
	steps := []any{map[string]any{"id": "s1", "type": "navigate", "url": "https://shop.test/"}}
	for i := 2; i <= 4; i++ {
		steps = append(steps, map[string]any{"id": fmt.Sprintf("s%d", i), "type": "fill",
			"target": map[string]any{"locators": []any{map[string]any{"kind": "label", "value": fmt.Sprintf("Field %d", i)}}}, "value": "x"})
	}
	return append(steps, map[string]any{"id": "s5", "type": "assertTitle", "expected": "Done"})
}

func callStep(id, component string, version int, inputs map[string]string) map[string]any {
	s := map[string]any{"id": id, "type": "callComponent", "component": component}
	if version > 0 {
		s["version"] = version
	}
	if inputs != nil {
		s["inputs"] = inputs
	}
	return s
}

func docSteps(t *testing.T, test map[string]any) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, s := range test["document"].(map[string]any)["steps"].([]any) {
		out = append(out, s.(map[string]any))
	}
	return out
}

func issueAt(r response, path, code string) bool {
	issues, _ := r.json()["issues"].([]any)
	for _, is := range issues {
		m := is.(map[string]any)
		if m["path"] == path && m["code"] == code {
			return true
		}
	}
	return false
}

// TestComponentFromTestSteps: three steps of a Draft become version 1 of a
// component and one pinned call in a new version of the test; a Ready
// source is left alone; the detail lists versions and usages.
func TestComponentFromTestSteps(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev := o.members[access.TestDeveloper]
	src := dev.createTest(t, o.project, map[string]any{"name": "Checkout", "steps": fiveSteps()})

	r := dev.projectDo(o.project, "POST", "/api/components", map[string]any{"name": "Fill form", "testId": src, "stepIds": []string{"s2", "s3", "s4"}}).want(t, 201)
	cmp := r.json()["component"].(map[string]any)
	id := cmp["id"].(string)
	if !strings.HasPrefix(id, "cmp_") || num(cmp["latestVersion"]) != 1 {
		t.Fatalf("created %s", r.body)
	}
	if tv := r.json()["test"].(map[string]any); tv["id"] != src || num(tv["version"]) != 2 {
		t.Fatalf("test answer %v", r.json()["test"])
	}
	test := dev.test(t, src)
	steps := docSteps(t, test)
	if len(steps) != 3 || steps[1]["type"] != "callComponent" || steps[1]["component"] != id || num(steps[1]["version"]) != 1 || steps[1]["id"] != "s2" {
		t.Fatalf("steps after: %v", steps)
	}
	if v := latestVersion(t, dev, src); v["note"] != "steps s2–s4 made into component Fill form" || v["status"] != "Draft" {
		t.Errorf("version %v", v)
	}
	detail := dev.do("GET", "/api/components/"+id, nil).want(t, 200).json()
	versions := detail["versions"].([]any)
	if len(versions) != 1 || len(versions[0].(map[string]any)["steps"].([]any)) != 3 || versions[0].(map[string]any)["author"].(map[string]any)["id"] != o.ids[access.TestDeveloper] {
		t.Errorf("versions %v", versions)
	}
	usages := detail["usages"].([]any)
	if len(usages) != 1 || usages[0].(map[string]any)["testId"] != src || num(usages[0].(map[string]any)["testVersion"]) != 2 ||
		usages[0].(map[string]any)["current"] != true || num(usages[0].(map[string]any)["componentVersion"]) != 1 {
		t.Errorf("usages %v", usages)
	}
	list := dev.projectDo(o.project, "GET", "/api/components", nil).want(t, 200).json()["components"].([]any)
	if len(list) != 1 || num(list[0].(map[string]any)["usages"]) != 1 {
		t.Errorf("list %v", list)
	}

	// A Ready source: the component is made, the test stays as it was.
	mgr := o.members[access.TestManager]
	ready := mgr.createTest(t, o.project, map[string]any{"name": "Ready one", "steps": fiveSteps()})
	mgr.do("PUT", "/api/tests/"+ready, map[string]any{"status": "Ready"}).want(t, 200)
	r = dev.projectDo(o.project, "POST", "/api/components", map[string]any{"name": "From ready", "testId": ready, "stepIds": []string{"s1", "s2"}}).want(t, 201)
	if r.json()["test"] != nil || num(dev.test(t, ready)["version"]) != 1 {
		t.Errorf("a Ready source changed: %s", r.body)
	}
	// Bad ranges and names.
	for _, body := range []map[string]any{
		{"name": "Gap", "testId": src, "stepIds": []string{"s1", "s3"}},
		{"name": "Missing", "testId": src, "stepIds": []string{"s9"}},
		{"name": "Empty", "testId": src, "stepIds": []string{}},
		{"name": "", "steps": fiveSteps()},
		{"name": "Both", "testId": src, "stepIds": []string{"s1"}, "steps": fiveSteps()},
		{"name": "Neither"},
		{"name": "Bad steps", "steps": []any{map[string]any{"type": "teleport"}}},
		{"name": "No steps", "steps": []any{}},
		{"name": "Bad input", "steps": fiveSteps(), "inputs": []any{map[string]any{"name": "1x"}}},
		{"name": "Twice", "steps": fiveSteps(), "inputs": []any{map[string]any{"name": "a"}, map[string]any{"name": "a"}}},
	} {
		dev.projectDo(o.project, "POST", "/api/components", body).want(t, 422)
	}
	dev.projectDo(o.project, "POST", "/api/components", map[string]any{"name": "fill FORM", "steps": fiveSteps()}).want(t, 409)
	// A Tester may read but not make components.
	o.members[access.Tester].projectDo(o.project, "POST", "/api/components", map[string]any{"name": "T", "steps": fiveSteps()}).want(t, 403)
	o.members[access.Tester].do("GET", "/api/components/"+id, nil).want(t, 200)
}

// TestComponentCallsArePinnedAndChecked: a call without a version is saved
// at the latest; unknown components, versions and inputs, and missing
// required inputs, are issues with paths; cycles are refused.
func TestComponentCallsArePinnedAndChecked(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev := o.members[access.TestDeveloper]
	login := dev.projectDo(o.project, "POST", "/api/components", map[string]any{"name": "Login",
		"steps":  []any{map[string]any{"id": "a", "type": "fill", "target": map[string]any{"locators": []any{map[string]any{"kind": "label", "value": "User"}}}, "value": "${user}"}},
		"inputs": []any{map[string]any{"name": "user"}, map[string]any{"name": "greeting", "default": "Hello"}}}).want(t, 201).json()["component"].(map[string]any)["id"].(string)
	dev.do("POST", "/api/components/"+login+"/versions", map[string]any{"steps": []any{map[string]any{"id": "a", "type": "assertTitle", "expected": "${greeting}"}}, "note": "v2"}).want(t, 201)

	id := dev.createTest(t, o.project, map[string]any{"name": "Uses login", "steps": []any{callStep("s1", login, 0, map[string]string{"user": "amy"})}})
	if s := docSteps(t, dev.test(t, id)); num(s[0]["version"]) != 2 {
		t.Fatalf("not pinned to the latest: %v", s)
	}
	cases := []struct {
		step       map[string]any
		path, code string
	}{
		{callStep("s1", "cmp_aaaaaaaaaaaaaaaa", 0, nil), "steps[0].component", "unknown"},
		{callStep("s1", login, 7, map[string]string{"user": "x"}), "steps[0].version", "unknown"},
		{callStep("s1", login, 0, nil), "steps[0].inputs.user", "required"},
		{callStep("s1", login, 0, map[string]string{"user": "x", "nope": "y"}), "steps[0].inputs.nope", "unknown"},
	}
	for _, c := range cases {
		r := dev.do("PUT", "/api/tests/"+id, map[string]any{"name": "Uses login", "steps": []any{c.step}}).want(t, 422)
		if !issueAt(r, c.path, c.code) {
			t.Errorf("%v: %s", c.step, r.body)
		}
		r = dev.do("POST", "/api/tests/"+id+"/validate", map[string]any{"dsl": 2, "name": "x", "steps": []any{c.step}}).want(t, 200)
		if r.json()["valid"] != false || !issueAt(r, c.path, c.code) {
			t.Errorf("validate %v: %s", c.step, r.body)
		}
		dev.projectDo(o.project, "POST", "/api/tests", map[string]any{"name": "New", "steps": []any{c.step}}).want(t, 422)
	}
	// A saved document never carries "call".
	bad := callStep("s1", login, 0, map[string]string{"user": "x"})
	bad["call"] = "s9"
	dev.do("PUT", "/api/tests/"+id, map[string]any{"name": "Uses login", "steps": []any{bad}}).want(t, 422)

	// Cycles: A calls B; B may not call A, nor itself.
	b := dev.projectDo(o.project, "POST", "/api/components", map[string]any{"name": "B", "steps": []any{map[string]any{"id": "b1", "type": "assertTitle", "expected": "B"}}}).want(t, 201).json()["component"].(map[string]any)["id"].(string)
	a := dev.projectDo(o.project, "POST", "/api/components", map[string]any{"name": "A", "steps": []any{callStep("a1", b, 0, nil)}}).want(t, 201).json()["component"].(map[string]any)["id"].(string)
	r := dev.do("POST", "/api/components/"+b+"/versions", map[string]any{"steps": []any{callStep("b1", a, 0, nil)}}).want(t, 422)
	if !issueAt(r, "steps[0].component", "cycle") {
		t.Errorf("cycle through A: %s", r.body)
	}
	r = dev.do("POST", "/api/components/"+b+"/versions", map[string]any{"steps": []any{callStep("b1", b, 0, nil)}}).want(t, 422)
	if !issueAt(r, "steps[0].component", "cycle") {
		t.Errorf("self call: %s", r.body)
	}
	if v := dev.do("GET", "/api/components/"+b, nil).want(t, 200).json(); num(v["latestVersion"]) != 1 {
		t.Errorf("a refused version was stored: %v", v["latestVersion"])
	}
	dev.do("GET", "/api/components/"+login+"/versions/2", nil).want(t, 200)
	dev.do("GET", "/api/components/"+login+"/versions/3", nil).want(t, 404)
	dev.do("GET", "/api/components/"+login+"/versions/x", nil).want(t, 404)
}

// TestComponentImpactAndUpgrade: callers list their status, pinned version
// and diff; an upgrade adds a version noted "component X upgraded from vA
// to vB" keeping the status, for those allowed.
func TestComponentImpactAndUpgrade(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev, mgr, tester := o.members[access.TestDeveloper], o.members[access.TestManager], o.members[access.Tester]
	step := func(id, title string) map[string]any {
		return map[string]any{"id": id, "type": "assertTitle", "expected": title}
	}
	cmp := dev.projectDo(o.project, "POST", "/api/components", map[string]any{"name": "Header",
		"steps": []any{step("h1", "One"), step("h2", "Two"), step("h3", "Three")}}).want(t, 201).json()["component"].(map[string]any)["id"].(string)
	draft := dev.createTest(t, o.project, map[string]any{"name": "Draft caller", "steps": []any{callStep("s1", cmp, 0, nil)}})
	ready := mgr.createTest(t, o.project, map[string]any{"name": "Ready caller", "steps": []any{callStep("s1", cmp, 0, nil)}})
	mgr.do("PUT", "/api/tests/"+ready, map[string]any{"status": "Ready"}).want(t, 200)
	private := mgr.createTest(t, o.project, map[string]any{"name": "Private caller", "visibility": "Private", "steps": []any{callStep("s1", cmp, 0, nil)}})

	dev.do("POST", "/api/components/"+cmp+"/versions", map[string]any{"steps": []any{step("h1", "One"), step("h2", "Deux"), step("h4", "Four")}, "note": "French"}).want(t, 201)

	imp := dev.do("GET", "/api/components/"+cmp+"/impact", nil).want(t, 200).json()
	if num(imp["latestVersion"]) != 2 {
		t.Fatalf("impact %v", imp)
	}
	callers := map[string]map[string]any{}
	for _, c := range imp["callers"].([]any) {
		callers[c.(map[string]any)["testId"].(string)] = c.(map[string]any)
	}
	if len(callers) != 2 || callers[private] != nil {
		t.Fatalf("callers %v: want the two shared ones", callers)
	}
	d := callers[draft]
	if d["status"] != "Draft" || num(d["pinnedVersion"]) != 1 || d["addsVersion"] != true || d["mayUpgrade"] != true {
		t.Errorf("draft caller %v", d)
	}
	var ops []string
	for _, c := range d["diff"].([]any) {
		ops = append(ops, c.(map[string]any)["op"].(string))
	}
	if strings.Join(ops, ",") != "same,change,change" {
		t.Errorf("diff ops %v", ops)
	}
	if rc := callers[ready]; rc["mayUpgrade"] != false || rc["status"] != "Ready" {
		t.Errorf("a Test Developer may upgrade the Ready caller: %v", rc)
	}
	mgrImp := mgr.do("GET", "/api/components/"+cmp+"/impact", nil).want(t, 200).json()
	if len(mgrImp["callers"].([]any)) != 3 {
		t.Errorf("the owner of the private caller sees %d callers", len(mgrImp["callers"].([]any)))
	}

	// Testers may not upgrade at all.
	tester.do("POST", "/api/components/"+cmp+"/upgrade", map[string]any{"testIds": []string{draft}}).want(t, 403)
	// A Test Developer: the Draft yes, the Ready one no, the private one does not exist for them.
	res := dev.do("POST", "/api/components/"+cmp+"/upgrade", map[string]any{"testIds": []string{draft, ready, private, "tc_aaaaaaaaaaaaaaaa"}}).want(t, 200).json()["results"].([]any)
	want := []string{"upgraded", "refused", "not_found", "not_found"}
	for i, r := range res {
		if got := r.(map[string]any)["status"]; got != want[i] {
			t.Errorf("result %d = %v, want %s", i, r, want[i])
		}
	}
	if v := latestVersion(t, dev, draft); v["note"] != "component Header upgraded from v1 to v2" || v["status"] != "Draft" || num(v["version"]) != 2 {
		t.Errorf("draft's new version %v", v)
	}
	if s := docSteps(t, dev.test(t, draft)); num(s[0]["version"]) != 2 {
		t.Errorf("draft's call %v", s)
	}
	// Again: nothing to do.
	res = dev.do("POST", "/api/components/"+cmp+"/upgrade", map[string]any{"testIds": []string{draft}}).want(t, 200).json()["results"].([]any)
	if res[0].(map[string]any)["status"] != "unchanged" {
		t.Errorf("second upgrade %v", res)
	}
	// A Test Manager upgrades the Ready caller: it stays Ready.
	res = mgr.do("POST", "/api/components/"+cmp+"/upgrade", map[string]any{"testIds": []string{ready}}).want(t, 200).json()["results"].([]any)
	if res[0].(map[string]any)["status"] != "upgraded" {
		t.Fatalf("manager upgrade %v", res)
	}
	if got := mgr.test(t, ready); got["status"] != "Ready" || num(got["version"]) != 2 {
		t.Errorf("ready caller after upgrade: %v %v", got["status"], got["version"])
	}
	dev.do("POST", "/api/components/"+cmp+"/upgrade", map[string]any{"testIds": []string{}}).want(t, 422)
}

// TestComponentDeleteRefusedWhileCalled: 409 while a current test version
// or another component calls it; allowed once callers moved off.
func TestComponentDeleteRefusedWhileCalled(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev := o.members[access.TestDeveloper]
	one := []any{map[string]any{"id": "x", "type": "assertTitle", "expected": "T"}}
	cmp := dev.projectDo(o.project, "POST", "/api/components", map[string]any{"name": "Used", "steps": one}).want(t, 201).json()["component"].(map[string]any)["id"].(string)
	mgr := o.members[access.TestManager]
	caller := mgr.createTest(t, o.project, map[string]any{"name": "Caller", "steps": []any{callStep("s1", cmp, 0, nil)}})
	mgr.do("PUT", "/api/tests/"+caller, map[string]any{"status": "Ready"}).want(t, 200)
	r := dev.do("DELETE", "/api/components/"+cmp, nil).want(t, 409)
	if r.str("code") != "component_in_use" {
		t.Errorf("delete answered %s", r.body)
	}
	// Version 2 no longer calls it; version 1 (Ready, history) still does.
	mgr.do("POST", "/api/tests/"+caller+"/revisions", nil).want(t, 201)
	mgr.do("PUT", "/api/tests/"+caller, map[string]any{"name": "Caller", "steps": one}).want(t, 200)
	outer := dev.projectDo(o.project, "POST", "/api/components", map[string]any{"name": "Outer", "steps": []any{callStep("o1", cmp, 0, nil)}}).want(t, 201).json()["component"].(map[string]any)["id"].(string)
	if r := dev.do("DELETE", "/api/components/"+cmp, nil).want(t, 409); !strings.Contains(r.str("error"), "Outer") {
		t.Errorf("refusal does not name the calling component: %s", r.body)
	}
	dev.do("DELETE", "/api/components/"+outer, nil).want(t, 204)
	o.members[access.Tester].do("DELETE", "/api/components/"+cmp, nil).want(t, 403)
	dev.do("DELETE", "/api/components/"+cmp, nil).want(t, 204)
	dev.do("GET", "/api/components/"+cmp, nil).want(t, 404)
	// Restoring the old version that called it now names the missing component.
	r = mgr.do("POST", "/api/tests/"+caller+"/versions/1/restore", nil).want(t, 422)
	if !issueAt(r, "steps[0].component", "unknown") {
		t.Errorf("restore answered %s", r.body)
	}
}

// TestComponentCrossProject: another project's component is not found
// through any route, and the attempt is audited; rename works and
// conflicts are 409.
func TestComponentCrossProject(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	owner := o.owner
	other := owner.do("POST", "/api/orgs/"+o.id+"/projects", map[string]string{"name": "Other"}).want(t, 201).str("id")
	one := []any{map[string]any{"id": "x", "type": "assertTitle", "expected": "T"}}
	cmp := owner.projectDo(o.project, "POST", "/api/components", map[string]any{"name": "Mine", "steps": one}).want(t, 201).json()["component"].(map[string]any)["id"].(string)
	src := owner.createTest(t, o.project, map[string]any{"name": "Src", "steps": fiveSteps()})
	stranger, _ := h.register("Stranger")
	for _, a := range []struct {
		who          *client
		method, path string
		header       string
		body         any
	}{
		{owner, "GET", "/api/components/" + cmp, other, nil},
		{owner, "PUT", "/api/components/" + cmp, other, map[string]any{"name": "Hijack"}},
		{owner, "POST", "/api/components/" + cmp + "/versions", other, map[string]any{"steps": one}},
		{owner, "POST", "/api/components", other, map[string]any{"name": "Steal", "testId": src, "stepIds": []string{"s1"}}},
		{stranger, "GET", "/api/components/" + cmp, "", nil},
		{stranger, "DELETE", "/api/components/" + cmp, "", nil},
		{stranger, "GET", "/api/components/" + cmp + "/impact", "", nil},
		{stranger, "POST", "/api/components/" + cmp + "/upgrade", "", map[string]any{"testIds": []string{src}}},
	} {
		before := len(readAudit(t, h))
		if a.header != "" {
			a.who.projectDo(a.header, a.method, a.path, a.body).want(t, 404)
		} else {
			a.who.do(a.method, a.path, a.body).want(t, 404)
		}
		if lines := readAudit(t, h); len(lines) != before+1 || lines[before]["event"] != "cross_project_refused" {
			t.Errorf("%s %s: audit %v", a.method, a.path, lines[before:])
		}
	}
	// The other project cannot call it either.
	owner.projectDo(other, "POST", "/api/tests", map[string]any{"name": "X", "steps": []any{callStep("s1", cmp, 0, nil)}}).want(t, 422)
	r := owner.do("PUT", "/api/components/"+cmp, map[string]any{"name": "Renamed", "description": "d"}).want(t, 200)
	if r.str("name") != "Renamed" || r.str("description") != "d" {
		t.Errorf("rename %s", r.body)
	}
	owner.projectDo(o.project, "POST", "/api/components", map[string]any{"name": "Taken", "steps": one}).want(t, 201)
	owner.do("PUT", "/api/components/"+cmp, map[string]any{"name": "taken"}).want(t, 409)
	owner.do("GET", "/api/components/cmp_bad", nil).want(t, 404)
}

// The Playwright export renders a called component as a helper function of
// the script, for a saved test and for a document in the header's project;
// another project's components stay out of it.
func TestScriptRendersComponentHelpers(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev := o.members[access.TestDeveloper]
	cmp := dev.projectDo(o.project, "POST", "/api/components", map[string]any{"name": "Sign in",
		"inputs": []any{map[string]any{"name": "who"}},
		"steps":  []any{map[string]any{"id": "email", "type": "fill", "value": "${who}", "target": target(loc("label", "Email"))}}}).
		want(t, 201).json()["component"].(map[string]any)["id"].(string)
	doc := map[string]any{"name": "Uses it", "steps": []any{callStep("login", cmp, 0, map[string]string{"who": "ann"})}}
	test := dev.createTest(t, o.project, doc)
	script := dev.do("POST", "/api/script", map[string]any{"testId": test}).want(t, 200).str("script")
	if !strings.Contains(script, "const signInV1 = async (inputs: Record<string, string> = {}) => {") ||
		!strings.Contains(script, "await signInV1({ who: 'ann' });") || !strings.Contains(script, "await page.getByLabel('Email').fill(who);") {
		t.Fatalf("saved test's script:\n%s", script)
	}
	body := doc
	if s := dev.projectDo(o.project, "POST", "/api/script", body).want(t, 200).str("script"); !strings.Contains(s, "const signInV1 = async") {
		t.Fatalf("document in its project:\n%s", s)
	}
	// Someone outside the project names it: the call stays a comment.
	outsider, _ := h.register("Outsider")
	s := outsider.do("POST", "/api/script", body, ProjectHeader, o.project).want(t, 200).str("script")
	if strings.Contains(s, "signInV1") || strings.Contains(s, "Email") || !strings.Contains(s, "component "+cmp) {
		t.Fatalf("an outsider's script shows the component:\n%s", s)
	}
}
