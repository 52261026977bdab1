package api

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/secretbox"
)

type secretOut struct {
	EnvironmentID   string `json:"environmentId"`
	EnvironmentName string `json:"environmentName"`
	Name            string `json:"name"`
	UpdatedAt       string `json:"updatedAt"`
	UpdatedBy       *struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"updatedBy"`
}

func TestSecretInventory(t *testing.T) {
	h, o := envHarness(t)
	mgr := o.members[access.TestManager]
	staging := mgr.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "Staging", "secrets": map[string]string{"PASSWORD": "a"}}).want(t, 201).str("id")
	prod := mgr.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "Production"}).want(t, 201).str("id")

	h.advance(3600e9)
	r := mgr.projectDo(o.project, "POST", "/api/secrets", map[string]any{"environmentId": prod, "name": "TOKEN", "value": "t-1"}).want(t, 201)
	set := decodeEnvBody[secretOut](t, r)
	if set.EnvironmentID != prod || set.EnvironmentName != "Production" || set.Name != "TOKEN" || set.UpdatedAt != "2026-11-01T10:00:00.000Z" ||
		set.UpdatedBy == nil || set.UpdatedBy.ID != o.ids[access.TestManager] {
		t.Fatalf("set %s", r.body)
	}
	if strings.Contains(string(r.body), "t-1") || strings.Contains(string(r.body), `"value"`) {
		t.Fatalf("the answer carries the value: %s", r.body)
	}
	// Setting it again replaces it: 200.
	admin := o.members[access.Admin]
	admin.projectDo(o.project, "POST", "/api/secrets", map[string]any{"environmentId": prod, "name": "TOKEN", "value": "t-2"}).want(t, 200)
	// Setting a secret marks the environment updated.
	for _, e := range listEnvs(t, mgr, o.project) {
		if e.ID == prod && (e.UpdatedAt != "2026-11-01T10:00:00.000Z" || !slices.Equal(e.Secrets, []string{"TOKEN"})) {
			t.Errorf("environment after secret set: %+v", e)
		}
	}

	inv := decodeEnvBody[struct {
		Secrets []secretOut `json:"secrets"`
	}](t, o.members[access.Tester].projectDo(o.project, "GET", "/api/secrets", nil).want(t, 200)).Secrets
	if len(inv) != 2 || inv[0].EnvironmentID != prod || inv[0].Name != "TOKEN" || inv[0].UpdatedBy == nil || inv[0].UpdatedBy.ID != o.ids[access.Admin] ||
		inv[1].EnvironmentID != staging || inv[1].EnvironmentName != "Staging" || inv[1].Name != "PASSWORD" {
		t.Fatalf("inventory %+v", inv)
	}

	// Validation and missing environments.
	cases := []struct {
		body   any
		status int
		issue  string
	}{
		{map[string]any{"name": "A", "value": "v"}, 422, "environmentId:required"},
		{map[string]any{"environmentId": 5, "name": "A", "value": "v"}, 422, "environmentId:type"},
		{map[string]any{"environmentId": prod, "value": "v"}, 422, "name:required"},
		{map[string]any{"environmentId": prod, "name": "a b", "value": "v"}, 422, "name:format"},
		{map[string]any{"environmentId": prod, "name": "A"}, 422, "value:required"},
		{map[string]any{"environmentId": prod, "name": "A", "value": nil}, 422, "value:required"},
		{map[string]any{"environmentId": prod, "name": "A", "value": 12}, 422, "value:type"},
		{map[string]any{"environmentId": prod, "name": "A", "value": strings.Repeat("v", 10<<10+1)}, 422, "value:too_long"},
		{map[string]any{"environmentId": prod, "name": "A", "value": "a\x00"}, 422, "value:format"},
		{map[string]any{"environmentId": "env_aaaaaaaaaaaaaaaa", "name": "A", "value": "v"}, 404, ""},
		{map[string]any{"environmentId": "nonsense", "name": "A", "value": "v"}, 404, ""},
	}
	for _, tc := range cases {
		r := mgr.projectDo(o.project, "POST", "/api/secrets", tc.body).want(t, tc.status)
		if tc.issue != "" && !slices.Contains(envIssuePaths(t, r), tc.issue) {
			t.Errorf("%v: issues %v, want %s", tc.body, envIssuePaths(t, r), tc.issue)
		}
	}
	// An empty value is a value.
	mgr.projectDo(o.project, "POST", "/api/secrets", map[string]any{"environmentId": prod, "name": "EMPTY", "value": ""}).want(t, 201)

	// A deleted account leaves updatedBy null.
	if _, err := h.store.Pool().Exec(t.Context(), `DELETE FROM users WHERE id = $1`, o.ids[access.Admin]); err != nil {
		t.Fatal(err)
	}
	inv = decodeEnvBody[struct {
		Secrets []secretOut `json:"secrets"`
	}](t, mgr.projectDo(o.project, "GET", "/api/secrets", nil).want(t, 200)).Secrets
	for _, s := range inv {
		if s.Name == "TOKEN" && s.UpdatedBy != nil {
			t.Errorf("updatedBy of a deleted account: %+v", s.UpdatedBy)
		}
	}
}

// TestSecretValuesNeverLeave sets secrets through every route that takes
// one, then reads every route: no answer, log line or audit line holds a
// value, and the database holds only ciphertext bound to its row.
func TestSecretValuesNeverLeave(t *testing.T) {
	h, o := envHarness(t)
	c := o.owner
	other := c.do("POST", "/api/orgs/"+o.id+"/projects", map[string]string{"name": "Other"}).want(t, 201).str("id")
	values := []string{"Plain-Text-Value-One-7f3a", "Plain-Text-Value-Two-91bc", "Plain-Text-Value-Three-c0de", "Plain-Text-Value-Four-aa11"}
	var answers [][]byte
	keep := func(r response) response { answers = append(answers, r.body); return r }

	app := keep(c.projectDo(o.project, "POST", "/api/applications", map[string]any{"name": "Shop", "baseUrl": "https://s.test"}).want(t, 201)).str("id")
	env := keep(c.projectDo(o.project, "POST", "/api/environments", map[string]any{
		"name": "Staging", "secrets": map[string]string{"PASSWORD": values[0]}, "applicationId": app,
	}).want(t, 201)).str("id")
	keep(c.projectDo(o.project, "POST", "/api/environments", map[string]any{"id": env, "name": "Staging", "secrets": map[string]string{"TOKEN": values[1]}}).want(t, 200))
	keep(c.projectDo(o.project, "POST", "/api/secrets", map[string]any{"environmentId": env, "name": "API_KEY", "value": values[2]}).want(t, 201))
	keep(c.projectDo(o.project, "POST", "/api/secrets", map[string]any{"environmentId": env, "name": "API_KEY", "value": values[3]}).want(t, 200))
	// Refusals and invalid requests carrying values.
	keep(c.projectDo(other, "POST", "/api/secrets", map[string]any{"environmentId": env, "name": "API_KEY", "value": values[0]}).want(t, 404))
	keep(c.projectDo(other, "POST", "/api/environments", map[string]any{"id": env, "name": "X", "secrets": map[string]string{"A": values[1]}}).want(t, 404))
	keep(c.projectDo(o.project, "POST", "/api/secrets", map[string]any{"environmentId": env, "name": "bad name", "value": values[2]}).want(t, 422))
	keep(c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "", "secrets": map[string]string{"A": values[3]}}).want(t, 422))
	keep(c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "Staging", "secrets": map[string]string{"A": values[3]}}).want(t, 409))
	keep(o.members[access.Tester].projectDo(o.project, "POST", "/api/secrets", map[string]any{"environmentId": env, "name": "A", "value": values[0]}).want(t, 403))
	keep(c.projectDo(o.project, "POST", "/api/secrets", `{"environmentId":"`+env+`","name":"A","value":"`+values[1]+`"`).want(t, 400))
	// Every read route, as every role.
	for _, role := range access.Roles {
		m := o.members[role]
		keep(m.projectDo(o.project, "GET", "/api/environments", nil).want(t, 200))
		keep(m.projectDo(o.project, "GET", "/api/secrets", nil).want(t, 200))
		keep(m.projectDo(o.project, "GET", "/api/applications", nil).want(t, 200))
	}
	keep(c.do("GET", "/api/context", nil).want(t, 200))

	for _, body := range answers {
		for _, v := range values {
			if bytes.Contains(body, []byte(v)) {
				t.Errorf("an answer holds a secret value: %s", body)
			}
		}
	}
	if len(readAudit(t, h)) != 2 {
		t.Errorf("want the two cross-project attempts audited: %v", readAudit(t, h))
	}
	audit, _ := os.ReadFile(filepath.Join(h.dataDir, "audit.log"))
	for _, v := range values {
		if strings.Contains(h.logs.String(), v) || bytes.Contains(audit, []byte(v)) {
			t.Errorf("the hub's log or audit log holds %q", v)
		}
	}

	// The database holds ciphertext only, each value bound to its row.
	rows, err := h.store.Pool().Query(t.Context(), `SELECT environment_id, name, ciphertext, nonce FROM secrets ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	want := map[string]string{"API_KEY": values[3], "PASSWORD": values[0], "TOKEN": values[1]}
	type row struct {
		env, name     string
		ct, nonce     []byte
		plainExpected string
	}
	var stored []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.env, &r.name, &r.ct, &r.nonce); err != nil {
			t.Fatal(err)
		}
		r.plainExpected = want[r.name]
		stored = append(stored, r)
	}
	if len(stored) != 3 {
		t.Fatalf("%d secret rows", len(stored))
	}
	for _, r := range stored {
		for _, v := range values {
			if bytes.Contains(r.ct, []byte(v)) || bytes.Contains(r.nonce, []byte(v)) {
				t.Errorf("%s: the column holds the plaintext", r.name)
			}
		}
		plain, err := h.api.Secrets.Open(r.ct, r.nonce, secretbox.SecretAAD(r.env, r.name))
		if err != nil || string(plain) != r.plainExpected {
			t.Errorf("%s decrypts to %q, %v", r.name, plain, err)
		}
	}
	// A row moved to another name or environment does not decrypt.
	if _, err := h.api.Secrets.Open(stored[0].ct, stored[0].nonce, secretbox.SecretAAD(stored[0].env, stored[1].name)); err == nil {
		t.Error("a value opened under another secret's name")
	}
	env2 := c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "Prod"}).want(t, 201).str("id")
	if _, err := h.api.Secrets.Open(stored[0].ct, stored[0].nonce, secretbox.SecretAAD(env2, stored[0].name)); err == nil {
		t.Error("a value opened under another environment")
	}
	// What the dispatcher reads decrypts to the values.
	sr, err := h.store.EnvironmentSecrets(t.Context(), env)
	if err != nil || len(sr) != 3 {
		t.Fatalf("EnvironmentSecrets: %v %v", sr, err)
	}
	for _, s := range sr {
		if plain, err := h.api.Secrets.Open(s.Ciphertext, s.Nonce, secretbox.SecretAAD(env, s.Name)); err != nil || string(plain) != want[s.Name] {
			t.Errorf("%s: %q %v", s.Name, plain, err)
		}
	}
	if sr, err := h.store.EnvironmentSecrets(t.Context(), env2); err != nil || len(sr) != 0 {
		t.Errorf("empty environment: %v %v", sr, err)
	}
}

// A null value in an environment's secrets deletes that secret, from the
// environment, the inventory and the database.
func TestSecretNullDeletes(t *testing.T) {
	h, o := envHarness(t)
	c := o.members[access.TestManager]
	env := c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "E", "secrets": map[string]string{"A": "1", "B": "2", "C": "3"}}).want(t, 201).str("id")
	e := decodeEnvBody[envOut](t, c.projectDo(o.project, "POST", "/api/environments", map[string]any{"id": env, "name": "E", "secrets": map[string]any{"B": nil}}).want(t, 200))
	if !slices.Equal(e.Secrets, []string{"A", "C"}) {
		t.Fatalf("secrets %v", e.Secrets)
	}
	// An empty object or no secrets field leaves them alone.
	e = decodeEnvBody[envOut](t, c.projectDo(o.project, "POST", "/api/environments", map[string]any{"id": env, "name": "E", "secrets": map[string]any{}}).want(t, 200))
	e2 := decodeEnvBody[envOut](t, c.projectDo(o.project, "POST", "/api/environments", map[string]any{"id": env, "name": "E", "secrets": nil}).want(t, 200))
	if !slices.Equal(e.Secrets, []string{"A", "C"}) || !slices.Equal(e2.Secrets, []string{"A", "C"}) {
		t.Fatalf("secrets %v %v", e.Secrets, e2.Secrets)
	}
	inv := c.projectDo(o.project, "GET", "/api/secrets", nil).want(t, 200)
	if strings.Contains(string(inv.body), `"name":"B"`) {
		t.Errorf("inventory still lists B: %s", inv.body)
	}
	var n int
	if err := h.store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM secrets WHERE environment_id = $1 AND name = 'B'`, env).Scan(&n); err != nil || n != 0 {
		t.Errorf("B rows %d %v", n, err)
	}
	if err := h.store.DeleteSecret(t.Context(), env, "A"); err != nil {
		t.Fatal(err)
	}
	if err := h.store.DeleteSecret(t.Context(), env, "A"); err == nil {
		t.Error("deleting a missing secret succeeded")
	}
}
