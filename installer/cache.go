package installer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// A target's packages are kept in a cache folder outside the repository
// (DefaultCache), under a key that is a hash of everything the packages are
// made from: the agent's sources as `go list -deps` sees them for that
// target (so a hub change rebuilds nothing), go.mod and go.sum, the
// packaging code and icon, the Go toolchain and its settings, the C cross
// compiler and NSIS for the tray and Windows builds, the version and the
// signing certificate. Unchanged inputs reuse the packages (seconds); a
// changed byte in any of them builds that target again. The commit stamped
// into the agent is not part of the key: a commit that leaves the agent's
// inputs alone would otherwise rebuild everything, so a reused agent tells
// the commit it was first built at (whose agent sources are the same).

// cacheRecipe changes when what a key covers changes, so old entries are
// not mistaken for new ones.
const cacheRecipe = "ta-installers cache 1"

// keepEntries is how many builds per target the cache keeps (the newest).
const keepEntries = 3

// DefaultCache is $TA_INSTALLERS_CACHE, else ta-installers in the user's
// cache folder ($XDG_CACHE_HOME, else ~/.cache).
func DefaultCache() string {
	if d := os.Getenv("TA_INSTALLERS_CACHE"); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "ta-installers")
}

// buildEnv is the environment `go build` runs in for t.
func buildEnv(t Target) []string {
	env := append(os.Environ(), "GOOS="+goos(t.OS), "GOARCH="+t.Arch)
	if t.Tray {
		env = append(env, "CGO_ENABLED=1")
		if t.OS == "windows" && runtime.GOOS != "windows" {
			env = append(env, "CC="+mingwCC)
		}
	} else {
		env = append(env, "CGO_ENABLED=0")
	}
	return env
}

func buildTags(t Target) []string {
	if t.Tray {
		return nil
	}
	return []string{"-tags", "headless"}
}

// Key is the cache key of t's packages built from the module at o.Repo
// with o.Version, signed (Windows) with the certificate in signer.
func Key(ctx context.Context, o Options, t Target, signer Signer) (string, error) {
	h := sha256.New()
	field := func(name, value string) { fmt.Fprintf(h, "%s=%q\n", name, value) }
	field("recipe", cacheRecipe)
	field("target", t.String())
	field("tray", fmt.Sprint(t.Tray))
	field("version", o.Version)

	env := buildEnv(t)
	goEnv, err := run(ctx, o.Repo, env, "go", "env", "GOVERSION", "GOFLAGS", "GOEXPERIMENT", "GOAMD64", "GOARM64",
		"CGO_ENABLED", "CC", "CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_LDFLAGS")
	if err != nil {
		return "", err
	}
	field("go env", goEnv)
	if t.Tray { // the C compiler that builds GLFW and the tray
		if lines := strings.Split(goEnv, "\n"); len(lines) > 6 && strings.TrimSpace(lines[6]) != "" {
			cc := strings.Fields(lines[6])
			v, err := run(ctx, o.Repo, env, cc[0], "--version")
			if err != nil {
				return "", fmt.Errorf("the C compiler for the tray: %w", err)
			}
			field("cc", v)
		}
	}
	if t.OS == "windows" {
		if v, err := run(ctx, o.Repo, nil, "makensis", "-VERSION"); err == nil {
			field("makensis", v)
		}
		cert, err := os.ReadFile(signer.Cert)
		if err != nil {
			return "", fmt.Errorf("the signing certificate: %w", err)
		}
		field("signer", hashBytes(cert))
	}

	files, err := agentFiles(ctx, o.Repo, t)
	if err != nil {
		return "", err
	}
	// The packaging code and what it puts in beside the agent.
	pack, _ := filepath.Glob(filepath.Join(o.Repo, "installer", "*.go"))
	for _, p := range pack {
		if !strings.HasSuffix(p, "_test.go") {
			files = append(files, p)
		}
	}
	files = append(files, filepath.Join(o.Repo, "go.mod"), filepath.Join(o.Repo, "go.sum"), filepath.Join(o.Repo, Icon))
	sort.Strings(files)
	for _, p := range slicesCompact(files) {
		rel, err := filepath.Rel(o.Repo, p)
		if err != nil {
			rel = p
		}
		data, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			field("file "+rel, "absent")
			continue
		}
		if err != nil {
			return "", err
		}
		field("file "+rel, hashBytes(data))
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

// agentFiles are the source files of the module's own packages that
// ./agent builds from for t (Go, cgo, C, assembly, embedded files).
func agentFiles(ctx context.Context, repo string, t Target) ([]string, error) {
	args := append([]string{"list", "-deps", "-json=Dir,Module,GoFiles,CgoFiles,CFiles,CXXFiles,MFiles,HFiles,SFiles,SysoFiles,EmbedFiles"}, buildTags(t)...)
	cmd := exec.CommandContext(ctx, "go", append(args, "./agent")...)
	cmd.Dir, cmd.Env = repo, buildEnv(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list ./agent for %s: %v\n%s", t, err, stderr.String())
	}
	var files []string
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			Dir    string
			Module *struct{ Main bool }

			GoFiles, CgoFiles, CFiles, CXXFiles, MFiles, HFiles, SFiles, SysoFiles, EmbedFiles []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list ./agent: %w", err)
		}
		if p.Module == nil || !p.Module.Main { // the standard library and modules: go.sum and the toolchain cover them
			continue
		}
		for _, list := range [][]string{p.GoFiles, p.CgoFiles, p.CFiles, p.CXXFiles, p.MFiles, p.HFiles, p.SFiles, p.SysoFiles, p.EmbedFiles} {
			for _, f := range list {
				files = append(files, filepath.Join(p.Dir, f))
			}
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("go list found no sources for ./agent in %s", repo)
	}
	return files, nil
}

func run(ctx context.Context, dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

func hashBytes(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func slicesCompact(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// entry is one target's packages in the cache.
type entry struct{ dir string }

func cacheEntry(cache string, t Target, key string) entry {
	return entry{filepath.Join(cache, t.OS+"-"+t.Arch, key)}
}

// files answers the packages of a complete entry; false when there is none
// (or it is damaged: a file is missing).
func (e entry) files() ([]string, bool) {
	list, err := os.ReadFile(filepath.Join(e.dir, "MANIFEST"))
	if err != nil {
		return nil, false
	}
	names := strings.Fields(string(list))
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(e.dir, n)); err != nil {
			return nil, false
		}
	}
	now := time.Now() // the newest use is kept longest (prune)
	_ = os.Chtimes(e.dir, now, now)
	return names, len(names) > 0
}

// store moves the packages in tmp (names) into the entry, which appears
// whole or not at all, and removes the target's oldest entries.
func (e entry) store(tmp string, names []string) error {
	if err := os.WriteFile(filepath.Join(tmp, "MANIFEST"), []byte(strings.Join(names, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	_ = os.RemoveAll(e.dir) // a damaged one
	if err := os.Rename(tmp, e.dir); err != nil {
		return err
	}
	return prune(filepath.Dir(e.dir), keepEntries)
}

// prune keeps the newest keep entries of a target's folder.
func prune(dir string, keep int) error {
	list, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	type aged struct {
		name string
		mod  time.Time
	}
	var entries []aged
	for _, d := range list {
		if info, err := d.Info(); err == nil && d.IsDir() && !strings.HasPrefix(d.Name(), ".") {
			entries = append(entries, aged{d.Name(), info.ModTime()})
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].mod.After(entries[j].mod) })
	for i := keep; i < len(entries); i++ {
		if err := os.RemoveAll(filepath.Join(dir, entries[i].name)); err != nil {
			return err
		}
	}
	return nil
}

// copyIfChanged copies src to dst unless dst already holds the same bytes,
// so that an unchanged download keeps its time (the hub stamps and sums a
// download again when its time changes).
func copyIfChanged(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, data) {
		return nil
	}
	tmp := filepath.Join(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}
