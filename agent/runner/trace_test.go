package runner

import (
	"context"
	"encoding/json"
	"html"
	"net"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

// traceSecret is typed into trace.html and logged by it.
const traceSecret = "tr4ce-S3cret-value"

// refusedURL is an address nothing listens on: a request to it is refused.
func refusedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := "http://" + l.Addr().String()
	_ = l.Close()
	return u
}

// traceDoc opens trace.html, types the secret, clicks Go (whose page then
// logs an error, throws, gets a 500 and a refused request) and asserts a
// status the page never shows.
func traceDoc(t *testing.T) protocol.Document {
	return document(t,
		nav("/trace.html?refused="+refusedURL(t)),
		fillStep(css("#token"), "${secrets.TOKEN}"),
		click(css("#go")),
		short(textIs(css("#status"), "equals", "all good"), 2000))
}

func runTraced(t *testing.T, mode string, doc protocol.Document) (protocol.RunResult, *recorder) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	return runJob(t, ctx, protocol.Job{Version: 1, Document: doc, Trace: mode, Secrets: map[string]string{"TOKEN": traceSecret}})
}

// traceOf decodes the TraceStep artifact name.
func traceOf(t *testing.T, rec *recorder, name string) protocol.TraceStep {
	t.Helper()
	rec.mu.Lock()
	data, ok := rec.artifacts[name]
	rec.mu.Unlock()
	if !ok {
		t.Fatalf("no artifact %s; have %v", name, rec.names())
	}
	var ts protocol.TraceStep
	if err := json.Unmarshal(data, &ts); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return ts
}

func (r *recorder) names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, i := range r.infos {
		out = append(out, i.Name)
	}
	return out
}

// lineOf is the 1-based line of the file's first line holding s.
func lineOf(t *testing.T, file, s string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%s has no %q", file, s)
	return 0
}

// With the default trace, the failed step's trace holds what the page did
// while it ran (a console error with its line, an uncaught error, the 500
// answer, the refused request) and the DOM before and after it, the
// target marked; the secret typed and logged is masked in every artifact.
func TestTraceFailedStep(t *testing.T) {
	res, rec := runTraced(t, "", traceDoc(t))
	if res.Status != protocol.RunFailed {
		t.Fatalf("run %s: %s", res.Status, res.Error)
	}
	ts := traceOf(t, rec, "trace-004-s4.json")
	if ts.Status != protocol.StepFailed || ts.Light || ts.Index != 3 || ts.Type != "assertText" {
		t.Errorf("the failed step's trace: %+v", ts)
	}
	line := lineOf(t, "testdata/site/trace.html", "console.error('orders failed'")
	var logged, thrown bool
	for _, c := range ts.Console {
		switch {
		case c.Source == "console" && c.Level == "error":
			logged = c.Text == "orders failed {code: 42}" && c.Line == line && c.Column > 0 && strings.HasPrefix(c.URL, site.URL+"/trace.html")
		case c.Source == "exception":
			thrown = strings.Contains(c.Text, "Uncaught Error: uncaught boom") && c.Line > line && strings.Contains(c.URL, "/trace.html")
		}
	}
	if !logged || !thrown {
		t.Errorf("the console error (line %d) and the uncaught error: %+v", line, ts.Console)
	}
	var answered, refused bool
	for _, n := range ts.Network {
		switch {
		case strings.HasSuffix(n.URL, "/api/fail"):
			answered = n.Status == 500 && n.Type == "Fetch" && n.Method == "GET" && n.Failure == "" && n.ResponseBytes > 0 && n.TimeMs >= ts.StartMs
		case strings.HasSuffix(n.URL, "/orders"):
			refused = n.Status == 0 && n.Failure == "refused"
		}
	}
	if !answered || !refused {
		t.Errorf("the 500 answer and the refused request: %+v", ts.Network)
	}
	if ts.Snapshot != "dom-004-s4.html" || ts.Before != "dom-003-s3.html" {
		t.Errorf("the failed step's snapshots: after %q, before %q", ts.Snapshot, ts.Before)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	dom := string(rec.artifacts["dom-004-s4.html"])
	for _, want := range []string{`<p id="status" data-ta-target="">`, `value="***"`, `<input type="checkbox" id="agree" checked="">`,
		`<base href="` + site.URL + `/trace.html?refused=`, "rgb(200, 0, 0)", `srcdoc="`, "Inner name"} {
		if !strings.Contains(dom, want) {
			t.Errorf("the snapshot has no %s:\n%s", want, dom)
		}
	}
	for _, never := range []string{"<script", "onclick", ` src="/logo.png"`, "/missing.png"} {
		if strings.Contains(dom, never) {
			t.Errorf("the snapshot has %s:\n%s", never, dom)
		}
	}
	for name, data := range rec.artifacts {
		if strings.Contains(string(data), traceSecret) {
			t.Errorf("artifact %s holds the secret", name)
		}
	}
	for _, i := range rec.infos {
		if protocol.IsTraceArtifact(i.Name) && (i.Step == nil || (strings.HasSuffix(i.Name, ".html")) != (i.ContentType == "text/html")) {
			t.Errorf("artifact %s: step %v, type %s", i.Name, i.Step, i.ContentType)
		}
	}
	click := rec.artifacts["trace-003-s3.json"]
	if !strings.Contains(string(click), `"text":"token is ***"`) || !strings.Contains(string(click), `/whoami?token=***"`) {
		t.Errorf("the click's trace has no masked log line: %s", click)
	}
}

// A run with the trace off sends no trace.
func TestTraceOff(t *testing.T) {
	_, rec := runTraced(t, protocol.TraceOff, traceDoc(t))
	for _, n := range rec.names() {
		if protocol.IsTraceArtifact(n) {
			t.Errorf("trace off sent %s", n)
		}
	}
}

// With the trace on, every step has its snapshot, and the DOM before it.
func TestTraceOn(t *testing.T) {
	res, rec := runTraced(t, protocol.TraceOn, document(t, nav("/trace.html"), fillStep(css("#token"), "plain"), click(css("#agree"))))
	mustPass(t, res)
	for i, id := range []string{"s1", "s2", "s3"} {
		ts := traceOf(t, rec, protocol.TraceArtifact(i, id, nil))
		dom := protocol.SnapshotArtifact(i, id, nil, false)
		before := ""
		if i > 0 {
			before = protocol.SnapshotArtifact(i-1, []string{"s1", "s2", "s3"}[i-1], nil, false)
		}
		if ts.Light || ts.Snapshot != dom || ts.Before != before || ts.Status != protocol.StepPassed {
			t.Errorf("step %s's trace: %+v", id, ts)
		}
		rec.mu.Lock()
		html := string(rec.artifacts[dom])
		rec.mu.Unlock()
		if !strings.Contains(html, "<h1>Orders</h1>") {
			t.Errorf("step %s's snapshot: %q", id, html)
		}
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if after := string(rec.artifacts["dom-003-s3.html"]); !strings.Contains(after, `value="plain"`) ||
		strings.Contains(after, `id="agree" checked`) || !strings.Contains(after, `id="agree" data-ta-target=""`) {
		t.Errorf("the snapshot after unchecking: %s", after)
	}
}

// A passed run under the default trace sends every step's console and
// network (light), and no snapshot; steps in a loop are traced once per
// iteration.
func TestTracePassedRunIsLight(t *testing.T) {
	doc := document(t, nav("/trace.html"),
		protocol.Step{ID: "loop", Type: protocol.TypeRepeat, Times: protocol.Ptr(2), Steps: []protocol.Step{
			{ID: "tick", Type: "script", Code: "console.info('tick')"}}})
	res, rec := runTraced(t, "", doc)
	mustPass(t, res)
	var traces []string
	for _, n := range rec.names() {
		if strings.HasPrefix(n, "dom-") {
			t.Errorf("a passed run sent the snapshot %s", n)
		}
		if strings.HasPrefix(n, "trace-") {
			traces = append(traces, n)
		}
	}
	slices.Sort(traces)
	if want := []string{"trace-001-s1.json", "trace-003-tick-i0.json", "trace-003-tick-i1.json"}; !slices.Equal(traces, want) {
		t.Errorf("traces %v, want %v", traces, want)
	}
	for _, n := range traces {
		ts := traceOf(t, rec, n)
		if !ts.Light || ts.Snapshot != "" {
			t.Errorf("%s: %+v", n, ts)
		}
	}
	if ts := traceOf(t, rec, "trace-003-tick-i1.json"); len(ts.Console) != 1 || ts.Console[0].Text != "tick" || ts.Console[0].Level != "info" || !slices.Equal(ts.Iteration, []int{1}) {
		t.Errorf("the second iteration's trace: %+v", ts)
	}
	nav := traceOf(t, rec, "trace-001-s1.json")
	var doc200 bool
	for _, n := range nav.Network {
		doc200 = doc200 || (n.Type == "Document" && n.Status == 200 && strings.HasSuffix(n.URL, "/trace.html") && n.ResponseBytes > 0)
	}
	if !doc200 {
		t.Errorf("the navigation's requests: %+v", nav.Network)
	}
}

// A step whose locator matches several elements fails; its snapshot marks
// them all.
func TestTraceMarksMatches(t *testing.T) {
	res, rec := runTraced(t, "", document(t, nav("/trace.html"), short(click(css(".row")), 500)))
	if res.Status != protocol.RunFailed {
		t.Fatalf("run %s: %s", res.Status, res.Error)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	dom := string(rec.artifacts["dom-002-s2.html"])
	if strings.Count(dom, `class="row" data-ta-match=""`) != 2 || strings.Contains(dom, "data-ta-target") {
		t.Errorf("the snapshot of a step whose locator matched two elements: %s", dom)
	}
}

func TestTraceFailureNames(t *testing.T) {
	for _, c := range []struct {
		text     string
		canceled bool
		blocked  string
		cors     bool
		want     string
	}{
		{"net::ERR_NAME_NOT_RESOLVED", false, "", false, "dns"},
		{"net::ERR_CONNECTION_REFUSED", false, "", false, "refused"},
		{"net::ERR_BLOCKED_BY_CLIENT", false, "", false, "blocked"}, // the runner's guard
		{"net::ERR_FAILED", false, "mixed-content", false, "blocked"},
		{"net::ERR_FAILED", false, "", true, "cors"},
		{"net::ERR_ABORTED", true, "", false, "aborted"},
		{"net::ERR_TIMED_OUT", false, "", false, "timeout"},
		{"net::ERR_CERT_DATE_INVALID", false, "", false, "net::ERR_CERT_DATE_INVALID"},
	} {
		if got := failureName(c.text, c.canceled, c.blocked, c.cors); got != c.want {
			t.Errorf("%+v: %q", c, got)
		}
	}
}

// A popup's console and requests are the run's: its trace records them as
// the first page's.
func TestTracePopup(t *testing.T) {
	res, rec := runTraced(t, protocol.TraceOn, document(t, nav("/tabs.html"), click(css("#open")),
		protocol.Step{Type: "switchTab", To: "new"},
		protocol.Step{Type: "script", Code: "console.warn('in the popup', location.search)"}))
	mustPass(t, res)
	var opened bool
	for i, id := range []string{"s2", "s3"} {
		for _, n := range traceOf(t, rec, protocol.TraceArtifact(i+1, id, nil)).Network {
			opened = opened || (strings.HasSuffix(n.URL, "/tab2.html?via=script") && n.Type == "Document" && n.Status == 200)
		}
	}
	if !opened {
		t.Error("the popup's page request is in no trace")
	}
	ts := traceOf(t, rec, "trace-004-s4.json")
	if len(ts.Console) != 1 || ts.Console[0].Text != "in the popup ?via=script" || ts.Console[0].Level != "warning" {
		t.Errorf("the popup's console: %+v", ts.Console)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if dom := string(rec.artifacts["dom-004-s4.html"]); !strings.Contains(dom, "<title>Second tab</title>") {
		t.Errorf("the snapshot after a step in the popup: %s", dom)
	}
}

// A frame's document is masked before it is escaped into its iframe: a
// secret with characters HTML escapes is masked there too, and a marker
// the page might fake inlines nothing twice.
func TestSnapshotDocumentMasksFrames(t *testing.T) {
	const secret = `pa"ss<wd&1`
	m := newMasker(map[string]string{"PW": secret})
	frame := `<input value="pa&#34;ss&lt;wd&amp;1"><p>` + secret + `</p>`
	out := snapshotDocument(m, "<iframe srcdoc=\"\x00F0\x00\"></iframe>\x00F0\x00<p>pa&#34;ss&lt;wd&amp;1</p>", []string{frame})
	for _, form := range protocol.SecretForms(secret) {
		if strings.Contains(out, form) || strings.Contains(out, html.EscapeString(form)) {
			t.Errorf("the snapshot holds the secret as %q: %s", form, out)
		}
	}
	if want := `<iframe srcdoc="&lt;input value=&#34;***&#34;&gt;&lt;p&gt;***&lt;/p&gt;"></iframe><p>***</p>`; out != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
	big := snapshotDocument(m, strings.Repeat("x", protocol.MaxSnapshot+10), nil)
	if len(big) > protocol.MaxSnapshot || !strings.HasSuffix(big, "larger than 4 MiB -->") {
		t.Errorf("a snapshot over the bound: %d bytes, ending %q", len(big), big[len(big)-40:])
	}
}
