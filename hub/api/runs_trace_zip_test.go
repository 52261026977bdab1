package api

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// readZip opens a downloaded zip: its files by name.
func readZip(t *testing.T, body []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	out := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		out[f.Name] = string(data)
	}
	return out
}

func names(files map[string]string) []string {
	var out []string
	for n := range files {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// GET /api/runs/:id/trace.zip holds the run (run.json), every trace
// artifact and screenshot, and a static index.html linking each step's
// files, with no script and the test's name escaped.
func TestRunTraceZip(t *testing.T) {
	f := newTraceFixture(t, newTraceRunner())
	runID, _ := f.run(t, traceDoc(`<img src=x onerror=alert(1)> Sign in`), map[string]any{"trace": "on"})
	r := f.user.do("GET", "/api/runs/"+runID+"/trace.zip", nil).want(t, 200)
	if r.header.Get("Content-Type") != "application/zip" || !strings.HasPrefix(r.header.Get("Content-Disposition"), "attachment") {
		t.Errorf("zip served with %v", r.header)
	}
	files := readZip(t, r.body)
	want := []string{"dom-003-greet-before.html", "dom-003-greet.html", "index.html", "run.json", "step-003-greet-failure.png",
		"trace-001-open.json", "trace-002-password.json", "trace-003-greet.json"}
	if got := names(files); !slices.Equal(got, want) {
		t.Fatalf("zip holds %v, want %v", got, want)
	}
	var run runJSON
	if err := json.Unmarshal([]byte(files["run.json"]), &run); err != nil || run.RunID != runID || run.Status != "failed" || len(run.Result.Steps) != 3 {
		t.Errorf("run.json: %v %s", err, files["run.json"])
	}
	index := files["index.html"]
	for _, link := range []string{`href="trace-001-open.json"`, `href="dom-003-greet.html"`, `href="dom-003-greet-before.html"`,
		`href="step-003-greet-failure.png"`, `href="run.json"`} {
		if !strings.Contains(index, link) {
			t.Errorf("index.html lacks %s", link)
		}
	}
	if strings.Contains(strings.ToLower(index), "<script") || strings.Contains(index, "<img") || !strings.Contains(index, "&lt;img") {
		t.Errorf("index.html is not static and escaped:\n%s", index)
	}
	if strings.Index(index, "trace-001-open.json") > strings.Index(index, "trace-003-greet.json") {
		t.Error("index.html does not list the steps in the order they ran")
	}
	if !strings.HasPrefix(files["dom-003-greet.html"], `<meta http-equiv="Content-Security-Policy"`) {
		t.Errorf("a snapshot in the zip: %.120s", files["dom-003-greet.html"])
	}
	for n, data := range files {
		if strings.Contains(data, traceSecret) {
			t.Errorf("%s in the zip shows the secret", n)
		}
	}
}

// A data-driven run's trace is per row: GET /api/runs/:id/rows/:row/trace
// (404 for a row the run does not run), the run's own list names the rows
// that have one, and the zip keeps each row's files under r<N>/.
func TestRunTraceRows(t *testing.T) {
	f := newTraceFixture(t, newTraceRunner())
	set := f.user.projectDo(f.o.project, "POST", "/api/test-data", map[string]any{"name": "Users", "columns": []string{"user"},
		"rows": []map[string]string{{"user": "ann"}, {"user": "bob"}}}).want(t, 201).str("id")
	runID, _ := f.run(t, traceDoc("Rows"), map[string]any{"dataSetId": set, "trace": "on"})
	f.job(t) // the second row's
	var tr traceJSON
	_ = json.Unmarshal(f.user.do("GET", "/api/runs/"+runID+"/trace", nil).want(t, 200).body, &tr)
	if len(tr.Steps) != 0 || !slices.Equal(tr.Rows, []int{0, 1}) {
		t.Errorf("a data-driven run's own trace: %+v", tr)
	}
	_ = json.Unmarshal(f.user.do("GET", "/api/runs/"+runID+"/rows/1/trace", nil).want(t, 200).body, &tr)
	if len(tr.Steps) != 3 || tr.Steps[2].Snapshot != "dom-003-greet.html" {
		t.Errorf("row 1's trace: %+v", tr)
	}
	f.user.do("GET", "/api/runs/"+runID+"/rows/1/artifacts/dom-003-greet.html", nil).want(t, 200)
	for _, bad := range []string{"2", "-1", "x"} {
		f.user.do("GET", "/api/runs/"+runID+"/rows/"+bad+"/trace", nil).want(t, 404)
	}
	files := readZip(t, f.user.do("GET", "/api/runs/"+runID+"/trace.zip", nil).want(t, 200).body)
	for _, n := range []string{"r0/trace-001-open.json", "r1/dom-003-greet.html", "r1/step-003-greet-failure.png"} {
		if _, ok := files[n]; !ok {
			t.Errorf("the zip lacks %s: %v", n, names(files))
		}
	}
	if !strings.Contains(files["index.html"], `href="r1/dom-003-greet.html"`) {
		t.Errorf("index.html does not link row 1's snapshot")
	}
}

// A trace has the access of its run: someone else's private test's run
// is not found, another project's header is refused and audited; a queued
// run's trace is empty, not an error.
func TestRunTraceAccess(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	tester, admin := o.members[access.Tester], o.members[access.Admin]
	private := tester.createTest(t, o.project, map[string]any{"name": "Mine", "visibility": "Private"})
	runID := tester.do("POST", "/api/runs", map[string]any{"testId": private, "trace": "on"}, ProjectHeader, o.project).want(t, 201).str("runId")
	if r := tester.do("GET", "/api/runs/"+runID+"/trace", nil).want(t, 202).json(); r["mode"] != "on" || len(r["steps"].([]any)) != 0 {
		t.Errorf("a queued run's trace: %v", r)
	}
	tester.do("GET", "/api/runs/"+runID+"/trace.zip", nil).want(t, 200)
	paths := []string{"/api/runs/" + runID + "/trace", "/api/runs/" + runID + "/trace.zip", "/api/runs/" + runID + "/rows/0/trace"}
	for _, p := range paths {
		admin.do("GET", p, nil).want(t, 404)
	}
	other := o.owner.do("POST", "/api/orgs/"+o.id+"/projects", map[string]string{"name": "Other"}).want(t, 201).str("id")
	before := len(readAudit(t, h))
	for _, p := range paths[:2] {
		tester.do("GET", p, nil, ProjectHeader, other).want(t, 404)
	}
	if n := len(readAudit(t, h)) - before; n != 2 {
		t.Errorf("audit lines %d, want 2", n)
	}
	outsider, _ := h.register("Outsider")
	outsider.do("GET", paths[0], nil).want(t, 404)
}

// Trace artifacts go with the run's artifacts: deleting the test deletes
// its runs, every artifact row of theirs and their bytes, traces too (the
// bytes stayed on disk before issue 30).
func TestRunTraceGoesWithItsRun(t *testing.T) {
	f := newTraceFixture(t, newTraceRunner())
	test := f.user.createTest(t, f.o.project, traceDoc("Gone"))
	runID := f.user.do("POST", "/api/runs", map[string]any{"testId": test, "environmentId": f.env, "trace": "on"}, ProjectHeader, f.o.project).
		want(t, 201).str("runId")
	f.user.sse(t, runID)
	count := func() int {
		var n int
		if err := f.h.store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM run_artifacts WHERE run_id = $1`, runID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(); n != 6 { // 3 traces, 2 snapshots, a screenshot
		t.Fatalf("%d artifacts stored", n)
	}
	dir := filepath.Join(f.h.dataDir, "artifacts", runID)
	if _, err := os.Stat(filepath.Join(dir, "dom-003-greet.html")); err != nil {
		t.Fatal(err)
	}
	f.user.do("DELETE", "/api/tests/"+test, nil).want(t, 204)
	if n := count(); n != 0 {
		t.Errorf("%d artifact rows left after the test was deleted", n)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the run's artifacts are still on disk after its test was deleted: %v", err)
	}
	f.user.do("GET", "/api/runs/"+runID+"/trace", nil).want(t, 404)
	f.user.do("GET", "/api/runs/"+runID+"/trace.zip", nil).want(t, 404)
}

// Traces have a byte budget of their own: over it the hub drops the rest
// of the trace and says how much, and the run ends as it ran (not error),
// though its traces alone are more than the artifact limit.
func TestRunTraceBudget(t *testing.T) {
	h := newHarness(t)
	h.limits = store.RunLimits{ArtifactBytes: 1000, TraceBytes: 1200}
	h.restart(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	runner := newTraceRunner()
	h.pairAgent(t, mgr, runner)
	f := traceFixture{h: h, o: o, user: mgr, runner: runner}
	f.env = mgr.do("POST", "/api/environments", map[string]any{"name": "Local", "variables": map[string]string{}, "secrets": map[string]string{"PASSWORD": traceSecret}},
		ProjectHeader, o.project).want(t, 201).str("id")
	runID, _ := f.run(t, traceDoc("Long"), map[string]any{"trace": "on"})
	run := mgr.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
	if run["status"] != protocol.RunFailed {
		t.Fatalf("a run over its trace budget ended %v: %v", run["status"], run["error"])
	}
	var tr traceJSON
	_ = json.Unmarshal(mgr.do("GET", "/api/runs/"+runID+"/trace", nil).want(t, 200).body, &tr)
	if tr.Dropped == 0 || len(tr.Steps) == 0 {
		t.Errorf("over the budget: %d steps listed, %d dropped", len(tr.Steps), tr.Dropped)
	}
	for _, st := range tr.Steps {
		if st.Snapshot != "" {
			if r := mgr.do("GET", "/api/runs/"+runID+"/artifacts/"+st.Snapshot, nil); r.status != 200 {
				t.Errorf("listed snapshot %s answers %d", st.Snapshot, r.status)
			}
		}
	}
}
