package api

import (
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
)

// TestHostileHistoryAndQuarantine: a test's history and quarantine are
// reached as the test is. Another project's test answers 404 as a
// missing one does, with an audit line; another member's private test is
// 404 even to an Admin; only Test Managers and Admins quarantine or lift
// (403 for the others, who still read the history); bad reasons answer
// 4xx and change nothing.
func TestHostileHistoryAndQuarantine(t *testing.T) {
	h := newHarness(t)
	o, theirs := h.org(t), h.org(t)
	mgr := o.members[access.TestManager]
	shared := mgr.createTest(t, o.project, obj{"name": "Shared"})
	seedRun(t, h, o.project, shared, seed{status: "failed", at: time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)})
	private := o.members[access.Tester].createTest(t, o.project, obj{"name": "Tester's own", "visibility": "Private"})
	foreign := theirs.owner.createTest(t, theirs.project, obj{"name": "Theirs"})

	routes := []struct {
		method, suffix string
		body           any
	}{{"GET", "/history", nil}, {"PUT", "/quarantine", obj{"reason": "flaky"}}, {"DELETE", "/quarantine", nil}}

	// Another project's test, a missing one, another's private test.
	before := len(readAudit(t, h))
	for _, rt := range routes {
		missing := mgr.do(rt.method, "/api/tests/tc_aaaaaaaaaaaaaaaa"+rt.suffix, rt.body).want(t, 404)
		cross := mgr.do(rt.method, "/api/tests/"+foreign+rt.suffix, rt.body).want(t, 404)
		if string(missing.body) != string(cross.body) {
			t.Errorf("%s %s: another project's test answers %s, a missing one %s", rt.method, rt.suffix, cross.body, missing.body)
		}
		o.owner.do(rt.method, "/api/tests/"+private+rt.suffix, rt.body).want(t, 404)
	}
	lines := readAudit(t, h)[before:]
	if len(lines) != len(routes) {
		t.Fatalf("%d audit lines for %d cross-project attempts: %v", len(lines), len(routes), lines)
	}
	for _, l := range lines {
		if l["event"] != "cross_project_refused" || l["recordProject"] != theirs.project || !strings.HasPrefix(l["path"].(string), "/api/tests/"+foreign) {
			t.Errorf("audit line %v", l)
		}
	}
	if q := theirs.owner.do("GET", "/api/tests/"+foreign, nil).want(t, 200).json()["quarantine"]; q != nil {
		t.Errorf("another project's test was quarantined: %v", q)
	}

	// Roles: everyone reads the history; only managers quarantine.
	for _, role := range access.Roles {
		c := o.members[role]
		hist := c.do("GET", "/api/tests/"+shared+"/history", nil).want(t, 200).json()
		if len(hist["runs"].([]any)) != 1 {
			t.Errorf("%s: history %v", role, hist)
		}
		can := c.do("GET", "/api/tests/"+shared, nil).want(t, 200).json()["can"].(map[string]any)["quarantine"]
		if manager := access.Allows(role, access.ManageTests); !manager {
			c.do("PUT", "/api/tests/"+shared+"/quarantine", obj{"reason": "flaky"}).want(t, 403)
			c.do("DELETE", "/api/tests/"+shared+"/quarantine", nil).want(t, 403)
			if can != false {
				t.Errorf("%s: can.quarantine %v", role, can)
			}
			continue
		}
		if can != true {
			t.Errorf("%s: can.quarantine %v", role, can)
		}
		q := c.do("PUT", "/api/tests/"+shared+"/quarantine", obj{"reason": "  flaky since v3  "}).want(t, 200).json()["quarantine"].(map[string]any)
		if q["reason"] != "flaky since v3" || q["by"] != o.ids[role] || q["byName"] != string(role) || q["at"] == nil {
			t.Errorf("%s: quarantine %v", role, q)
		}
		if got := c.do("GET", "/api/tests/"+shared+"/history", nil).want(t, 200).json()["quarantine"]; got == nil {
			t.Errorf("%s: the history does not say the test is quarantined", role)
		}
		if got := c.do("DELETE", "/api/tests/"+shared+"/quarantine", nil).want(t, 200).json()["quarantine"]; got != nil {
			t.Errorf("%s: lifted, quarantine %v", role, got)
		}
	}
	var events []string
	for _, l := range readAudit(t, h)[before+len(routes):] {
		events = append(events, l["event"].(string)+" "+l["user"].(string))
	}
	want := "test_quarantined " + o.ids[access.TestManager] + ",test_quarantine_lifted " + o.ids[access.TestManager] + "," +
		"test_quarantined " + o.ids[access.Admin] + ",test_quarantine_lifted " + o.ids[access.Admin]
	if got := strings.Join(events, ","); got != want {
		t.Errorf("audit lines %s, want %s", got, want)
	}

	// Bad reasons change nothing.
	mgr.do("PUT", "/api/tests/"+shared+"/quarantine", obj{"reason": "kept"}).want(t, 200)
	for _, body := range []string{`{}`, `{"reason":""}`, `{"reason":"   "}`, `{"reason":"` + strings.Repeat("é", 501) + `"}`, `{"reason":5}`,
		`{"reason":"a\u0000b"}`, `{"reason":null}`, `[]`, `{`, `"flaky"`} {
		r := mgr.do("PUT", "/api/tests/"+shared+"/quarantine", body)
		if r.status != 400 && r.status != 422 {
			t.Errorf("%s: %d %s", body, r.status, r.body)
		}
	}
	if q := mgr.do("GET", "/api/tests/"+shared, nil).want(t, 200).json()["quarantine"].(map[string]any); q["reason"] != "kept" {
		t.Errorf("after bad reasons: %v", q)
	}
	mgr.do("PUT", "/api/tests/"+shared+"/quarantine", obj{"reason": strings.Repeat("é", 500)}).want(t, 200)
}
