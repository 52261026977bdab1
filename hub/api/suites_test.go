package api

import (
	"net/url"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// suiteCounts reads GET /api/suites as name → count.
func suiteCounts(t *testing.T, c *client, project string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, su := range c.do("GET", "/api/suites", nil, ProjectHeader, project).want(t, 200).json()["suites"].([]any) {
		m := su.(map[string]any)
		out[m["name"].(string)] = num(m["tests"])
	}
	return out
}

// latestVersion is the newest entry of a test's history.
func latestVersion(t *testing.T, c *client, id string) map[string]any {
	t.Helper()
	return c.do("GET", "/api/tests/"+id+"/versions", nil).want(t, 200).json()["versions"].([]any)[0].(map[string]any)
}

// TestPrivateTestsDoNotLeakThroughSuites: Alice's private test in suite S
// does not exist for Bob, an Admin, through suites either. Bob sees S
// empty and may rename or delete it; Alice's test follows (renamed, then
// Unsorted) with its status kept, in versions no one authored, and Bob's
// answers never count or name it.
func TestPrivateTestsDoNotLeakThroughSuites(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	alice, bob := o.members[access.TestManager], o.members[access.Admin]
	bob.do("POST", "/api/suites", map[string]string{"name": "S"}, ProjectHeader, o.project).want(t, 201)
	secret := alice.createTest(t, o.project, map[string]any{"name": "Alice's secret", "suite": "S", "visibility": "Private"})
	alice.do("PUT", "/api/tests/"+secret, map[string]any{"status": "Ready"}).want(t, 200)

	if got := suiteCounts(t, bob, o.project); got["S"] != 0 {
		t.Errorf("Bob's suite counts %v: Alice's private test is counted", got)
	}
	if got := suiteCounts(t, alice, o.project); got["S"] != 1 {
		t.Errorf("Alice's suite counts %v", got)
	}

	// Rename: Alice's test moves, Bob's answer counts only his own test.
	mine := bob.createTest(t, o.project, map[string]any{"name": "Bob's", "suite": "S"})
	r := bob.do("PUT", "/api/suites/S", map[string]string{"name": "T"}, ProjectHeader, o.project).want(t, 200)
	if num(r.json()["moved"]) != 1 || strings.Contains(string(r.body), secret) {
		t.Errorf("rename answered %s: want 1 moved (Bob's own)", r.body)
	}
	got := alice.test(t, secret)
	if got["suite"] != "T" || got["status"] != "Ready" || num(got["version"]) != 2 ||
		got["document"].(map[string]any)["suite"] != "T" || got["lastSaved"].(map[string]any)["by"] != nil {
		t.Errorf("Alice's test after the rename: %v", got)
	}
	v := latestVersion(t, alice, secret)
	if v["author"] != nil || v["note"] != "suite renamed from S to T" || v["status"] != "Ready" {
		t.Errorf("Alice's rename version %v: want no author", v)
	}
	if v := latestVersion(t, bob, mine); v["author"].(map[string]any)["id"] != o.ids[access.Admin] {
		t.Errorf("Bob's own test's rename version %v: want Bob as author", v)
	}

	// Delete: T is empty for Bob once his test is gone; Alice's test goes
	// to no suite, still Ready.
	bob.do("DELETE", "/api/suites/T", nil, ProjectHeader, o.project).want(t, 409)
	bob.do("DELETE", "/api/tests/"+mine, nil).want(t, 204)
	r = bob.do("DELETE", "/api/suites/T", nil, ProjectHeader, o.project).want(t, 204)
	if len(r.body) != 0 {
		t.Errorf("delete answered %s", r.body)
	}
	got = alice.test(t, secret)
	if got["suite"] != nil || got["status"] != "Ready" || num(got["version"]) != 3 || got["document"].(map[string]any)["suite"] != nil {
		t.Errorf("Alice's test after the delete: %v", got)
	}
	v = latestVersion(t, alice, secret)
	if v["author"] != nil || v["note"] != "suite T was deleted" || v["status"] != "Ready" {
		t.Errorf("Alice's delete version %v: want no author", v)
	}
	names, _ := listNames(t, alice, o.project, "unsorted=true")
	if strings.Join(names, ",") != "Alice's secret" {
		t.Errorf("Alice's unsorted tests: %v", names)
	}
	if _, has := suiteCounts(t, alice, o.project)["T"]; has {
		t.Error("the deleted suite is still listed")
	}

	// The settings' suite list drops a suite empty for the Admin the same way.
	alice.do("PUT", "/api/tests/"+secret+"/sharing", map[string]any{"visibility": "Private"}).want(t, 200)
	other := alice.createTest(t, o.project, map[string]any{"name": "Alice's draft", "suite": "U", "visibility": "Private"})
	// (An empty list empties the settings: it used to keep every suite.)
	if r := bob.do("POST", "/api/settings", map[string]any{"modules": []string{}}, ProjectHeader, o.project).want(t, 200); strings.TrimSpace(string(r.body)) != `{"modules":[]}` {
		t.Errorf("settings answered %s", r.body)
	}
	if got := alice.test(t, other); got["suite"] != nil {
		t.Errorf("Alice's test in a suite the settings dropped: %v", got["suite"])
	}
	if v := latestVersion(t, alice, other); v["author"] != nil || v["note"] != "suite U was deleted" {
		t.Errorf("settings version %v", v)
	}
	names, _ = listNames(t, bob, o.project, "suite="+url.QueryEscape("U"))
	if len(names) != 0 {
		t.Errorf("Bob lists %v", names)
	}
}
