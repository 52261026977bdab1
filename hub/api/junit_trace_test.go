package api

import (
	"encoding/xml"
	"strings"
	"testing"
)

// traceLine is the address a JUnit case's system-out gives for the run's
// trace, "" for none.
func traceLine(systemOut string) string {
	for _, l := range strings.Split(systemOut, "\n") {
		if s, ok := strings.CutPrefix(l, "Trace: "); ok {
			return s
		}
	}
	return ""
}

// A run's JUnit report links its trace.zip when the run failed with a
// trace, and the link downloads it; a failed run whose trace was off, and
// a passed run, link none.
func TestJUnitLinksTrace(t *testing.T) {
	h := newHarness(t)
	w := newCIWorld(t, h)
	h.pairAgent(t, w.dev, browserRunner{sharedBrowser(t)})
	start := func(test, trace, status string) string {
		body := map[string]any{"testId": test, "environmentId": w.env}
		if trace != "" {
			body["trace"] = trace
		}
		id := w.dev.projectDo(w.o.project, "POST", "/api/runs", body).want(t, 201).str("runId")
		w.dev.waitStatus(t, id, status)
		return id
	}
	failed := start(w.bad, "", "failed")
	untraced := start(w.bad, "off", "failed")
	passed := start(w.signIn, "on", "passed")
	for _, c := range []struct{ run, want string }{
		{failed, "http://hub.test/api/runs/" + failed + "/trace.zip"},
		{untraced, ""},
		{passed, ""},
	} {
		var rep junitReport
		body := w.dev.do("GET", "/api/runs/"+c.run+"/junit", nil).want(t, 200).body
		if err := xml.Unmarshal(body, &rep); err != nil || len(rep.Suite.Cases) != 1 {
			t.Fatalf("%s: %v\n%s", c.run, err, body)
		}
		if out := rep.Suite.Cases[0].SystemOut; traceLine(out) != c.want ||
			c.want != "" && !strings.HasPrefix(out, "Run: http://hub.test/runs/"+c.run+"\nTrace: ") {
			t.Errorf("%s: system-out %q, want the trace %q after the run", c.run, out, c.want)
		}
	}
	zip := w.dev.do("GET", "/api/runs/"+failed+"/trace.zip", nil).want(t, 200)
	if files := readZip(t, zip.body); files["index.html"] == "" {
		t.Errorf("the linked zip holds %v", names(files))
	}
}
