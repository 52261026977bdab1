package api

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testautomation/ta/agent/ci"
)

// agent ci --trace DIR writes the trace of the failed test, and only its,
// into DIR (created): a zip with the trace's index and steps, which the
// JUnit case names and attaches. --trace-mode is the runs' option trace.
func TestCICommandWritesTraces(t *testing.T) {
	h := newHarness(t)
	w := newCIWorld(t, h)
	_, token := w.dev.newToken(t, map[string]any{"name": "pipeline", "projectId": w.o.project})
	dir := filepath.Join(t.TempDir(), "out", "traces")
	report := filepath.Join(t.TempDir(), "report.xml")
	code, out := runCI(t, t.Context(), h, "--token", token, "--suite", "Smoke", "--environment", "Local",
		"--junit", report, "--trace", dir)
	if code != ci.ExitFailed {
		t.Fatalf("exit %d\n%s", code, out)
	}
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) != 1 {
		t.Fatalf("%s holds %v (%v), want the failed test's zip alone\n%s", dir, ents, err, out)
	}
	zipPath := filepath.Join(dir, ents[0].Name())
	if !strings.HasPrefix(ents[0].Name(), "Wrong-greeting-run_") || !strings.HasSuffix(ents[0].Name(), ".zip") ||
		!strings.Contains(out, "trace of Wrong greeting: "+zipPath) {
		t.Errorf("zip %s; output:\n%s", ents[0].Name(), out)
	}
	data, err := os.ReadFile(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	files := readZip(t, data)
	traces := 0
	for n := range files {
		if strings.HasPrefix(n, "trace-") && strings.HasSuffix(n, ".json") {
			traces++
		}
	}
	if files["index.html"] == "" || traces == 0 {
		t.Errorf("the zip holds %v", names(files))
	}
	rep, _ := readJUnit(t, report)
	for _, c := range rep.Suite.Cases {
		trace := traceLine(c.SystemOut)
		switch {
		case c.Name == "Wrong greeting" && (trace != zipPath || !strings.Contains(c.SystemOut, "[[ATTACHMENT|"+zipPath+"]]")):
			t.Errorf("the failed case names the trace %q, want %s: %q", trace, zipPath, c.SystemOut)
		case c.Name != "Wrong greeting" && trace != "":
			t.Errorf("%s names a trace: %q", c.Name, c.SystemOut)
		}
	}

	// A passing test leaves no zip; --trace-mode goes to the run.
	dir2 := filepath.Join(t.TempDir(), "traces")
	code, out = runCI(t, t.Context(), h, "--token", token, "--test", w.signIn, "--environment", "Local", "--trace", dir2, "--trace-mode", "on")
	if code != ci.ExitPassed {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if ents, _ := os.ReadDir(dir2); len(ents) != 0 {
		t.Errorf("a passed test left %v", ents)
	}
	var modes []string
	if err := h.store.Pool().QueryRow(t.Context(), `SELECT array_agg(trace ORDER BY trace) FROM runs WHERE test_id = $1`, w.signIn).Scan(&modes); err != nil ||
		strings.Join(modes, " ") != "failures on" {
		t.Errorf("the trace options of the two runs: %v %v, want the default, then on", modes, err)
	}
}
