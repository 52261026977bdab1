package api

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// TestDataDrivenRun: a test bound to a 5-row data set runs once per row
// through a real agent and Chromium; row 3 expects the wrong greeting and
// fails. The run fails with 4 of 5 rows passed, lists every row, serves
// each row's steps, values and screenshots, and its events carry the row.
func TestDataDrivenRun(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev := o.members[access.TestDeveloper]
	base := site(t)
	env := o.members[access.TestManager].projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "Local", "variables": map[string]string{"baseUrl": base},
		"secrets": map[string]string{"PASSWORD": "pw-secret-1"}}).want(t, 201).str("id")
	rows := []map[string]string{}
	for i := range 5 {
		user := fmt.Sprintf("user%d@example.com", i)
		greeting := "Welcome, " + user
		if i == 3 {
			greeting = "Welcome, somebody else"
		}
		rows = append(rows, map[string]string{"user": user, "greeting": greeting})
	}
	set := dev.projectDo(o.project, "POST", "/api/test-data", map[string]any{"name": "Users", "columns": []string{"user", "greeting"}, "rows": rows}).
		want(t, 201).str("id")
	doc := signInDoc(base, "${greeting}")
	doc["data"] = map[string]any{"set": set}
	test := dev.createTest(t, o.project, doc)

	// Bad row choices change nothing: 422 with the row's path.
	for _, bad := range []map[string]any{
		{"rows": []int{5}}, {"rows": []int{1, 1}}, {"rows": []int{}}, {"rows": []int{-1}},
		{"dataSetId": "tds_aaaaaaaaaaaaaaaa"}, {"dataSetId": "nonsense"},
	} {
		bad["testId"], bad["environmentId"] = test, env
		dev.projectDo(o.project, "POST", "/api/runs", bad).want(t, 422)
	}
	plain := dev.createTest(t, o.project, signInDoc(base, "Welcome, ann@example.com"))
	r := dev.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": plain, "environmentId": env, "rows": []int{0}}).want(t, 422)
	if !strings.Contains(string(r.body), `"rows"`) {
		t.Errorf("rows without a data set: %s", r.body)
	}
	if n := len(dev.projectDo(o.project, "GET", "/api/runs", nil).want(t, 200).json()["runs"].([]any)); n != 0 {
		t.Fatalf("refused run requests made %d runs", n)
	}

	runID := dev.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": test, "environmentId": env}).want(t, 201).str("runId")
	queued := dev.do("GET", "/api/runs/"+runID, nil).want(t, 202).json()
	if queued["dataSetId"] != set || len(queued["rows"].([]any)) != 5 {
		t.Fatalf("queued run: dataSetId %v rows %v", queued["dataSetId"], queued["rows"])
	}
	h.pairAgent(t, dev, browserRunner{sharedBrowser(t)})
	events := dev.sse(t, runID)
	run := dev.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
	if run["status"] != "failed" || num(run["passed"]) != 4 || num(run["total"]) != 5 {
		t.Fatalf("run %v %v/%v: %v", run["status"], run["passed"], run["total"], run["error"])
	}
	listed := run["rows"].([]any)
	if len(listed) != 5 {
		t.Fatalf("rows %v", listed)
	}
	for i, x := range listed {
		row := x.(map[string]any)
		want := "passed"
		if i == 3 {
			want = "failed"
		}
		if num(row["row"]) != i || row["status"] != want || num(row["total"]) != 5 || row["values"].(map[string]any)["user"] != fmt.Sprintf("user%d@example.com", i) {
			t.Errorf("row %d: %v", i, row)
		}
	}

	// One row's full result: its values, its steps, its failure.
	bad := dev.do("GET", "/api/runs/"+runID+"/rows/3", nil).want(t, 200).json()
	if v := bad["values"].(map[string]any); v["user"] != "user3@example.com" || bad["status"] != "failed" {
		t.Fatalf("row 3: %v", bad)
	}
	steps := bad["steps"].([]any)
	last := steps[len(steps)-1].(map[string]any)
	if len(steps) != 5 || last["id"] != "greet" || last["status"] != "failed" || !strings.Contains(last["error"].(string), "somebody else") {
		t.Fatalf("row 3 steps: %v", steps)
	}
	shot, _ := last["screenshot"].(string)
	if shot == "" {
		t.Fatalf("the failed step has no screenshot: %v", last)
	}
	img := dev.do("GET", "/api/runs/"+runID+"/rows/3/artifacts/"+shot, nil).want(t, 200)
	if !strings.HasPrefix(img.header.Get("Content-Type"), "image/") || len(img.body) < 100 {
		t.Errorf("row 3's screenshot: %s, %d bytes", img.header.Get("Content-Type"), len(img.body))
	}
	// The row's artifact is not another row's.
	dev.do("GET", "/api/runs/"+runID+"/rows/2/artifacts/"+shot, nil).want(t, 404)
	good := dev.do("GET", "/api/runs/"+runID+"/rows/0", nil).want(t, 200).json()
	if good["status"] != "passed" || num(good["passed"]) != 5 || good["values"].(map[string]any)["greeting"] != "Welcome, user0@example.com" {
		t.Fatalf("row 0: %v", good)
	}
	for _, path := range []string{"/rows/5", "/rows/-1", "/rows/x", "/rows/99999999999999999999", "/rows/5/artifacts/" + shot} {
		dev.do("GET", "/api/runs/"+runID+path, nil).want(t, 404)
	}
	// Secrets stay masked in every row's result.
	if strings.Contains(string(dev.do("GET", "/api/runs/"+runID+"/rows/1", nil).body), "pw-secret-1") {
		t.Error("a row's result holds the secret's value")
	}

	// Events: each row starts and finishes; step events carry their row.
	started, finished := map[int]bool{}, map[int]string{}
	stepRows := map[int]int{}
	for _, e := range events {
		switch e.Kind {
		case protocol.RowStarted:
			started[*e.Row] = true
		case protocol.RowFinished:
			finished[*e.Row] = e.Status
		case protocol.StepFinished:
			if e.Row == nil {
				t.Fatalf("a step event without its row: %+v", e)
			}
			stepRows[*e.Row]++
		}
	}
	if len(started) != 5 || len(finished) != 5 || finished[3] != "failed" || finished[4] != "passed" {
		t.Errorf("row events: started %v finished %v", started, finished)
	}
	for i := range 5 {
		if stepRows[i] != 5 {
			t.Errorf("row %d has %d step.finished events, want 5", i, stepRows[i])
		}
	}

	// Rerunning only the failed row: rows override the binding.
	again := dev.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": test, "environmentId": env, "rows": []int{3, 1}}).want(t, 201).str("runId")
	dev.sse(t, again)
	run = dev.do("GET", "/api/runs/"+again, nil).want(t, 200).json()
	var got []int
	for _, x := range run["rows"].([]any) {
		got = append(got, num(x.(map[string]any)["row"]))
	}
	if !slices.Equal(got, []int{3, 1}) || num(run["total"]) != 2 || num(run["passed"]) != 1 {
		t.Errorf("rerun of rows 3 and 1: rows %v, %v/%v", got, run["passed"], run["total"])
	}
	dev.do("GET", "/api/runs/"+again+"/rows/0", nil).want(t, 404)

	// A plain test run with another data set, chosen at start.
	other := dev.projectDo(o.project, "POST", "/api/test-data", map[string]any{"name": "One", "columns": []string{"user"},
		"rows": []map[string]string{{"user": "zed@example.com"}}}).want(t, 201).str("id")
	plainDriven := dev.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": plain, "environmentId": env, "dataSetId": other}).want(t, 201).str("runId")
	dev.sse(t, plainDriven)
	run = dev.do("GET", "/api/runs/"+plainDriven, nil).want(t, 200).json()
	// The expected greeting is fixed (ann), the row signs in as zed: fails.
	if run["status"] != "failed" || len(run["rows"].([]any)) != 1 || run["dataSetId"] != other {
		t.Errorf("plain test over another data set: %v %v", run["status"], run["rows"])
	}

	// Another project's member sees nothing of it.
	outsider, _ := h.register("Outsider")
	for _, path := range []string{"/rows/0", "/rows/3/artifacts/" + shot} {
		if st := outsider.do("GET", "/api/runs/"+runID+path, nil).status; st != http.StatusNotFound {
			t.Errorf("an outsider got %d for %s", st, path)
		}
	}
}
