package autostart

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
)

// On macOS the entry is a launchd agent:
// ~/Library/LaunchAgents/com.testautomation.agent.plist with RunAtLoad.

const label = "com.testautomation.agent"

func (e Entry) path() (string, error) {
	dir := e.Dir
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(home, "Library", "LaunchAgents")
	}
	return filepath.Join(dir, label+".plist"), nil
}

// Enabled reports whether the agent starts at login.
func (e Entry) Enabled() bool {
	p, err := e.path()
	if err != nil {
		return false
	}
	_, err = os.Stat(p)
	return err == nil
}

// Set turns starting at login on or off.
func (e Entry) Set(on bool) error {
	p, err := e.path()
	if err != nil {
		return err
	}
	if !on {
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			return err
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	esc := func(s string) string {
		var b strings.Builder
		_ = xml.EscapeText(&b, []byte(s))
		return b.String()
	}
	args := "<string>" + esc(e.Exe) + "</string>"
	for _, a := range e.Args {
		args += "<string>" + esc(a) + "</string>"
	}
	body := `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict>
<key>Label</key><string>` + label + `</string>
<key>ProgramArguments</key><array>` + args + `</array>
<key>RunAtLoad</key><true/>
<key>ProcessType</key><string>Interactive</string>
</dict></plist>
`
	return os.WriteFile(p, []byte(body), 0o644)
}
