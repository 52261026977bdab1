package api

import (
	"testing"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// TestRunTwoLevelComponent: a test calls "Sign in", which calls
// "Credentials"; a real agent runs the expanded steps in Chromium. The
// run keeps the document it was started with: the Draft saved while it
// waits, and the component deleted meanwhile, change nothing for it.
func TestRunTwoLevelComponent(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	base := site(t)
	env := mgr.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "Local", "variables": map[string]string{"baseUrl": base},
		"secrets": map[string]string{"PASSWORD": "hunter2-very-secret"}}).want(t, 201).str("id")

	creds := mgr.projectDo(o.project, "POST", "/api/components", map[string]any{"name": "Credentials",
		"inputs": []any{map[string]any{"name": "email"}, map[string]any{"name": "password", "default": "${secrets.PASSWORD}"}},
		"steps": []any{
			map[string]any{"id": "email", "type": "fill", "value": "${email}", "target": target(loc("label", "Email"))},
			map[string]any{"id": "password", "type": "fill", "value": "${password}", "target": target(loc("css", "#password"))},
		}}).want(t, 201).json()["component"].(map[string]any)["id"].(string)
	signIn := mgr.projectDo(o.project, "POST", "/api/components", map[string]any{"name": "Sign in",
		"inputs": []any{map[string]any{"name": "who"}},
		"steps": []any{
			map[string]any{"id": "open", "type": "navigate", "url": "${baseUrl}/login.html"},
			callStep("creds", creds, 0, map[string]string{"email": "${who}"}),
			map[string]any{"id": "submit", "type": "click", "target": target(loc("role", "button", "Sign in"))},
		}}).want(t, 201).json()["component"].(map[string]any)["id"].(string)
	test := mgr.createTest(t, o.project, map[string]any{"name": "Greets", "variables": map[string]string{"user": "ann@example.com"},
		"steps": []any{
			callStep("login", signIn, 0, map[string]string{"who": "${user}"}),
			map[string]any{"id": "greet", "type": "assertText", "expected": "Welcome, ann@example.com", "target": target(loc("testId", "greeting"))},
		}})
	runID := mgr.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": test, "environmentId": env}).want(t, 201).str("runId")

	// No agent yet: the run waits. The test stops calling the component,
	// which is then deleted; the queued run keeps what it was started with.
	mgr.do("PUT", "/api/tests/"+test, map[string]any{"name": "Greets", "steps": []any{
		map[string]any{"id": "other", "type": "assertTitle", "expected": "Nothing like this"}}}).want(t, 200)
	mgr.do("DELETE", "/api/components/"+signIn, nil).want(t, 204)
	queued := mgr.do("GET", "/api/runs/"+runID, nil).want(t, 202).json()
	doc := queued["document"].(map[string]any)
	var ids []string
	for _, s := range doc["steps"].([]any) {
		st := s.(map[string]any)
		ids = append(ids, st["id"].(string))
		if st["type"] == "callComponent" {
			t.Fatalf("the stored document still calls a component: %v", st)
		}
	}
	want := []string{"login.open", "login.creds.email", "login.creds.password", "login.submit", "greet"}
	if len(ids) != len(want) {
		t.Fatalf("stored steps %v, want %v", ids, want)
	}
	for i := range want {
		if ids[i] != want[i] {
			t.Fatalf("stored steps %v, want %v", ids, want)
		}
	}

	h.pairAgent(t, mgr, browserRunner{sharedBrowser(t)})
	events := mgr.sse(t, runID)
	run := mgr.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
	if run["status"] != "passed" || num(run["passed"]) != 5 {
		t.Fatalf("run %v %v/%v: %v", run["status"], run["passed"], run["total"], run["result"])
	}
	for _, s := range run["result"].(map[string]any)["steps"].([]any) {
		st := s.(map[string]any)
		wantCall := "login"
		if st["id"] == "greet" {
			wantCall = ""
		}
		if got, _ := st["call"].(string); got != wantCall {
			t.Errorf("step %v carries call %q, want %q", st["id"], got, wantCall)
		}
	}
	calls := 0
	for _, e := range events {
		if e.Kind == protocol.StepFinished && e.Call == "login" {
			calls++
		}
	}
	if calls != 4 {
		t.Errorf("%d step.finished events carry call login, want 4", calls)
	}
	// The secret went through the component's default, and stays masked.
	for _, s := range run["result"].(map[string]any)["steps"].([]any) {
		if used, _ := s.(map[string]any)["used"].(map[string]any); used != nil {
			for _, v := range used {
				if v == "hunter2-very-secret" {
					t.Errorf("the secret's value is in the result: %v", s)
				}
			}
		}
	}
}
