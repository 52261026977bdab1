package api

import (
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

func listNames(t *testing.T, c *client, project, query string) ([]string, map[string]any) {
	t.Helper()
	r := c.do("GET", "/api/tests?"+query, nil, ProjectHeader, project).want(t, 200)
	body := r.json()
	var names []string
	for _, row := range body["tests"].([]any) {
		names = append(names, row.(map[string]any)["name"].(string))
	}
	return names, body
}

func TestListFiltersAndSearch(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	me, other := o.members[access.TestDeveloper], o.members[access.Tester]
	me.createTest(t, o.project, map[string]any{"name": "Login works", "suite": "Accounts", "tags": []string{"smoke"}})
	me.createTest(t, o.project, map[string]any{"name": "Password reset", "suite": "Accounts", "visibility": "Private"})
	me.createTest(t, o.project, map[string]any{"name": "Cart total", "tags": []string{"Checkout", "slow"}})
	other.createTest(t, o.project, map[string]any{"name": "Search box", "suite": "Catalog"})
	other.createTest(t, o.project, map[string]any{"name": "Other's secret", "visibility": "Private"})

	for _, tc := range []struct{ query, want string }{
		{"", "Cart total,Login works,Password reset,Search box"},
		{"visibility=all", "Cart total,Login works,Password reset,Search box"},
		{"visibility=shared", "Cart total,Login works,Search box"},
		{"visibility=private", "Password reset"},
		{"visibility=mine", "Cart total,Login works,Password reset"},
		{"q=login", "Login works"},
		{"q=ACCOUNTS", "Login works,Password reset"}, // suite match
		{"q=checkout", "Cart total"},                 // tag match
		{"q=secret", ""},                             // others' private tests never match
		{"q=" + url.QueryEscape("%"), ""},            // LIKE wildcards are literal
		{"suite=Accounts", "Login works,Password reset"},
		{"unsorted=1", "Cart total"},
		{"suite=Accounts&visibility=shared", "Login works"},
		{"sort=-name", "Search box,Password reset,Login works,Cart total"},
	} {
		names, body := listNames(t, me, o.project, tc.query)
		if got := strings.Join(names, ","); got != tc.want {
			t.Errorf("?%s: %q, want %q", tc.query, got, tc.want)
		}
		if num(body["total"]) != len(names) {
			t.Errorf("?%s: total %v for %d rows", tc.query, body["total"], len(names))
		}
	}
	row := me.do("GET", "/api/tests?q=login", nil, ProjectHeader, o.project).want(t, 200).json()["tests"].([]any)[0].(map[string]any)
	for _, k := range []string{"id", "name", "version", "suite", "status", "owner", "visibility", "steps", "lastRun", "lastSaved", "tags", "can"} {
		if _, ok := row[k]; !ok {
			t.Errorf("list row lacks %q: %v", k, row)
		}
	}
	if by := row["lastSaved"].(map[string]any)["by"].(map[string]any); by["id"] != o.ids[access.TestDeveloper] {
		t.Errorf("lastSaved.by %v", by)
	}
	for _, bad := range []string{"visibility=everyone", "sort=size", "limit=0", "limit=501", "cursor=bm90LWEtY3Vyc29y", "cursor=!!", "suite=A&unsorted=1"} {
		me.do("GET", "/api/tests?"+bad, nil, ProjectHeader, o.project).want(t, 422)
	}
}

func TestListPagination(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.Tester]
	var want []string
	for _, n := range []string{"delta", "Alpha", "charlie", "bravo", "echo", "alpha", "Foxtrot"} {
		c.createTest(t, o.project, map[string]any{"name": n})
		want = append(want, n)
	}
	for _, sortBy := range []string{"name", "-name", "savedAt", "-savedAt"} {
		var got []string
		cursor := ""
		for page := 0; page < 10; page++ {
			q := "limit=3&sort=" + sortBy
			if cursor != "" {
				q += "&cursor=" + url.QueryEscape(cursor)
			}
			names, body := listNames(t, c, o.project, q)
			got = append(got, names...)
			next, _ := body["nextCursor"].(string)
			if next == "" {
				break
			}
			cursor = next
		}
		if len(got) != len(want) {
			t.Fatalf("sort %s: pages gave %v", sortBy, got)
		}
		sorted := append([]string(nil), got...)
		sort.Strings(sorted)
		all := append([]string(nil), want...)
		sort.Strings(all)
		if strings.Join(sorted, ",") != strings.Join(all, ",") {
			t.Errorf("sort %s: pages gave %v, want each of %v once", sortBy, got, want)
		}
		if sortBy == "name" && strings.ToLower(strings.Join(got, ",")) != "alpha,alpha,bravo,charlie,delta,echo,foxtrot" {
			t.Errorf("name order: %v", got)
		}
	}
}

func TestSuitesAndSettings(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev, tester, mgr := o.members[access.TestDeveloper], o.members[access.Tester], o.members[access.TestManager]
	shared := dev.createTest(t, o.project, map[string]any{"name": "A", "suite": "Old"})
	ready := dev.createTest(t, o.project, map[string]any{"name": "B", "suite": "Old"})
	mgr.do("PUT", "/api/tests/"+ready, map[string]any{"status": "Ready"}).want(t, 200)
	private := tester.createTest(t, o.project, map[string]any{"name": "C", "suite": "Old", "visibility": "Private"})

	tester.do("POST", "/api/suites", map[string]string{"name": "New"}, ProjectHeader, o.project).want(t, 403)
	dev.do("POST", "/api/suites", map[string]string{"name": "Empty"}, ProjectHeader, o.project).want(t, 201)
	dev.do("POST", "/api/suites", map[string]string{"name": "Empty"}, ProjectHeader, o.project).want(t, 409)
	for _, bad := range []string{"", "a/b", strings.Repeat("s", 101), "x\x01"} {
		dev.do("POST", "/api/suites", map[string]string{"name": bad}, ProjectHeader, o.project).want(t, 422)
	}
	dev.do("PUT", "/api/suites/Old", map[string]string{"name": "Empty"}, ProjectHeader, o.project).want(t, 409)
	dev.do("PUT", "/api/suites/Nope", map[string]string{"name": "X"}, ProjectHeader, o.project).want(t, 404)
	dev.do("DELETE", "/api/suites/Old", nil, ProjectHeader, o.project).want(t, 409)

	r := dev.do("PUT", "/api/suites/Old", map[string]string{"name": "Renamed Suite"}, ProjectHeader, o.project).want(t, 200)
	// The tester's private test moves too, but dev cannot see it, so the
	// answer does not count it (TestPrivateTestsDoNotLeakThroughSuites).
	if num(r.json()["moved"]) != 2 {
		t.Errorf("rename moved %v, want 2 (the tests dev can see)", r.json()["moved"])
	}
	for _, tc := range []struct {
		c      *client
		id     string
		status string
	}{{dev, shared, "Draft"}, {dev, ready, "Ready"}, {tester, private, "Draft"}} {
		got := tc.c.test(t, tc.id)
		if got["suite"] != "Renamed Suite" || num(got["version"]) != 2 || got["status"] != tc.status {
			t.Errorf("moved test %s: suite %v version %v status %v", tc.id, got["suite"], got["version"], got["status"])
		}
		if got["document"].(map[string]any)["suite"] != "Renamed Suite" {
			t.Errorf("moved test's document still names the old suite")
		}
		v := tc.c.do("GET", "/api/tests/"+tc.id+"/versions", nil).want(t, 200).json()["versions"].([]any)[0].(map[string]any)
		if v["note"] != "suite renamed from Old to Renamed Suite" || v["status"] != tc.status {
			t.Errorf("rename version: %v", v)
		}
	}
	// A Ready test stays frozen after the move.
	dev.do("PUT", "/api/tests/"+ready, doc("B", 1)).want(t, 409)

	names, _ := listNames(t, dev, o.project, "suite="+url.QueryEscape("Renamed Suite"))
	if strings.Join(names, ",") != "A,B" {
		t.Errorf("suite filter after rename: %v", names)
	}
	dev.do("DELETE", "/api/suites/Empty", nil, ProjectHeader, o.project).want(t, 204)
	dev.do("DELETE", "/api/suites/Empty", nil, ProjectHeader, o.project).want(t, 404)

	// Settings: the same list as { modules }; only Admins change it.
	got := dev.do("GET", "/api/settings", nil, ProjectHeader, o.project).want(t, 200)
	if strings.TrimSpace(string(got.body)) != `{"modules":["Renamed Suite"]}` {
		t.Errorf("settings: %s", got.body)
	}
	mgr.do("POST", "/api/settings", map[string]any{"modules": []string{"Renamed Suite", "Z"}}, ProjectHeader, o.project).want(t, 403)
	admin := o.members[access.Admin]
	admin.do("POST", "/api/settings", map[string]any{"modules": []string{"Z"}}, ProjectHeader, o.project).want(t, 409)
	admin.do("POST", "/api/settings", map[string]any{"modules": []string{"a/b"}}, ProjectHeader, o.project).want(t, 422)
	r = admin.do("POST", "/api/settings", map[string]any{"modules": []string{"Renamed Suite", "Z", "Z"}}, ProjectHeader, o.project).want(t, 200)
	if strings.TrimSpace(string(r.body)) != `{"modules":["Renamed Suite","Z"]}` {
		t.Errorf("settings after save: %s", r.body)
	}
	admin.do("POST", "/api/settings", map[string]any{"modules": []string{"Renamed Suite"}}, ProjectHeader, o.project).want(t, 200)
	if got := dev.do("GET", "/api/suites", nil, ProjectHeader, o.project).want(t, 200); strings.Contains(string(got.body), `"Z"`) {
		t.Errorf("an empty unlisted suite was kept: %s", got.body)
	}
}
