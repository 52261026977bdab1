//go:build !linux && !darwin && !windows

package autostart

import "errors"

// Enabled: no autostart on this system.
func (e Entry) Enabled() bool { return false }

// Set is not supported here.
func (e Entry) Set(bool) error {
	return errors.New("starting at login is not supported on this system")
}
