package api

import (
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// The dashboard's "most failing" counts failed runs only: a run that
// ended in error (no agent, a pool without a free record) says nothing of
// the test.
func TestDashboardMostFailingCountsFailedRunsOnly(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.TestDeveloper]
	step := []any{obj{"id": "s1", "type": "navigate", "url": "https://shop.example.com/"}}
	flaky := c.createTest(t, o.project, obj{"name": "Fails", "steps": step})
	broken := c.createTest(t, o.project, obj{"name": "Errors", "steps": step})
	finish := func(testID, status string) {
		runID := c.do("POST", "/api/runs", obj{"testId": testID}, ProjectHeader, o.project).want(t, 201).str("runId")
		if _, err := h.store.Pool().Exec(t.Context(), `UPDATE runs SET status = $2, finished_at = now() WHERE id = $1`, runID, status); err != nil {
			t.Fatal(err)
		}
	}
	finish(flaky, "failed")
	finish(flaky, "passed")
	finish(broken, "error")
	finish(broken, "error")
	d := c.do("GET", "/api/dashboard", nil, ProjectHeader, o.project).want(t, 200).json()
	most := d["mostFailing"].([]any)
	if len(most) != 1 {
		t.Fatalf("most failing %v, want the test with a failed run only", most)
	}
	if m := most[0].(map[string]any); m["testId"] != flaky || num(m["failures"]) != 1 || num(m["runs"]) != 2 {
		t.Errorf("most failing %v", m)
	}
}
