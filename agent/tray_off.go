//go:build headless

package main

import (
	"context"
	"os/exec"
	"runtime"
	"sync"

	"github.com/testautomation/ta/agent/client"
)

// runTray runs without a tray (this build leaves Fyne and cgo out), on a
// desktop: as the tray does, it opens the pairing page in the browser the
// first time the agent waits for approval (the macOS app started from
// Finder has no terminal to print the code to).
func runTray(ctx context.Context, cfg client.Config) error {
	cfg.Logger.Info("this build has no tray (built with -tags headless); running without one")
	var once sync.Once
	prev := cfg.OnState
	cfg.OnState = func(st client.State) {
		if prev != nil {
			prev(st)
		}
		if st.Phase == "pairing" && st.PairURL != "" {
			once.Do(func() {
				if err := openBrowser(st.PairURL); err != nil {
					cfg.Logger.Warn("could not open the pairing page", "url", st.PairURL, "err", err)
				}
			})
		}
	}
	return runHeadless(ctx, cfg)
}

// openBrowser opens a page in the user's default browser.
func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait() //nolint:errcheck // reaped; the browser lives on
	return nil
}
