package autostart

import (
	"os"
	"path/filepath"
	"strings"
)

// On Linux the entry is ~/.config/autostart/ta-agent.desktop (XDG). The
// Debian package also installs /etc/xdg/autostart/ta-agent.desktop for
// every user; a user's own entry of the same name overrides it, so turning
// autostart off writes one with Hidden=true.

// systemEntry is where the Debian package puts its autostart entry.
var systemEntry = "/etc/xdg/autostart/" + Name + ".desktop"

func (e Entry) path() (string, error) {
	dir := e.Dir
	if dir == "" {
		base := os.Getenv("XDG_CONFIG_HOME")
		if base == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", err
			}
			base = filepath.Join(home, ".config")
		}
		dir = filepath.Join(base, "autostart")
	}
	return filepath.Join(dir, Name+".desktop"), nil
}

// Enabled reports whether the agent starts at login.
func (e Entry) Enabled() bool {
	p, err := e.path()
	if err != nil {
		return false
	}
	data, err := os.ReadFile(p)
	if err != nil {
		_, sysErr := os.Stat(systemEntry)
		return e.Dir == "" && sysErr == nil
	}
	return !hidden(string(data))
}

func hidden(entry string) bool {
	for _, line := range strings.Split(entry, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if ok && (k == "Hidden" && strings.EqualFold(v, "true") || k == "X-GNOME-Autostart-enabled" && strings.EqualFold(v, "false")) {
			return true
		}
	}
	return false
}

// Set turns starting at login on or off.
func (e Entry) Set(on bool) error {
	p, err := e.path()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	exec := quoteExec(e.Exe)
	for _, a := range e.Args {
		exec += " " + quoteExec(a)
	}
	body := "[Desktop Entry]\nType=Application\nName=Test Automation Agent\nExec=" + exec + "\nIcon=ta-agent\nTerminal=false\n"
	if on {
		body += "X-GNOME-Autostart-enabled=true\n"
	} else {
		body += "Hidden=true\nX-GNOME-Autostart-enabled=false\n"
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

// quoteExec quotes an argument of a desktop entry's Exec key.
func quoteExec(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n\"'\\><~|&;$*?#()`%") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`", `$`, `\$`, `%`, `%%`)
	return `"` + r.Replace(s) + `"`
}
