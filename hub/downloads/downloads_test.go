package downloads_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/downloads"
	"github.com/testautomation/ta/installer"
)

func TestParse(t *testing.T) {
	for name, want := range map[string]string{
		"ta-agent_0.1.0_linux_amd64.deb":             "linux amd64 deb 0.1.0",
		"ta-agent_0.1.0-rc.1_linux_arm64.tar.gz":     "linux arm64 tar.gz 0.1.0-rc.1",
		"ta-agent_1.2.3_windows_amd64-setup.exe":     "windows amd64 exe 1.2.3",
		"ta-agent_1.2.3_macos_arm64.zip":             "macos arm64 zip 1.2.3",
		"ta-agent_1.2.3_linux_amd64.rpm":             "",
		"ta-agent_1.2.3_beos_amd64.deb":              "",
		"../ta-agent_1.2.3_linux_amd64.deb":          "",
		"ta-agent_1.2.3_linux_amd64.deb.tmp":         "",
		"ta-agent__linux_amd64.deb":                  "",
		"ta-agent_1 2_linux_amd64.deb":               "",
		"ta-agent_0.1.0_linux_amd64_linux_amd64.deb": "",
	} {
		f, ok := downloads.Parse(name)
		got := ""
		if ok {
			got = f.OS + " " + f.Arch + " " + f.Kind + " " + f.Version
		}
		if got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func readHubJSON(t *testing.T, data []byte) string {
	t.Helper()
	var h downloads.HubFile
	if err := json.Unmarshal(data, &h); err != nil {
		t.Fatalf("hub.json %q: %v", data, err)
	}
	return h.Hub
}

// Served packages carry the hub's address: hub.json beside the agent in a
// .tar.gz, in the .app's Resources in a .zip, /etc/ta-agent/hub.json in a
// .deb that dpkg still reads; the listed checksum is the served bytes'.
func TestStampedDownloads(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
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
	w, _ := zw.Create("TA Agent.app/Contents/MacOS/ta-agent")
	_, _ = w.Write([]byte("bin"))
	_ = zw.Close()
	if err := os.WriteFile(filepath.Join(dir, "ta-agent_0.1.0_macos_arm64.zip"), zb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// An older version of the same download, and files that are not downloads.
	old := filepath.Join(dir, "ta-agent_0.0.9_linux_amd64.tar.gz")
	_ = os.WriteFile(old, []byte("old"), 0o644)
	_ = os.Chtimes(old, time.Now().Add(-time.Hour), time.Now().Add(-time.Hour))
	_ = os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte("x"), 0o644)
	_ = os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)

	d := &downloads.Dir{Path: dir, Cache: cache, HubURL: "https://hub.example:8443"}
	list, err := d.List()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range list {
		got = append(got, f.File)
	}
	if strings.Join(got, " ") != "ta-agent_0.1.0_linux_amd64.deb ta-agent_0.1.0_linux_amd64.tar.gz ta-agent_0.1.0_macos_arm64.zip" {
		t.Fatalf("listed %v", got)
	}
	served := func(f downloads.File) []byte {
		file, _, err := d.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		defer file.Close()
		data, _ := io.ReadAll(file)
		if sum(data) != f.SHA256 || int64(len(data)) != f.Size {
			t.Fatalf("%s: listed %s/%d, served %s/%d", f.File, f.SHA256, f.Size, sum(data), len(data))
		}
		return data
	}
	// .tar.gz
	zr, err := gzip.NewReader(bytes.NewReader(served(list[1])))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	found := ""
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Name == "ta-agent/hub.json" {
			data, _ := io.ReadAll(tr)
			found = readHubJSON(t, data)
		}
	}
	if found != "https://hub.example:8443" {
		t.Errorf("tar.gz hub.json: %q", found)
	}
	// .zip
	data := served(list[2])
	zrd, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	found = ""
	for _, f := range zrd.File {
		if f.Name == "TA Agent.app/Contents/Resources/hub.json" {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			found = readHubJSON(t, b)
		}
	}
	if found != "https://hub.example:8443" {
		t.Errorf("zip hub.json: %q", found)
	}
	// .deb, read back by dpkg
	if _, err := exec.LookPath("dpkg-deb"); err != nil {
		t.Skip("dpkg-deb is not installed")
	}
	deb := filepath.Join(t.TempDir(), "s.deb")
	_ = os.WriteFile(deb, served(list[0]), 0o644)
	root := t.TempDir()
	if out, err := exec.Command("dpkg-deb", "-x", deb, root).CombinedOutput(); err != nil {
		t.Fatalf("dpkg-deb -x: %v %s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(root, "etc/ta-agent/hub.json"))
	if err != nil || readHubJSON(t, b) != "https://hub.example:8443" {
		t.Fatalf("deb hub.json: %q %v", b, err)
	}
	if out, err := exec.Command("dpkg-deb", "-f", deb, "Package").Output(); err != nil || strings.TrimSpace(string(out)) != "ta-agent" {
		t.Errorf("the stamped package's control: %q %v", out, err)
	}

	// A damaged package is served as it is (its checksum shows it), never an error.
	broken := filepath.Join(dir, "ta-agent_0.1.0_linux_arm64.deb")
	_ = os.WriteFile(broken, []byte("!<arch>\nnot really"), 0o644)
	list, err = d.List()
	if err != nil || len(list) != 4 {
		t.Fatalf("with a damaged package: %v %v", list, err)
	}
	for _, f := range list {
		if f.File == filepath.Base(broken) && f.SHA256 != sum([]byte("!<arch>\nnot really")) {
			t.Errorf("damaged package's sum %s", f.SHA256)
		}
	}
	// A download removed after it was listed: Open says it does not exist
	// (the route answers 404), and Pick chooses by preference.
	gone, ok := downloads.Pick(list, "linux", "amd64", "")
	if !ok || gone.Kind != "deb" {
		t.Fatalf("picked %+v %v", gone, ok)
	}
	if f, ok := downloads.Pick(list, "linux", "amd64", "tar.gz"); !ok || f.Kind != "tar.gz" {
		t.Fatalf("picked by kind %+v %v", f, ok)
	}
	if _, ok := downloads.Pick(list, "windows", "amd64", ""); ok {
		t.Fatal("picked a download that is not there")
	}
	if err := os.Remove(filepath.Join(dir, gone.File)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.Open(gone); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("opening a removed download: %v", err)
	}
	// A missing folder is no downloads.
	if l, err := (&downloads.Dir{Path: filepath.Join(dir, "nope")}).List(); err != nil || len(l) != 0 {
		t.Errorf("missing folder: %v %v", l, err)
	}
}
