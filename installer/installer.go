package installer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// Target is one operating system and architecture to build for; Tray
// builds the Fyne tray agent (cgo), else the headless one (no cgo).
type Target struct {
	OS, Arch string
	Tray     bool
}

func (t Target) String() string { return t.OS + "/" + t.Arch }

// Options of Build.
type Options struct {
	Out     string // output folder
	Repo    string // the module's root, where ./agent is
	Version string // semantic version, e.g. 0.1.0
	Commit  string // stamped into the agent (agent --version)
	Targets []Target
	Log     io.Writer // progress; nil: discarded
	// Binary, when set, is used instead of building the agent (tests).
	Binary func(t Target) (string, error)
}

// DefaultTargets is what can be built on this machine: the tray agent for
// Linux amd64 (where its X11 and OpenGL headers are installed) and for
// Windows amd64 (with mingw-w64), the agent without tray for Linux arm64
// (no cross C toolchain for Fyne here) and for macOS (the tray needs a
// Mac's SDK).
func DefaultTargets() []Target {
	_, mingw := exec.LookPath(mingwCC)
	return []Target{
		{OS: "linux", Arch: "amd64", Tray: runtime.GOARCH == "amd64"},
		{OS: "linux", Arch: "arm64"},
		{OS: "windows", Arch: "amd64", Tray: mingw == nil},
		{OS: "macos", Arch: "amd64"},
		{OS: "macos", Arch: "arm64"},
	}
}

// mingwCC is the C cross compiler for the Windows tray agent.
const mingwCC = "x86_64-w64-mingw32-gcc"

// FileName is a download's name as the hub expects it
// (hub/downloads): ta-agent_<version>_<os>_<arch><suffix>.
func FileName(version string, t Target, suffix string) string {
	osName := t.OS
	if osName == "darwin" {
		osName = "macos"
	}
	return "ta-agent_" + version + "_" + osName + "_" + t.Arch + suffix
}

// Build builds the agent for every target and packages it, writes
// SHA256SUMS, and answers the files it made (names in Out).
func Build(ctx context.Context, o Options) ([]string, error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.Version == "" {
		return nil, fmt.Errorf("a version is needed, e.g. 0.1.0")
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "ta-installers-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	var made []string
	var signer Signer
	for _, t := range o.Targets {
		bin := ""
		if o.Binary != nil {
			bin, err = o.Binary(t)
		} else {
			bin, err = buildAgent(ctx, o, t, work)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t, err)
		}
		switch t.OS {
		case "linux":
			deb := FileName(o.Version, t, ".deb")
			fmt.Fprintf(o.Log, "packaging %s\n", deb)
			if err := Deb(DebInfo{Version: o.Version, Arch: t.Arch, Binary: bin, Tray: t.Tray, IconPNG: filepath.Join(o.Repo, Icon)}, filepath.Join(o.Out, deb)); err != nil {
				return nil, fmt.Errorf("%s: %w", deb, err)
			}
			tgz := FileName(o.Version, t, ".tar.gz")
			fmt.Fprintf(o.Log, "packaging %s\n", tgz)
			if err := TarGz(bin, filepath.Join(o.Out, tgz)); err != nil {
				return nil, fmt.Errorf("%s: %w", tgz, err)
			}
			made = append(made, deb, tgz)
		case "windows":
			if signer.Cert == "" {
				var dev bool
				if signer, dev, err = SignerFromEnv(work); err != nil {
					return nil, err
				}
				if dev { // so users can check the signature: osslsigncode verify -CAfile
					fmt.Fprintln(o.Log, "signing with a self-signed development certificate (set AGENT_SIGN_CERT and AGENT_SIGN_KEY for a real one)")
					data, err := os.ReadFile(signer.CA)
					if err == nil {
						err = os.WriteFile(filepath.Join(o.Out, "ta-agent-dev-signing.crt"), data, 0o644)
					}
					if err != nil {
						return nil, err
					}
				}
			}
			exe := FileName(o.Version, t, "-setup.exe")
			fmt.Fprintf(o.Log, "packaging and signing %s\n", exe)
			if err := WindowsInstaller(ctx, bin, filepath.Join(o.Out, exe), o.Version, signer); err != nil {
				return nil, fmt.Errorf("%s: %w", exe, err)
			}
			made = append(made, exe)
		case "macos":
			z := FileName(o.Version, t, ".zip")
			fmt.Fprintf(o.Log, "packaging %s\n", z)
			if err := MacZip(bin, o.Version, filepath.Join(o.Repo, Icon), filepath.Join(o.Out, z)); err != nil {
				return nil, fmt.Errorf("%s: %w", z, err)
			}
			made = append(made, z)
		default:
			return nil, fmt.Errorf("%s: packaging for %s is not built here", t, t.OS)
		}
	}
	if err := WriteSums(o.Out); err != nil {
		return nil, err
	}
	return made, nil
}

// buildAgent compiles ./agent for t with the version stamped in.
func buildAgent(ctx context.Context, o Options, t Target, work string) (string, error) {
	out := filepath.Join(work, t.OS+"-"+t.Arch, "ta-agent")
	if t.OS == "windows" {
		out += ".exe"
	}
	ldflags := "-s -w -X main.version=" + o.Version + " -X main.commit=" + o.Commit
	if t.OS == "windows" && t.Tray {
		ldflags += " -H windowsgui" // a tray app: no console window
	}
	args := []string{"build", "-trimpath", "-ldflags", ldflags, "-o", out}
	env := append(os.Environ(), "GOOS="+goos(t.OS), "GOARCH="+t.Arch)
	if t.Tray {
		env = append(env, "CGO_ENABLED=1")
		if t.OS == "windows" && runtime.GOOS != "windows" {
			env = append(env, "CC="+mingwCC)
		}
	} else {
		args = append(args, "-tags", "headless")
		env = append(env, "CGO_ENABLED=0")
	}
	args = append(args, "./agent")
	kind := "headless"
	if t.Tray {
		kind = "tray"
	}
	fmt.Fprintf(o.Log, "building the %s agent for %s (%s)\n", kind, t, o.Version)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = o.Repo, env
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, msg)
	}
	return out, nil
}

func goos(name string) string {
	if name == "macos" {
		return "darwin"
	}
	return name
}

// WriteSums writes SHA256SUMS for the downloads in dir, in the format
// `sha256sum -c` reads.
func WriteSums(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var lines []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), "ta-agent_") {
			continue
		}
		sum, err := fileSum(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		lines = append(lines, sum+"  "+e.Name())
	}
	sort.Strings(lines)
	return os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}

func fileSum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Publish copies made (names in out) into a hub's downloads folder,
// removing older versions of the same downloads, and writes its SHA256SUMS.
func Publish(out, downloads string, made []string) error {
	if err := os.MkdirAll(downloads, 0o755); err != nil {
		return err
	}
	for _, name := range made {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			return err
		}
		tmp := filepath.Join(downloads, "."+name+".tmp")
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			return err
		}
		if err := os.Rename(tmp, filepath.Join(downloads, name)); err != nil {
			return err
		}
	}
	return WriteSums(downloads)
}
