package client

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
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

// Issue 26: a token file or folder others can read (left by an older
// agent, a copy or a loose umask) is made owner-only when the agent
// starts, and a new token never lands in a file others can read.
func TestTokenFileMadeOwnerOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cfg")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "agent.json")
	if err := os.WriteFile(path, []byte(`{"hub":"http://127.0.0.1:1","token":"t"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil { // whatever the umask
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	c := New(Config{HubURL: "http://127.0.0.1:1", ConfigDir: dir, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_ = c.Run(ctx)
	if d, _ := os.Stat(dir); d.Mode().Perm() != 0o700 {
		t.Errorf("config folder left %v", d.Mode().Perm())
	}
	if f, _ := os.Stat(path); f.Mode().Perm() != 0o600 {
		t.Errorf("token file left %v", f.Mode().Perm())
	}

	// Saving over a folder and a leftover temporary file others can read.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+".tmp", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path+".tmp", 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.saveToken("agt_x", "rotated"); err != nil {
		t.Fatal(err)
	}
	if f, _ := os.Stat(path); f.Mode().Perm() != 0o600 || c.Token() != "rotated" {
		t.Errorf("saved token file %v, token %q", f.Mode().Perm(), c.Token())
	}
	if d, _ := os.Stat(dir); d.Mode().Perm() != 0o700 {
		t.Errorf("config folder after saving %v", d.Mode().Perm())
	}
}
