package ci

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/testautomation/ta/protocol"
)

// --trace DIR (docs/trace.md "Exports"): the trace of every run that
// failed or errored is downloaded when the run ends, as
// DIR/<test name>-<run id>.zip (GET /api/runs/:id/trace.zip), for the CI
// server to keep as an artifact; the run's JUnit case names it. A failed
// download is a warning: the tests' outcome is the command's, not the
// trace's.

// saveTrace downloads the trace of run r when it failed or errored, and
// records where it was written.
func (c *command) saveTrace(ctx context.Context, r *runState) {
	s := r.get()
	if c.o.Trace == "" || (s.status != protocol.RunFailed && s.status != protocol.RunError) {
		return
	}
	dst := filepath.Join(c.o.Trace, traceFileName(name(s), s.id))
	if err := c.api.downloadFile(ctx, "/api/runs/"+s.id+"/trace.zip", dst); err != nil {
		if ctx.Err() == nil {
			c.out.line(fmt.Sprintf("warning: could not download the trace of %s (%s): %v", name(s), s.id, err))
		}
		return
	}
	r.update(func(r *runState) { r.traceFile = dst })
	c.out.line(fmt.Sprintf("  trace of %s: %s", name(s), dst))
}

// traceFileName is "<test>-<run>.zip" keeping letters, digits, "_" and
// ".", every other character (a separator, a control character, a space)
// turned into "-", no leading dot: it never names a file outside its
// folder, nor a hidden one.
func traceFileName(test, runID string) string {
	safe := func(s string, max int) string {
		var b strings.Builder
		dash := false
		for _, r := range s {
			ok := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.'
			if !ok {
				if !dash && b.Len() > 0 {
					b.WriteByte('-')
				}
				dash = true
				continue
			}
			b.WriteRune(r)
			dash = false
		}
		out := []rune(strings.Trim(b.String(), "-."))
		if len(out) > max {
			out = []rune(strings.TrimRight(string(out[:max]), "-."))
		}
		return string(out)
	}
	test, runID = safe(test, 80), safe(runID, 64)
	if test == "" {
		test = "test"
	}
	return test + "-" + runID + ".zip"
}

// downloadFile streams path to the file dst (its folder created), through
// a temporary file renamed when complete: a download cut short leaves no
// zip that does not open.
func (a *hubAPI) downloadFile(ctx context.Context, path, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp := dst + ".part"
	defer os.Remove(tmp)
	// No overall time-out (a.stream): a trace may be large.
	err := a.get(ctx, a.stream, path, func(body io.Reader) (bool, error) {
		f, err := os.Create(tmp)
		if err != nil {
			return false, err
		}
		_, err = io.Copy(f, body)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err != nil && ctx.Err() == nil, err
	})
	if err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}
