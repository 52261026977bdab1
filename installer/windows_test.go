package installer

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tinyWindowsExe cross-builds a small Windows program (no cgo: seconds).
func tinyWindowsExe(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, "main.go")
	if err := os.WriteFile(src, []byte("package main\n\nfunc main() { println(\"agent\") }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "ta-agent.exe")
	cmd := exec.Command("go", "build", "-o", exe, src)
	cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return exe
}

// The Windows installer is built, Authenticode-signed with the development
// certificate, and its signature verifies; a changed byte fails it.
func TestWindowsInstallerSigned(t *testing.T) {
	need(t, "makensis")
	need(t, "osslsigncode")
	ctx := context.Background()
	dir := t.TempDir()
	s, err := DevSigner(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "ta-agent_0.1.0_windows_amd64-setup.exe")
	if err := WindowsInstaller(ctx, tinyWindowsExe(t), out, "0.1.0", s); err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(ctx, out); err != nil {
		t.Fatal(err)
	}
	msg, _ := exec.Command("osslsigncode", "verify", "-in", out, "-CAfile", s.CA).CombinedOutput()
	if !strings.Contains(string(msg), "Test Automation Agent (development)") {
		t.Errorf("signer not named:\n%s", msg)
	}
	data, _ := os.ReadFile(out)
	if len(data) < 1000 || string(data[:2]) != "MZ" {
		t.Fatalf("not an executable: %d bytes", len(data))
	}
	data[len(data)/2] ^= 0xff
	bad := filepath.Join(dir, "bad.exe")
	_ = os.WriteFile(bad, data, 0o644)
	if err := s.Verify(ctx, bad); err == nil {
		t.Error("a changed installer verified")
	}
	// Without the development CA, the self-signed signature is not trusted.
	if err := (Signer{}).Verify(ctx, out); err == nil {
		t.Error("verified without the CA")
	}
}

func TestVersion4(t *testing.T) {
	for in, want := range map[string]string{"0.1.0": "0.1.0.0", "v1.2.3-rc.1": "1.2.3.0", "1.2.3+abc": "1.2.3.0", "1.2.3.4": "1.2.3.4"} {
		if got := version4(in); got != want {
			t.Errorf("version4(%q) = %q, want %q", in, got, want)
		}
	}
}

// The development certificate that signed the Windows installer is shipped
// beside the downloads (Publish puts it where the hub serves it), stays the
// same from build to build when kept in the cache (users trust it once),
// and leaves the downloads when a real certificate signs the installer.
func TestDevCertificateShippedWithDownloads(t *testing.T) {
	need(t, "makensis")
	need(t, "osslsigncode")
	t.Setenv("AGENT_SIGN_CERT", "")
	ctx := context.Background()
	exe, cache, dl := tinyWindowsExe(t), t.TempDir(), t.TempDir()
	win := []Target{{OS: "windows", Arch: "amd64"}}
	build := func(o Options) []string {
		t.Helper()
		o.Repo, _ = filepath.Abs("..")
		o.Version, o.Targets = "0.3.0", win
		o.Binary = func(Target) (string, error) { return exe, nil }
		made, err := Build(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		if err := Publish(o.Out, dl, made); err != nil {
			t.Fatal(err)
		}
		return made
	}
	setup := "ta-agent_0.3.0_windows_amd64-setup.exe"
	build(Options{Out: t.TempDir()})
	cert := filepath.Join(dl, "ta-agent-dev-signing.crt")
	if err := (Signer{CA: cert}).Verify(ctx, filepath.Join(dl, setup)); err != nil {
		t.Fatalf("the published installer does not verify with the certificate beside it: %v", err)
	}

	build(Options{Out: t.TempDir(), Cache: cache})
	first, _ := os.ReadFile(cert)
	build(Options{Out: t.TempDir(), Cache: cache, Jobs: 1}) // a new certificate would change the key and sign again
	if again, _ := os.ReadFile(cert); len(first) == 0 || string(again) != string(first) {
		t.Error("the development certificate changed between builds with one cache")
	}
	if err := (Signer{CA: cert}).Verify(ctx, filepath.Join(dl, setup)); err != nil {
		t.Error(err)
	}

	real, err := DevSigner(t.TempDir()) // stands in for a bought certificate
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("AGENT_SIGN_CERT", real.Cert)
	t.Setenv("AGENT_SIGN_KEY", real.Key)
	t.Setenv("AGENT_SIGN_CA", real.CA)
	if made := build(Options{Out: t.TempDir(), Cache: cache}); strings.Contains(strings.Join(made, " "), "dev-signing") {
		t.Errorf("signed with a real certificate, made %v", made)
	}
	if _, err := os.Stat(cert); err == nil {
		t.Error("the development certificate stayed beside an installer it did not sign")
	}
}
