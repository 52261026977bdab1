package api

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
)

// compareApp is a page whose panel turns from green "Ready" to red
// "Broken", logging an error, once its API answers 500.
const compareApp = `<!doctype html><html><head><meta charset="utf-8">
<style>body{margin:0;font:16px sans-serif;background:#fff} #panel{width:600px;height:300px;background:rgb(40,170,120);color:#fff}</style></head>
<body><div id="panel" data-testid="panel">Loading</div>
<script>
fetch('/api/items').then(r => {
  const p = document.getElementById('panel');
  if (r.ok) { p.textContent = 'Ready'; return; }
  console.error('items failed: ' + r.status);
  p.style.background = 'rgb(200, 30, 30)';
  p.textContent = 'Broken';
});
</script></body></html>`

// compareSite serves compareApp; its API answers 500 once broken is set.
func compareSite(t *testing.T) (string, *atomic.Bool) {
	broken := &atomic.Bool{}
	mux := http.NewServeMux()
	mux.HandleFunc("/app.html", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(compareApp))
	})
	mux.HandleFunc("/api/items", func(w http.ResponseWriter, _ *http.Request) {
		if broken.Load() {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		_, _ = w.Write([]byte(`[]`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL, broken
}

func compareDoc(extra bool) map[string]any {
	steps := []map[string]any{
		{"id": "open", "type": "navigate", "url": "${baseUrl}/app.html"},
		{"id": "check", "type": "assertText", "expected": "Ready", "timeoutMs": 2000, "target": target(loc("testId", "panel"))},
	}
	if extra {
		steps = append(steps, map[string]any{"id": "again", "type": "assertText", "expected": "Ready", "target": target(loc("testId", "panel"))})
	}
	return map[string]any{"dsl": 2, "name": "Panel", "steps": steps}
}

// A test passes, then its page breaks and its document gets a new
// version: the failed run's comparison names the diverging step, its
// screenshots and how many pixels changed, the request that went from 200
// to 500, the new console error and the document's diff; the overlay is
// magenta where the page changed and transparent elsewhere. The first run
// has no baseline; ?with= must name a finished run of the same test.
func TestRunCompareSinceItLastPassed(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	base, broken := compareSite(t)
	env := mgr.do("POST", "/api/environments", map[string]any{"name": "Local", "variables": map[string]string{"baseUrl": base}},
		ProjectHeader, o.project).want(t, 201).str("id")
	h.pairAgent(t, mgr, browserRunner{sharedBrowser(t)})
	run := func(test string) string {
		t.Helper()
		id := mgr.do("POST", "/api/runs", map[string]any{"testId": test, "environmentId": env}, ProjectHeader, o.project).want(t, 201).str("runId")
		mgr.sse(t, id)
		h.advance(time.Minute)
		return id
	}
	test := mgr.createTest(t, o.project, compareDoc(false))
	passed := run(test)
	first := mgr.do("GET", "/api/runs/"+passed+"/compare", nil).want(t, 200).json()
	if first["baseline"] != nil || first["note"] != noBaselineNote || first["diverged"] != nil || first["document"] != nil {
		t.Errorf("a run with no passed run before it: %v", first)
	}
	mgr.do("GET", "/api/runs/"+passed+"/compare/pixels.png", nil).want(t, 404)

	broken.Store(true)
	mgr.do("PUT", "/api/tests/"+test, map[string]any{"status": "Ready"}).want(t, 200)
	mgr.do("POST", "/api/tests/"+test+"/revisions", map[string]any{}).want(t, 201)
	mgr.do("PUT", "/api/tests/"+test, compareDoc(true)).want(t, 200)
	failed := run(test)
	var c compareJSON
	r := mgr.do("GET", "/api/runs/"+failed+"/compare", nil).want(t, 200)
	if err := json.Unmarshal(r.body, &c); err != nil {
		t.Fatal(err)
	}
	if c.Baseline == nil || c.Baseline.RunID != passed || c.Baseline.Status != "passed" || c.Baseline.Version != 1 || c.Baseline.Trace != "failures" ||
		c.Baseline.FinishedAt == nil {
		t.Fatalf("baseline: %s", r.body)
	}
	d := c.Diverged
	if d == nil || d.ID != "check" || d.Index != 1 || d.Reason != "failed" || d.Status != "failed" || d.BaselineStatus != "passed" ||
		d.Screenshot == "" || d.BaselineScreenshot == "" {
		t.Fatalf("diverged: %s", r.body)
	}
	if p := d.Pixels; p == nil || p.Different == 0 || p.Total != int64(p.Width)*int64(p.Height) || p.Different > p.Total/2 {
		t.Errorf("pixels: %+v", p)
	}
	var items []requestChangeJSON
	for _, q := range c.Requests {
		if strings.HasSuffix(q.URL, "/api/items") {
			items = append(items, q)
		}
	}
	if len(items) != 1 || items[0].Method != "GET" || items[0].Status != 500 || items[0].BaselineStatus != 200 {
		t.Errorf("requests: %+v", c.Requests)
	}
	// The page's own error, and the browser's line about the 500.
	var logged bool
	for _, e := range c.ConsoleErrors {
		logged = logged || e.Text == "items failed: 500" && e.Level == "error" && e.Index == 1 && e.Line > 0
	}
	if !logged {
		t.Errorf("console errors: %+v", c.ConsoleErrors)
	}
	if c.Document == nil || c.Document.Version != 2 || c.Document.BaselineVersion != 1 {
		t.Fatalf("document: %s", r.body)
	}
	var ops []string
	for _, ch := range c.Document.Diff {
		ops = append(ops, ch.Op)
	}
	if strings.Join(ops, ",") != "same,same,add" || c.Document.Diff[2].After.ID != "again" {
		t.Errorf("document diff: %v", ops)
	}

	// The overlay: the size of this run's screenshot, magenta over the
	// panel, transparent over the page's white that did not change.
	ov := mgr.do("GET", "/api/runs/"+failed+"/compare/pixels.png", nil).want(t, 200)
	if ov.header.Get("Content-Type") != "image/png" || ov.header.Get("X-Content-Type-Options") != "nosniff" ||
		!strings.HasPrefix(ov.header.Get("Cache-Control"), "private") {
		t.Errorf("overlay served with %v", ov.header)
	}
	img, err := png.Decode(bytes.NewReader(ov.body))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	if b.Dx() != d.Pixels.Width || b.Dy() != d.Pixels.Height {
		t.Errorf("overlay %v, screenshot %dx%d", b, d.Pixels.Width, d.Pixels.Height)
	}
	magenta, clear := color.NRGBA{R: 0xff, B: 0xff, A: 0xff}, color.NRGBA{}
	if got := color.NRGBAModel.Convert(img.At(300, 200)); got != magenta {
		t.Errorf("overlay over the panel: %v", got)
	}
	if got := color.NRGBAModel.Convert(img.At(b.Dx()-10, b.Dy()-10)); got != clear {
		t.Errorf("overlay over the unchanged page: %v", got)
	}

	// A baseline screenshot of another size: pixels null, the overlay 422;
	// one that does not decode: pixels null, the overlay 404; never a 500.
	shot := filepath.Join(h.dataDir, "artifacts", passed, d.BaselineScreenshot)
	var small bytes.Buffer
	_ = png.Encode(&small, image.NewNRGBA(image.Rect(0, 0, 10, 10)))
	for _, c := range []struct {
		data   []byte
		status int
	}{{small.Bytes(), 422}, {[]byte("not an image"), 404}} {
		if err := os.WriteFile(shot, c.data, 0o600); err != nil {
			t.Fatal(err)
		}
		if p := mgr.do("GET", "/api/runs/"+failed+"/compare", nil).want(t, 200).json()["diverged"].(map[string]any)["pixels"]; p != nil {
			t.Errorf("pixels with a baseline screenshot of %d bytes: %v", len(c.data), p)
		}
		mgr.do("GET", "/api/runs/"+failed+"/compare/pixels.png", nil).want(t, c.status)
	}

	// ?with=: the same comparison with the run named; another test's run,
	// this run itself or a malformed id is 422 at with.
	withPassed := mgr.do("GET", "/api/runs/"+failed+"/compare?with="+passed, nil).want(t, 200).json()
	if withPassed["baseline"].(map[string]any)["runId"] != passed {
		t.Errorf("with the passed run: %v", withPassed["baseline"])
	}
	other := run(mgr.createTest(t, o.project, map[string]any{"dsl": 2, "name": "Other", "steps": []map[string]any{
		{"id": "open", "type": "navigate", "url": "${baseUrl}/app.html"}}}))
	for _, with := range []string{other, failed, "run_nope", "tc_aaaaaaaaaaaaaaaa"} {
		for _, path := range []string{"/compare", "/compare/pixels.png"} {
			r := mgr.do("GET", "/api/runs/"+failed+path+"?with="+with, nil).want(t, 422)
			if !strings.Contains(string(r.body), `"path":"with"`) {
				t.Errorf("with=%s: %s", with, r.body)
			}
		}
	}
}

// A comparison has the access of its run: a queued run is 409, someone
// else's private test's run and an outsider's request are 404, another
// project's header is 404 and audited.
func TestRunCompareAccess(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	tester, admin := o.members[access.Tester], o.members[access.Admin]
	private := tester.createTest(t, o.project, map[string]any{"name": "Mine", "visibility": "Private"})
	runID := tester.do("POST", "/api/runs", map[string]any{"testId": private}, ProjectHeader, o.project).want(t, 201).str("runId")
	paths := []string{"/api/runs/" + runID + "/compare", "/api/runs/" + runID + "/compare/pixels.png"}
	for _, p := range paths {
		if r := tester.do("GET", p, nil).want(t, 409); r.json()["code"] != "run_not_finished" {
			t.Errorf("%s of a queued run: %s", p, r.body)
		}
		admin.do("GET", p, nil).want(t, 404)
	}
	other := o.owner.do("POST", "/api/orgs/"+o.id+"/projects", map[string]string{"name": "Other"}).want(t, 201).str("id")
	before := len(readAudit(t, h))
	for _, p := range paths {
		tester.do("GET", p, nil, ProjectHeader, other).want(t, 404)
	}
	if n := len(readAudit(t, h)) - before; n != 2 {
		t.Errorf("audit lines %d, want 2", n)
	}
	outsider, _ := h.register("Outsider")
	outsider.do("GET", paths[0], nil).want(t, 404)
}

// Runs that did the same steps with the same statuses have not diverged;
// a baseline recorded with trace off gives empty lists, not an error. A
// data-driven run is not compared (422 data_driven), nor compared with
// (422 at with); nor is another project's run, which is audited.
func TestRunCompareWithoutTraceAndDataDriven(t *testing.T) {
	f := newTraceFixture(t, newTraceRunner())
	test := f.user.createTest(t, f.o.project, traceDoc("Twice"))
	start := func(opts map[string]any) string {
		body := map[string]any{"testId": test, "environmentId": f.env}
		for k, v := range opts {
			body[k] = v
		}
		id := f.user.do("POST", "/api/runs", body, ProjectHeader, f.o.project).want(t, 201).str("runId")
		f.user.sse(t, id)
		f.job(t)
		f.h.advance(time.Minute)
		return id
	}
	off, on := start(map[string]any{"trace": "off"}), start(map[string]any{"trace": "on"})
	// The traceRunner fails every run: no passed baseline.
	if c := f.user.do("GET", "/api/runs/"+on+"/compare", nil).want(t, 200).json(); c["baseline"] != nil || c["note"] != noBaselineNote {
		t.Errorf("without a passed run: %v", c)
	}
	var c compareJSON
	r := f.user.do("GET", "/api/runs/"+on+"/compare?with="+off, nil).want(t, 200)
	if err := json.Unmarshal(r.body, &c); err != nil || c.Baseline == nil || c.Baseline.Trace != "off" || c.Diverged != nil ||
		len(c.Requests) != 0 || len(c.ConsoleErrors) != 0 || c.Document != nil {
		t.Errorf("with a baseline without trace: %s", r.body)
	}
	if strings.Contains(string(r.body), traceSecret) {
		t.Errorf("the comparison shows the secret")
	}
	f.user.do("GET", "/api/runs/"+on+"/compare/pixels.png?with="+off, nil).want(t, 404)
	// A Draft saved again keeps its version number; the comparison still
	// shows what changed in it.
	edited := traceDoc("Twice")
	edited["steps"].([]map[string]any)[2]["expected"] = "Welcome back"
	f.user.do("PUT", "/api/tests/"+test, edited).want(t, 200)
	again := start(map[string]any{"trace": "on"})
	c = compareJSON{}
	r = f.user.do("GET", "/api/runs/"+again+"/compare?with="+on, nil).want(t, 200)
	if err := json.Unmarshal(r.body, &c); err != nil || c.Document == nil || c.Document.Version != c.Document.BaselineVersion ||
		!strings.Contains(string(r.body), `"op":"change"`) || !strings.Contains(string(r.body), "Welcome back") {
		t.Errorf("a Draft edited between the runs: %s", r.body)
	}
	set := f.user.projectDo(f.o.project, "POST", "/api/test-data", map[string]any{"name": "Users", "columns": []string{"user"},
		"rows": []map[string]string{{"user": "ann"}}}).want(t, 201).str("id")
	rows := start(map[string]any{"dataSetId": set})
	if r := f.user.do("GET", "/api/runs/"+rows+"/compare", nil).want(t, 422).json(); r["code"] != "data_driven" {
		t.Errorf("a data-driven run: %v", r)
	}
	if r := f.user.do("GET", "/api/runs/"+on+"/compare?with="+rows, nil).want(t, 422); !strings.Contains(string(r.body), `"path":"with"`) {
		t.Errorf("with a data-driven run: %s", r.body)
	}
	// Another project's run, named by with: unknown, and audited.
	other := f.o.owner.do("POST", "/api/orgs/"+f.o.id+"/projects", map[string]string{"name": "Other"}).want(t, 201).str("id")
	elsewhere := f.o.owner.do("POST", "/api/runs", map[string]any{"testId": f.o.owner.createTest(t, other, traceDoc("Else"))},
		ProjectHeader, other).want(t, 201).str("runId")
	before := len(readAudit(t, f.h))
	f.user.do("GET", "/api/runs/"+on+"/compare?with="+elsewhere, nil).want(t, 422)
	if n := len(readAudit(t, f.h)) - before; n != 1 {
		t.Errorf("audit lines %d, want 1", n)
	}
}
