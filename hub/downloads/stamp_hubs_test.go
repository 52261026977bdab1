package downloads_test

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/downloads"
	"github.com/testautomation/ta/installer"
)

// TestStampSameOnEveryHub: two hubs behind one address, stamping the same
// installers a while apart, list the same SHA-256 for each package, so a
// checksum read on one hub's Agents page matches a download from another.
func TestStampSameOnEveryHub(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(t.TempDir(), "ta-agent")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := installer.TarGz(bin, filepath.Join(dir, "ta-agent_0.1.0_linux_amd64.tar.gz")); err != nil {
		t.Fatal(err)
	}
	if err := installer.Deb(installer.DebInfo{Version: "0.1.0", Arch: "amd64", Binary: bin}, filepath.Join(dir, "ta-agent_0.1.0_linux_amd64.deb")); err != nil {
		t.Fatal(err)
	}
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "TA Agent.app/Contents/MacOS/ta-agent", Modified: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)})
	_, _ = w.Write([]byte("bin"))
	_ = zw.Close()
	if err := os.WriteFile(filepath.Join(dir, "ta-agent_0.1.0_macos_arm64.zip"), zb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	list := func() map[string]string {
		d := &downloads.Dir{Path: dir, Cache: t.TempDir(), HubURL: "https://tests.example.com"}
		files, err := d.List()
		if err != nil {
			t.Fatal(err)
		}
		sums := map[string]string{}
		for _, f := range files {
			sums[f.File] = f.SHA256
		}
		return sums
	}
	a := list()
	time.Sleep(1100 * time.Millisecond) // archives keep whole seconds
	b := list()
	if len(a) != 3 {
		t.Fatalf("listed %v", a)
	}
	for name, sum := range a {
		if b[name] != sum {
			t.Errorf("%s: one hub lists %s, the other %s", name, sum, b[name])
		}
	}
}
