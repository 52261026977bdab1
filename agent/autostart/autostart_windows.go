package autostart

import (
	"errors"
	"strings"

	"golang.org/x/sys/windows/registry"
)

// On Windows the entry is the value ta-agent of
// HKCU\Software\Microsoft\Windows\CurrentVersion\Run (Dir is not used).

const runKey = `Software\Microsoft\Windows\CurrentVersion\Run`

// Enabled reports whether the agent starts at login.
func (e Entry) Enabled() bool {
	k, err := registry.OpenKey(registry.CURRENT_USER, runKey, registry.QUERY_VALUE)
	if err != nil {
		return false
	}
	defer k.Close()
	_, _, err = k.GetStringValue(Name)
	return err == nil
}

// Set turns starting at login on or off.
func (e Entry) Set(on bool) error {
	k, _, err := registry.CreateKey(registry.CURRENT_USER, runKey, registry.SET_VALUE)
	if err != nil {
		return err
	}
	defer k.Close()
	if !on {
		if err := k.DeleteValue(Name); err != nil && !errors.Is(err, registry.ErrNotExist) {
			return err
		}
		return nil
	}
	cmd := `"` + e.Exe + `"`
	for _, a := range e.Args {
		cmd += ` "` + strings.ReplaceAll(a, `"`, `\"`) + `"`
	}
	return k.SetStringValue(Name, cmd)
}
