package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Issue 32: --hub takes several hubs, comma-separated or repeated,
// preferred first; AGENT_HUB too; a bad one is refused, named.
func TestHubList(t *testing.T) {
	cfg := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		env  string
		want []string
	}{
		{"one", []string{"--hub", "http://a.test:8080"}, "", []string{"http://a.test:8080"}},
		{"commas", []string{"--hub", "http://a.test, https://b.test/ ,http://c.test"}, "", []string{"http://a.test", "https://b.test", "http://c.test"}},
		{"repeated", []string{"--hub", "http://a.test", "--hub", "http://b.test,http://c.test"}, "", []string{"http://a.test", "http://b.test", "http://c.test"}},
		{"twice and a trailing comma", []string{"--hub", "http://a.test,http://b.test,", "--hub", "http://a.test/"}, "", []string{"http://a.test", "http://b.test"}},
		{"AGENT_HUB", nil, "http://env-a.test,http://env-b.test", []string{"http://env-a.test", "http://env-b.test"}},
		{"--hub wins over AGENT_HUB", []string{"--hub", "http://flag.test"}, "http://env.test", []string{"http://flag.test"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("AGENT_HUB", c.env)
			o, err := parseFlags(append(c.args, "--config", cfg))
			if err != nil || !slices.Equal(o.hubs, c.want) || o.hub != strings.Join(c.want, ",") {
				t.Fatalf("hubs %q (%q), %v; want %q", o.hubs, o.hub, err, c.want)
			}
		})
	}
	for _, bad := range []struct {
		args       []string
		env, named string
	}{
		{[]string{"--hub", "http://a.test,ftp://b.test"}, "", "ftp://b.test"},
		{[]string{"--hub", "http://a.test", "--hub", "b.test:8080"}, "", "b.test:8080"},
		{[]string{"--hub", "javascript:alert(1)"}, "", "javascript:alert(1)"},
		{nil, "http://a.test,file:///etc/passwd", "file:///etc/passwd"},
	} {
		t.Setenv("AGENT_HUB", bad.env)
		_, err := parseFlags(append(bad.args, "--config", cfg))
		if err == nil || !strings.Contains(err.Error(), bad.named) {
			t.Errorf("%q %q: %v, want a refusal naming %q", bad.args, bad.env, err, bad.named)
		}
	}
}

// The package's hub.json may list several hubs, and agent.json keeps the
// list the agent paired with: an agent started without --hub uses it all.
func TestDefaultHubList(t *testing.T) {
	t.Setenv("AGENT_HUB", "")
	dir, cfg := t.TempDir(), t.TempDir()
	write := func(path, body string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(cfg, "agent.json"), `{"hub":"http://a.test","hubs":["http://a.test","http://b.test"],"token":"x"}`)
	if h, _ := defaultHub(nil, cfg); h != "http://a.test,http://b.test" {
		t.Fatalf("from agent.json: %q", h)
	}
	pkg := filepath.Join(dir, "hub.json")
	write(pkg, `{"hub":"https://one.test, https://two.test/"}`)
	if h, from := defaultHub([]string{pkg}, cfg); h != "https://one.test,https://two.test" || from != pkg {
		t.Fatalf("from hub.json: %q %q", h, from)
	}
	write(pkg, `{"hub":"https://one.test,ftp://two.test"}`)
	if h, _ := defaultHub([]string{pkg}, cfg); h != "http://a.test,http://b.test" {
		t.Fatalf("a hub.json with a bad URL is passed over: %q", h)
	}
	o, err := parseFlags([]string{"--config", cfg})
	if err != nil || !slices.Equal(o.hubs, []string{"http://a.test", "http://b.test"}) {
		t.Fatalf("parse: %q %v", o.hubs, err)
	}
}
