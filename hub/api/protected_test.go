package api

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// protectedEnv creates an environment with a secret, protected or not.
func protectedEnv(t *testing.T, mgr *client, project, name string, protected bool) string {
	t.Helper()
	return mgr.projectDo(project, "POST", "/api/environments", map[string]any{"name": name, "protected": protected,
		"secrets": map[string]string{"TOKEN": "protected-token-value"}}).want(t, 201).str("id")
}

// readyTest creates a shared test that uses the secret and has a manager
// mark it Ready.
func readyTest(t *testing.T, author, mgr *client, project string) string {
	t.Helper()
	id := author.createTest(t, project, map[string]any{"name": "Uses a token " + time.Now().Format("150405.000000"), "steps": []map[string]any{
		{"id": "s1", "type": "navigate", "url": "https://example.com/?t=${secrets.TOKEN}"}}})
	mgr.do("PUT", "/api/tests/"+id, map[string]any{"status": "Ready"}).want(t, 200)
	return id
}

func countRuns(t *testing.T, h *harness) int {
	t.Helper()
	var n int
	if err := h.store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM runs`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Only Test Managers and Admins set "protected"; everyone who lists
// environments sees it; an update without it keeps it.
func TestProtectedEnvironmentFlag(t *testing.T) {
	_, o := envHarness(t)
	mgr := o.members[access.TestManager]
	env := protectedEnv(t, mgr, o.project, "Prod", true)
	for _, role := range access.Roles {
		envs := listEnvs(t, o.members[role], o.project)
		raw := o.members[role].projectDo(o.project, "GET", "/api/environments", nil).want(t, 200)
		if len(envs) != 1 || !strings.Contains(string(raw.body), `"protected":true`) {
			t.Errorf("%s sees %s", role, raw.body)
		}
	}
	for _, role := range []access.Role{access.Tester, access.TestDeveloper} {
		c := o.members[role]
		c.projectDo(o.project, "POST", "/api/environments", map[string]any{"id": env, "name": "Prod", "protected": false}).want(t, 403)
		c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "Mine", "protected": true}).want(t, 403)
	}
	flag := func() bool {
		return strings.Contains(string(mgr.projectDo(o.project, "GET", "/api/environments", nil).want(t, 200).body), `"protected":true`)
	}
	if !flag() {
		t.Fatal("a Tester's refused save changed the flag")
	}
	// An update without the field keeps it; false clears it; null keeps it.
	mgr.projectDo(o.project, "POST", "/api/environments", map[string]any{"id": env, "name": "Prod", "variables": map[string]string{"a": "b"}}).want(t, 200)
	if !flag() {
		t.Error("an update without protected cleared it")
	}
	r := mgr.projectDo(o.project, "POST", "/api/environments", map[string]any{"id": env, "name": "Prod", "protected": false}).want(t, 200)
	if r.json()["protected"] != false || flag() {
		t.Errorf("protected false: %s", r.body)
	}
	mgr.projectDo(o.project, "POST", "/api/environments", map[string]any{"id": env, "name": "Prod", "protected": nil}).want(t, 200)
	if flag() {
		t.Error("protected null changed the flag")
	}
	r = mgr.projectDo(o.project, "POST", "/api/environments", map[string]any{"id": env, "name": "Prod", "protected": "yes"}).want(t, 422)
	if p := envIssuePaths(t, r); !slices.Equal(p, []string{"protected:type"}) {
		t.Errorf("issues %v", p)
	}
	// Created without the field: not protected.
	r = mgr.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "Staging"}).want(t, 201)
	if r.json()["protected"] != false {
		t.Errorf("a new environment: %s", r.body)
	}
}

// POST /api/runs with a protected environment: 403 environment_protected
// and nothing queued, unless the test is Ready and the caller a Test
// Manager or Admin. Unprotected environments are unchanged.
func TestProtectedEnvironmentRefusesRuns(t *testing.T) {
	h, o := envHarness(t)
	mgr, tester := o.members[access.TestManager], o.members[access.Tester]
	prod := protectedEnv(t, mgr, o.project, "Prod", true)
	open := protectedEnv(t, mgr, o.project, "Open", false)
	ready := readyTest(t, tester, mgr, o.project)
	draft := tester.createTest(t, o.project, map[string]any{"name": "Draft", "steps": []map[string]any{
		{"id": "s1", "type": "navigate", "url": "https://example.com/?t=${secrets.TOKEN}"}}})

	for _, tc := range []struct {
		name   string
		caller access.Role
		test   string
		reason string
	}{
		{"Tester, Ready test", access.Tester, ready, "your role in the project is Tester"},
		{"Test Developer, Ready test", access.TestDeveloper, ready, "your role in the project is Test Developer"},
		{"Test Manager, Draft test", access.TestManager, draft, "the test is Draft, not Ready"},
		{"Admin, Draft test", access.Admin, draft, "the test is Draft, not Ready"},
		{"Tester, Draft test", access.Tester, draft, "the test is Draft, not Ready"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := countRuns(t, h)
			r := o.members[tc.caller].projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": tc.test, "environmentId": prod}).want(t, 403)
			if r.str("code") != "environment_protected" || !strings.Contains(r.str("error"), `"Prod" is protected`) ||
				!strings.Contains(r.str("error"), tc.reason) {
				t.Errorf("refusal %s", r.body)
			}
			if countRuns(t, h) != before {
				t.Error("a refused run was queued")
			}
		})
	}
	// Allowed: Ready, started by a Test Manager or Admin.
	for _, role := range []access.Role{access.TestManager, access.Admin} {
		o.members[role].projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": ready, "environmentId": prod}).want(t, 201)
	}
	// An unprotected environment, or none, takes any run as before.
	tester.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": draft, "environmentId": open}).want(t, 201)
	tester.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": ready, "environmentId": open}).want(t, 201)
	tester.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": draft}).want(t, 201)
	// The test says beforehand whether the caller may use a protected environment.
	for _, tc := range []struct {
		role  access.Role
		test  string
		allow bool
	}{{access.Tester, ready, false}, {access.TestManager, ready, true}, {access.Admin, ready, true}, {access.TestManager, draft, false}} {
		can := o.members[tc.role].test(t, tc.test)["can"].(map[string]any)
		if can["runProtected"] != tc.allow {
			t.Errorf("%s on %s: can.runProtected %v, want %v", tc.role, tc.test, can["runProtected"], tc.allow)
		}
	}
}

// A Test Manager's run of a Ready test on a protected environment passes,
// and the secret reaches the agent's browser.
func TestProtectedEnvironmentRunGetsSecret(t *testing.T) {
	f := newRunFixture(t)
	f.user.projectDo(f.o.project, "POST", "/api/environments", map[string]any{"id": f.env, "name": "Local", "protected": true}).want(t, 200)
	d := map[string]any{"dsl": 2, "name": "Secret arrives", "steps": []map[string]any{
		{"id": "open", "type": "navigate", "url": "${baseUrl}/login.html"},
		{"id": "check", "type": "script", "code": `if (${secrets.PASSWORD} !== "hunter2-" + "very-secret") throw new Error("no secret");`},
	}}
	id := f.user.createTest(t, f.o.project, d)
	// A Draft is refused, even to a Test Manager.
	f.user.projectDo(f.o.project, "POST", "/api/runs", map[string]any{"testId": id, "environmentId": f.env}).want(t, 403)
	f.user.do("PUT", "/api/tests/"+id, map[string]any{"status": "Ready"}).want(t, 200)
	runID := f.user.projectDo(f.o.project, "POST", "/api/runs", map[string]any{"testId": id, "environmentId": f.env}).want(t, 201).str("runId")
	r := f.user.waitStatus(t, runID, "passed")
	if num(r["passed"]) != 2 {
		t.Errorf("run: %v", r)
	}
}

// The rule is checked again at dispatch: a run queued while it held ends
// error, without the agent being given the job, when its starter has been
// demoted or its test deprecated since.
func TestProtectedEnvironmentCheckedAtDispatch(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		change     func(o org, testID string)
	}{
		{"starter demoted", "role in the project is Tester", func(o org, _ string) {
			o.owner.do("PUT", "/api/projects/"+o.project+"/members/"+o.ids[access.TestManager], map[string]string{"role": "Tester"}).want(o.owner.h.t, 200)
		}},
		{"test deprecated", "the test is Deprecated, not Ready", func(o org, testID string) {
			o.members[access.Admin].do("PUT", "/api/tests/"+testID, map[string]any{"status": "Deprecated"}).want(o.owner.h.t, 200)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, o := envHarness(t)
			mgr := o.members[access.TestManager]
			env := protectedEnv(t, mgr, o.project, "Prod", true)
			id := readyTest(t, mgr, mgr, o.project)
			// No agent yet: the run waits in the queue.
			runID := mgr.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": id, "environmentId": env}).want(t, 201).str("runId")
			tc.change(o, id)
			a := h.rawAgent(t, mgr, "")
			run := mgr.waitStatus(t, runID, "error")
			if msg, _ := run["error"].(string); !strings.Contains(msg, `"Prod" is protected`) || !strings.Contains(msg, tc.want) {
				t.Errorf("run error %q", msg)
			}
			// The agent was never given the job.
			for {
				ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
				_, data, err := a.ws.Read(ctx)
				cancel()
				if err != nil {
					break
				}
				var m protocol.Message
				_ = json.Unmarshal(data, &m)
				if m.Type == protocol.MsgAssign || strings.Contains(string(data), "protected-token-value") {
					t.Fatalf("the agent got %s", data)
				}
			}
			events := mgr.sse(t, runID)
			all, _ := json.Marshal(events)
			if last := events[len(events)-1]; last.Kind != protocol.RunFinished || last.Status != "error" ||
				strings.Contains(string(all)+h.logs.String(), "protected-token-value") {
				t.Errorf("events %s", all)
			}
		})
	}
}
