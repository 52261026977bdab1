package installer

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// tinyModule is a module shaped like ours: ./agent importing ./protocol,
// a darwin-only agent file, a hub package the agent does not use, tests,
// and the icon. Answers its root.
func tinyModule(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	icon, err := os.ReadFile(filepath.Join("..", Icon))
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"go.mod":                "module example.com/m\n\ngo 1.26\n",
		"agent/main.go":         "package main\n\nimport \"example.com/m/protocol\"\n\nfunc main() { println(protocol.V) }\n",
		"agent/main_test.go":    "package main\n",
		"agent/mac_darwin.go":   "package main\n\nconst mac = 1\n",
		"protocol/protocol.go":  "package protocol\n\nconst V = 1\n",
		"hub/hub.go":            "package hub\n",
		"installer/packages.go": "package installer\n",
		Icon:                    string(icon),
	} {
		write(t, filepath.Join(root, name), body)
	}
	return root
}

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The cache key changes with every input of a target's packages (its
// agent sources, go.mod/go.sum, packaging code, version, toolchain
// settings, signing certificate) and with nothing else: not a file's
// time, a test, or a package the agent does not build from.
func TestCacheKeyFollowsInputs(t *testing.T) {
	ctx := context.Background()
	repo := tinyModule(t)
	o := Options{Repo: repo, Version: "1.0.0"}
	linux, mac := Target{OS: "linux", Arch: "amd64"}, Target{OS: "macos", Arch: "arm64"}
	key := func(o Options, tg Target) string {
		t.Helper()
		k, err := Key(ctx, o, tg, Signer{})
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	base, baseMac := key(o, linux), key(o, mac)
	if key(o, linux) != base {
		t.Fatal("the same inputs gave another key")
	}
	same := func(what string) {
		t.Helper()
		if k := key(o, linux); k != base {
			t.Errorf("%s changed the key", what)
		}
	}
	changed := func(what string, tg Target, want string) {
		t.Helper()
		k := key(o, tg)
		if k == want {
			t.Errorf("%s did not change the %s key", what, tg)
		}
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(repo, "agent/main.go"), later, later); err != nil {
		t.Fatal(err)
	}
	same("touching agent/main.go")
	write(t, filepath.Join(repo, "hub/hub.go"), "package hub\n\nconst X = 2\n")
	same("a hub change")
	write(t, filepath.Join(repo, "agent/main_test.go"), "package main\n\nconst y = 2\n")
	same("a test change")
	write(t, filepath.Join(repo, "agent/mac_darwin.go"), "package main\n\nconst mac = 2\n")
	same("a darwin-only file")
	changed("a darwin-only file", mac, baseMac)

	steps := []struct {
		what   string
		change func() Options
	}{
		{"an imported package", func() Options {
			write(t, filepath.Join(repo, "protocol/protocol.go"), "package protocol\n\nconst V = 2\n")
			return o
		}},
		{"the agent's main", func() Options {
			write(t, filepath.Join(repo, "agent/main.go"), "package main\n\nimport \"example.com/m/protocol\"\n\nfunc main() { println(protocol.V, 2) }\n")
			return o
		}},
		{"a new go.sum", func() Options { write(t, filepath.Join(repo, "go.sum"), "example.com/x v1.0.0 h1:abc=\n"); return o }},
		{"the packaging code", func() Options {
			write(t, filepath.Join(repo, "installer/packages.go"), "package installer\n\nconst z = 1\n")
			return o
		}},
		{"the icon", func() Options { write(t, filepath.Join(repo, Icon), "not a png"); return o }},
		{"the version", func() Options { o.Version = "1.0.1"; return o }},
		{"GOAMD64", func() Options { t.Setenv("GOAMD64", "v3"); return o }},
	}
	prev := base
	for _, s := range steps {
		o = s.change()
		k := key(o, linux)
		if k == prev {
			t.Errorf("%s did not change the key", s.what)
		}
		prev = k
	}
	if key(o, Target{OS: "linux", Arch: "arm64"}) == prev {
		t.Error("another architecture has the same key")
	}

	// Windows: another signing certificate signs again.
	win := Target{OS: "windows", Arch: "amd64"}
	s1, err := DevSigner(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s2, err := DevSigner(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	k1, err := Key(ctx, o, win, s1)
	if err != nil {
		t.Fatal(err)
	}
	if k2, err := Key(ctx, o, win, s2); err != nil || k1 == k2 {
		t.Errorf("another signing certificate kept the key (%v)", err)
	}
}

// A second build with nothing changed reuses every platform's packages
// (the agent is not built again and the files keep their time); a change
// to the agent builds again, only where it matters; a damaged cache entry
// is built again; targets build Jobs at a time.
func TestBuildReusesUnchangedPlatforms(t *testing.T) {
	need(t, "dpkg-deb")
	ctx := context.Background()
	repo, cache, out := tinyModule(t), t.TempDir(), t.TempDir()
	bin := fakeAgent(t)
	var (
		mu      sync.Mutex
		built   []string
		running atomic.Int32
		most    atomic.Int32
	)
	targets := []Target{{OS: "linux", Arch: "amd64"}, {OS: "linux", Arch: "arm64"}, {OS: "macos", Arch: "amd64"}, {OS: "macos", Arch: "arm64"}}
	build := func() []string {
		t.Helper()
		mu.Lock()
		built = nil
		mu.Unlock()
		made, err := Build(ctx, Options{Out: out, Repo: repo, Version: "0.2.0", Targets: targets, Cache: cache, Jobs: 2,
			Binary: func(tg Target) (string, error) {
				n := running.Add(1)
				defer running.Add(-1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				time.Sleep(150 * time.Millisecond)
				mu.Lock()
				built = append(built, tg.String())
				mu.Unlock()
				return bin, nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		slices.Sort(built)
		return made
	}
	all := []string{"linux/amd64", "linux/arm64", "macos/amd64", "macos/arm64"}
	made := build()
	if !slices.Equal(built, all) || len(made) != 6 {
		t.Fatalf("first build: built %v, made %v", built, made)
	}
	if most.Load() != 2 {
		t.Errorf("%d targets built at once, want 2 (Jobs)", most.Load())
	}
	times := map[string]time.Time{}
	for _, n := range made {
		info, err := os.Stat(filepath.Join(out, n))
		if err != nil {
			t.Fatal(err)
		}
		times[n] = info.ModTime()
	}

	if again := build(); len(built) != 0 || !slices.Equal(again, made) {
		t.Fatalf("nothing changed: built %v, made %v", built, again)
	}
	for _, n := range made {
		if info, _ := os.Stat(filepath.Join(out, n)); !info.ModTime().Equal(times[n]) {
			t.Errorf("%s was written again", n)
		}
	}

	write(t, filepath.Join(repo, "agent/mac_darwin.go"), "package main\n\nconst mac = 2\n")
	if build(); !slices.Equal(built, []string{"macos/amd64", "macos/arm64"}) {
		t.Errorf("after a darwin-only change built %v", built)
	}
	write(t, filepath.Join(repo, "agent/main.go"), "package main\n\nfunc main() {}\n")
	if build(); !slices.Equal(built, all) {
		t.Errorf("after an agent change built %v", built)
	}

	// An entry missing a file is built again.
	entries, _ := filepath.Glob(filepath.Join(cache, "linux-arm64", "*", "*.deb"))
	for _, e := range entries {
		_ = os.Remove(e)
	}
	if build(); !slices.Equal(built, []string{"linux/arm64"}) {
		t.Errorf("after damaging the linux/arm64 entries built %v", built)
	}
	// Only the newest entries stay.
	for i := range 3 {
		write(t, filepath.Join(repo, "protocol/protocol.go"), "package protocol\n\nconst V = "+string(rune('3'+i))+"\n")
		build()
	}
	if dirs, _ := filepath.Glob(filepath.Join(cache, "macos-arm64", "*")); len(dirs) != keepEntries {
		t.Errorf("the cache keeps %d entries for macos/arm64, want %d", len(dirs), keepEntries)
	}
}
