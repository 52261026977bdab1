package installer

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// fakeAgent is a small executable standing in for the agent.
func fakeAgent(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "ta-agent")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho ta-agent 9.9.9\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func need(t *testing.T, tool string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Skipf("%s is not installed", tool)
	}
}

// The .deb reads back with Debian's own tool: its control data, its file
// list with modes, its maintainer scripts; unpacked, the agent runs.
func TestDebReadsBackWithDpkg(t *testing.T) {
	need(t, "dpkg-deb")
	deb := filepath.Join(t.TempDir(), "a.deb")
	if err := Deb(DebInfo{Version: "1.2.3", Arch: "amd64", Binary: fakeAgent(t), IconPNG: filepath.Join("..", Icon), Tray: true}, deb); err != nil {
		t.Fatal(err)
	}
	field := func(name string) string {
		out, err := exec.Command("dpkg-deb", "-f", deb, name).Output()
		if err != nil {
			t.Fatalf("dpkg-deb -f %s: %v", name, err)
		}
		return strings.TrimSpace(string(out))
	}
	for name, want := range map[string]string{"Package": "ta-agent", "Version": "1.2.3", "Architecture": "amd64", "Section": "devel",
		"Recommends": "chromium | google-chrome-stable, chromium-headless-shell"} {
		if got := field(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if d := field("Depends"); !strings.Contains(d, "libgl1") || !strings.Contains(d, "libxcursor1") {
		t.Errorf("the tray build's Depends: %q", d)
	}
	list, err := exec.Command("dpkg-deb", "-c", deb).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"-rwxr-xr-x root/root", "./usr/bin/ta-agent", "./usr/share/applications/ta-agent.desktop",
		"./etc/xdg/autostart/ta-agent.desktop", "./usr/share/icons/hicolor/256x256/apps/ta-agent.png"} {
		if !strings.Contains(string(list), want) {
			t.Errorf("file list lacks %q:\n%s", want, list)
		}
	}
	ctl := t.TempDir()
	if out, err := exec.Command("dpkg-deb", "-e", deb, ctl).CombinedOutput(); err != nil {
		t.Fatalf("dpkg-deb -e: %v %s", err, out)
	}
	for _, name := range []string{"postinst", "prerm", "postrm"} {
		info, err := os.Stat(filepath.Join(ctl, name))
		if err != nil || info.Mode().Perm()&0o111 == 0 {
			t.Errorf("%s: %v %v", name, info, err)
			continue
		}
		if out, err := exec.Command("sh", "-n", filepath.Join(ctl, name)).CombinedOutput(); err != nil {
			t.Errorf("%s is not valid sh: %s", name, out)
		}
	}
	if conf, _ := os.ReadFile(filepath.Join(ctl, "conffiles")); !strings.Contains(string(conf), "/etc/xdg/autostart/ta-agent.desktop") {
		t.Errorf("the autostart entry is not a conffile (a user's change would be lost on upgrade): %q", conf)
	}
	root := t.TempDir()
	if out, err := exec.Command("dpkg-deb", "-x", deb, root).CombinedOutput(); err != nil {
		t.Fatalf("dpkg-deb -x: %v %s", err, out)
	}
	if out, err := exec.Command(filepath.Join(root, "usr/bin/ta-agent")).Output(); err != nil || string(out) != "ta-agent 9.9.9\n" {
		t.Errorf("the unpacked agent: %q %v", out, err)
	}
	entry, _ := os.ReadFile(filepath.Join(root, "usr/share/applications/ta-agent.desktop"))
	if !strings.Contains(string(entry), "Exec=/usr/bin/ta-agent\n") {
		t.Errorf("desktop entry:\n%s", entry)
	}
	if out, err := exec.Command("desktop-file-validate", filepath.Join(root, "usr/share/applications/ta-agent.desktop")).CombinedOutput(); err == nil && len(out) > 0 {
		t.Errorf("desktop-file-validate: %s", out)
	}
}

// The headless build needs no desktop libraries.
func TestDebHeadlessHasNoDesktopDepends(t *testing.T) {
	need(t, "dpkg-deb")
	deb := filepath.Join(t.TempDir(), "a.deb")
	if err := Deb(DebInfo{Version: "1.2.3", Arch: "arm64", Binary: fakeAgent(t)}, deb); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command("dpkg-deb", "-f", deb, "Depends", "Architecture").Output()
	if strings.Contains(string(out), "libgl1") || !strings.Contains(string(out), "arm64") {
		t.Errorf("headless arm64 package: %s", out)
	}
}

func tarNames(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var names []string
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
	}
}

// Build packages every target, names the files as the hub expects, and
// writes SHA256SUMS that `sha256sum -c` accepts; a changed byte fails it.
func TestBuildWritesPackagesAndSums(t *testing.T) {
	need(t, "sha256sum")
	need(t, "makensis")
	need(t, "osslsigncode")
	out := t.TempDir()
	bin, exe := fakeAgent(t), tinyWindowsExe(t)
	made, err := Build(context.Background(), Options{Out: out, Repo: "..", Version: "0.3.0", Commit: "abc",
		Targets: DefaultTargets(), Binary: func(t Target) (string, error) {
			if t.OS == "windows" {
				return exe, nil
			}
			return bin, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ta-agent_0.3.0_linux_amd64.deb", "ta-agent_0.3.0_linux_amd64.tar.gz", "ta-agent_0.3.0_linux_arm64.deb", "ta-agent_0.3.0_linux_arm64.tar.gz",
		"ta-agent_0.3.0_windows_amd64-setup.exe", "ta-agent_0.3.0_macos_amd64.zip", "ta-agent_0.3.0_macos_arm64.zip", "ta-agent-dev-signing.crt"}
	if !slices.Equal(made, want) {
		t.Fatalf("made %v, want %v", made, want)
	}
	// The Windows installer's signature verifies with the published development certificate.
	if err := (Signer{CA: filepath.Join(out, "ta-agent-dev-signing.crt")}).Verify(context.Background(), filepath.Join(out, want[4])); err != nil {
		t.Error(err)
	}
	// The macOS zip is an app bundle whose agent is executable.
	zr, err := zip.OpenReader(filepath.Join(out, want[6]))
	if err != nil {
		t.Fatal(err)
	}
	modes := map[string]os.FileMode{}
	for _, f := range zr.File {
		modes[f.Name] = f.Mode()
	}
	zr.Close()
	if modes["TA Agent.app/Contents/MacOS/ta-agent"]&0o111 == 0 || modes["TA Agent.app/Contents/Info.plist"] == 0 ||
		modes["TA Agent.app/Contents/Resources/com.testautomation.agent.plist"] == 0 {
		t.Errorf("macOS zip: %v", modes)
	}
	if names := tarNames(t, filepath.Join(out, want[1])); !slices.Equal(names, []string{"ta-agent/", "ta-agent/ta-agent", "ta-agent/ta-agent.desktop", "ta-agent/README.txt"}) {
		t.Errorf("tar.gz holds %v", names)
	}
	check := exec.Command("sha256sum", "-c", "SHA256SUMS")
	check.Dir = out
	if msg, err := check.CombinedOutput(); err != nil {
		t.Fatalf("sha256sum -c: %v\n%s", err, msg)
	}
	// A truncated download: the checksum says so.
	p := filepath.Join(out, want[0])
	data, _ := os.ReadFile(p)
	if err := os.WriteFile(p, data[:len(data)-10], 0o644); err != nil {
		t.Fatal(err)
	}
	check = exec.Command("sha256sum", "-c", "SHA256SUMS")
	check.Dir = out
	if msg, err := check.CombinedOutput(); err == nil || !strings.Contains(string(msg), want[0]+": FAILED") {
		t.Errorf("a truncated package passed: %s", msg)
	}

	// Publish puts them where a hub serves them.
	dl := t.TempDir()
	if err := Publish(out, dl, made[1:]); err != nil {
		t.Fatal(err)
	}
	sums, _ := os.ReadFile(filepath.Join(dl, "SHA256SUMS"))
	if strings.Count(string(sums), "\n") != len(made)-2 { // not the certificate: it is no download
		t.Errorf("published sums:\n%s", sums)
	}
	if _, err := Build(context.Background(), Options{Out: out, Version: "1", Targets: []Target{{OS: "plan9", Arch: "amd64"}},
		Binary: func(Target) (string, error) { return bin, nil }}); err == nil {
		t.Error("an OS without packaging built")
	}
}

// The agent builds with its version and commit stamped in (agent --version).
func TestBuildStampsVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the agent")
	}
	need(t, "dpkg-deb")
	out := t.TempDir()
	repo, _ := filepath.Abs("..")
	target := Target{OS: "linux", Arch: runtime.GOARCH}
	if _, err := Build(context.Background(), Options{Out: out, Repo: repo, Version: "0.4.2", Commit: "deadbeef", Targets: []Target{target}}); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if msg, err := exec.Command("dpkg-deb", "-x", filepath.Join(out, FileName("0.4.2", target, ".deb")), root).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, msg)
	}
	got, err := exec.Command(filepath.Join(root, "usr/bin/ta-agent"), "--version").Output()
	if err != nil || !strings.HasPrefix(string(got), "ta-agent 0.4.2 (commit deadbeef, linux/"+runtime.GOARCH) {
		t.Fatalf("--version: %q %v", got, err)
	}
}

// dpkgRoot is an empty dpkg installation under a scratch root.
func dpkgRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"var/lib/dpkg/info", "var/lib/dpkg/updates", "var/lib/dpkg/triggers", "usr/share/applications"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"var/lib/dpkg/status", "var/lib/dpkg/available"} {
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// The package installs, installs again, upgrades and is purged with dpkg
// itself (into a scratch root): the version moves, and nothing is left
// after the purge.
func TestDebInstallUpgradePurge(t *testing.T) {
	need(t, "dpkg")
	if os.Geteuid() != 0 {
		t.Skip("dpkg --root needs root")
	}
	root := dpkgRoot(t)
	dir := t.TempDir()
	bin := fakeAgent(t)
	v1, v2 := filepath.Join(dir, "v1.deb"), filepath.Join(dir, "v2.deb")
	for p, v := range map[string]string{v1: "0.1.0", v2: "0.2.0"} {
		if err := Deb(DebInfo{Version: v, Arch: "amd64", Binary: bin}, p); err != nil {
			t.Fatal(err)
		}
	}
	dpkg := func(args ...string) {
		t.Helper()
		cmd := exec.Command("dpkg", append([]string{"--root=" + root, "--force-script-chrootless", "--force-architecture", "--log=/dev/null"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("dpkg %v: %v\n%s", args, err, out)
		}
	}
	version := func() string {
		out, _ := exec.Command("dpkg-query", "--admindir="+filepath.Join(root, "var/lib/dpkg"), "-W", "-f=${Version} ${Status}", "ta-agent").Output()
		return string(out)
	}
	dpkg("-i", v1)
	dpkg("-i", v1) // run twice
	if v := version(); v != "0.1.0 install ok installed" {
		t.Fatalf("after installing: %q", v)
	}
	for _, f := range []string{"usr/bin/ta-agent", "usr/share/applications/ta-agent.desktop", "etc/xdg/autostart/ta-agent.desktop"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("installed %s: %v", f, err)
		}
	}
	dpkg("-i", v2)
	if v := version(); v != "0.2.0 install ok installed" {
		t.Fatalf("after upgrading: %q", v)
	}
	dpkg("--purge", "ta-agent")
	var left []string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, p)
		if err == nil && !d.IsDir() && !strings.HasPrefix(rel, "var/lib/dpkg") {
			left = append(left, rel)
		}
		return nil
	})
	if len(left) != 0 {
		t.Errorf("left behind after purge: %v", left)
	}
}
