//go:build !headless

package main

import (
	"context"
	"errors"
	"os"
	"strings"

	"github.com/testautomation/ta/agent/autostart"
	"github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/agent/tray"
)

// runTray runs the agent with its tray icon: the client in a goroutine and
// the tray, which Fyne needs on the main thread, on this goroutine, which
// must be the main one. Quit in the tray stops the agent; the agent
// stopping (a signal) closes the tray. With no display it runs headless.
func runTray(ctx context.Context, cfg client.Config) error {
	if !hasDisplay() {
		cfg.Logger.Info("no display (DISPLAY and WAYLAND_DISPLAY are empty); running headless")
		return runHeadless(ctx, cfg)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	changes := tray.NewChanges()
	cfg.OnState = changes.OnState
	cl := client.New(cfg)
	done := make(chan error, 1)
	go func() {
		err := cl.Run(ctx)
		cancel() // closes the tray if the client stopped on its own
		done <- err
	}()
	exe, _ := os.Executable()
	err := tray.Run(ctx, tray.Config{Hub: cl.Hubs()[0], State: cl.State, Changed: changes, Quit: cancel, Logger: cfg.Logger,
		Pause: cl.SetPaused, OpenPairing: true, Autostart: autostart.Entry{Exe: exe, Args: []string{"--hub", strings.Join(cl.Hubs(), ",")}}})
	if errors.Is(err, tray.ErrNoTray) {
		cfg.Logger.Warn("no tray; running headless", "err", err)
	} else if err != nil {
		cancel()
		<-done
		return err
	}
	return <-done
}
