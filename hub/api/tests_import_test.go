package api

import (
	"strconv"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

func TestImport(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.Tester]
	imp := func(body any, want int) response {
		t.Helper()
		return c.do("POST", "/api/tests/import", body, ProjectHeader, o.project).want(t, want)
	}
	// DSL version 1 is migrated, then validated, and saved as Shared.
	r := imp(map[string]any{"version": 1, "name": "Legacy login", "steps": []map[string]any{
		{"command": "open", "target": "https://shop.example.com/login", "value": ""},
		{"command": "type", "target": "id=email", "value": "ann@example.com"},
		{"command": "click", "target": "css=button[type=submit]", "value": ""},
		{"command": "assertTitle", "target": "Welcome", "value": ""},
	}}, 201).json()
	test := r["test"].(map[string]any)
	if num(r["version"]) != 1 || num(r["migratedFrom"]) != 1 || test["visibility"] != "Shared" || test["status"] != "Draft" ||
		num(test["steps"]) != 4 || test["owner"].(map[string]any)["id"] != o.ids[access.Tester] || !strings.HasPrefix(test["id"].(string), "tc_") {
		t.Fatalf("v1 import: %v", r)
	}
	saved := c.test(t, test["id"].(string))
	d := saved["document"].(map[string]any)
	steps := d["steps"].([]any)
	if num(d["dsl"]) != 2 || steps[0].(map[string]any)["type"] != "navigate" || steps[1].(map[string]any)["type"] != "fill" {
		t.Errorf("migrated document: %v", d)
	}
	if loc := steps[1].(map[string]any)["target"].(map[string]any)["locators"].([]any)[0].(map[string]any); loc["kind"] != "css" || loc["value"] != "#email" {
		t.Errorf("id=email became %v", loc)
	}
	// Version 2 needs no migration; a given id and visibility are not taken over.
	r = imp(map[string]any{"id": "tc_exportedbefore00", "dsl": 2, "name": "Modern", "steps": []map[string]any{{"id": "a", "type": "navigate", "url": "https://x.example"}}}, 201).json()
	if r["migratedFrom"] != nil || num(r["test"].(map[string]any)["steps"]) != 1 || r["test"].(map[string]any)["id"] == "tc_exportedbefore00" {
		t.Errorf("v2 import: %v", r)
	}
	// Unknown commands are issues, never dropped; nothing is saved.
	bad := imp(map[string]any{"version": 1, "name": "Odd", "steps": []map[string]any{
		{"command": "open", "target": "https://x.example"}, {"command": "doMagic", "target": "id=x"},
	}}, 422)
	if !strings.Contains(string(bad.body), `"steps[1].command"`) {
		t.Errorf("unknown command issue: %s", bad.body)
	}
	imp(map[string]any{"dsl": 2, "steps": []any{}}, 422) // no name
	imp("[1]", 400)

	// A Selenium IDE project: each test becomes one test, targets become fallbacks.
	side := map[string]any{
		"id": "p1", "version": "2.0", "name": "Shop", "url": "https://shop.example.com",
		"tests": []map[string]any{
			{"id": "t1", "name": "Search", "commands": []map[string]any{
				{"id": "c1", "comment": "", "command": "open", "target": "/search", "targets": []any{}, "value": ""},
				{"id": "c2", "comment": "", "command": "type", "target": "id=q", "value": "shoes",
					"targets": [][]string{{"id=q", "id"}, {"name=query", "name"}, {"xpath=//input[@id='q']", "xpath:attributes"}}},
				{"id": "c3", "comment": "", "command": "click", "target": "css=.go", "targets": [][]string{{"css=.go", "css:finder"}}, "value": ""},
			}},
			{"id": "t2", "name": "Home", "commands": []map[string]any{
				{"id": "c4", "comment": "", "command": "open", "target": "/", "targets": []any{}, "value": ""},
			}},
		},
		"suites": []any{}, "urls": []string{"https://shop.example.com"}, "plugins": []any{},
	}
	r = imp(side, 201).json()
	all := r["tests"].([]any)
	if len(all) != 2 || r["migratedFrom"] != "side" {
		t.Fatalf(".side import: %v", r)
	}
	first := all[0].(map[string]any)["test"].(map[string]any)
	got := c.test(t, first["id"].(string))
	fill := got["document"].(map[string]any)["steps"].([]any)[1].(map[string]any)
	if locs := fill["target"].(map[string]any)["locators"].([]any); len(locs) != 3 {
		t.Errorf(".side targets must become ranked fallbacks: %v", locs)
	}
	if nav := got["document"].(map[string]any)["steps"].([]any)[0].(map[string]any); nav["url"] != "https://shop.example.com/search" {
		t.Errorf("relative open: %v", nav["url"])
	}
	if sk, ok := r["skipped"].([]any); !ok || len(sk) != 0 {
		t.Errorf("nothing skipped, yet skipped is %v", r["skipped"])
	}
	// What cannot be imported is left out and listed; the rest is saved.
	side["tests"].([]map[string]any)[0]["commands"] = append(side["tests"].([]map[string]any)[0]["commands"].([]map[string]any),
		map[string]any{"id": "c5", "command": "click", "target": "dom=document.forms[0]", "value": ""},
		map[string]any{"id": "c6", "command": "assertTitle", "target": "Results", "value": ""})
	side["tests"].([]map[string]any)[1]["commands"] = []map[string]any{{"id": "c9", "command": "teleport", "target": "", "value": ""}}
	r = imp(side, 201).json()
	all = r["tests"].([]any)
	if len(all) != 2 || num(all[0].(map[string]any)["test"].(map[string]any)["steps"]) != 4 || num(all[1].(map[string]any)["test"].(map[string]any)["steps"]) != 0 {
		t.Fatalf("partial .side import: %v", r)
	}
	want := []string{"Search 3 click dom", "Home 0 teleport not supported"}
	sk := r["skipped"].([]any)
	for i, w := range want {
		f := strings.SplitN(w, " ", 4)
		if i >= len(sk) {
			t.Fatalf("skipped %v, want %v", sk, want)
		}
		g := sk[i].(map[string]any)
		if g["test"] != f[0] || num(g["index"]) != atoi(f[1]) || g["command"] != f[2] || !strings.Contains(g["reason"].(string), f[3]) {
			t.Errorf("skipped[%d] = %v, want %s", i, g, w)
		}
	}
	if len(sk) != len(want) {
		t.Errorf("skipped %v", sk)
	}
	// Input that is no project at all still saves nothing.
	imp(map[string]any{"tests": []any{1}}, 422)
	if list := c.do("GET", "/api/tests", nil, ProjectHeader, o.project).want(t, 200).json(); num(list["total"]) != 6 {
		t.Errorf("tests saved: total %v, want 6", list["total"])
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func TestScriptAndRegistry(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.Tester]
	body := map[string]any{"dsl": 2, "name": "Sign in", "steps": []map[string]any{
		{"id": "s1", "type": "navigate", "url": "https://shop.example.com"},
		{"id": "s2", "type": "click", "target": map[string]any{"locators": []map[string]any{{"kind": "role", "value": "button", "name": "Sign in"}}}},
		{"id": "s3", "type": "fill", "value": "${secrets.PASSWORD}", "target": map[string]any{"locators": []map[string]any{{"kind": "label", "value": "Password"}}}},
	}}
	r := c.do("POST", "/api/script", body).want(t, 200).json()
	script, _ := r["script"].(string)
	if r["language"] != "typescript" || !strings.Contains(script, "getByRole('button', { name: 'Sign in' })") ||
		!strings.Contains(script, "process.env.PASSWORD") || !strings.Contains(script, "@playwright/test") {
		t.Errorf("script: %v", r)
	}
	id := c.createTest(t, o.project, body)
	if r := c.do("POST", "/api/script", map[string]any{"testId": id}).want(t, 200).json(); r["script"] != script {
		t.Errorf("script of a saved test differs from the document's")
	}
	c.do("POST", "/api/script", map[string]any{"dsl": 2, "steps": []any{}}).want(t, 422)
	// Issue 28: the run option device gives the script that device's profile; a device that is no name is refused.
	if s := c.do("POST", "/api/script", map[string]any{"testId": id, "device": "iPhone 15"}).want(t, 200).str("script"); !strings.Contains(s, "test.use({ ...devices['iPhone 15'] });") ||
		!strings.Contains(s, "import { test, expect, devices } from '@playwright/test';") {
		t.Errorf("script with a device:\n%s", s)
	}
	for _, bad := range []any{"", "iPhone'15", 15, nil, "a\nb", "Nokia 3310"} { // no name, or no profile of GET /api/registry
		if e := c.do("POST", "/api/script", map[string]any{"testId": id, "device": bad}).want(t, 422).json(); e["code"] != "invalid" {
			t.Errorf("device %v: %v", bad, e)
		}
	}
	c.do("POST", "/api/script", map[string]any{"testId": "tc_aaaaaaaaaaaaaaaa"}).want(t, 404)

	reg := c.do("GET", "/api/registry", nil).want(t, 200).json()
	types := map[string]bool{}
	for _, st := range reg["stepTypes"].([]any) {
		m := st.(map[string]any)
		types[m["type"].(string)] = true
		if m["description"] == "" || m["params"] == nil {
			t.Errorf("step type without description or params: %v", m)
		}
	}
	for _, want := range strings.Fields("navigate click dblclick hover fill press select check uncheck assertVisible assertHidden assertText assertValue assertUrl assertTitle wait waitFor screenshot setVariable script callComponent") {
		if !types[want] {
			t.Errorf("registry lacks %s", want)
		}
	}
	if num(reg["dslVersion"]) != 2 || len(reg["locatorKinds"].([]any)) != 9 {
		t.Errorf("registry: dslVersion %v, locatorKinds %v", reg["dslVersion"], reg["locatorKinds"])
	}
	h.client().do("GET", "/api/registry", nil).want(t, 401)
}
