package ci

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/testautomation/ta/protocol"
	"github.com/testautomation/ta/protocol/junit"
)

// writeJUnit writes the report to --junit, and the screenshots of failing
// steps into a folder beside it (<report>-screenshots/), attached to their
// test cases by path.
func (c *command) writeJUnit(runs []*runState) error {
	ctx, cancel := context.WithTimeout(context.Background(), c.o.HubWait+time.Minute)
	defer cancel()
	abs, err := filepath.Abs(c.o.JUnit)
	if err != nil {
		return err
	}
	shots := strings.TrimSuffix(abs, filepath.Ext(abs)) + "-screenshots"
	rep := junit.Report{Name: c.reportName(), Timestamp: time.Now(), Hostname: c.env.Hostname}
	for _, r := range runs {
		s := r.get()
		jr := junit.Run{Name: name(s), Status: s.status, DurationMs: s.durationMs, URL: c.pageURL("/runs/" + s.id),
			Trace: s.traceFile, TraceFile: s.traceFile != ""}
		if s.err != nil {
			jr.Error = s.err.Error()
		}
		if d := s.detail; d != nil {
			jr.Error, jr.Steps, jr.Quarantined, jr.Attempts = d.Error, d.Result.Steps, d.Quarantined, d.AttemptResults
			if d.Document != nil {
				jr.Suite, jr.Document = d.Document.Suite, d.docSteps()
			}
			flaky := map[int]bool{}
			for _, row := range d.Rows {
				jr.Rows = append(jr.Rows, junit.Row{Row: row.Row, Status: row.Status, DurationMs: row.DurationMs, Error: row.Error})
				flaky[row.Row] = row.Flaky
			}
			if len(d.Rows) > 0 {
				c.rowSteps(ctx, s.id, jr.Rows, flaky)
			}
		}
		runID := s.id
		jr.Attachment = func(row int, st protocol.StepResult) string {
			if st.Screenshot == "" {
				return ""
			}
			path := "/api/runs/" + runID + "/artifacts/" + url.PathEscape(st.Screenshot)
			file := fmt.Sprintf("%s-%s", runID, st.Screenshot)
			if row >= 0 {
				path = fmt.Sprintf("/api/runs/%s/rows/%d/artifacts/%s", runID, row, url.PathEscape(st.Screenshot))
				file = fmt.Sprintf("%s-row%d-%s", runID, row+1, st.Screenshot)
			}
			data, err := c.api.download(ctx, path)
			if err != nil {
				c.out.line(fmt.Sprintf("could not download the screenshot of %s: %v", runID, err))
				return ""
			}
			if err := os.MkdirAll(shots, 0o755); err != nil {
				return ""
			}
			dst := filepath.Join(shots, filepath.Base(file))
			if err := os.WriteFile(dst, data, 0o644); err != nil {
				return ""
			}
			return dst
		}
		rep.Runs = append(rep.Runs, jr)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return err
	}
	tmp := abs + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("write the JUnit report: %w", err)
	}
	if err := rep.Write(f); err != nil {
		f.Close()
		return fmt.Errorf("write the JUnit report: %w", err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, abs)
}

// rowSteps fills in the steps of the rows that did not pass, and the
// attempts of those and of flaky ones (docs/retries.md).
func (c *command) rowSteps(ctx context.Context, runID string, rows []junit.Row, flaky map[int]bool) {
	for i, row := range rows {
		if row.Status == protocol.RunPassed && !flaky[row.Row] {
			continue
		}
		var d struct {
			Steps          []protocol.StepResult    `json:"steps"`
			AttemptResults []protocol.AttemptResult `json:"attemptResults"`
		}
		if err := c.api.do(ctx, "GET", fmt.Sprintf("/api/runs/%s/rows/%d", runID, row.Row), nil, &d); err == nil {
			rows[i].Steps, rows[i].Attempts = d.Steps, d.AttemptResults
		}
	}
}

func (c *command) reportName() string {
	switch {
	case c.o.suiteSet:
		if c.o.Suite == "" {
			return "Unsorted"
		}
		return c.o.Suite
	case c.o.tagSet:
		return "tag " + c.o.Tag
	}
	return "tests"
}
