package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --remote-debugging-port takes a port; 0 (the default) leaves DevTools
// closed.
func TestDebugPortFlag(t *testing.T) {
	o, err := parseFlags([]string{"--hub", "http://127.0.0.1:1", "--config", t.TempDir(), "--remote-debugging-port", "9333"})
	if err != nil || o.debugPort != 9333 {
		t.Fatalf("parse: %+v %v", o, err)
	}
	for _, bad := range []string{"-1", "65536", "x"} {
		_, err := parseFlags([]string{"--hub", "http://127.0.0.1:1", "--config", t.TempDir(), "--remote-debugging-port", bad})
		if err == nil {
			t.Errorf("--remote-debugging-port %s accepted", bad)
		} else if bad != "x" && !strings.Contains(err.Error(), "1 to 65535") {
			t.Errorf("--remote-debugging-port %s: %v", bad, err)
		}
	}
}

// An agent started without --hub takes its hub from the package it came
// in (its hub added hub.json), else from the hub it paired with last.
func TestDefaultHub(t *testing.T) {
	dir, cfg := t.TempDir(), t.TempDir()
	pkg := filepath.Join(dir, "hub.json")
	etc := filepath.Join(dir, "etc-hub.json")
	if h, _ := defaultHub([]string{pkg, etc}, cfg); h != "" {
		t.Fatalf("nothing known, yet %q", h)
	}
	write := func(path, body string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(cfg, "agent.json"), `{"hub":"http://paired.test:8080","token":"x"}`)
	if h, from := defaultHub([]string{pkg, etc}, cfg); h != "http://paired.test:8080" || from != filepath.Join(cfg, "agent.json") {
		t.Fatalf("from the last pairing: %q %q", h, from)
	}
	write(etc, `{"hub":"https://etc.test/"}`)
	if h, _ := defaultHub([]string{pkg, etc}, cfg); h != "https://etc.test" {
		t.Fatalf("from /etc: %q", h)
	}
	write(pkg, `{"hub":"https://beside.test"}`)
	if h, from := defaultHub([]string{pkg, etc}, cfg); h != "https://beside.test" || from != pkg {
		t.Fatalf("beside the agent: %q %q", h, from)
	}
	for _, bad := range []string{`{"hub":"ftp://x"}`, `not json`, `{"hub":""}`, `{"hub":"javascript:alert(1)"}`} {
		write(pkg, bad)
		if h, _ := defaultHub([]string{pkg, etc}, cfg); h != "https://etc.test" {
			t.Errorf("%s: %q", bad, h)
		}
	}
	// --hub and AGENT_HUB win over every file.
	o, err := parseFlags([]string{"--hub", "http://flag.test", "--config", cfg})
	if err != nil || o.hub != "http://flag.test" || o.hubFrom != "" {
		t.Fatalf("flag: %+v %v", o, err)
	}
	if o, err := parseFlags([]string{"--version"}); err != nil || !o.version {
		t.Fatalf("--version: %+v %v", o, err)
	}
}
