package dispatch

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/testautomation/ta/protocol"
)

// Only a trace's artifacts are stored as JSON or HTML, and only with the
// type their name calls for.
func TestArtifactType(t *testing.T) {
	for _, c := range []struct{ name, ct, want string }{
		{"trace-003-s3.json", "application/json", "application/json"},
		{"r2-trace-003-s3-i1.0.json", "application/json", "application/json"},
		{"dom-003-s3-before.html", "text/html", "text/html; charset=utf-8"},
		{"r0-dom-003-s3.html", "text/html; charset=UTF-8", "text/html; charset=utf-8"},
		{"dom-003-s3.html", "application/json", octets},
		{"trace-003-s3.json", "text/html", octets},
		{"page.html", "text/html", octets},
		{"notes.json", "application/json", octets},
		{"step-001-s1.jpg", "image/jpeg", "image/jpeg"},
		{"dom-003-s3.html", "image/png", octets},
		{"report.zip", "application/zip", "application/zip"},
		{"x.bin", "", octets},
	} {
		if got := artifactType(c.name, c.ct); got != c.want {
			t.Errorf("artifactType(%q, %q) = %q, want %q", c.name, c.ct, got, c.want)
		}
	}
}

// The hub masks a trace as it masks events: every text of a TraceStep,
// a secret escaped inside the JSON too, and a snapshot as text; a trace
// that is no TraceStep is kept as bytes, masked.
func TestMaskTrace(t *testing.T) {
	const secret = `pa"ss<word>`
	m := newMasker(map[string]string{"P": secret})
	ts := protocol.TraceStep{Index: 1, ID: "s2", Status: "failed",
		Console: []protocol.ConsoleEntry{{Level: "error", Source: "console", Text: "typed " + secret}},
		Network: []protocol.NetworkEntry{{Method: "GET", URL: "http://x.test/?p=" + secret, Type: "Fetch"}}}
	for range protocol.MaxTraceEntries + 5 {
		ts.Network = append(ts.Network, protocol.NetworkEntry{Method: "GET", URL: "http://x.test/", Type: "Image"})
	}
	data, _ := json.Marshal(ts)
	out, ct := maskTrace(m, traceJSON, data)
	var got protocol.TraceStep
	if ct != traceJSON || json.Unmarshal(out, &got) != nil {
		t.Fatalf("masked trace: %s %.200s", ct, out)
	}
	if strings.Contains(string(out), "ss<word") || strings.Contains(string(out), `ss\u003cword`) || got.Console[0].Text != "typed ***" {
		t.Errorf("the secret is left in the trace: %q", got.Console[0].Text)
	}
	if len(got.Network) != protocol.MaxTraceEntries || got.Dropped != 6 || got.Network[0].URL != "http://x.test/?p=***" {
		t.Errorf("network: %d entries, %d dropped, first %q", len(got.Network), got.Dropped, got.Network[0].URL)
	}
	html, ct := maskTrace(m, traceHTML, []byte(`<p title="pa&#34;ss&lt;word&gt;">`+secret+`</p>`))
	if ct != traceHTML || strings.Contains(string(html), "word") {
		t.Errorf("snapshot masked as %s", html)
	}
	junk, ct := maskTrace(m, traceJSON, []byte(`["`+secret+`"]`))
	if ct != octets || strings.Contains(string(junk), "word") {
		t.Errorf("a trace that is no TraceStep: %s %s", ct, junk)
	}
}
