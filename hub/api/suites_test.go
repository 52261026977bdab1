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

	// The settings' suite list drops a listed suite empty for the Admin the
	// same way, and leaves alone a suite that only Alice's private tests
	// make: for Bob it does not exist (issue 26, finding 7).
	alice.do("PUT", "/api/tests/"+secret+"/sharing", map[string]any{"visibility": "Private"}).want(t, 200)
	bob.do("POST", "/api/suites", map[string]string{"name": "Listed"}, ProjectHeader, o.project).want(t, 201)
	listed := alice.createTest(t, o.project, map[string]any{"name": "Alice's listed", "suite": "Listed", "visibility": "Private"})
	other := alice.createTest(t, o.project, map[string]any{"name": "Alice's draft", "suite": "U", "visibility": "Private"})
	// (An empty list empties the settings: it used to keep every suite.)
	if r := bob.do("POST", "/api/settings", map[string]any{"modules": []string{}}, ProjectHeader, o.project).want(t, 200); strings.TrimSpace(string(r.body)) != `{"modules":[]}` {
		t.Errorf("settings answered %s", r.body)
	}
	if got := alice.test(t, listed); got["suite"] != nil {
		t.Errorf("Alice's test in a suite the settings dropped: %v", got["suite"])
	}
	if v := latestVersion(t, alice, listed); v["author"] != nil || v["note"] != "suite Listed was deleted" {
		t.Errorf("settings version %v", v)
	}
	if got := alice.test(t, other); got["suite"] != "U" || num(got["version"]) != 1 {
		t.Errorf("Alice's private suite was changed by Bob's settings: %v", got["suite"])
	}
	if got := suiteCounts(t, alice, o.project); got["U"] != 1 {
		t.Errorf("Alice's suites %v", got)
	}
	names, _ = listNames(t, bob, o.project, "suite="+url.QueryEscape("U"))
	if len(names) != 0 {
		t.Errorf("Bob lists %v", names)
	}
}

// modules reads GET /api/settings' suite list.
func modules(t *testing.T, c *client, project string) []string {
	t.Helper()
	var out []string
	for _, m := range c.do("GET", "/api/settings", nil, ProjectHeader, project).want(t, 200).json()["modules"].([]any) {
		out = append(out, m.(string))
	}
	return out
}

// A suite that holds only Carol's private tests does not exist for anyone
// else (issue 26, finding 7): it is neither listed nor counted in the
// suites or the settings, renaming or deleting it answers 404, and adding
// or renaming to its name answers as if it were free. A suite added to the
// list by hand, or holding a shared test, is listed to all as before.
func TestPrivateSuiteNamesNotListed(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	carol, dev, admin := o.members[access.Tester], o.members[access.TestDeveloper], o.members[access.Admin]
	const secret = "ZZ-Acquisition-of-Carol-Corp"
	carol.createTest(t, o.project, map[string]any{"name": "Due diligence", "suite": secret, "visibility": "Private"})
	admin.do("POST", "/api/suites", map[string]string{"name": "Planned"}, ProjectHeader, o.project).want(t, 201)
	carol.createTest(t, o.project, map[string]any{"name": "Planned, privately", "suite": "Planned", "visibility": "Private"})
	carol.createTest(t, o.project, map[string]any{"name": "Mixed, privately", "suite": "Mixed", "visibility": "Private"})
	dev.createTest(t, o.project, map[string]any{"name": "Mixed, shared", "suite": "Mixed"})

	for _, role := range []access.Role{access.TestDeveloper, access.TestManager, access.Admin} {
		c := o.members[role]
		got := suiteCounts(t, c, o.project)
		if _, leaked := got[secret]; leaked || len(got) != 2 || got["Planned"] != 0 || got["Mixed"] != 1 {
			t.Errorf("%s's suites %v: want Planned 0 and Mixed 1 only", role, got)
		}
		if m := modules(t, c, o.project); strings.Join(m, ",") != "Mixed,Planned" {
			t.Errorf("%s's settings %v", role, m)
		}
	}
	if got := suiteCounts(t, carol, o.project); got[secret] != 1 || got["Planned"] != 1 || got["Mixed"] != 2 {
		t.Errorf("Carol's suites %v", got)
	}

	// Renaming or deleting it answers as for a suite that does not exist.
	path := "/api/suites/" + url.PathEscape(secret)
	admin.do("PUT", path, map[string]string{"name": "Exposed"}, ProjectHeader, o.project).want(t, 404)
	admin.do("DELETE", path, nil, ProjectHeader, o.project).want(t, 404)
	if got := suiteCounts(t, carol, o.project); got[secret] != 1 {
		t.Errorf("Carol's suite after refused changes: %v", got)
	}
	// Its name is free for others: renaming onto it merges, adding it lists it.
	r := admin.do("PUT", "/api/suites/Planned", map[string]string{"name": secret}, ProjectHeader, o.project).want(t, 200)
	if num(r.json()["moved"]) != 0 {
		t.Errorf("rename answered %s", r.body)
	}
	if got := suiteCounts(t, admin, o.project); got[secret] != 0 || len(got) != 2 {
		t.Errorf("Admin's suites after the rename %v", got)
	}
	if got := suiteCounts(t, carol, o.project); got[secret] != 2 {
		t.Errorf("Carol's suites after the rename %v", got)
	}
	carol.createTest(t, o.project, map[string]any{"name": "Second deal", "suite": "ZZ-Second", "visibility": "Private"})
	admin.do("POST", "/api/suites", map[string]string{"name": "ZZ-Second"}, ProjectHeader, o.project).want(t, 201)
	if got := suiteCounts(t, dev, o.project); got["ZZ-Second"] != 0 {
		t.Errorf("an added suite %v", got)
	}
	admin.do("POST", "/api/suites", map[string]string{"name": "ZZ-Second"}, ProjectHeader, o.project).want(t, 409)
}
