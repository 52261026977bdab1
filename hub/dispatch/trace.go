package dispatch

import (
	"context"
	"encoding/json"
	"mime"
	"regexp"
	"strings"

	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// Run traces (docs/trace.md): the agent sends each step execution's
// TraceStep (trace-*.json) and DOM snapshots (dom-*.html) as artifacts.
// Only these may be stored as application/json and text/html: the hub
// serves a snapshot as a page (sandboxed), so no other artifact an agent
// names may ever become one. The hub masks them again, as it does events,
// and counts them against the run's trace budget.

// rowPrefix is the prefix a data-driven run's row gives its artifacts,
// and an attempt's after it (retries.go).
var rowPrefix = regexp.MustCompile(`^(r[0-9]+-)?(a[0-9]-)?`)

// isTrace reports whether a stored artifact name (a row's and an
// attempt's prefix and all)
// is a trace's or a snapshot's.
func isTrace(name string) bool { return protocol.IsTraceArtifact(rowPrefix.ReplaceAllString(name, "")) }

// Content types of trace artifacts as the hub stores them.
const (
	traceJSON = "application/json"
	traceHTML = "text/html; charset=utf-8"
	octets    = "application/octet-stream"
)

// artifactType is the content type an artifact is stored with: a trace's
// JSON and a snapshot's HTML when the name and the agent's type agree;
// the types of artifactTypes for any name; else octet-stream.
func artifactType(name, contentType string) string {
	base, _, _ := mime.ParseMediaType(contentType)
	if isTrace(name) {
		switch {
		case strings.HasSuffix(name, ".json") && base == "application/json":
			return traceJSON
		case strings.HasSuffix(name, ".html") && base == "text/html":
			return traceHTML
		}
		return octets
	}
	if artifactTypes[contentType] {
		return contentType
	}
	return octets
}

// traceArtifact masks and stores a trace artifact within the run's trace
// budget. Over it the artifact is dropped, the run goes on (its trace
// listing says how many were dropped); the run's other limits are not
// touched.
func (c *conn) traceArtifact(ctx context.Context, runID string, hr *heldRun, row store.ArtifactRow, data []byte) error {
	data, row.ContentType = maskTrace(hr.mask, row.ContentType, data)
	row.Size = int64(len(data))
	got, err := c.h.Store.AddTraceArtifactWithin(ctx, runID, row, c.h.Limits)
	if err != nil {
		return err
	}
	if got == store.StoredOver {
		c.h.log.Warn("trace artifact dropped over the run's trace budget", "run", runID, "name", row.Name, "budget_mib", c.h.Limits.TraceBytes>>20)
		return nil
	}
	return c.h.Artifacts.Put(ctx, runID, row.Name, data)
}

// maskTrace masks a trace artifact's content with the run's secrets: a
// TraceStep is read and every text scrubbed as an event's (so a secret
// escaped inside JSON is masked too), a snapshot masked as text. A trace
// that is no TraceStep is kept as octet-stream, masked as text.
func maskTrace(m *masker, contentType string, data []byte) ([]byte, string) {
	if contentType == traceJSON {
		var ts protocol.TraceStep
		if err := json.Unmarshal(data, &ts); err == nil {
			traceTexts(&ts, m.scrub)
			if out, err := json.Marshal(ts); err == nil {
				return out, traceJSON
			}
		}
		contentType = octets
	}
	return []byte(m.str(string(data))), contentType
}

// traceTexts applies f to every text of a TraceStep and bounds its lists
// to protocol.MaxTraceEntries, counting what it leaves out in Dropped.
func traceTexts(ts *protocol.TraceStep, f func(string) string) {
	for _, p := range []*string{&ts.ID, &ts.Type, &ts.Status, &ts.Snapshot, &ts.Before} {
		*p = f(*p)
	}
	if n := len(ts.Console) - protocol.MaxTraceEntries; n > 0 {
		ts.Console, ts.Dropped = ts.Console[:protocol.MaxTraceEntries], ts.Dropped+n
	}
	if n := len(ts.Network) - protocol.MaxTraceEntries; n > 0 {
		ts.Network, ts.Dropped = ts.Network[:protocol.MaxTraceEntries], ts.Dropped+n
	}
	for i := range ts.Console {
		e := &ts.Console[i]
		e.Level, e.Source, e.Text, e.URL = f(e.Level), f(e.Source), f(e.Text), f(e.URL)
	}
	for i := range ts.Network {
		e := &ts.Network[i]
		e.Method, e.URL, e.Type, e.Failure = f(e.Method), f(e.URL), f(e.Type), f(e.Failure)
	}
}
