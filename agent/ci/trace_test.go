package ci

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

func TestTraceFlags(t *testing.T) {
	base := []string{"--hub", "http://hub:8080", "--token", "tat_x", "--suite", "Smoke"}
	for _, tc := range []struct {
		args      []string
		mode, err string
	}{
		{nil, "failures", ""},
		{[]string{"--trace", "traces", "--trace-mode", "on"}, "on", ""},
		{[]string{"--trace-mode", "off"}, "off", ""},
		{[]string{"--trace-mode", "all"}, "", `--trace-mode "all": use on, failures or off`},
		{[]string{"--trace-mode", ""}, "", `--trace-mode "": use on, failures or off`},
		{[]string{"--trace", "traces", "--trace-mode", "off"}, "", "--trace has nothing to write with --trace-mode off"},
	} {
		o, err := ParseFlags(append(append([]string{}, base...), tc.args...), io.Discard)
		if tc.err == "" && (err != nil || o.TraceMode != tc.mode) || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%v: mode %q err %v, want %q %q", tc.args, o.TraceMode, err, tc.mode, tc.err)
		}
	}
	var usage bytes.Buffer
	ParseFlags([]string{"-h"}, &usage) //nolint:errcheck
	if !strings.Contains(usage.String(), "-trace ") || !strings.Contains(usage.String(), "-trace-mode") {
		t.Errorf("usage names neither flag:\n%s", usage.String())
	}
}

// A test's name never takes its trace's file out of its folder.
func TestTraceFileName(t *testing.T) {
	for _, tc := range []struct{ test, run, want string }{
		{"Wrong greeting", "run_abc", "Wrong-greeting-run_abc.zip"},
		{"../../etc/passwd", "run_1", "etc-passwd-run_1.zip"},
		{"..", "run_1", "test-run_1.zip"},
		{`a\b/c:d*e?"<>|` + "\x00", "../run", "a-b-c-d-e-run.zip"},
		{"Bestellung über 100 €", "run_2", "Bestellung-über-100-run_2.zip"},
		{strings.Repeat("x", 300), "run_3", strings.Repeat("x", 80) + "-run_3.zip"},
	} {
		got := traceFileName(tc.test, tc.run)
		if got != tc.want || filepath.Base(got) != got || strings.HasPrefix(got, ".") {
			t.Errorf("traceFileName(%q, %q) = %q, want %q", tc.test, tc.run, got, tc.want)
		}
	}
}

// A trace that cannot be downloaded is a warning line; nothing is written
// and the run keeps its outcome.
func TestTraceDownloadFails(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":"no such run","code":"not_found"}`, http.StatusNotFound)
	}))
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "traces")
	var out bytes.Buffer
	c := &command{o: Options{Trace: dir}, api: newHubAPI(srv.URL, "tat_x", 5*time.Second), out: newPrinter(&out, false)}
	r := &runState{id: "run_x", testName: "Checkout", status: protocol.RunFailed}
	c.saveTrace(t.Context(), r)
	if !strings.Contains(out.String(), "warning: could not download the trace of Checkout (run_x)") || r.get().traceFile != "" ||
		r.get().status != protocol.RunFailed {
		t.Errorf("output %q, trace file %q", out.String(), r.get().traceFile)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("a failed download left %v", ents)
	}
}
