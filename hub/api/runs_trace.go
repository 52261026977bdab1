package api

// Run traces (docs/trace.md): the run option trace, GET
// /api/runs/:id/trace and /rows/:row/trace (a run's TraceSteps in the order
// the steps ran, read from its trace-*.json artifacts), and how trace
// artifacts are served. The zip is runs_trace_zip.go.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// checkTrace reads the run option trace of a POST /api/runs body into its
// mode ("" is failures), or answers 422 at "trace".
func checkTrace(w http.ResponseWriter, in *runRequest) bool {
	mode, ok := protocol.TraceMode(in.Trace)
	if !ok {
		writeIssues(w, "the run is not valid", issueList{{Path: "trace", Code: "enum",
			Message: fmt.Sprintf("trace must be one of %s", strings.Join(protocol.TraceModes, ", "))}})
		return false
	}
	in.Trace = mode
	return true
}

// traceJSON is a run's (or a row's) trace.
type traceJSON struct {
	// Mode is the run option trace the run ran with.
	Mode  string               `json:"mode" enum:"on|failures|off"`
	Steps []protocol.TraceStep `json:"steps"`
	// Rows: a data-driven run's rows that have a trace, each at GET
	// /api/runs/:id/rows/:row/trace (the run's own list is then empty).
	Rows []int `json:"rows,omitempty"`
	// Dropped counts the run's trace artifacts the hub did not keep, over
	// its trace budget: the end of a long trace.
	Dropped int `json:"dropped"`
}

// rowName splits a row's prefix off an artifact name: "r3-x" is row 3's
// x; row is -1 for a name without one.
var rowName = regexp.MustCompile(`^r([0-9]{1,6})-(.+)$`)

func splitRow(name string) (int, string) {
	if m := rowName.FindStringSubmatch(name); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n, m[2]
	}
	return -1, name
}

// isTraceName reports whether a stored artifact name, a row's and an
// attempt's prefix and all, is a trace's or a snapshot's.
func isTraceName(name string) bool {
	_, base := splitRow(name)
	_, base = protocol.SplitAttempt(base)
	return protocol.IsTraceArtifact(base)
}

func (s *Server) getRunTrace(w http.ResponseWriter, r *http.Request) {
	run, _, ok := s.loadRun(w, r)
	if !ok {
		return
	}
	if attempt, ok := traceAttempt(w, r, run); ok {
		s.serveTrace(w, r, run, -1, attempt)
	}
}

func (s *Server) getRunRowTrace(w http.ResponseWriter, r *http.Request) {
	run, _, row, ok := s.loadRow(w, r)
	if !ok {
		return
	}
	if attempt, ok := traceAttempt(w, r, run); ok {
		s.serveTrace(w, r, run, row.Row, attempt)
	}
}

func (s *Server) serveTrace(w http.ResponseWriter, r *http.Request, run store.Run, row, attempt int) {
	arts, err := s.store.RunArtifacts(r.Context(), run.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := traceJSON{Mode: run.Trace, Steps: s.attemptTraceSteps(r.Context(), run.ID, arts, row, attempt)}
	if row < 0 && attempt == 1 {
		out.Rows = traceRows(arts)
	}
	if out.Dropped, err = s.store.TraceDropped(r.Context(), run.ID); err != nil {
		s.internal(w, r, err)
		return
	}
	status := http.StatusOK
	if !protocol.Final(run.Status) {
		status = http.StatusAccepted // more may come, as GET /api/runs/:id says
	}
	writeJSON(w, status, out)
}

// traceSteps reads the TraceSteps of a run's row (-1: of the run itself)
// from its artifacts, in the order the steps ran. One that cannot be read
// or parsed is left out: a trace is help, never a reason to fail. Snapshot
// names that the hub does not hold (dropped over the budget, or never
// sent) are cleared, so every name listed can be fetched.
func (s *Server) traceSteps(ctx context.Context, runID string, arts []store.ArtifactRow, row int) []protocol.TraceStep {
	return s.attemptTraceSteps(ctx, runID, arts, row, 1)
}

// attemptTraceSteps is traceSteps of one attempt of a retried run (or
// row): attempt 1's artifacts have no attempt prefix (runs_retries.go).
func (s *Server) attemptTraceSteps(ctx context.Context, runID string, arts []store.ArtifactRow, row, attempt int) []protocol.TraceStep {
	named := s.namedAttemptTraceSteps(ctx, runID, arts, row, attempt)
	steps := make([]protocol.TraceStep, len(named))
	for i, n := range named {
		steps[i] = n.TraceStep
	}
	return steps
}

// namedTrace is a TraceStep with the name of its artifact (a row's
// prefix removed).
type namedTrace struct {
	protocol.TraceStep
	name string
}

func (s *Server) namedTraceSteps(ctx context.Context, runID string, arts []store.ArtifactRow, row int) []namedTrace {
	return s.namedAttemptTraceSteps(ctx, runID, arts, row, 1)
}

// namedAttemptTraceSteps reads one attempt's; a later attempt's snapshot
// names get its prefix, as the artifacts they name have.
func (s *Server) namedAttemptTraceSteps(ctx context.Context, runID string, arts []store.ArtifactRow, row, attempt int) []namedTrace {
	held := map[string]bool{}
	for _, a := range arts {
		n, base := splitRow(a.Name)
		at, base := protocol.SplitAttempt(base)
		if n == row && at == attempt && strings.HasPrefix(base, "dom-") && strings.HasPrefix(a.ContentType, "text/html") {
			held[base] = true
		}
	}
	var steps []namedTrace
	for _, a := range arts {
		n, base := splitRow(a.Name)
		at, base := protocol.SplitAttempt(base)
		if n != row || at != attempt || a.ContentType != "application/json" || !strings.HasPrefix(base, "trace-") || !protocol.IsTraceArtifact(base) {
			continue
		}
		ts, ok := s.readTraceStep(ctx, runID, a.Name)
		if !ok {
			continue
		}
		if !held[ts.Snapshot] {
			ts.Snapshot = ""
		}
		if !held[ts.Before] {
			ts.Before = ""
		}
		if ts.Snapshot != "" {
			ts.Snapshot = protocol.AttemptArtifact(attempt, ts.Snapshot)
		}
		if ts.Before != "" {
			ts.Before = protocol.AttemptArtifact(attempt, ts.Before)
		}
		if ts.Console == nil {
			ts.Console = []protocol.ConsoleEntry{}
		}
		if ts.Network == nil {
			ts.Network = []protocol.NetworkEntry{}
		}
		steps = append(steps, namedTrace{ts, base})
	}
	// Names sort by step index; a loop's iterations and steps after it
	// interleave in time, so time decides.
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].StartMs < steps[j].StartMs })
	return steps
}

func (s *Server) readTraceStep(ctx context.Context, runID, name string) (protocol.TraceStep, bool) {
	var ts protocol.TraceStep
	f, err := s.Artifacts.Open(ctx, runID, name)
	if err != nil {
		s.log.Warn("trace artifact unreadable", "run", runID, "name", name, "err", err)
		return ts, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, protocol.MaxArtifact))
	if err != nil || json.Unmarshal(data, &ts) != nil {
		s.log.Warn("trace artifact skipped: not a trace step", "run", runID, "name", name)
		return ts, false
	}
	return ts, true
}

// traceRows lists the rows that have trace steps.
func traceRows(arts []store.ArtifactRow) []int {
	var rows []int
	seen := map[int]bool{}
	for _, a := range arts {
		if n, base := splitRow(a.Name); n >= 0 && !seen[n] && strings.HasPrefix(base, "trace-") && protocol.IsTraceArtifact(base) {
			seen[n] = true
			rows = append(rows, n)
		}
	}
	sort.Ints(rows)
	return rows
}

// snapshotPolicy is what a DOM snapshot is served with: it runs no script
// and loads nothing (its images are data: URLs), in an origin of its own.
const snapshotPolicy = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:"

// artifactHeaders sets what a stored artifact is served with. Only a
// trace's artifacts are shown inline as JSON or HTML: anything else an
// agent stored as text/html (none can be, dispatch/trace.go) would be
// served as bytes to download.
func artifactHeaders(w http.ResponseWriter, name, contentType string) {
	h := w.Header()
	h.Set("Cache-Control", "private, max-age=86400")
	h.Set("X-Content-Type-Options", "nosniff")
	trace := isTraceName(name)
	switch {
	case trace && strings.HasPrefix(contentType, "text/html"):
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", snapshotPolicy)
		return
	case trace && contentType == "application/json":
		h.Set("Content-Type", contentType)
	case strings.HasPrefix(contentType, "text/html"):
		contentType = "application/octet-stream"
		fallthrough
	default:
		h.Set("Content-Type", contentType)
		if !strings.HasPrefix(contentType, "image/") {
			h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
		}
	}
	// An agent chose these bytes: never let them run as a page of the hub.
	h.Set("Content-Security-Policy", "sandbox; default-src 'none'; img-src 'self'")
}
