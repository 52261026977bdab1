package installer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/testautomation/ta/hub/downloads"
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
	// Cache keeps each target's packages by the key of their inputs
	// (cache.go), and the development signing certificate; "" builds
	// everything every time.
	Cache string
	// Jobs is how many targets build at once; 0: one per core.
	Jobs int
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
// SHA256SUMS, and answers the files it made (names in Out): the packages
// in the order of the targets, then the development signing certificate
// when it signed the Windows installer. A target whose inputs did not
// change since a build is taken from o.Cache; the others build o.Jobs at
// a time.
func Build(ctx context.Context, o Options) ([]string, error) {
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
	o.Log = &lockedWriter{w: o.Log}
	if o.Jobs <= 0 {
		o.Jobs = runtime.NumCPU()
	}
	var signer Signer
	dev := false
	if slices.ContainsFunc(o.Targets, func(t Target) bool { return t.OS == "windows" }) {
		// Kept in the cache, the development certificate stays the same
		// from build to build: users trust it once.
		dir := work
		if o.Cache != "" {
			dir = filepath.Join(o.Cache, "dev-signing")
		}
		if signer, dev, err = SignerFromEnv(dir); err != nil {
			return nil, err
		}
		if dev {
			fmt.Fprintf(o.Log, "signing with the development certificate %s (set AGENT_SIGN_CERT and AGENT_SIGN_KEY for a real one)\n", signer.Cert)
		}
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make([][]string, len(o.Targets))
	errs := make([]error, len(o.Targets))
	// The tray builds compile C (GLFW) and take longest: they start first.
	queue := make(chan int, len(o.Targets))
	for _, tray := range []bool{true, false} {
		for i, t := range o.Targets {
			if t.Tray == tray {
				queue <- i
			}
		}
	}
	close(queue)
	var wg sync.WaitGroup
	for range min(o.Jobs, len(o.Targets)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range queue {
				if ctx.Err() != nil {
					return
				}
				t := o.Targets[i]
				if results[i], errs[i] = buildTarget(ctx, o, t, signer, work); errs[i] != nil {
					errs[i] = fmt.Errorf("%s: %w", t, errs[i])
					cancel() // the others stop: the build failed
				}
			}
		}()
	}
	wg.Wait()
	var made []string
	for i := range o.Targets {
		if errs[i] != nil {
			return nil, errs[i]
		}
		made = append(made, results[i]...)
	}
	if err := ctx.Err(); err != nil { // stopped from outside: targets were left out
		return nil, err
	}
	if signer.Cert != "" {
		cert := filepath.Join(o.Out, downloads.CertificateFile)
		if dev { // so users can check the signature (osslsigncode verify -CAfile) and trust it
			if err := copyIfChanged(signer.Cert, cert); err != nil {
				return nil, err
			}
			made = append(made, downloads.CertificateFile)
		} else if err := os.Remove(cert); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	if err := WriteSums(o.Out); err != nil {
		return nil, err
	}
	return made, nil
}

// buildAgent compiles ./agent for t into dir with the version stamped in.
func buildAgent(ctx context.Context, o Options, t Target, dir string) (string, error) {
	out := filepath.Join(dir, "ta-agent")
	if t.OS == "windows" {
		out += ".exe"
	}
	ldflags := "-s -w -X main.version=" + o.Version + " -X main.commit=" + o.Commit
	if t.OS == "windows" && t.Tray {
		ldflags += " -H windowsgui" // a tray app: no console window
	}
	args := append([]string{"build", "-trimpath", "-ldflags", ldflags, "-o", out}, buildTags(t)...)
	args = append(args, "./agent")
	kind := "headless"
	if t.Tray {
		kind = "tray"
	}
	fmt.Fprintf(o.Log, "building the %s agent for %s (%s)\n", kind, t, o.Version)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = o.Repo, buildEnv(t)
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

// Publish copies made (names in out) into a hub's downloads folder, leaving
// files that did not change alone, and writes its SHA256SUMS. A Windows
// installer signed with a real certificate takes the development
// certificate away, which no download needs any more.
func Publish(out, downloadsDir string, made []string) error {
	if err := os.MkdirAll(downloadsDir, 0o755); err != nil {
		return err
	}
	for _, name := range made {
		if err := copyIfChanged(filepath.Join(out, name), filepath.Join(downloadsDir, name)); err != nil {
			return err
		}
	}
	windows := slices.ContainsFunc(made, func(n string) bool { return strings.HasSuffix(n, "-setup.exe") })
	if windows && !slices.Contains(made, downloads.CertificateFile) {
		if err := os.Remove(filepath.Join(downloadsDir, downloads.CertificateFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return WriteSums(downloadsDir)
}
