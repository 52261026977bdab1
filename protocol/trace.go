package protocol

import (
	"fmt"
	"strconv"
	"strings"
)

// Run traces (DESIGN.md "Run traces", docs/trace.md): what a run
// recorded around each execution of a step, so a failure explains itself.
// The agent sends each as artifacts of the run:
//
//   - TraceArtifact: a TraceStep as JSON (application/json), every
//     recorded execution of a step;
//   - SnapshotArtifact: the DOM after the step (text/html, scripts
//     removed), and with before, the DOM before it (the failed step).
//
// The hub stores them as any artifact, lists them at GET
// /api/runs/:id/trace and zips them at GET /api/runs/:id/trace.zip.

// The run option trace.
const (
	TraceOn       = "on"       // everything, every step
	TraceFailures = "failures" // the default: see TraceStep.Light
	TraceOff      = "off"      // nothing
)

// TraceModes lists the values the run option trace takes.
var TraceModes = []string{TraceOn, TraceFailures, TraceOff}

// TraceMode returns the mode a run option names: "" is TraceFailures;
// false when s is no mode.
func TraceMode(s string) (string, bool) {
	switch s {
	case "":
		return TraceFailures, true
	case TraceOn, TraceFailures, TraceOff:
		return s, true
	}
	return "", false
}

// TraceStep is the trace of one execution of a step: the step inside
// loops runs (and is traced) once per iteration.
type TraceStep struct {
	Index     int    `json:"index"` // the step's index in the run's document (AllSteps order)
	Iteration []int  `json:"iteration,omitempty"`
	ID        string `json:"id"`
	Type      string `json:"type"`
	Status    string `json:"status" enum:"passed|failed|skipped"`
	// StartMs is when the step started, DurationMs how long it took, in
	// milliseconds since the run (its row, in a data-driven run) started.
	StartMs    int64 `json:"startMs"`
	DurationMs int64 `json:"durationMs"`
	// Console and Network are what the page logged and requested while
	// the step ran (since the step before it ended).
	Console []ConsoleEntry `json:"console"`
	Network []NetworkEntry `json:"network"`
	// Snapshot names the artifact with the DOM after the step; Before the
	// DOM before it (kept for the failed step). "" when not kept.
	Snapshot string `json:"snapshot,omitempty"`
	Before   string `json:"before,omitempty"`
	// Light: the trace keeps only console and network (no snapshots), as
	// the trace failures keeps a passed run's steps.
	Light bool `json:"light,omitempty"`
	// Dropped counts the console and network entries left out over
	// MaxTraceEntries.
	Dropped int `json:"dropped,omitempty"`
}

// ConsoleEntry is a console message, an uncaught page error or a
// browser's own log line (a request refused, a CSP violation).
type ConsoleEntry struct {
	TimeMs int64  `json:"timeMs"` // since the run started
	Level  string `json:"level" enum:"debug|log|info|warning|error"`
	Source string `json:"source" enum:"console|exception|browser"`
	Text   string `json:"text"`
	// Where it came from: the script's URL, 1-based line and column.
	URL    string `json:"url,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
}

// NetworkEntry is one request a page made. Bodies are never kept.
type NetworkEntry struct {
	TimeMs int64  `json:"timeMs"` // when it was sent, since the run started
	Method string `json:"method"`
	URL    string `json:"url"`
	// Status is the answer's HTTP status; 0 when none came (Failure says
	// why, or the step ended first).
	Status int `json:"status,omitempty"`
	// Type is the resource type as the browser says it: Document,
	// Stylesheet, Image, Script, XHR, Fetch, ...
	Type          string `json:"type"`
	DurationMs    int64  `json:"durationMs"`
	RequestBytes  int64  `json:"requestBytes"`
	ResponseBytes int64  `json:"responseBytes"`
	// Failure: "dns", "refused", "blocked", "cors", "aborted", "timeout",
	// or the browser's own words for another failure; "" when it answered.
	Failure string `json:"failure,omitempty"`
}

// MaxTraceEntries bounds each of a TraceStep's lists; over it the
// earliest entries stay and Dropped counts the rest.
const MaxTraceEntries = 2000

// MaxSnapshot bounds a DOM snapshot (bytes of HTML); a larger one is cut
// off and says so in a comment at its end.
const MaxSnapshot = 4 << 20

// stepArtifactBase is "003-s3" for the step of index 2 and id s3, with
// "-i1" or "-i1.0" after it inside loops (0-based, as in events).
func stepArtifactBase(index int, id string, iter []int) string {
	b := fmt.Sprintf("%03d-%s", index+1, id)
	if len(iter) > 0 {
		parts := make([]string, len(iter))
		for k, n := range iter {
			parts[k] = strconv.Itoa(n)
		}
		b += "-i" + strings.Join(parts, ".")
	}
	return b
}

// TraceArtifact names a step execution's TraceStep artifact:
// trace-003-s3.json.
func TraceArtifact(index int, id string, iter []int) string {
	return "trace-" + stepArtifactBase(index, id, iter) + ".json"
}

// SnapshotArtifact names a step execution's DOM snapshot:
// dom-003-s3.html after the step, dom-003-s3-before.html before it.
func SnapshotArtifact(index int, id string, iter []int, before bool) string {
	n := "dom-" + stepArtifactBase(index, id, iter)
	if before {
		n += "-before"
	}
	return n + ".html"
}

// IsTraceArtifact reports whether an artifact's name (a row's prefix
// removed) is a trace's or a snapshot's.
func IsTraceArtifact(name string) bool {
	return strings.HasPrefix(name, "trace-") && strings.HasSuffix(name, ".json") ||
		strings.HasPrefix(name, "dom-") && strings.HasSuffix(name, ".html")
}
