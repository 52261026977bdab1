package api

// GET /api/runs/:id/trace.zip (docs/trace.md): everything a run's trace
// holds, for reading offline: every trace artifact and screenshot (a row's
// under r<N>/), run.json (the run as GET /api/runs/:id answers it) and
// index.html, a static page listing the steps in the order they ran, each
// linking its files (a retried run's, attempt by attempt). Streamed: nothing is held whole in memory.

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// zipPolicy goes first in every page of the zip: opened from a disk, no
// hub serves them with a policy, so they carry their own (as a <meta>, a
// CSP cannot sandbox, but it stops scripts and loads).
const zipPolicy = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">` + "\n"

// zipName is where a stored artifact goes in the zip: a row's in r<N>/.
func zipName(name string) string {
	if n, base := splitRow(name); n >= 0 {
		return rowDir(n) + base
	}
	return name
}

// rowDir is a row's folder in the zip; "" for a run's own files.
func rowDir(row int) string {
	if row < 0 {
		return ""
	}
	return fmt.Sprintf("r%d/", row)
}

// traceIndexStep is one line of index.html; links are relative to it.
type traceIndexStep struct {
	protocol.TraceStep
	Errors, Failed                      int
	Trace, Snapshot, Before, Screenshot string
}

type traceIndexRow struct {
	Title string
	Steps []traceIndexStep
}

var traceIndex = template.Must(template.New("index").Parse(`<!doctype html>
<html><head><meta charset="utf-8">
<title>Trace of {{.Name}}</title>
<style>body{font:14px sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}.failed{color:#b00}</style>
</head><body>
<h1>Trace of {{.Name}}</h1>
<p>Run {{.RunID}}: {{.Status}}, trace {{.Mode}}. The run as the hub answered it: <a href="run.json">run.json</a>.</p>
{{range .Rows}}{{if .Title}}<h2>{{.Title}}</h2>{{end}}
{{if .Steps}}<table><tr><th>#</th><th>Step</th><th>Status</th><th>Start (ms)</th><th>Duration (ms)</th><th>Console</th><th>Network</th><th>Files</th></tr>
{{range .Steps}}<tr class="{{.Status}}"><td>{{.Index}}{{if .Iteration}} {{.Iteration}}{{end}}</td><td>{{.ID}} ({{.Type}})</td><td>{{.Status}}</td><td>{{.StartMs}}</td><td>{{.DurationMs}}</td>
<td>{{len .Console}}{{if .Errors}}, {{.Errors}} errors{{end}}</td><td>{{len .Network}}{{if .Failed}}, {{.Failed}} failed{{end}}</td>
<td><a href="{{.Trace}}">trace</a>{{if .Snapshot}} · <a href="{{.Snapshot}}">DOM after</a>{{end}}{{if .Before}} · <a href="{{.Before}}">DOM before</a>{{end}}{{if .Screenshot}} · <a href="{{.Screenshot}}">screenshot</a>{{end}}</td></tr>
{{end}}</table>{{else}}<p>No step was traced.</p>{{end}}
{{end}}</body></html>
`))

func (s *Server) runTraceZip(w http.ResponseWriter, r *http.Request) {
	run, _, ok := s.loadRun(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	arts, err := s.store.RunArtifacts(ctx, run.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := toRunJSON(run)
	err = s.addRunDetail(ctx, run, &out)
	if err == nil {
		err = s.addPruned(ctx, run, &out) // says why a pruned run's zip has no pictures (runs_pruned.go)
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if !protocol.Final(run.Status) {
		if out.Result.Steps, err = s.stepsSoFar(ctx, run.ID, nil); err != nil {
			s.internal(w, r, err)
			return
		}
	}
	runJSON, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		s.internal(w, r, err)
		return
	}
	var files []store.ArtifactRow
	for _, a := range arts {
		if isTraceName(a.Name) || strings.HasPrefix(a.ContentType, "image/") {
			files = append(files, a)
		}
	}
	index := map[string]any{"Name": run.TestName, "RunID": run.ID, "Status": run.Status, "Mode": run.Trace,
		"Rows": s.traceSections(ctx, run.ID, arts, out.Rows)}

	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", `attachment; filename="trace-`+run.ID+`.zip"`)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	zw := zip.NewWriter(w)
	now := s.Now()
	if err := s.writeTraceZip(r, zw, run.ID, files, runJSON, index, now); err != nil {
		// The answer has begun: the log says why the zip ends early.
		s.log.Warn("trace zip cut short", "run", run.ID, "err", err)
		return
	}
	if err := zw.Close(); err != nil {
		s.log.Warn("trace zip cut short", "run", run.ID, "err", err)
	}
}

// traceSections are index.html's tables: the run's steps, or a
// data-driven run's, one per row; a retried run's (or row's) one per
// attempt (docs/retries.md).
func (s *Server) traceSections(ctx context.Context, runID string, arts []store.ArtifactRow, summaries []rowSummaryJSON) []traceIndexRow {
	rows := []int{-1}
	for _, row := range summaries {
		rows = append(rows, row.Row)
	}
	var sections []traceIndexRow
	for _, row := range rows {
		last := lastAttempt(arts, row)
		for attempt := 1; attempt <= last; attempt++ {
			sec := traceIndexRow{}
			if row >= 0 {
				sec.Title = fmt.Sprintf("Row %d", row)
			}
			if last > 1 {
				sec.Title = strings.TrimPrefix(fmt.Sprintf("%s · attempt %d", sec.Title, attempt), " · ")
			}
			for _, ts := range s.namedAttemptTraceSteps(ctx, runID, arts, row, attempt) {
				sec.Steps = append(sec.Steps, indexStep(ts, row, attempt, arts))
			}
			if row < 0 && len(sec.Steps) == 0 && len(summaries) > 0 {
				continue // a data-driven run's steps are its rows'
			}
			sections = append(sections, sec)
		}
	}
	return sections
}

// lastAttempt is the last attempt of a run (row -1) or a row that left
// a trace artifact; 1 when it was not retried.
func lastAttempt(arts []store.ArtifactRow, row int) int {
	last := 1
	for _, a := range arts {
		n, base := splitRow(a.Name)
		if at, base := protocol.SplitAttempt(base); n == row && at > last && protocol.IsTraceArtifact(base) {
			last = at
		}
	}
	return last
}

func (s *Server) writeTraceZip(r *http.Request, zw *zip.Writer, runID string, files []store.ArtifactRow, runJSON []byte, index map[string]any, now time.Time) error {
	create := func(name string, method uint16) (io.Writer, error) {
		return zw.CreateHeader(&zip.FileHeader{Name: name, Method: method, Modified: now})
	}
	f, err := create("run.json", zip.Deflate)
	if err != nil {
		return err
	}
	if _, err := f.Write(runJSON); err != nil {
		return err
	}
	if f, err = create("index.html", zip.Deflate); err != nil {
		return err
	}
	if _, err := io.WriteString(f, zipPolicy); err != nil {
		return err
	}
	if err := traceIndex.Execute(f, index); err != nil {
		return err
	}
	for _, a := range files {
		src, err := s.Artifacts.Open(r.Context(), runID, a.Name)
		if err != nil {
			s.log.Warn("trace zip: artifact unreadable", "run", runID, "name", a.Name, "err", err)
			continue
		}
		method := zip.Deflate
		if strings.HasPrefix(a.ContentType, "image/") {
			method = zip.Store // already compressed
		}
		dst, err := create(zipName(a.Name), method)
		if err == nil && strings.HasPrefix(a.ContentType, "text/html") {
			_, err = io.WriteString(dst, zipPolicy)
		}
		if err == nil {
			_, err = io.Copy(dst, src)
		}
		src.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// indexStep links a step's files, relative to index.html: its trace, its
// snapshots, and its screenshot (step-<same base>, the failure's first).
func indexStep(ts namedTrace, row, attempt int, arts []store.ArtifactRow) traceIndexStep {
	dir := rowDir(row)
	base := strings.TrimSuffix(strings.TrimPrefix(ts.name, "trace-"), ".json")
	out := traceIndexStep{TraceStep: ts.TraceStep, Trace: dir + protocol.AttemptArtifact(attempt, ts.name)}
	if ts.Snapshot != "" {
		out.Snapshot = dir + ts.Snapshot
	}
	if ts.Before != "" {
		out.Before = dir + ts.Before
	}
	for _, c := range ts.Console {
		if c.Level == "error" {
			out.Errors++
		}
	}
	for _, n := range ts.Network {
		if n.Failure != "" || n.Status >= 400 {
			out.Failed++
		}
	}
	for _, stem := range []string{protocol.AttemptArtifact(attempt, "step-"+base+"-failure"), protocol.AttemptArtifact(attempt, "step-"+base)} {
		for _, a := range arts {
			n, name := splitRow(a.Name)
			if n == row && strings.HasPrefix(a.ContentType, "image/") && strings.TrimSuffix(name, path.Ext(name)) == stem {
				out.Screenshot = dir + name
				return out
			}
		}
	}
	return out
}
