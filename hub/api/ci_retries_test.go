package api

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/testautomation/ta/agent/ci"
)

// agent ci --retries N: the runs get the option, a test that fails once
// and then passes is "passed (flaky, 2 attempts)", exits 0, and its JUnit
// case passes with a flakyFailure the schema accepts.
func TestCICommandRetries(t *testing.T) {
	h := newHarness(t)
	w := newCIWorld(t, h)
	flaky := flakyDoc(flakyPage(t))
	flaky["suite"] = "Smoke"
	testID := w.dev.createTest(t, w.o.project, flaky)
	_, token := w.dev.newToken(t, map[string]any{"name": "pipeline", "projectId": w.o.project})
	report := filepath.Join(t.TempDir(), "report.xml")
	code, out := runCI(t, t.Context(), h, "--token", token, "--test", testID, "--retries", "1", "--junit", report)
	if code != ci.ExitPassed || !strings.Contains(out, "passed (flaky, 2 attempts)") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	var retries int
	if err := h.store.Pool().QueryRow(t.Context(), `SELECT retries FROM runs WHERE test_id = $1`, testID).Scan(&retries); err != nil || retries != 1 {
		t.Errorf("the run's retries %d (%v), want 1", retries, err)
	}
	rep, data := readJUnit(t, report)
	if rep.Failures != 0 || len(rep.Suite.Cases) != 1 || rep.Suite.Cases[0].Failure != nil || strings.Count(string(data), "<flakyFailure") != 1 {
		t.Errorf("junit:\n%s", data)
	}

	// With --data-set the rows are retried each on its own: the row that
	// failed first is the case with the flakyFailure.
	w.dev.projectDo(w.o.project, "POST", "/api/test-data", obj{"name": "Two", "columns": []string{"n"},
		"rows": []map[string]string{{"n": "1"}, {"n": "2"}}}).want(t, 201)
	rowsTest := w.dev.createTest(t, w.o.project, flakyDoc(flakyPage(t)))
	report = filepath.Join(t.TempDir(), "rows.xml")
	code, out = runCI(t, t.Context(), h, "--token", token, "--test", rowsTest, "--data-set", "Two", "--retries", "1", "--junit", report)
	if code != ci.ExitPassed || !strings.Contains(out, "passed (flaky)") {
		t.Fatalf("rows: exit %d\n%s", code, out)
	}
	rep, data = readJUnit(t, report)
	if rep.Failures != 0 || len(rep.Suite.Cases) != 2 || strings.Count(string(data), "<flakyFailure") != 1 || !strings.Contains(string(data), "[row 1]") {
		t.Errorf("rows junit:\n%s", data)
	}
}
