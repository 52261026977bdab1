// Package junit writes run results as JUnit XML, the report format CI
// servers read (Jenkins, GitLab, GitHub Actions reporters, Azure DevOps):
// <testsuites> with one <testsuite> of <testcase>s, one per test or, for a
// data-driven run, per data row (a test with blocks too: its result tree is
// in the case's <system-out>, docs/flow.md). A failed test has a <failure>
// naming the failing step (and its iteration) and its error, an infrastructure error an <error>, a
// cancelled or unfinished run <skipped>; a screenshot of the failure is an
// attachment in <system-out> ([[ATTACHMENT|path]], the convention of
// Jenkins' JUnit attachments and GitLab); a failed or errored case names
// the run's trace when there is one ("Trace: …"). The hub (GET
// /api/batches/:id/junit) and `agent ci --junit` both write it from here.
// No I/O beyond the writer it is given.
package junit

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/testautomation/ta/protocol"
)

// Run is one run as the report needs it.
type Run struct {
	Name       string // the test's name
	Suite      string // its suite ("" for none)
	Status     string // protocol.RunPassed, ...
	Error      string // the run's error (infrastructure, or the failing step's)
	DurationMs int64
	URL        string                // the run's page, said in the case's output
	Steps      []protocol.StepResult // a tree when the test has blocks (docs/flow.md)
	// Document is the steps the run executed (the expanded tree of GET
	// /api/runs/:id), to number steps inside blocks as the editor does;
	// nil numbers the results as a flat list.
	Document []protocol.Step
	// Rows: a data-driven run is reported as one case per row.
	Rows []Row
	// Attachment gives the path or address of a step's screenshot, ""
	// for none; nil: no attachments.
	Attachment func(row int, s protocol.StepResult) string
	// Trace is the address or path of the run's trace (its trace.zip,
	// docs/trace.md "Exports"), "" for none: a failed or errored case
	// says it. TraceFile: it is a file, attached too ([[ATTACHMENT|…]]).
	Trace     string
	TraceFile bool
	// Quarantined: the test was quarantined when the run ended. Its
	// failed or errored cases are reported <skipped message="quarantined:
	// …">, the failure kept in <system-out>, so a CI build does not fail
	// on them (docs/history.md); every case of it says so.
	Quarantined bool
	// Attempts: a retried run's attempts (docs/retries.md); a flaky case
	// gets a <flakyFailure> per failed attempt, a failed one a
	// <rerunFailure> per attempt before its last (retries.go).
	Attempts []protocol.AttemptResult
}

// Row is one data row's result.
type Row struct {
	Row        int // 0-based; shown 1-based
	Status     string
	DurationMs int64
	Error      string
	Steps      []protocol.StepResult // may be empty when only the summary is known
	Attempts   []protocol.AttemptResult
}

// Report is a whole report: the runs of one batch or CI command.
type Report struct {
	Name      string // <testsuite name>: the suite, tag or "tests" chosen
	Timestamp time.Time
	Hostname  string
	Runs      []Run
}

type xmlSuites struct {
	XMLName  xml.Name   `xml:"testsuites"`
	Name     string     `xml:"name,attr"`
	Tests    int        `xml:"tests,attr"`
	Failures int        `xml:"failures,attr"`
	Errors   int        `xml:"errors,attr"`
	Skipped  int        `xml:"skipped,attr"`
	Time     string     `xml:"time,attr"`
	Suites   []xmlSuite `xml:"testsuite"`
}

type xmlSuite struct {
	Name      string    `xml:"name,attr"`
	Tests     int       `xml:"tests,attr"`
	Failures  int       `xml:"failures,attr"`
	Errors    int       `xml:"errors,attr"`
	Skipped   int       `xml:"skipped,attr"`
	Time      string    `xml:"time,attr"`
	Timestamp string    `xml:"timestamp,attr,omitempty"`
	Hostname  string    `xml:"hostname,attr,omitempty"`
	Cases     []xmlCase `xml:"testcase"`
}

type xmlCase struct {
	Name      string      `xml:"name,attr"`
	ClassName string      `xml:"classname,attr"`
	Time      string      `xml:"time,attr"`
	Failure   *xmlProblem `xml:"failure,omitempty"`
	Error     *xmlProblem `xml:"error,omitempty"`
	// Maven Surefire's marks of a retried test (retries.go).
	RerunFailures []xmlRerun  `xml:"rerunFailure,omitempty"`
	FlakyFailures []xmlRerun  `xml:"flakyFailure,omitempty"`
	Skipped       *xmlSkipped `xml:"skipped,omitempty"`
	SystemOut     string      `xml:"system-out,omitempty"`
}

type xmlProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type xmlSkipped struct {
	Message string `xml:"message,attr"`
}

// Write writes the report as JUnit XML.
func (r Report) Write(w io.Writer) error {
	suite := xmlSuite{Name: cleanAttr(r.Name), Hostname: cleanAttr(r.Hostname)}
	if suite.Name == "" {
		suite.Name = "tests"
	}
	if !r.Timestamp.IsZero() {
		suite.Timestamp = r.Timestamp.UTC().Format("2006-01-02T15:04:05")
	}
	var total int64
	for _, run := range r.Runs {
		for _, c := range run.cases() {
			suite.Tests++
			switch {
			case c.Failure != nil:
				suite.Failures++
			case c.Error != nil:
				suite.Errors++
			case c.Skipped != nil:
				suite.Skipped++
			}
			suite.Cases = append(suite.Cases, c)
		}
		total += run.DurationMs
	}
	suite.Time = seconds(total)
	out := xmlSuites{Name: suite.Name, Tests: suite.Tests, Failures: suite.Failures, Errors: suite.Errors, Skipped: suite.Skipped,
		Time: suite.Time, Suites: []xmlSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// cases is a run's test cases: itself, or one per row.
func (run Run) cases() []xmlCase {
	class := run.Suite
	if class == "" {
		class = "Unsorted"
	}
	if len(run.Rows) == 0 {
		c := run.oneCase(cleanAttr(run.Name), cleanAttr(class), -1, run.Status, run.DurationMs, run.Error, run.Steps)
		c.FlakyFailures, c.RerunFailures = run.reruns(-1, run.Status, run.Attempts)
		return []xmlCase{c}
	}
	rows := append([]Row(nil), run.Rows...)
	sort.Slice(rows, func(i, j int) bool { return rows[i].Row < rows[j].Row })
	out := make([]xmlCase, 0, len(rows))
	for _, row := range rows {
		name := fmt.Sprintf("%s [row %d]", cleanAttr(run.Name), row.Row+1)
		c := run.oneCase(name, cleanAttr(class+"."+run.Name), row.Row, row.Status, row.DurationMs, row.Error, row.Steps)
		c.FlakyFailures, c.RerunFailures = run.reruns(row.Row, row.Status, row.Attempts)
		out = append(out, c)
	}
	return out
}

func (run Run) oneCase(name, class string, row int, status string, ms int64, runErr string, steps []protocol.StepResult) xmlCase {
	c := xmlCase{Name: name, ClassName: class, Time: seconds(ms)}
	var out []string
	if run.URL != "" {
		out = append(out, "Run: "+run.URL)
	}
	traced := run.Trace != "" && (status == protocol.RunFailed || status == protocol.RunError)
	if traced {
		out = append(out, "Trace: "+run.Trace)
	}
	failing, found := protocol.FirstFailure(steps)
	message := cleanText(runErr)
	text := message
	numbers := protocol.RunStepNumbers(run.Document, steps)
	if found {
		// Numbered as the editor numbers them: 2.3 is the third step of the
		// component the test's step 2 calls, or of block 2; inside loops,
		// with the iteration it failed in, as the run's error says it.
		where := fmt.Sprintf("step %s (%s %s)%s", numbers[failing.Index], failing.Type, failing.ID, protocol.IterationText(failing.Iteration))
		message = cleanText(where + ": " + firstLine(cmp.Or(failing.Error, runErr)))
		text = cleanText(where + " failed:\n" + cmp.Or(failing.Error, runErr))
		if run.Attachment != nil {
			if a := run.Attachment(row, failing); a != "" {
				out = append(out, "[[ATTACHMENT|"+cleanText(a)+"]]")
			}
		}
	}
	if traced && run.TraceFile {
		out = append(out, "[[ATTACHMENT|"+cleanText(run.Trace)+"]]")
	}
	if run.Quarantined {
		out = append(out, "Quarantined: the test was quarantined when this run ended; its result fails no build.")
	}
	switch {
	case run.Quarantined && (status == protocol.RunFailed || status == protocol.RunError):
		c.Skipped = &xmlSkipped{Message: cleanAttr("quarantined: " + cmp.Or(message, "the test "+status))}
		out = append(out, "Result: "+status+"\n"+text)
	case status == protocol.RunPassed:
	case status == protocol.RunFailed:
		c.Failure = &xmlProblem{Message: cleanAttr(cmp.Or(message, "the test failed")), Type: "failed", Text: text}
	case status == protocol.RunError:
		c.Error = &xmlProblem{Message: cleanAttr(cmp.Or(message, "the run could not complete")), Type: "error", Text: text}
	case status == protocol.RunCancelled:
		c.Skipped = &xmlSkipped{Message: "cancelled"}
	default: // queued or running when the report was made
		c.Skipped = &xmlSkipped{Message: "not finished (" + cleanAttr(status) + ")"}
	}
	if protocol.HasBlocks(steps) {
		// The result tree (docs/flow.md): each execution of a step inside
		// a loop, the branch an if took. A run without blocks keeps its
		// one line.
		out = append(out, "Steps:")
		for _, l := range protocol.ResultOutline(numbers, steps) {
			out = append(out, "  "+l)
		}
	}
	c.SystemOut = cleanText(strings.Join(out, "\n"))
	return c
}

func seconds(ms int64) string { return fmt.Sprintf("%.3f", float64(ms)/1000) }

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// cleanText drops characters XML 1.0 cannot hold (control characters
// other than tab, newline and return; invalid UTF-8).
func cleanText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return r
		case r < 0x20 || r == 0xFFFE || r == 0xFFFF:
			return -1
		case r >= 0xD800 && r <= 0xDFFF:
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// cleanAttr is cleanText on one line: attributes keep no line breaks.
func cleanAttr(s string) string {
	return strings.Join(strings.Fields(cleanText(s)), " ")
}
