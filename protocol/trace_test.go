package protocol

import "testing"

func TestTraceNames(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{TraceArtifact(2, "s3", nil), "trace-003-s3.json"},
		{TraceArtifact(0, "open", []int{1, 0}), "trace-001-open-i1.0.json"},
		{SnapshotArtifact(2, "s3", nil, false), "dom-003-s3.html"},
		{SnapshotArtifact(11, "s12", []int{4}, true), "dom-012-s12-i4-before.html"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
		if !ValidArtifactName(c.got) || !IsTraceArtifact(c.got) {
			t.Errorf("%q is no valid trace artifact name", c.got)
		}
	}
	if IsTraceArtifact("step-003-s3.jpg") || IsTraceArtifact("trace-x.html") {
		t.Error("a screenshot or a misnamed file taken for a trace")
	}
	for in, want := range map[string]string{"": TraceFailures, "on": TraceOn, "off": TraceOff, "failures": TraceFailures} {
		if got, ok := TraceMode(in); !ok || got != want {
			t.Errorf("TraceMode(%q) = %q %v", in, got, ok)
		}
	}
	if _, ok := TraceMode("ON"); ok {
		t.Error("TraceMode accepts ON")
	}
}
