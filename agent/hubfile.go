package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Where an installed agent learns its hub when neither --hub nor AGENT_HUB
// says: the hub.json its hub added to the package it served (beside the
// executable in an archive, in the .app bundle's Resources, or
// /etc/ta-agent/hub.json from the Debian package), else the hub it paired
// with last (its config folder's agent.json).

// hubFiles lists the package's hub files for the executable at exe.
func hubFiles(exe string) []string {
	dir := filepath.Dir(exe)
	out := []string{filepath.Join(dir, "hub.json")}
	if runtime.GOOS == "darwin" {
		out = append(out, filepath.Join(dir, "..", "Resources", "hub.json"))
	}
	if runtime.GOOS == "linux" && filepath.Base(dir) == "bin" && filepath.Base(filepath.Dir(dir)) == "usr" {
		// installed from the .deb: <root>/usr/bin/ta-agent reads
		// <root>/etc/ta-agent/hub.json (root is / but for `dpkg -x`)
		out = append(out, filepath.Join(dir, "..", "..", "etc", "ta-agent", "hub.json"))
	}
	return out
}

// defaultHub finds the hub address, and where it came from, for an agent
// started without one.
func defaultHub(files []string, configDir string) (hub, from string) {
	read := func(path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			return ""
		}
		var f struct {
			Hub string `json:"hub"`
		}
		if json.Unmarshal(data, &f) != nil {
			return ""
		}
		h := strings.TrimSpace(f.Hub)
		if !strings.HasPrefix(h, "http://") && !strings.HasPrefix(h, "https://") {
			return ""
		}
		return strings.TrimRight(h, "/")
	}
	for _, p := range files {
		if h := read(p); h != "" {
			return h, p
		}
	}
	p := filepath.Join(configDir, "agent.json")
	if h := read(p); h != "" {
		return h, p
	}
	return "", ""
}
