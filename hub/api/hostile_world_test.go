package api

import (
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/auth"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

// obj is a JSON object in a sample body.
type obj = map[string]any

// noBody is the sample of a POST or PUT route that reads no request body.
var noBody = noBodyT{}

type noBodyT struct{}

// hostileDoc is a test document that sets every string field a document
// can hold, so each can be made hostile in turn.
func hostileDoc(suite, component string) obj {
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
			obj{"id": "s9", "type": "callComponent", "component": component, "version": 1, "inputs": obj{"user": "${user}"}},
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
	test, run, env, app, suite, batch  string
	component, example                 string
	dataSet, dataPool                  string
	token                              string
	webhook                            string
	schedule                           string
	file                               string
	agent                              string // paired with the owner, not connected
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
	w.component = p("POST", "/api/components", obj{"name": "Login", "inputs": []any{obj{"name": "user", "default": "ann"}},
		"steps": []any{obj{"id": "c1", "type": "fill", "value": "${user}", "target": obj{"locators": []any{obj{"kind": "label", "value": "Email"}}}}}}).
		want(t, 201).json()["component"].(map[string]any)["id"].(string)
	w.test = p("POST", "/api/tests", hostileDoc(w.suite, w.component)).want(t, 201).str("id")
	w.example = p("POST", "/api/language/examples", obj{"text": "sign in", "steps": []any{obj{"type": "assertTitle", "expected": "Home"}}}).want(t, 201).str("id")
	w.dataSet = p("POST", "/api/test-data", obj{"name": "Logins", "columns": []any{"user"}, "rows": []any{obj{"user": "alice"}}}).want(t, 201).str("id")
	w.dataPool = p("POST", "/api/data-pools", obj{"name": "Cards", "columns": []any{"card"}, "records": []any{obj{"card": "4111"}}}).want(t, 201).str("id")
	w.app = p("POST", "/api/applications", obj{"name": "Shop", "baseUrl": "https://shop.example.com"}).want(t, 201).str("id")
	w.env = p("POST", "/api/environments", obj{"name": "Staging", "variables": obj{"user": "bob"}, "applicationId": w.app}).want(t, 201).str("id")
	w.run = p("POST", "/api/runs", obj{"testId": w.test, "environmentId": w.env, "dataSetId": w.dataSet}).want(t, 201).str("runId")
	w.batch = p("POST", "/api/runs", obj{"testIds": []any{w.test}, "environmentId": w.env}).want(t, 201).str("batchId")
	w.token = c.do("POST", "/api/tokens", obj{"name": "CI"}).want(t, 201).str("id")
	w.webhook = p("POST", "/api/webhooks", obj{"name": "CI", "url": "http://127.0.0.1:9/hook"}).want(t, 201).str("id")
	w.schedule = p("POST", "/api/schedules", w.scheduleBody()).want(t, 201).str("id")
	w.file = c.upload(w.o.project, "report.pdf", []byte("%PDF-1.4")).want(t, 201).str("id")
	// A computer paired with the owner whose agent is not running: its
	// routes answer from the record (rotating its token is 409).
	now := time.Now()
	if err := h.store.CreatePairing(t.Context(), store.Pairing{Code: "HST-AGT", Hostname: "box", OS: "linux", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	_, digest := auth.NewToken()
	a, err := h.store.ApprovePairing(t.Context(), "HST-AGT", ids.New("agt"), w.ownerID, digest, now)
	if err != nil {
		t.Fatal(err)
	}
	w.agent = a.ID
	return w
}

// scheduleBody is a schedule of the world's test with every option.
func (w hostileWorld) scheduleBody() obj {
	return obj{"name": "Nightly", "cron": "30 2 * * 1-5", "timezone": "Europe/Paris", "testIds": []any{w.test}, "environmentId": w.env,
		"options": obj{"headed": false, "screenshots": true, "device": "", "trace": "failures", "retries": 1, "agentId": w.agent}, "enabled": true}
}

// samples gives a well-formed body for every route that reads one; the
// hostile bodies are made from it. A new POST or PUT route must add one.
func (w hostileWorld) samples() map[string][]any {
	doc := hostileDoc(w.suite, w.component)
	v1 := obj{"version": 1, "name": "Legacy", "steps": []any{
		obj{"command": "open", "target": "https://shop.example.com/", "value": ""},
		obj{"command": "type", "target": "id=q", "value": "shoes"},
		obj{"command": "click", "target": "css=#go", "value": ""}}}
	side := obj{"id": "p1", "version": "2.0", "name": "Shop", "url": "https://shop.example.com/",
		"tests": []any{obj{"id": "t1", "name": "Search", "commands": []any{
			obj{"id": "c1", "comment": "go", "command": "open", "target": "/search", "targets": []any{}, "value": ""},
			obj{"id": "c2", "comment": "", "command": "type", "target": "id=q", "targets": []any{[]any{"css=#q", "css:finder"}}, "value": "x"}}}},
		"suites": []any{obj{"id": "su1", "name": "Main", "tests": []any{"t1"}}}}
	// Control flow, and a test another runs (a component to create).
	sideFlow := obj{"name": "Flow", "url": "https://shop.example.com/", "tests": []any{
		obj{"id": "t1", "name": "Main", "commands": []any{
			obj{"command": "store", "target": "2", "value": "n"},
			obj{"command": "if", "target": "${n} > 1", "value": ""}, obj{"command": "run", "target": "Add", "value": ""},
			obj{"command": "elseIf", "target": "${n} === 1", "value": ""}, obj{"command": "else", "target": "", "value": ""},
			obj{"command": "end", "target": "", "value": ""},
			obj{"command": "times", "target": "${n}", "value": "5"}, obj{"command": "end", "target": "", "value": ""},
			obj{"command": "do", "target": "", "value": ""}, obj{"command": "repeatIf", "target": "false", "value": "3"},
			obj{"command": "forEach", "target": "list", "value": "item"}, obj{"command": "end", "target": "", "value": ""}}},
		obj{"id": "t2", "name": "Add", "commands": []any{obj{"command": "executeScript", "target": "return ${n} + 1", "value": "n"}}}}}
	pw := "correct horse battery"
	return map[string][]any{
		"POST /api/auth/login":    {obj{"email": w.ownerEmail, "password": pw}},
		"POST /api/auth/logout":   {noBody},
		"POST /api/auth/register": {obj{"name": "New Person", "email": "new.person@example.com", "password": pw}},
		"POST /api/auth/forgot":   {obj{"email": w.ownerEmail}},
		"POST /api/auth/reset":    {obj{"token": "abcdefabcdef", "password": pw}},
		"POST /api/auth/password": {obj{"currentPassword": pw, "newPassword": pw}, obj{"currentPassword": pw, "newPassword": pw, "revokeTokens": false}},
		"PUT /api/profile":        {obj{"name": "Renamed Person"}},
		"POST /api/tokens": {obj{"name": "CI", "projectId": w.o.project, "role": "Tester", "expiresAt": "2099-01-01T00:00:00Z"},
			obj{"name": "Everywhere"}},

		"POST /api/members":                       {obj{"name": "Account", "email": "account@example.com", "password": pw, "platformAdmin": false}},
		"POST /api/orgs":                          {obj{"name": "Globex"}},
		"PUT /api/orgs/{id}":                      {obj{"name": "Acme"}},
		"POST /api/orgs/{id}/members":             {obj{"email": w.outsiderEmail, "role": "Tester"}},
		"PUT /api/orgs/{id}/members/{userId}":     {obj{"role": "Tester"}},
		"POST /api/orgs/{id}/projects":            {obj{"name": "Warehouse"}},
		"PUT /api/projects/{id}":                  {obj{"name": "Shop"}},
		"PUT /api/projects/{id}/members/{userId}": {obj{"role": "Tester"}},

		"POST /api/agent/pair/{code}": {noBody},
		"POST /api/agent/{id}/token":  {noBody},
		"PUT /api/agent/{id}":         {obj{"name": "Build box", "labels": []any{"linux", "office-vpn"}}, obj{"name": "Box", "labels": []any{}}},
		"POST /api/runs/{id}/cancel":  {noBody},
		"POST /api/runs": {obj{"testId": w.test, "environmentId": w.env, "headed": false, "screenshots": true, "device": "Pixel 7"},
			obj{"testId": w.test, "environmentId": w.env, "dataSetId": w.dataSet, "rows": []any{0}},
			obj{"testIds": []any{w.test}, "environmentId": w.env, "headed": false, "screenshots": true, "device": "iPad Mini", "trace": "off"}, obj{"suite": w.suite},
			obj{"testId": w.test, "environmentId": w.env, "trace": "on"},
			obj{"testId": w.test, "environmentId": w.env, "labels": []any{"linux"}}, obj{"testIds": []any{w.test}, "agentId": w.agent}},
		"POST /api/batches/{id}/rerun": {obj{"failedOnly": false}},
		"POST /api/script":             {doc, obj{"testId": w.test}, obj{"testId": w.test, "device": "Pixel 7"}},
		"POST /api/record/start":       {obj{"url": "/login", "environmentId": w.env, "testId": w.test, "headed": false}},
		"POST /api/record/{id}/stop":   {noBody},
		"POST /api/pick/start": {obj{"url": "https://shop.example.com/", "environmentId": w.env}, obj{"recordingId": "rec_aaaaaaaaaaaaaaaa"},
			obj{"sessionId": "ses_aaaaaaaaaaaaaaaa", "stepId": "s1", "document": doc}},
		"POST /api/pick/{id}/mode":      {obj{"mode": "inspect"}},
		"POST /api/pick/{id}/close":     {noBody},
		"POST /api/sessions":            {obj{"testId": w.test, "environmentId": w.env}},
		"POST /api/sessions/{id}/run":   {obj{"from": "s1", "pauseOnFailure": true}, obj{"stepIds": []any{"s1"}, "document": doc}},
		"POST /api/sessions/{id}/close": {noBody},
		"POST /api/sessions/{id}/input": {obj{"kind": "click", "x": 10, "y": 10, "button": "left", "clicks": 1, "deltaX": 0, "deltaY": 0,
			"key": "Enter", "text": "hi", "modifiers": []any{"Shift"}}, obj{"kind": "dialog", "accept": true, "text": "Ann"},
			obj{"kind": "drag", "x": 1, "y": 1, "toX": 5, "toY": 5}, obj{"kind": "tab", "index": 1}, obj{"kind": "closeTab", "index": 1},
			obj{"kind": "files", "files": []any{"fil_aaaaaaaaaaaaaaaa"}}},
		"POST /api/scripts/try": {obj{"code": "return 1", "url": "/", "environmentId": w.env, "timeoutMs": 1000}},

		"POST /api/environments": {obj{"name": "Production", "variables": obj{"user": "carol", "baseUrl": "https://carol.example.com"}, "secrets": obj{"TOKEN": "s3cret"}, "applicationId": w.app},
			obj{"id": w.env, "name": "Staging", "variables": obj{"user": "bob"}}},
		"POST /api/secrets":      {obj{"environmentId": w.env, "name": "PASSWORD", "value": "hunter2"}},
		"POST /api/applications": {obj{"name": "Admin", "baseUrl": "https://admin.example.com", "description": "back office\nfor staff"}},

		"POST /api/tests":        {with(doc, "visibility", "Private", "data", obj{"set": w.dataSet, "pool": w.dataPool, "mode": "consume"})},
		"POST /api/tests/import": {doc, v1, side, sideFlow},
		"POST /api/suites":       {obj{"name": "Search"}},
		"PUT /api/suites/{name}": {obj{"name": w.suite}},
		"POST /api/settings":     {obj{"modules": []any{w.suite, "Search"}}},

		"POST /api/components": {obj{"name": "Checkout steps", "description": "pay\nand confirm", "testId": w.test, "stepIds": []any{"s3", "s4"},
			"inputs": []any{obj{"name": "amount", "default": "10", "description": "how much"}}},
			obj{"name": "Search", "steps": []any{obj{"id": "q", "type": "fill", "value": "${term}", "target": obj{"locators": []any{obj{"kind": "label", "value": "Search"}}}}},
				"inputs": []any{obj{"name": "term"}}}},
		"POST /api/language/generate":                     {obj{"text": "sign in as amy", "testId": w.test, "environmentId": w.env}},
		"POST /api/language/examples":                     {obj{"text": "open the shop\nthen search", "steps": []any{obj{"type": "navigate", "url": "/", "description": "home"}}}},
		"PUT /api/components/{id}":                        {obj{"name": "Login", "description": "signs in"}},
		"POST /api/components/{id}/versions":              {obj{"steps": []any{obj{"id": "c1", "type": "assertTitle", "expected": "${user}"}}, "inputs": []any{obj{"name": "user"}}, "note": "v2"}},
		"POST /api/components/{id}/upgrade":               {obj{"testIds": []any{w.test}}},
		"PUT /api/tests/{id}":                             {with(doc, "status", "Draft")},
		"POST /api/tests/{id}/validate":                   {doc, v1},
		"POST /api/tests/{id}/revisions":                  {obj{"note": "reviewed by Ann"}},
		"POST /api/tests/{id}/duplicate":                  {obj{"name": "Checkout with coupon"}},
		"PUT /api/tests/{id}/sharing":                     {obj{"visibility": "Shared", "ownerId": w.ownerID}},
		"PUT /api/tests/{id}/quarantine":                  {obj{"reason": "fails on Staging\nsince v3"}},
		"POST /api/tests/{id}/versions/{version}/restore": {noBody},

		"POST /api/test-data": {obj{"name": "Users", "columns": []any{"user", "password"}, "rows": []any{obj{"user": "bob", "password": "pw"}}, "protected": true},
			obj{"id": w.dataSet, "name": "Logins", "columns": []any{"user"}, "rows": []any{obj{"user": "carol"}}}},
		"POST /api/data-pools": {obj{"name": "Accounts", "columns": []any{"login"}, "records": []any{obj{"login": "dave"}}, "protected": true},
			obj{"id": w.dataPool, "name": "Cards", "columns": []any{"card"}, "records": []any{obj{"card": "4222"}}}},
		"POST /api/data-pools/{id}/reset": {noBody},

		"POST /api/webhooks": {obj{"name": "Chat", "url": "https://chat.example.com/hook?token=abc", "events": []any{"run.finished"}, "format": "slack", "enabled": true},
			obj{"id": w.webhook, "name": "CI", "url": "http://127.0.0.1:9/hook", "events": []any{"batch.finished"}, "enabled": false}},
		"POST /api/schedules":            {w.scheduleBody(), obj{"name": "Tagged", "cron": "0 * * * *", "timezone": "UTC", "tag": "smoke", "enabled": false}},
		"PUT /api/schedules/{id}":        {w.scheduleBody()},
		"POST /api/schedules/preview":    {obj{"cron": "30 2 * * 1-5", "timezone": "Europe/Paris"}},
		"POST /api/webhooks/{id}/secret": {noBody},
		"POST /api/webhooks/{id}/test":   {noBody},
		// Raw bytes, not JSON: the generic bodies only (hostile_files_test.go).
		"POST /api/files": {noBody},
		// The agent's token and raw bytes (files_offer_test.go).
		"POST /api/agent/files":                   {noBody},
		"POST /api/sessions/{id}/files/{offerId}": {obj{"accept": true}},
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
	case "id after batches":
		return w.batch, true
	case "id after environments":
		return w.env, true
	case "id after applications":
		return w.app, true
	case "id after components":
		return w.component, true
	case "id after examples":
		return w.example, true
	case "id after test-data":
		return w.dataSet, true
	case "id after data-pools":
		return w.dataPool, true
	case "id after tokens":
		return w.token, true
	case "id after webhooks":
		return w.webhook, true
	case "id after schedules":
		return w.schedule, true
	case "id after files":
		return w.file, true
	case "id after members":
		return w.o.ids[access.Tester], true
	case "id after agent":
		return w.agent, true
	case "id after record":
		return "rec_aaaaaaaaaaaaaaaa", true // no agent, so no session
	case "id after pick":
		return "pck_aaaaaaaaaaaaaaaa", true
	case "id after sessions":
		return "ses_aaaaaaaaaaaaaaaa", true
	case "offerId after files":
		return "ofr_aaaaaaaaaaaaaaaa", true
	case "name after screenshots":
		return "1-step-001-s1.png", true
	case "code after pair":
		return "K7Q-4MP", true
	case "userId after members":
		return w.o.ids[access.Tester], true
	case "row after rows":
		return "0", true
	case "version after versions":
		return "1", true
	case "name after suites":
		return w.suite, true
	case "name after artifacts":
		return "s1.png", true
	}
	return "", false
}
