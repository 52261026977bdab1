package ci

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/testautomation/ta/protocol"
)

// printer writes the command's progress. On a terminal it also redraws a
// live status line (how many runs finished, the step each running one is
// at); in a CI log it writes a line when a test starts and when it ends.
type printer struct {
	mu       sync.Mutex // guards w and the status line
	w        io.Writer
	terminal bool
	status   bool // a status line is on screen
}

func newPrinter(w io.Writer, terminal bool) *printer { return &printer{w: w, terminal: terminal} }

func (p *printer) clearStatus() {
	if p.status {
		fmt.Fprint(p.w, "\r\033[K")
		p.status = false
	}
}

func (p *printer) line(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearStatus()
	fmt.Fprintln(p.w, s)
}

func (p *printer) fail(err error) {
	p.line("error: " + err.Error())
}

func (p *printer) header(what, batchURL string) {
	p.line("ta-agent ci: " + what)
	if batchURL != "" {
		p.line("batch: " + batchURL)
	}
}

func (p *printer) started(r snapshot, url string) {
	if p.terminal {
		return // the status line shows it
	}
	p.line(fmt.Sprintf("  ▶ %s started (%s)", name(r), url))
}

// mark is a status's symbol.
func mark(status string) string {
	switch status {
	case protocol.RunPassed:
		return "✓"
	case protocol.RunFailed:
		return "✗"
	case protocol.RunCancelled:
		return "⊘"
	}
	return "!"
}

func name(r snapshot) string {
	if r.testName != "" {
		return r.testName
	}
	return r.testID
}

// counter is "3/5 steps" or "4/5 rows".
func counter(r snapshot) string {
	unit := "steps"
	if r.rows {
		unit = "rows"
	}
	return fmt.Sprintf("%d/%d %s", r.passed, r.total, unit)
}

func seconds(ms int64) string {
	return (time.Duration(ms) * time.Millisecond).Round(100 * time.Millisecond).String()
}

func (p *printer) finished(r snapshot, url string) {
	var b strings.Builder
	fmt.Fprintf(&b, "  %s %s %s  %s  %s  %s", mark(r.status), r.statusText(), name(r), counter(r), seconds(r.durationMs), url)
	if r.status != protocol.RunPassed {
		for _, why := range failureLines(r) {
			b.WriteString("\n      " + why)
		}
	}
	p.line(b.String())
}

// failureLines say why a run did not pass: its failing step (or rows).
func failureLines(r snapshot) []string {
	d := r.detail
	if d == nil {
		return nil
	}
	var out []string
	numbers := protocol.RunStepNumbers(d.docSteps(), d.Result.Steps) // as the editor numbers them
	if s, ok := protocol.FirstFailure(d.Result.Steps); ok {
		out = append(out, fmt.Sprintf("step %s (%s %s)%s: %s", numbers[s.Index], s.Type, s.ID, protocol.IterationText(s.Iteration), firstLine(s.Error)))
	}
	if protocol.HasBlocks(d.Result.Steps) {
		// The tree, indented, each loop's iterations on their own lines.
		out = append(out, protocol.ResultOutline(numbers, d.Result.Steps)...)
	}
	for _, row := range d.Rows {
		if row.Status != protocol.RunPassed {
			out = append(out, fmt.Sprintf("row %d %s: %s", row.Row+1, row.Status, firstLine(row.Error)))
		}
	}
	if len(out) == 0 && d.Error != "" {
		out = append(out, firstLine(d.Error))
	}
	return out
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// live redraws the status line every half second on a terminal; the
// returned func stops it.
func (p *printer) live(runs []*runState) func() {
	if !p.terminal {
		return func() {}
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				p.mu.Lock()
				p.clearStatus()
				p.mu.Unlock()
				return
			case <-t.C:
				p.drawStatus(runs)
			}
		}
	}()
	return func() { close(stop); <-done }
}

func (p *printer) drawStatus(runs []*runState) {
	finished, queued := 0, 0
	var running []string
	for _, r := range runs {
		s := r.get()
		switch {
		case protocol.Final(s.status):
			finished++
		case s.status == protocol.RunRunning:
			unit := "step"
			if s.rows {
				unit = "row"
			}
			running = append(running, fmt.Sprintf("%s: %s %d of %d", name(s), unit, min(s.done+1, max(s.total, 1)), s.total))
		default:
			queued++
		}
	}
	line := fmt.Sprintf("%d of %d finished, %d waiting", finished, len(runs), queued)
	if len(running) > 0 {
		line += " · " + strings.Join(running, " · ")
	}
	if len(line) > 160 {
		line = line[:157] + "..."
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.w, "\r\033[K"+line)
	p.status = true
}

// summary prints a table of every run and the totals.
func (p *printer) summary(runs []*runState) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearStatus()
	fmt.Fprintln(p.w)
	tw := tabwriter.NewWriter(p.w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TEST\tSTATUS\tRESULT\tTIME\tRUN")
	counts := map[string]int{}
	var total int64
	for _, r := range runs {
		s := r.get()
		status := s.statusText()
		if !protocol.Final(s.status) {
			status += " (unfinished)"
		}
		counts[s.status]++
		if s.quarantined() {
			counts["quarantined"]++
		}
		total += s.durationMs
		fmt.Fprintf(tw, "%s\t%s %s\t%s\t%s\t%s\n", name(s), mark(s.status), status, counter(s), seconds(s.durationMs), s.id)
	}
	tw.Flush()
	var parts []string
	for _, st := range []string{protocol.RunPassed, protocol.RunFailed, protocol.RunError, protocol.RunCancelled, protocol.RunRunning, protocol.RunQueued, "quarantined"} {
		if counts[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[st], st))
		}
	}
	fmt.Fprintf(p.w, "%d test run(s): %s\n", len(runs), strings.Join(parts, ", "))
}
