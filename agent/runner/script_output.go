package runner

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// What a script step and a setVariable step report besides their outcome,
// in the step's used values (masked like all of them): "result", the value
// a script returned or setVariable stored, and "console", the lines a
// script logged, "[level] text" each, as the editor's Try shows them.

// maxConsoleLines and maxConsoleLine bound what a script step reports of
// its console (the hub cuts every used value again).
const (
	maxConsoleLines = 50
	maxConsoleLine  = 500
)

// consoleHookJS makes the page's console methods record what they are
// given, until consoleTakeJS undoes it. The runner does not enable the
// Runtime domain (its events would cost every run), so a script step
// hears its own console this way.
var consoleHookJS = `(() => {
  const key = Symbol.for('ta.scriptConsole');
  if (window[key]) return;
  const c = window.console, lines = [], saved = {};
  const text = a => {
    if (typeof a === 'string') return a;
    try { const j = JSON.stringify(a); return j === undefined ? String(a) : j; } catch { return String(a); }
  };
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    const orig = c[level];
    saved[level] = orig;
    c[level] = function (...args) {
      if (lines.length < ` + strconv.Itoa(maxConsoleLines) + `) lines.push('[' + level + '] ' + args.map(text).join(' ').slice(0, ` + strconv.Itoa(maxConsoleLine) + `));
      return orig.apply(this, args);
    };
  }
  window[key] = { lines, saved };
})()`

// consoleTakeJS restores the console and returns the lines recorded.
const consoleTakeJS = `(() => {
  const key = Symbol.for('ta.scriptConsole');
  const h = window[key];
  if (!h) return [];
  delete window[key];
  for (const level in h.saved) window.console[level] = h.saved[level];
  return h.lines;
})()`

// hearConsole starts recording the page's console for a script step; the
// function it returns stops and reports the lines in the step's used
// values. A page that navigated meanwhile has lost its lines.
func (s *stepRun) hearConsole(ctx context.Context) func() {
	if _, err := evalValue(ctx, s.r.tab.sess, consoleHookJS); err != nil {
		return func() {}
	}
	return func() {
		// The step's context may have ended (its timeout): a moment more
		// to restore the page's console.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		v, err := evalValue(cctx, s.r.tab.sess, consoleTakeJS)
		if err != nil {
			return
		}
		var lines []string
		for _, l := range v.Arr() {
			lines = append(lines, l.Str())
		}
		if len(lines) > 0 {
			s.use("console", strings.Join(lines, "\n"))
		}
	}
}

// use records a value the step used or produced.
func (s *stepRun) use(name, value string) {
	if s.used == nil {
		s.used = map[string]string{}
	}
	s.used[name] = value
}
