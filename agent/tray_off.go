//go:build headless

package main

import (
	"context"

	"github.com/testautomation/ta/agent/client"
)

// runTray runs headless: this build leaves the tray (Fyne, cgo) out.
func runTray(ctx context.Context, cfg client.Config) error {
	cfg.Logger.Info("this build has no tray (built with -tags headless); running headless")
	return runHeadless(ctx, cfg)
}
