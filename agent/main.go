// Command agent is the desktop agent: it pairs with a hub, keeps one
// Chromium warm and runs the tests the hub assigns to it, streaming events,
// screenshots and results back. It also records tests, picks elements and
// tries scripts for the web app's editor, in a second browser of its own
// (agent/author); --remote-debugging-port N opens that browser's DevTools
// on 127.0.0.1:N.
//
//	go run ./agent --hub http://127.0.0.1:8080 --headless
//
// Without --headless it shows a system tray icon (agent/tray, Fyne, cgo)
// with the connection status, the pairing code, the runs in progress, "Open
// web app" and Quit. Built with -tags headless (CGO_ENABLED=0 works, for
// servers and cross-builds) it has no tray and always runs headless.
//
// The first start prints a pairing code and the page where a signed-in user
// approves it; the agent then keeps its token in --config and connects with
// it from then on. Browser and hub code live in agent/runner and
// agent/client, which do not import any UI toolkit.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/testautomation/ta/agent/author"
	"github.com/testautomation/ta/agent/ci"
	"github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/agent/runner"
	"github.com/testautomation/ta/protocol"
)

// version and commit are the agent's build, set with -ldflags
// "-X main.version=... -X main.commit=..." (make installers does).
var (
	version = "dev"
	commit  = "unknown"
)

// headlessShellHelp describes --headless-shell (of the agent and of ci).
const headlessShellHelp = "Chromium's headless shell for headless runs, with faster screenshots: auto (found, e.g. Debian's chromium-headless-shell) or a path; off (default: a page in the shell now and then stops drawing, and its screenshots are lost): use --browser"

// shellOption maps --headless-shell to runner.Options.HeadlessShell.
func shellOption(v string) string {
	if v == "auto" {
		return ""
	}
	return v
}

type options struct {
	hub               string   // hubs, separated by commas
	hubs              []string // preferred first (client.ParseHubs)
	config, browser   string
	headlessShell     string // "" finds one, "off" uses browser
	hubFrom           string // where the hub's address came from, when not given
	headless, version bool
	parallel          int
	debugPort         int
}

func parseFlags(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("agent", flag.ContinueOnError)
	var hubs []string // --hub values, or AGENT_HUB
	fs.Func("hub", "the hub's address (`URL`), e.g. http://127.0.0.1:8080; several hubs sharing one database: repeat it or separate with commas, preferred first (AGENT_HUB)",
		func(v string) error { hubs = append(hubs, v); return nil })
	fs.StringVar(&o.config, "config", "", "folder for the agent's token (default "+defaultConfigHelp()+")")
	fs.StringVar(&o.browser, "browser", "", "Chromium or Google Chrome to drive (default: found on PATH)")
	fs.StringVar(&o.headlessShell, "headless-shell", "off", headlessShellHelp)
	fs.BoolVar(&o.headless, "headless", false, "run without a tray icon and without showing browser windows (servers, CI)")
	fs.IntVar(&o.parallel, "parallel", 1, "runs at once")
	fs.IntVar(&o.debugPort, "remote-debugging-port", 0, "open the DevTools of the browser used for recording and picking on 127.0.0.1:`N` (to drive it from tests)")
	fs.BoolVar(&o.version, "version", false, "print the agent's version and commit, and exit")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.version {
		return o, nil
	}
	if o.config == "" {
		dir, err := os.UserConfigDir()
		if err != nil {
			return o, fmt.Errorf("no user config folder (%v): pass --config", err)
		}
		o.config = filepath.Join(dir, configFolder)
	}
	if len(hubs) == 0 && os.Getenv("AGENT_HUB") != "" {
		hubs = []string{os.Getenv("AGENT_HUB")}
	}
	var err error
	if o.hubs, err = client.ParseHubs(hubs...); err != nil {
		return o, err
	}
	if len(o.hubs) == 0 {
		exe, _ := os.Executable()
		var found string
		found, o.hubFrom = defaultHub(hubFiles(exe), o.config)
		o.hubs, _ = client.ParseHubs(found)
	}
	o.hub = strings.Join(o.hubs, ",")
	if len(o.hubs) == 0 {
		return o, errors.New("--hub is required, e.g. --hub http://127.0.0.1:8080 (an agent downloaded from a hub knows its address)")
	}
	if o.parallel < 1 || o.parallel > 16 {
		return o, errors.New("--parallel must be from 1 to 16")
	}
	if o.debugPort < 0 || o.debugPort > 65535 {
		return o, errors.New("--remote-debugging-port must be a port from 1 to 65535")
	}
	return o, nil
}

// configFolder is the agent's folder inside the user's config folder.
const configFolder = "testautomation-agent"

// defaultConfigHelp names the default --config folder for --help: the real
// path when the user config folder is known.
func defaultConfigHelp() string {
	if dir, err := os.UserConfigDir(); err == nil {
		return filepath.Join(dir, configFolder)
	}
	return filepath.Join("<user config folder>", configFolder)
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "ci" {
		os.Exit(runCI(os.Args[2:]))
	}
	o, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "agent:", err)
		os.Exit(2)
	}
	if o.version {
		fmt.Printf("ta-agent %s (commit %s, %s/%s, protocol %d)\n", version, commit, runtime.GOOS, runtime.GOARCH, protocol.Version)
		return
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o, logger); err != nil && !errors.Is(err, context.Canceled) {
		logger.Error("agent stopped", "err", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options, logger *slog.Logger) error {
	path, err := runner.FindBrowser(o.browser)
	if err != nil {
		return err
	}
	// --headless shows no windows at all, display or not.
	canHead := hasDisplay() && !o.headless
	b, err := runner.Launch(ctx, runner.Options{BrowserPath: path, HeadlessShell: shellOption(o.headlessShell), Logger: logger, CanHead: canHead})
	if err != nil {
		return err
	}
	defer b.Close()
	// Recording, picking and trying scripts use a browser of their own,
	// started when a session needs it.
	au := author.New(author.Options{BrowserPath: path, CanHead: canHead, DebugPort: o.debugPort, Logger: logger})
	defer au.Close()
	host, _ := os.Hostname()
	cfg := client.Config{Hubs: o.hubs, ConfigDir: o.config, Hostname: host, OS: runtime.GOOS, Arch: runtime.GOARCH,
		Version: version, Parallel: o.parallel, Headless: !canHead, Browser: b.Version(ctx), Runner: browserRunner{b}, Author: au, Logger: logger, Out: os.Stdout}
	if o.hubFrom != "" {
		logger.Info("hub address from "+o.hubFrom, "hub", o.hub)
	}
	logger.Info("agent starting", "version", version, "hub", o.hub, "browser", path, "headless runs", b.Path(), "protocol", protocol.Version, "parallel", o.parallel, "display", canHead)
	if o.headless {
		return runHeadless(ctx, cfg)
	}
	// The tray (tray_on.go) needs the main goroutine: run is called on it.
	return runTray(ctx, cfg)
}

// runHeadless runs the agent without a UI: the pairing code and the
// connection's ups and downs go to the terminal and the log.
func runHeadless(ctx context.Context, cfg client.Config) error {
	return client.New(cfg).Run(ctx)
}

// hasDisplay reports whether windows can be shown: always on macOS and
// Windows, elsewhere when an X11 or Wayland display is set.
func hasDisplay() bool {
	switch runtime.GOOS {
	case "darwin", "windows":
		return true
	}
	return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != ""
}

// browserRunner adapts runner.Browser to client.Runner.
type browserRunner struct{ b *runner.Browser }

func (r browserRunner) Run(ctx context.Context, job protocol.Job, emit client.Emitter) protocol.RunResult {
	return r.b.Run(ctx, job, emit)
}

// runCI is `ta-agent ci` (agent/ci): run tests from a CI pipeline.
func runCI(args []string) int {
	o, err := ci.ParseFlags(args, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ta-agent ci:", err)
		return ci.ExitError
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	host, _ := os.Hostname()
	return ci.Run(ctx, o, ci.Env{Out: os.Stdout, Terminal: isTerminal(os.Stdout), Version: version, Hostname: host,
		OS: runtime.GOOS, Arch: runtime.GOARCH, AgentLog: ciAgentLog(),
		Local: func(ctx context.Context) (client.Runner, func(), error) {
			path, err := runner.FindBrowser(o.Browser)
			if err != nil {
				return nil, nil, err
			}
			b, err := runner.Launch(ctx, runner.Options{BrowserPath: path, HeadlessShell: shellOption(o.HeadlessShell), Logger: slog.New(slog.NewTextHandler(ciAgentLog(), nil))})
			if err != nil {
				return nil, nil, err
			}
			return browserRunner{b}, func() { b.Close() }, nil
		}})
}

// ciAgentLog is where the CI command's agent logs: stderr with
// TA_CI_DEBUG=1, else nowhere (the command prints its own progress).
func ciAgentLog() io.Writer {
	if os.Getenv("TA_CI_DEBUG") != "" {
		return os.Stderr
	}
	return io.Discard
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
