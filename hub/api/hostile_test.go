package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/access"
)

// obj is a JSON object in a sample body.
type obj = map[string]any

// noBody marks a POST or PUT route that reads no request body.
var noBody = obj{"ignored": "this route reads no body"}

// hostileDoc is a test document that sets every string field a document
// can hold, so each can be made hostile in turn.
func hostileDoc(suite string) obj {
	el := func(css string) obj { return obj{"locators": []any{obj{"kind": "css", "value": css}}} }
	return obj{"dsl": 2, "name": "Sign in", "suite": suite, "tags": []any{"smoke"}, "description": "first line\nsecond\tline",
		"variables": obj{"user": "alice"},
		"steps": []any{
			obj{"id": "s1", "type": "navigate", "url": "${baseUrl}/login", "description": "open the page"},
			obj{"id": "s2", "type": "fill", "value": "${user}", "target": obj{
				"locators":    []any{obj{"kind": "role", "value": "textbox", "name": "Email"}, obj{"kind": "css", "value": "#email"}},
				"frame":       []any{obj{"kind": "css", "value": "iframe#login"}},
				"fingerprint": obj{"tag": "input", "id": "email"}}},
			obj{"id": "s3", "type": "press", "key": "Enter"},
			obj{"id": "s4", "type": "assertText", "target": el("h1"), "expected": "Welcome, ${user}", "match": "contains"},
			obj{"id": "s5", "type": "waitFor", "target": el("#list"), "state": "visible"},
			obj{"id": "s6", "type": "screenshot", "name": "home"},
			obj{"id": "s7", "type": "setVariable", "name": "token", "value": "abc"},
			obj{"id": "s8", "type": "script", "code": "return 1;\n", "assign": "one"},
			obj{"id": "s9", "type": "callComponent", "component": "cmp_abc123", "version": 1, "inputs": obj{"user": "${user}"}},
		}}
}

func with(m obj, kv ...any) obj {
	out := obj{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

// hostileWorld is the records whose ids fill the routes' path parameters.
type hostileWorld struct {
	o                                  org
	ownerID, ownerEmail, outsiderEmail string
	test, run, env, app, suite         string
}

func newHostileWorld(t *testing.T, h *harness) hostileWorld {
	w := hostileWorld{o: h.org(t), suite: "Checkout"}
	c := w.o.owner
	w.ownerID = c.do("GET", "/api/auth/session", nil).want(t, 200).str("id")
	w.ownerEmail = c.email()
	outsider, _ := h.register("Outsider")
	w.outsiderEmail = outsider.email()
	p := func(method, path string, body any) response {
		return c.do(method, path, body, ProjectHeader, w.o.project)
	}
	p("POST", "/api/suites", obj{"name": w.suite}).want(t, 201)
	w.test = p("POST", "/api/tests", hostileDoc(w.suite)).want(t, 201).str("id")
	w.app = p("POST", "/api/applications", obj{"name": "Shop", "baseUrl": "https://shop.example.com"}).want(t, 201).str("id")
	w.env = p("POST", "/api/environments", obj{"name": "Staging", "variables": obj{"user": "bob"}, "applicationId": w.app}).want(t, 201).str("id")
	w.run = p("POST", "/api/runs", obj{"testId": w.test, "environmentId": w.env}).want(t, 201).str("runId")
	return w
}

// samples gives a well-formed body for every route that reads one; the
// hostile bodies are made from it. A new POST or PUT route must add one.
func (w hostileWorld) samples() map[string][]any {
	doc := hostileDoc(w.suite)
	v1 := obj{"version": 1, "name": "Legacy", "steps": []any{
		obj{"command": "open", "target": "https://shop.example.com/", "value": ""},
		obj{"command": "type", "target": "id=q", "value": "shoes"},
		obj{"command": "click", "target": "css=#go", "value": ""}}}
	side := obj{"id": "p1", "version": "2.0", "name": "Shop", "url": "https://shop.example.com/",
		"tests": []any{obj{"id": "t1", "name": "Search", "commands": []any{
			obj{"id": "c1", "comment": "go", "command": "open", "target": "/search", "targets": []any{}, "value": ""},
			obj{"id": "c2", "comment": "", "command": "type", "target": "id=q", "targets": []any{[]any{"css=#q", "css:finder"}}, "value": "x"}}}},
		"suites": []any{obj{"id": "su1", "name": "Main", "tests": []any{"t1"}}}}
	pw := "correct horse battery"
	return map[string][]any{
		"POST /api/auth/login":    {obj{"email": w.ownerEmail, "password": pw}},
		"POST /api/auth/logout":   {noBody},
		"POST /api/auth/register": {obj{"name": "New Person", "email": "new.person@example.com", "password": pw}},
		"POST /api/auth/forgot":   {obj{"email": w.ownerEmail}},
		"POST /api/auth/reset":    {obj{"token": "abcdefabcdef", "password": pw}},
		"POST /api/auth/password": {obj{"currentPassword": pw, "newPassword": pw}},

		"POST /api/members":                       {obj{"name": "Account", "email": "account@example.com", "password": pw, "platformAdmin": false}},
		"POST /api/orgs":                          {obj{"name": "Globex"}},
		"PUT /api/orgs/{id}":                      {obj{"name": "Acme"}},
		"POST /api/orgs/{id}/members":             {obj{"email": w.outsiderEmail, "role": "Tester"}},
		"PUT /api/orgs/{id}/members/{userId}":     {obj{"role": "Tester"}},
		"POST /api/orgs/{id}/projects":            {obj{"name": "Warehouse"}},
		"PUT /api/projects/{id}":                  {obj{"name": "Shop"}},
		"PUT /api/projects/{id}/members/{userId}": {obj{"role": "Tester"}},

		"POST /api/agent/pair/{code}": {noBody},
		"POST /api/runs/{id}/cancel":  {noBody},
		"POST /api/runs":              {obj{"testId": w.test, "environmentId": w.env, "headed": false, "screenshots": true}},
		"POST /api/script":            {doc, obj{"testId": w.test}},

		"POST /api/environments": {obj{"name": "Production", "variables": obj{"user": "carol"}, "secrets": obj{"TOKEN": "s3cret"}, "applicationId": w.app},
			obj{"id": w.env, "name": "Staging", "variables": obj{"user": "bob"}}},
		"POST /api/secrets":      {obj{"environmentId": w.env, "name": "PASSWORD", "value": "hunter2"}},
		"POST /api/applications": {obj{"name": "Admin", "baseUrl": "https://admin.example.com", "description": "back office\nfor staff"}},

		"POST /api/tests":        {with(doc, "visibility", "Private")},
		"POST /api/tests/import": {doc, v1, side},
		"POST /api/suites":       {obj{"name": "Search"}},
		"PUT /api/suites/{name}": {obj{"name": w.suite}},
		"POST /api/settings":     {obj{"modules": []any{w.suite, "Search"}}},

		"PUT /api/tests/{id}":                             {with(doc, "status", "Draft")},
		"POST /api/tests/{id}/validate":                   {doc, v1},
		"POST /api/tests/{id}/revisions":                  {noBody},
		"POST /api/tests/{id}/duplicate":                  {noBody},
		"PUT /api/tests/{id}/sharing":                     {obj{"visibility": "Shared", "ownerId": w.ownerID}},
		"POST /api/tests/{id}/versions/{version}/restore": {noBody},
	}
}

// param gives the real value of a path parameter: which record it names
// depends on the segment before it.
func (w hostileWorld) param(before, name string) (string, bool) {
	switch name + " after " + before {
	case "id after orgs":
		return w.o.id, true
	case "id after projects":
		return w.o.project, true
	case "id after tests":
		return w.test, true
	case "id after runs":
		return w.run, true
	case "id after environments":
		return w.env, true
	case "id after applications":
		return w.app, true
	case "id after members":
		return w.o.ids[access.Tester], true
	case "id after agent":
		return "agt_aaaaaaaaaaaaaaaa", true // no agent is paired
	case "code after pair":
		return "K7Q-4MP", true
	case "userId after members":
		return w.o.ids[access.Tester], true
	case "version after versions":
		return "1", true
	case "name after suites":
		return w.suite, true
	case "name after artifacts":
		return "s1.png", true
	}
	return "", false
}

// hostileRoute is one route of the router with its path parameters.
type hostileRoute struct {
	method, pattern string
	segments        []string // the pattern split on "/"
	params          []int    // indexes of {param} segments
}

func (rt hostileRoute) key() string { return rt.method + " " + rt.pattern }

// path fills the parameters: override[i] replaces parameter i when set.
func (rt hostileRoute) path(w hostileWorld, override map[int]string) (string, error) {
	segs := slices.Clone(rt.segments)
	for _, i := range rt.params {
		if v, ok := override[i]; ok {
			segs[i] = v
			continue
		}
		name := strings.Trim(segs[i], "{}")
		v, ok := w.param(segs[i-1], name)
		if !ok {
			return "", fmt.Errorf("%s: the hostile test has no value for {%s} after %q; add one to hostileWorld.param", rt.key(), name, segs[i-1])
		}
		segs[i] = escapeSegment(v)
	}
	return strings.Join(segs, "/"), nil
}

func escapeSegment(v string) string { return strings.ReplaceAll(v, " ", "%20") }

// walkRoutes lists every route the hub's router serves.
func walkRoutes(t *testing.T, h http.Handler) []hostileRoute {
	var out []hostileRoute
	err := chi.Walk(h.(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		route = strings.TrimSuffix(route, "/")
		rt := hostileRoute{method: method, pattern: route, segments: strings.Split(route, "/")}
		for i, s := range rt.segments {
			if strings.HasPrefix(s, "{") {
				rt.params = append(rt.params, i)
			}
		}
		out = append(out, rt)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Destructive routes go last, and the organization and project last
	// of all, so the other routes meet real records.
	rank := func(rt hostileRoute) int {
		switch {
		case rt.method != "DELETE":
			return 0
		case rt.pattern == "/api/orgs/{id}" || rt.pattern == "/api/projects/{id}":
			return 2
		}
		return 1
	}
	sort.SliceStable(out, func(i, j int) bool {
		if a, b := rank(out[i]), rank(out[j]); a != b {
			return a < b
		}
		return out[i].key() < out[j].key()
	})
	return out
}

// leaf is one value inside a JSON body, with a way to replace it.
type leaf struct {
	path  string
	value any
	key   bool // the leaf is an object's key, not a value
	set   func(root any, v any) any
}

// leaves lists every value and object key in v, depth first.
func leaves(v any) []leaf {
	var out []leaf
	var walk func(path string, v any, set func(root, v any) any)
	walk = func(path string, v any, set func(root, v any) any) {
		out = append(out, leaf{path: path, value: v, set: set})
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedAnyKeys(x) {
				k := k
				p := path + "." + k
				out = append(out, leaf{path: p + "(key)", value: k, key: true, set: func(root, nv any) any {
					return replaceAt(root, path, func(cur any) any {
						m := cloneMap(cur.(map[string]any))
						m[fmt.Sprint(nv)] = m[k]
						delete(m, k)
						return m
					})
				}})
				walk(p, x[k], func(root, nv any) any {
					return replaceAt(root, path, func(cur any) any {
						m := cloneMap(cur.(map[string]any))
						m[k] = nv
						return m
					})
				})
			}
		case []any:
			for i := range x {
				i := i
				walk(path+"["+strconv.Itoa(i)+"]", x[i], func(root, nv any) any {
					return replaceAt(root, path, func(cur any) any {
						a := slices.Clone(cur.([]any))
						a[i] = nv
						return a
					})
				})
			}
		}
	}
	walk("", v, func(_, nv any) any { return nv })
	return out
}

func sortedAnyKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// replaceAt returns root with the value at path (as leaves names it)
// replaced by change(old), copying only what lies on the way.
func replaceAt(root any, path string, change func(any) any) any {
	if path == "" {
		return change(root)
	}
	var head, rest string
	if path[0] == '.' {
		path = path[1:]
		end := strings.IndexAny(path, ".[")
		if end < 0 {
			end = len(path)
		}
		head, rest = path[:end], path[end:]
		m := cloneMap(root.(map[string]any))
		m[head] = replaceAt(m[head], rest, change)
		return m
	}
	end := strings.IndexByte(path, ']')
	i, _ := strconv.Atoi(path[1:end])
	a := slices.Clone(root.([]any))
	a[i] = replaceAt(a[i], path[end+1:], change)
	return a
}

// labelRE matches the paths of names: one-line labels that may hold no
// control or invisible formatting character.
var labelRE = regexp.MustCompile(`^\.(name|suite|tags\[\d+\]|modules\[\d+\]|tests\[\d+\]\.name)$`)

// isLabel reports a name in a sample body (a Selenium IDE project's own
// name is not kept: its tests' names are).
func isLabel(root any, path string) bool {
	_, side := root.(map[string]any)["tests"]
	return labelRE.MatchString(path) && !(side && path == ".name")
}

func labelRefused(status int, body []byte) string {
	if status < 300 && !bytes.Contains(body, []byte(`"valid":false`)) {
		return "a name with control characters was accepted"
	}
	return ""
}

var indexRE = regexp.MustCompile(`\[\d+\]`)

// withNUL puts a NUL character in the middle of s.
func withNUL(s string) string { return s[:len(s)/2] + "\x00" + s[len(s)/2:] }

// wrongType is a value of another JSON type than v.
func wrongType(v any) any {
	switch v.(type) {
	case string:
		return obj{"x": 1}
	case map[string]any:
		return []any{"x"}
	case []any:
		return obj{"x": []any{}}
	case bool:
		return "true"
	case nil:
		return []any{}
	}
	return "1"
}

func deep(open, close string, n int) string {
	return strings.Repeat(open, n) + "1" + strings.Repeat(close, n)
}

// hostileRequest is one request of the campaign.
type hostileRequest struct {
	what   string // for failure messages
	path   string
	body   []byte
	header string // x-project-id; "" sends none
	want   func(status int, body []byte) string
}

func mustJSON(t *testing.T, v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// bodyRequests makes hostile bodies from a route's samples: a NUL in each
// string and key in turn, each value of the wrong type, 100 KB strings,
// deep nesting, a body over the limit, and bodies of the wrong shape.
func bodyRequests(t *testing.T, path string, samples []any, project string) []hostileRequest {
	var out []hostileRequest
	add := func(what string, body []byte, want func(int, []byte) string) {
		out = append(out, hostileRequest{what: what, path: path, body: body, header: project, want: want})
	}
	// A NUL in a field the route ignores may be accepted; one it keeps
	// must be refused (PostgreSQL cannot store it), never echoed back.
	refused := func(status int, body []byte) string {
		// (The validate route answers 200 with issues, which may quote it.)
		if status < 300 && bytes.Contains(body, []byte(`\u0000`)) && !bytes.Contains(body, []byte(`"valid":false`)) {
			return "a NUL character was accepted"
		}
		return ""
	}
	reads := len(samples) > 0 && !(len(samples) == 1 && fmt.Sprint(samples[0]) == fmt.Sprint(noBody))
	generic := []string{`[]`, `"x"`, `null`, `5`, `{"a":"\u0000"}`, `{`, `{"name":"x"} {"name":"y"}`, "\xff\xfe",
		deep("[", "]", 10000), deep(`{"a":`, "}", 10000), deep("[", "]", 100000)}
	for _, b := range generic {
		add("body "+clipFor(b), []byte(b), nil)
	}
	if !reads {
		add("body with a NUL everywhere", []byte(`{"name":"\u0000","email":"\u0000","id":"\u0000","role":"\u0000"}`), nil)
		return out
	}
	for si, sample := range samples {
		var root any
		_ = json.Unmarshal(mustJSON(t, sample), &root)
		add(fmt.Sprintf("sample %d", si), mustJSON(t, root), nil)
		// A 100 KB string in each kind of string field (the first of
		// steps[*].url and so on: the bytes, not the count, cost time).
		kinds := map[string]bool{}
		for _, l := range leaves(root) {
			kind := indexRE.ReplaceAllString(l.path, "[]")
			if _, ok := l.value.(string); ok && !l.key && !kinds[kind] {
				kinds[kind] = true
				add(fmt.Sprintf("sample %d at %q of 100 KB", si, l.path), mustJSON(t, l.set(root, strings.Repeat("é", 50<<10))), nil)
			}
		}
		for _, l := range leaves(root) {
			at := fmt.Sprintf("sample %d at %q", si, l.path)
			if s, ok := l.value.(string); ok {
				add(at+" with a NUL", mustJSON(t, l.set(root, withNUL(s))), refused)
				if !l.key {
					var want func(int, []byte) string
					if isLabel(root, l.path) {
						want = labelRefused
					}
					add(at+" with control characters", mustJSON(t, l.set(root, s+"\x01\x1b\u202e\u200b")), want)
				}
			}
			if !l.key && l.path != "" {
				add(at+" of the wrong type", mustJSON(t, l.set(root, wrongType(l.value))), nil)
				if strings.Count(l.path, ".") == 1 && !strings.Contains(l.path, "[") { // a top-level member
					nested := bytes.Replace(mustJSON(t, l.set(root, "\x00deep\x00")), []byte(`"\u0000deep\u0000"`), []byte(deep("[", "]", 10000)), 1)
					add(at+" nested 10,000 deep", nested, nil)
				}
			}
		}
	}
	big := append([]byte(`{"name":"`), bytes.Repeat([]byte("x"), maxBody+1)...)
	big = append(big, `"}`...)
	add("body over 1 MiB", big, func(status int, _ []byte) string {
		if status != http.StatusRequestEntityTooLarge {
			return "want 413"
		}
		return ""
	})
	return out
}

func clipFor(s string) string {
	if len(s) > 24 {
		return fmt.Sprintf("%q... (%d bytes)", s[:24], len(s))
	}
	return fmt.Sprintf("%q", s)
}

// weirdSegments are path parameter values that must give 400 or 404.
var weirdSegments = []string{"%00", "a%00b", "%ff%fe", strings.Repeat("x", 3000), "usr_%00aaaaaaaaaaaaaaaa", "..", "%2e%2e%2f",
	"tc_aaaaaaaaaaaaaaaa", "%E2%80%AE", "-1", "99999999999999999999"}

// weirdHeaders are x-project-id values: junk, unknown and malformed ids.
var weirdHeaders = []string{"%00", "prj_aaaaaaaaaaaaaaaa", "prj_%00aaaaaaaaaaaaaa", strings.Repeat("p", 3000), "prj_ééééééééééééééé", "  ", "tc_aaaaaaaaaaaaaaaa"}

// queryParams are the list routes' query parameters; each gets every
// weird value in turn.
var queryParams = []string{"q", "suite", "unsorted", "cursor", "limit", "status", "visibility", "sort", "testId"}

var weirdQueryValues = []string{"%00", "a%00b", "%ff%fe", strings.Repeat("q", 3000), "%25%5F%5C", "-1", "99999999999999999999",
	"eyJ4IjoiXHUwMDAwIn0", "WyJcdTAwMDAiLCJ0Y19cdTAwMDAiXQ", "WyIyMDI2LTAxLTAxVDAwOjAwOjAwWlx1MDAwMCIsInRjX2FhYWFhYWFhYWFhYWFhYWEiXQ"} // cursors: {"x":"\u0000"}, ["\u0000","tc_\u0000"], [time+NUL, id]

func weirdQueries() []string {
	var out []string
	for _, p := range queryParams {
		for _, v := range weirdQueryValues {
			out = append(out, "?"+p+"="+v)
		}
	}
	return append(out, "?q=x&q=y&suite=a&unsorted=true", "?cursor=bnVsbA&sort=-savedAt&visibility=mine")
}

// skipped are routes a request/response exchange cannot exercise.
var skipped = map[string]string{
	// The agents' WebSocket answers the upgrade handshake, not JSON; its
	// messages are tested in hub/dispatch and rawagent_test.go.
	"GET /api/agent/connect": "WebSocket",
}

// TestHostileInputNever500 sends hostile input to every route the router
// serves (chi.Walk, so a new route is covered the day it is added): NUL
// characters in every string of a well-formed body and in its keys, values
// of the wrong type, 100 KB strings, JSON nested 10,000 deep, a body over
// 1 MiB (413), malformed path parameters, junk x-project-id headers and
// query strings. No answer may be a 5xx, every error has the standard body,
// and a NUL is never accepted. The server-sent events route is exercised
// with a bounded request.
func TestHostileInputNever500(t *testing.T) {
	h := newHarness(t)
	w := newHostileWorld(t, h)
	owner := w.o.owner
	spare, _ := h.register("Spare") // signs out at /api/auth/logout
	samples := w.samples()
	routes := walkRoutes(t, h.api.Handler(nil))
	for k := range samples {
		if !slices.ContainsFunc(routes, func(rt hostileRoute) bool { return rt.key() == k }) {
			t.Errorf("sample for %s, which the router does not serve", k)
		}
	}
	type tally struct {
		requests int
		statuses map[int]int
		took     time.Duration
	}
	counts := map[string]*tally{}
	total := tally{statuses: map[int]int{}}
	start := time.Now()
	for _, rt := range routes {
		if why, skip := skipped[rt.key()]; skip {
			t.Logf("%-52s skipped (%s)", rt.key(), why)
			continue
		}
		if rt.pattern == "/api/probe" {
			continue
		}
		base, err := rt.path(w, nil)
		if err != nil {
			t.Error(err)
			continue
		}
		sample, known := samples[rt.key()]
		if !known && (rt.method == "POST" || rt.method == "PUT" || rt.method == "PATCH") {
			t.Errorf("%s has no sample body in hostileWorld.samples: add one (noBody when it reads none)", rt.key())
		}
		// Path, header and query junk comes with the first sample body, so
		// that a handler reading its body first gets as far as the junk.
		var body []byte
		if len(sample) > 0 {
			body = mustJSON(t, sample[0])
		}
		var reqs []hostileRequest
		for _, hv := range weirdHeaders {
			reqs = append(reqs, hostileRequest{what: "x-project-id " + clipFor(hv), path: base, body: body, header: hv})
		}
		if rt.method == "GET" {
			for _, q := range weirdQueries() {
				reqs = append(reqs, hostileRequest{what: "query " + clipFor(q), path: base + q, body: body, header: w.o.project})
			}
		}
		for _, i := range rt.params {
			for _, v := range weirdSegments {
				p, err := rt.path(w, map[int]string{i: v})
				if err != nil {
					t.Error(err)
					continue
				}
				reqs = append(reqs, hostileRequest{what: "path " + clipFor(v), path: p, body: body, header: w.o.project,
					want: func(status int, _ []byte) string {
						if status >= 200 && status < 300 {
							return "a malformed path parameter was accepted"
						}
						return ""
					}})
			}
		}
		reqs = append(reqs, bodyRequests(t, base, sample, w.o.project)...)
		c := owner
		switch rt.key() {
		case "POST /api/auth/logout":
			c = spare
		case "POST /api/auth/login", "POST /api/auth/register":
			c = h.client() // a success signs this client in
		}
		tl := &tally{statuses: map[int]int{}}
		counts[rt.key()] = tl
		began := time.Now()
		for i, rq := range reqs {
			if strings.HasPrefix(rt.pattern, "/api/agent/pair/") && i%pairMisses == 0 {
				c, _ = h.register("Pairing") // wrong codes are limited per user
			}
			status := hostileSend(t, c, rt.method, rq)
			tl.requests++
			tl.statuses[status]++
			total.requests++
			total.statuses[status]++
		}
		tl.took = time.Since(began)
	}
	// One line per route, for the record.
	for _, rt := range routes {
		if tl := counts[rt.key()]; tl != nil {
			t.Logf("%-52s %4d requests in %5dms: %s", rt.key(), tl.requests, tl.took.Milliseconds(), statusLine(tl.statuses))
		}
	}
	t.Logf("%d routes, %d requests in %s: %s", len(counts), total.requests, time.Since(start).Round(time.Millisecond), statusLine(total.statuses))
}

func statusLine(m map[int]int) string {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d×%d", k, m[k]))
	}
	return strings.Join(parts, " ")
}

// hostileSend sends one request with a bounded context (the events route
// streams) and checks the answer: never a 5xx, errors in the standard body,
// and whatever rq.want requires.
func hostileSend(t *testing.T, c *client, method string, rq hostileRequest) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	var rd io.Reader
	if rq.body != nil {
		rd = bytes.NewReader(rq.body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.h.srv.URL+rq.path, rd)
	if err != nil {
		t.Errorf("%s %.80s (%s): %v", method, rq.path, rq.what, err)
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	if rq.header != "" {
		req.Header.Set(ProjectHeader, rq.header)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		t.Errorf("%s %.80s (%s): %v", method, rq.path, rq.what, err)
		return 0
	}
	defer resp.Body.Close()
	var data []byte
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		cancel() // a live stream: its status is the answer
	} else {
		data, _ = io.ReadAll(resp.Body)
	}
	out := response{status: resp.StatusCode, header: resp.Header, body: data}
	where := fmt.Sprintf("%s %.80s (%s)", method, rq.path, rq.what)
	if out.status >= 400 {
		checkErrorBody(t, method, where, out)
	}
	if out.status >= 500 {
		t.Errorf("%s answered %d: %.300s", where, out.status, data)
	}
	if rq.want != nil {
		if msg := rq.want(out.status, data); msg != "" {
			t.Errorf("%s: %d: %s: %.300s", where, out.status, msg, data)
		}
	}
	return out.status
}
