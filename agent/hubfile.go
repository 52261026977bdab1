package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/testautomation/ta/agent/client"
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

// defaultHub finds the hub addresses (separated by commas when several),
// and where they came from, for an agent started without any. A file's
// "hub" may list several, as --hub does; agent.json keeps a list in "hubs"
// too. A file with a URL that is not http(s) is passed over whole.
func defaultHub(files []string, configDir string) (hubs, from string) {
	read := func(path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			return ""
		}
		var f struct {
			Hub  string   `json:"hub"`
			Hubs []string `json:"hubs"`
		}
		if json.Unmarshal(data, &f) != nil {
			return ""
		}
		list, err := client.ParseHubs(append(f.Hubs, f.Hub)...)
		if err != nil {
			return ""
		}
		return strings.Join(list, ",")
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
