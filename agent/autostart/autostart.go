// Package autostart turns "start the agent at login" on and off for the
// current user: an XDG autostart entry on Linux, a launchd agent on macOS,
// the Run key of the registry on Windows. The tray's "Start at login"
// toggles it.
package autostart

// Name identifies the agent's entry in each system.
const Name = "ta-agent"

// Entry is the current user's autostart entry for the executable Exe
// (with Args).
type Entry struct {
	Exe  string
	Args []string
	// Dir overrides the folder the entry lives in (tests); "" is the
	// system's for the current user.
	Dir string
}
