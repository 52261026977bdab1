package client

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWSURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:8080":          "ws://127.0.0.1:8080/api/agent/connect",
		"https://hub.example.com/":       "wss://hub.example.com/api/agent/connect",
		"https://example.com/ta":         "wss://example.com/ta/api/agent/connect",
		"ftp://x":                        "",
		"127.0.0.1:8080":                 "",
		"":                               "",
		"http://hub.example.com/base///": "ws://hub.example.com/base/api/agent/connect",
	} {
		got, err := wsURL(in)
		if (err != nil) != (want == "") || got != want {
			t.Errorf("wsURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// The token is kept 0600, per hub: a token for another hub is not used.
func TestTokenFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cfg")
	c := New(Config{HubURL: "http://a.example", ConfigDir: dir})
	if c.Token() != "" {
		t.Fatal("token before pairing")
	}
	if err := c.saveToken("agt_x", "secret-token"); err != nil {
		t.Fatal(err)
	}
	if c.Token() != "secret-token" {
		t.Fatalf("token %q", c.Token())
	}
	info, err := os.Stat(c.tokenPath())
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode: %v %v", info.Mode(), err)
	}
	if d, _ := os.Stat(dir); d.Mode().Perm() != 0o700 {
		t.Errorf("config folder mode %v", d.Mode())
	}
	other := New(Config{HubURL: "http://b.example", ConfigDir: dir})
	if other.Token() != "" {
		t.Error("a token paired with one hub was offered to another")
	}
}
