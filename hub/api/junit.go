package api

// JUnit reports. GET /api/runs/:id/junit and GET /api/batches/:id/junit
// answer a run's or a batch's result as JUnit XML (protocol/junit: one
// testcase per test, or per row of a data-driven run; a failure names the
// failing step, its error, its screenshot's address and, when the run
// recorded a trace, its trace.zip's), as a download.
// GET /api/runs/:id and GET /api/batches/:id answer the same report to a
// client that asks for XML (Accept: application/xml), with their usual
// status (202 while running). Unfinished runs are reported as skipped.

import (
	"bytes"
	"context"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
	"github.com/testautomation/ta/protocol/junit"
)

// wantsXML reports whether the client prefers XML to JSON: its Accept
// names application/xml or text/xml before (or without) application/json.
func wantsXML(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil || params["q"] == "0" {
			continue
		}
		switch mt {
		case "application/xml", "text/xml":
			return true
		case "application/json", "*/*", "application/*":
			return false
		}
	}
	return false
}

// junitRun is one run as the report has it.
func (s *Server) junitRun(ctx context.Context, run store.Run) (junit.Run, error) {
	out := toRunJSON(run)
	if err := s.addRunDetail(ctx, run, &out); err != nil {
		return junit.Run{}, err
	}
	if err := s.addAttempts(ctx, run, &out); err != nil {
		return junit.Run{}, err
	}
	if !protocol.Final(run.Status) {
		steps, err := s.stepsSoFar(ctx, run.ID, nil)
		if err != nil {
			return junit.Run{}, err
		}
		out.Result.Steps = steps
	}
	base := strings.TrimRight(s.BaseURL, "/")
	jr := junit.Run{Name: run.TestName, Status: run.Status, Error: run.Error, DurationMs: run.DurationMs, Quarantined: run.Quarantined,
		URL: base + "/runs/" + run.ID, Steps: out.Result.Steps, Attempts: out.AttemptResults,
		Attachment: func(row int, st protocol.StepResult) string {
			if st.Screenshot == "" {
				return ""
			}
			if row >= 0 {
				return fmt.Sprintf("%s/api/runs/%s/rows/%d/artifacts/%s", base, run.ID, row, url.PathEscape(st.Screenshot))
			}
			return base + "/api/runs/" + run.ID + "/artifacts/" + url.PathEscape(st.Screenshot)
		}}
	jr.Trace = junitTrace(base, run)
	if out.Document != nil {
		jr.Suite, jr.Document = out.Document.Suite, out.Document.Steps
	}
	attempts, err := s.rowAttempts(ctx, run)
	if err != nil {
		return junit.Run{}, err
	}
	for _, row := range out.Rows {
		jr.Rows = append(jr.Rows, junit.Row{Row: row.Row, Status: row.Status, DurationMs: row.DurationMs, Error: row.Error, Attempts: attempts[row.Row]})
	}
	return jr, nil
}

// junitTrace is the address of the trace a failed or errored run recorded
// (docs/trace.md "Exports"), "" for any other run.
func junitTrace(base string, run store.Run) string {
	if run.Status != protocol.RunFailed && run.Status != protocol.RunError {
		return ""
	}
	if mode, ok := protocol.TraceMode(run.Trace); !ok || mode == protocol.TraceOff {
		return ""
	}
	return base + "/api/runs/" + run.ID + "/trace.zip"
}

// writeJUnit answers a report; download names the file it is saved as.
func (s *Server) writeJUnit(w http.ResponseWriter, r *http.Request, status int, rep junit.Report, download string) {
	if h, err := os.Hostname(); err == nil {
		rep.Hostname = h
	}
	var buf bytes.Buffer
	if err := rep.Write(&buf); err != nil {
		s.internal(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if download != "" {
		w.Header().Set("Content-Disposition", `attachment; filename="`+download+`"`)
	}
	w.WriteHeader(status)
	w.Write(buf.Bytes()) //nolint:errcheck
}

func finalStatus(status string) int {
	if protocol.Final(status) {
		return http.StatusOK
	}
	return http.StatusAccepted
}

// runJUnit answers GET /api/runs/:id/junit.
func (s *Server) runJUnit(w http.ResponseWriter, r *http.Request) {
	run, _, ok := s.loadRun(w, r)
	if !ok {
		return
	}
	s.serveRunJUnit(w, r, run, http.StatusOK, run.ID+"-junit.xml")
}

func (s *Server) serveRunJUnit(w http.ResponseWriter, r *http.Request, run store.Run, status int, download string) {
	jr, err := s.junitRun(r.Context(), run)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.writeJUnit(w, r, status, junit.Report{Name: run.TestName, Timestamp: run.CreatedAt, Runs: []junit.Run{jr}}, download)
}

// batchJUnit answers GET /api/batches/:id/junit.
func (s *Server) batchJUnit(w http.ResponseWriter, r *http.Request) {
	b, _, ok := s.loadBatch(w, r)
	if !ok {
		return
	}
	s.serveBatchJUnit(w, r, b, false)
}

func (s *Server) serveBatchJUnit(w http.ResponseWriter, r *http.Request, b store.Batch, negotiated bool) {
	runs, err := s.store.BatchRuns(r.Context(), b.ID, currentUserID(r))
	if err != nil {
		s.internal(w, r, err)
		return
	}
	rep := junit.Report{Name: batchReportName(b), Timestamp: b.CreatedAt}
	for _, run := range runs {
		jr, err := s.junitRun(r.Context(), run)
		if err != nil {
			s.internal(w, r, err)
			return
		}
		rep.Runs = append(rep.Runs, jr)
	}
	status, download := http.StatusOK, b.ID+"-junit.xml"
	if negotiated {
		status, download = finalStatus(toBatchJSON(b, runs, s.Now()).Status), ""
	}
	s.writeJUnit(w, r, status, rep, download)
}

// batchReportName names a batch's test suite in its report.
func batchReportName(b store.Batch) string {
	switch b.Source {
	case "suite":
		if b.Suite == "" {
			return "Unsorted"
		}
		return b.Suite
	case "tag":
		return "tag " + b.Tag
	}
	return "batch " + b.ID
}
