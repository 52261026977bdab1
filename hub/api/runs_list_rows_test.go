package api

import (
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// A data-driven run's passed and total count rows: the run lists say
// which runs those are (dataSetId), so they say "rows", not "steps".
func TestRunListsNameTheDataSetOfDataDrivenRuns(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev := o.members[access.TestDeveloper]
	set := dev.projectDo(o.project, "POST", "/api/test-data", obj{"name": "Users", "columns": []string{"user"},
		"rows": []map[string]string{{"user": "a"}, {"user": "b"}}}).want(t, 201).str("id")
	steps := []any{obj{"id": "s1", "type": "navigate", "url": "https://shop.example.com/${user}"}}
	bound := dev.createTest(t, o.project, obj{"name": "Per user", "steps": steps, "data": obj{"set": set}})
	plain := dev.createTest(t, o.project, obj{"name": "Once", "steps": []any{obj{"id": "s1", "type": "navigate", "url": "https://shop.example.com/"}}})
	rowsRun := dev.projectDo(o.project, "POST", "/api/runs", obj{"testId": bound}).want(t, 201).str("runId")
	stepsRun := dev.projectDo(o.project, "POST", "/api/runs", obj{"testId": plain}).want(t, 201).str("runId")
	list := dev.projectDo(o.project, "GET", "/api/runs", nil).want(t, 200).json()["runs"].([]any)
	seen := 0
	for _, r := range list {
		m := r.(map[string]any)
		switch m["runId"] {
		case rowsRun:
			seen++
			if m["dataSetId"] != set {
				t.Errorf("data-driven run in the list: dataSetId %v, want %s", m["dataSetId"], set)
			}
		case stepsRun:
			seen++
			if _, ok := m["dataSetId"]; ok {
				t.Errorf("a run of steps has a dataSetId: %v", m)
			}
		}
	}
	if seen != 2 {
		t.Fatalf("the list has %d of the 2 runs: %v", seen, list)
	}
}
