// Command agent is the desktop agent: it pairs with a hub, keeps one
// Chromium warm and runs the tests the hub assigns to it, streaming events,
// screenshots and results back.
//
//	go run ./agent --hub http://127.0.0.1:8080 --headless
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
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"

	"github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/agent/runner"
	"github.com/testautomation/ta/protocol"
)

// version is the agent's build, set with -ldflags "-X main.version=...".
var version = "dev"

type options struct {
	hub, config, browser string
	headless             bool
	parallel             int
}

func parseFlags(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("agent", flag.ContinueOnError)
	fs.StringVar(&o.hub, "hub", os.Getenv("AGENT_HUB"), "the hub's address, e.g. http://127.0.0.1:8080 (AGENT_HUB)")
	fs.StringVar(&o.config, "config", "", "folder for the agent's token (default: the user config folder)/testautomation-agent")
	fs.StringVar(&o.browser, "browser", "", "Chromium or Google Chrome to drive (default: found on PATH)")
	fs.BoolVar(&o.headless, "headless", false, "run without a tray icon (servers, CI)")
	fs.IntVar(&o.parallel, "parallel", 1, "runs at once")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.hub == "" {
		return o, errors.New("--hub is required, e.g. --hub http://127.0.0.1:8080")
	}
	if o.parallel < 1 || o.parallel > 16 {
		return o, errors.New("--parallel must be from 1 to 16")
	}
	if o.config == "" {
		dir, err := os.UserConfigDir()
		if err != nil {
			return o, fmt.Errorf("no user config folder (%v): pass --config", err)
		}
		o.config = filepath.Join(dir, "testautomation-agent")
	}
	return o, nil
}

func main() {
	o, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "agent:", err)
		os.Exit(2)
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
	if !o.headless && !trayAvailable {
		logger.Info("this build has no tray icon; running headless")
	}
	b, err := runner.Launch(ctx, runner.Options{BrowserPath: path, Logger: logger,
		CanHead: os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != ""})
	if err != nil {
		return err
	}
	defer b.Close()
	host, _ := os.Hostname()
	cl := client.New(client.Config{HubURL: o.hub, ConfigDir: o.config, Hostname: host, OS: runtime.GOOS,
		Version: version, Parallel: o.parallel, Runner: browserRunner{b}, Logger: logger, Out: os.Stdout})
	logger.Info("agent starting", "hub", o.hub, "browser", path, "protocol", protocol.Version, "parallel", o.parallel)
	return cl.Run(ctx)
}

// trayAvailable is true in builds that include the tray UI.
var trayAvailable = false

// browserRunner adapts runner.Browser to client.Runner.
type browserRunner struct{ b *runner.Browser }

func (r browserRunner) Run(ctx context.Context, job protocol.Job, emit client.Emitter) protocol.RunResult {
	return r.b.Run(ctx, job, emit)
}
