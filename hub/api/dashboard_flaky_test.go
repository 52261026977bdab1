package api

import (
	"fmt"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
)

// The dashboard's flakiest tests: those called flaky now first, then by
// flaky rate; tests with no flaky run are left out, and so are other
// members' private tests; at most 5.
func TestDashboardFlakiest(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.TestDeveloper]
	base := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	seedTest := func(name string, private bool, flakyAt ...int) string {
		body := obj{"name": name}
		owner := c
		if private {
			body["visibility"], owner = "Private", o.members[access.TestManager]
		}
		id := owner.createTest(t, o.project, body)
		flaky := map[int]bool{}
		for _, i := range flakyAt {
			flaky[i] = true
		}
		for i := range 20 { // i = 19 is the newest
			seedRun(t, h, o.project, id, seed{status: "passed", flaky: flaky[i], at: base.Add(time.Duration(i) * time.Minute)})
		}
		return id
	}
	// Rate i/20, all older than the last 10 runs: none is called flaky.
	ids := map[string]string{}
	for i := range 7 {
		var at []int
		for j := range i {
			at = append(at, j)
		}
		name := fmt.Sprintf("Rate %d", i)
		ids[name] = seedTest(name, false, at...)
	}
	ids["Called"] = seedTest("Called", false, 19)
	seedTest("Someone's private", true, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19)

	d := c.do("GET", "/api/dashboard", nil, ProjectHeader, o.project).want(t, 200).json()
	var got []string
	for _, f := range d["flakiest"].([]any) {
		m := f.(map[string]any)
		got = append(got, m["name"].(string))
		if m["testId"] != ids[m["name"].(string)] {
			t.Errorf("%v: testId %v", m["name"], m["testId"])
		}
		if (m["name"] == "Called") != (m["flaky"] == true) {
			t.Errorf("%v: flaky %v", m["name"], m["flaky"])
		}
	}
	if want := "[Called Rate 6 Rate 5 Rate 4 Rate 3]"; fmt.Sprint(got) != want {
		t.Errorf("flakiest %v, want %s", got, want)
	}
	first := d["flakiest"].([]any)[1].(map[string]any)
	if first["flakyRate"] != 0.3 || first["passRate"] != 1.0 || first["quarantined"] != false {
		t.Errorf("Rate 6: %v", first)
	}
}
