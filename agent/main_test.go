package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// buildAgent builds this command as users get it (with the tray, unless
// the tests run with -tags headless).
func buildAgent(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "agent")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// The agent starts without Fyne's complaint about the C locale (Debian's
// C.UTF-8 in containers and services), and --help names its config folder
// readably.
func TestStartIsQuiet(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the C locale's noise is a Linux matter")
	}
	bin := buildAgent(t)
	for _, lang := range []string{"C.UTF-8", "C", "POSIX", "en_US.UTF-8"} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		cmd := exec.CommandContext(ctx, bin, "--hub", "http://127.0.0.1:1", "--headless", "--config", t.TempDir(),
			"--browser", "/bin/true-but-missing")
		cmd.Env = append(clean(os.Environ()), "LANG="+lang)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		_ = cmd.Run()
		cancel()
		if strings.Contains(stderr.String(), "Fyne error") || strings.Contains(stderr.String(), "locale") {
			t.Errorf("LANG=%s: stderr says\n%s", lang, stderr.String())
		}
	}

	out, _ := exec.Command(bin, "--help").CombinedOutput()
	dir, _ := os.UserConfigDir()
	want := "(default " + filepath.Join(dir, "testautomation-agent") + ")"
	if !strings.Contains(string(out), want) || strings.Contains(string(out), ")/") {
		t.Errorf("--help: want %q in\n%s", want, out)
	}
}

// clean drops the locale settings of the environment the tests run in.
func clean(env []string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if k != "LANG" && k != "LANGUAGE" && k != "LC_ALL" && k != "LC_MESSAGES" {
			out = append(out, kv)
		}
	}
	return out
}
