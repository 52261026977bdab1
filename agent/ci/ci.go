// Package ci is the agent's CI command:
//
//	ta-agent ci --hub URL --token T (--suite NAME | --test ID... | --tag TAG)
//	    [--project NAME] [--environment NAME] [--data-set NAME] [--parallel N]
//	    [--junit FILE] [--trace DIR] [--trace-mode on|failures|off] [--retries N] [--remote]
//
// It starts the tests on the hub with an API token, follows them live (a
// line per test, a step counter, links to each run page, a summary table),
// writes a JUnit XML report (protocol/junit) and exits 0 when every test
// passed, 1 when a test failed, 2 on anything else: a refused request, a
// run that ended in error or was cancelled, a hub that stopped answering
// (after trying again for --hub-wait). Ctrl-C cancels its runs.
//
// The runs record a trace as --trace-mode says (the run option trace,
// default failures); --trace DIR downloads the trace of each run that
// failed or errored into DIR (<test>-<run id>.zip), for the CI server to
// keep, and the JUnit report names it (docs/trace.md "Exports").
//
// --retries N (0 to 3) runs a failed test again up to N times (the run
// option retries, docs/retries.md): a test that passes on a retry is
// passed, said "passed (flaky, 2 attempts)", and fails nothing.
//
// By default the tests run here: the command joins the hub as an
// ephemeral agent of the token's user (client.Config.APIToken: no
// pairing), pins its runs to that agent, runs them in headless Chromium,
// and removes the agent when it ends. --remote sends them to the user's
// paired agents instead.
package ci

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/protocol"
)

// Exit codes.
const (
	ExitPassed = 0
	ExitFailed = 1
	ExitError  = 2
)

// Options are the command's flags.
type Options struct {
	Hub, Token, Project string
	Hubs                []string // --hub may name several hubs; Hub is the first
	Suite, Tag          string
	suiteSet, tagSet    bool
	Tests               []string
	Environment         string
	DataSet             string
	Parallel            int
	JUnit               string
	Trace               string // --trace: the folder failed runs' trace zips go to, "" for none
	TraceMode           string // --trace-mode: the run option trace
	Retries             int    // --retries: the run option retries
	Remote              bool
	Browser             string
	HeadlessShell       string // "auto" finds one, "off" (default) runs headless in Browser
	Screenshots         bool
	HubWait             time.Duration // how long a hub that does not answer is tried again
	Timeout             time.Duration // the whole command
}

// stringList is a flag that may be repeated or comma-separated.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error {
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

// ParseFlags reads the command's flags (after "ci").
func ParseFlags(args []string, stderr io.Writer) (Options, error) {
	var o Options
	fs := flag.NewFlagSet("ta-agent ci", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: ta-agent ci --hub URL --token T (--suite NAME | --test ID... | --tag TAG) [flags]")
		fmt.Fprintln(stderr, "Runs tests on the hub, follows them, writes JUnit XML; exit 0 all passed, 1 a test failed, 2 an error.")
		fs.PrintDefaults()
	}
	var hubs []string
	fs.Func("hub", "the hub's address (`URL`), e.g. https://tests.example.com; several hubs sharing one database: repeat it or separate with commas, preferred first (TA_HUB)",
		func(v string) error { hubs = append(hubs, v); return nil })
	fs.StringVar(&o.Token, "token", "", "API token from the hub's Profile page (default: TA_TOKEN; prefer the variable, so the token stays out of process lists)")
	fs.StringVar(&o.Project, "project", "", "project name or id (default: the token's project, or your only one)")
	fs.Func("suite", "run every test of this suite", func(v string) error { o.Suite, o.suiteSet = v, true; return nil })
	fs.Var((*stringList)(&o.Tests), "test", "run this test id (repeat, or separate with commas)")
	fs.Func("tag", "run every test with this tag", func(v string) error { o.Tag, o.tagSet = v, true; return nil })
	fs.StringVar(&o.Environment, "environment", "", "environment name or id to run against")
	fs.StringVar(&o.DataSet, "data-set", "", "test data set name or id: each --test runs once per row")
	fs.IntVar(&o.Parallel, "parallel", 1, "tests at once on this computer (1 to 16)")
	fs.StringVar(&o.JUnit, "junit", "", "write a JUnit XML report to this file (failure screenshots next to it)")
	fs.StringVar(&o.Trace, "trace", "", "write the trace of each test that failed or errored to this folder, as <test>-<run id>.zip (for CI artifacts; the JUnit report names it)")
	fs.StringVar(&o.TraceMode, "trace-mode", protocol.TraceFailures, "what the runs record in their trace: on (every step), failures (the failed step's DOM and what led to it) or off")
	fs.IntVar(&o.Retries, "retries", 0, "run a failed test again up to this many times (0 to 3); one that then passes is flaky, and passed")
	fs.BoolVar(&o.Remote, "remote", false, "run on your paired agents instead of here")
	fs.StringVar(&o.Browser, "browser", "", "Chromium or Google Chrome to drive (default: found on PATH)")
	fs.StringVar(&o.HeadlessShell, "headless-shell", "off", "Chromium's headless shell to run in, with faster screenshots: auto (found) or a path; off (default): use --browser")
	fs.BoolVar(&o.Screenshots, "screenshots", true, "a screenshot after every step (false: only of failures)")
	fs.DurationVar(&o.HubWait, "hub-wait", 2*time.Minute, "how long to keep trying a hub that does not answer before giving up")
	fs.DurationVar(&o.Timeout, "timeout", time.Hour, "give up (and cancel the runs) after this long")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q (flags start with --)", fs.Arg(0))
	}
	if o.Token == "" {
		o.Token = os.Getenv("TA_TOKEN")
	}
	if len(hubs) == 0 {
		hubs = []string{os.Getenv("TA_HUB")}
	}
	var err error
	if o.Hubs, err = client.ParseHubs(hubs...); err != nil {
		return o, err
	}
	if len(o.Hubs) > 0 {
		o.Hub = o.Hubs[0]
	}
	switch {
	case o.Hub == "":
		return o, errors.New("--hub is required (or TA_HUB), e.g. --hub https://tests.example.com")
	case o.Token == "":
		return o, errors.New("an API token is required: --token or TA_TOKEN (create one in the hub's Profile page)")
	}
	chosen := 0
	for _, set := range []bool{o.suiteSet, o.tagSet, len(o.Tests) > 0} {
		if set {
			chosen++
		}
	}
	if chosen != 1 {
		return o, errors.New("choose the tests with one of --suite NAME, --test ID or --tag TAG")
	}
	if o.tagSet && strings.TrimSpace(o.Tag) == "" {
		return o, errors.New("--tag needs a tag")
	}
	if o.DataSet != "" && len(o.Tests) == 0 {
		return o, errors.New("--data-set goes with --test (a suite's or tag's tests use their own data binding)")
	}
	if o.Parallel < 1 || o.Parallel > 16 {
		return o, errors.New("--parallel must be from 1 to 16")
	}
	if o.Remote && o.Browser != "" {
		return o, errors.New("--browser has no effect with --remote (your paired agents use their own)")
	}
	if o.Remote && o.HeadlessShell != "off" {
		return o, errors.New("--headless-shell has no effect with --remote (your paired agents use their own)")
	}
	if m, ok := protocol.TraceMode(o.TraceMode); !ok || o.TraceMode == "" {
		return o, fmt.Errorf("--trace-mode %q: use on, failures or off", o.TraceMode)
	} else if m == protocol.TraceOff && o.Trace != "" {
		return o, errors.New("--trace has nothing to write with --trace-mode off")
	}
	if o.Retries < 0 || o.Retries > protocol.MaxRetries {
		return o, fmt.Errorf("--retries must be from 0 to %d", protocol.MaxRetries)
	}
	if o.HubWait <= 0 || o.Timeout <= 0 {
		return o, errors.New("--hub-wait and --timeout must be positive")
	}
	return o, nil
}

// Local starts the ephemeral agent's browser; main provides it (the
// browser lives in agent/runner). stop closes it.
type Local func(ctx context.Context) (r client.Runner, stop func(), err error)

// Env is what the command needs from its process.
type Env struct {
	Out      io.Writer // progress and summary
	Terminal bool      // Out is a terminal: redraw a live status line
	Local    Local
	Version  string
	Hostname string
	OS, Arch string
	// AgentLog receives the ephemeral agent's log (default: discarded).
	AgentLog io.Writer
}
