package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// sideExamples holds Selenium IDE's own example projects and the pages
// they run against (see its README).
const sideExamples = "../../protocol/testdata/side-examples"

// Commands the import leaves out on purpose (see protocol's notImported):
// debugger and setSpeed have no meaning here.
var sideNotImported = []string{"debugger", "setSpeed"}

// Selenium IDE's example projects, served from a local HTTP server as
// Selenium IDE's own CI serves them, import every command (control flow
// too: control-flow.side, variable-in-conditional.side), and each
// imported test passes through the hub and a paired agent.
func TestSideExamples(t *testing.T) {
	f := newRunFixture(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join(sideExamples, "site"))))
	t.Cleanup(srv.Close)
	files, err := filepath.Glob(filepath.Join(sideExamples, "projects", "*.side"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no example projects: %v", err)
	}
	var commands, left, ran, passed int
	var failed []string
	for _, file := range files {
		base := filepath.Base(file)
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var project map[string]any
		if err := json.Unmarshal(data, &project); err != nil {
			t.Fatal(err)
		}
		project["url"] = srv.URL // the projects say http://localhost:8080
		for _, tc := range project["tests"].([]any) {
			commands += len(tc.(map[string]any)["commands"].([]any))
		}
		r := f.user.do("POST", "/api/tests/import", project, ProjectHeader, f.o.project).want(t, 201).json()
		for _, s := range r["skipped"].([]any) {
			sk := s.(map[string]any)
			left++
			if !slices.Contains(sideNotImported, sk["command"].(string)) {
				t.Errorf("%s: %s#%v %s was not imported: %s", base, sk["test"], sk["index"], sk["command"], sk["reason"])
			}
		}
		for _, x := range r["tests"].([]any) {
			test := x.(map[string]any)["test"].(map[string]any)
			name := base + "/" + test["name"].(string)
			ran++
			run := f.runToEnd(t, test["id"].(string))
			if run.Status == "passed" {
				passed++
				continue
			}
			var why []string
			for _, st := range run.Result.Steps {
				if st.Status == "failed" {
					why = append(why, st.ID+" "+st.Type+": "+st.Error)
				}
			}
			failed = append(failed, name)
			t.Errorf("%s: run %s %s: %s %s", name, run.RunID, run.Status, run.Error, strings.Join(why, "; "))
		}
	}
	t.Logf("figure: %d of %d commands imported; %d of %d tests run passed; failed: %v", commands-left, commands, passed, ran, failed)
	if ran != 28 { // every test of the 11 projects, none waiting any more
		t.Errorf("%d tests ran, want 28", ran)
	}
}

// runToEnd runs a saved test in the fixture's environment and waits until
// the run has finished.
func (f runFixture) runToEnd(t *testing.T, testID string) runJSON {
	t.Helper()
	id := f.user.do("POST", "/api/runs", map[string]any{"testId": testID, "environmentId": f.env}, ProjectHeader, f.o.project).want(t, 201).str("runId")
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		var run runJSON
		r := f.user.do("GET", "/api/runs/"+id, nil)
		if r.status != 200 && r.status != 202 { // 202 while it runs
			t.Fatalf("run %s: %d %s", id, r.status, r.body)
		}
		_ = json.Unmarshal(r.body, &run)
		if run.Status != "queued" && run.Status != "running" {
			return run
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("run %s did not finish", id)
	return runJSON{}
}

// The commands no step expresses run as scripts that work on the page:
// select by index=, add/removeSelection on a multiple select, submit, and
// an IDE 3 executeAsyncScript that calls its callback.
func TestSidePageScriptsRun(t *testing.T) {
	f := newRunFixture(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join(sideExamples, "site"))))
	t.Cleanup(srv.Close)
	c := func(command, target, value string) map[string]any {
		return map[string]any{"command": command, "target": target, "value": value}
	}
	check := func(js string) map[string]any { return c("runScript", js, "") }
	project := map[string]any{"name": "Scripts", "url": srv.URL, "tests": []any{map[string]any{"name": "Scripts", "commands": []any{
		c("open", "/select.html", ""),
		c("select", "id=select", "index=2"),
		c("assertValue", "id=select", "3"),
		c("addSelection", "id=mult", "label=Saab"),
		c("addSelection", "xpath=//select[@id='mult']", "value=audi"),
		c("removeSelection", "id=mult", "Saab"),
		check(`const v = Array.from(document.getElementById('mult').selectedOptions).map((o) => o.value).join(','); if (v !== 'audi') throw new Error('selected: ' + v)`),
		c("executeAsyncScript", "var done = arguments[arguments.length - 1]; setTimeout(() => done('late'), 200)", "late"),
		c("executeScript", "if (${late} !== 'late') throw new Error('got ' + ${late})", ""),
		c("open", "/form.html", ""),
		c("type", "css=input", "blah"),
		c("submit", "css=input", ""),
		c("assertText", "css=h1", "Success!"),
	}}}}
	r := f.user.do("POST", "/api/tests/import", project, ProjectHeader, f.o.project).want(t, 201).json()
	if sk := r["skipped"].([]any); len(sk) != 0 {
		t.Fatalf("skipped %v", sk)
	}
	id := r["tests"].([]any)[0].(map[string]any)["test"].(map[string]any)["id"].(string)
	if run := f.runToEnd(t, id); run.Status != "passed" {
		t.Errorf("run %s: %s %+v", run.Status, run.Error, run.Result.Steps)
	}
}
