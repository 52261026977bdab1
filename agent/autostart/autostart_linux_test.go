package autostart

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Start at login writes the user's XDG entry; turning it off keeps an entry
// that hides the package's system-wide one; a path with spaces is quoted.
func TestLinuxEntry(t *testing.T) {
	dir := t.TempDir()
	e := Entry{Exe: "/opt/my agent/ta-agent", Args: []string{"--hub", "http://127.0.0.1:8080"}, Dir: dir}
	if e.Enabled() {
		t.Fatal("enabled before anything was written")
	}
	if err := e.Set(true); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "ta-agent.desktop"))
	if !e.Enabled() || !strings.Contains(string(data), `Exec="/opt/my agent/ta-agent" --hub http://127.0.0.1:8080`+"\n") {
		t.Fatalf("on:\n%s", data)
	}
	if err := e.Set(false); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(filepath.Join(dir, "ta-agent.desktop"))
	if e.Enabled() || !strings.Contains(string(data), "Hidden=true") {
		t.Fatalf("off:\n%s", data)
	}
	// XDG_CONFIG_HOME decides where the user's entry lives.
	t.Setenv("XDG_CONFIG_HOME", dir)
	if p, _ := (Entry{}).path(); p != filepath.Join(dir, "autostart", "ta-agent.desktop") {
		t.Errorf("path %s", p)
	}
	for in, want := range map[string]string{"plain": "plain", "a b": `"a b"`, `$HOME`: `"\$HOME"`, "50%": `"50%%"`} {
		if got := quoteExec(in); got != want {
			t.Errorf("quoteExec(%q) = %q, want %q", in, got, want)
		}
	}
}
