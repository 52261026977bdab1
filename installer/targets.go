package installer

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// buildTarget makes t's packages, or takes them from the cache when their
// inputs did not change, and puts them in o.Out.
func buildTarget(ctx context.Context, o Options, t Target, signer Signer, work string) ([]string, error) {
	dir := filepath.Join(work, t.OS+"-"+t.Arch)
	var e entry
	if o.Cache != "" {
		key, err := Key(ctx, o, t, signer)
		if err != nil {
			return nil, err
		}
		e = cacheEntry(o.Cache, t, key)
		if names, ok := e.files(); ok {
			fmt.Fprintf(o.Log, "%s: unchanged since a build (cache %s), reused\n", t, key[:12])
			return names, publishFrom(e.dir, o.Out, names)
		}
		if err := os.MkdirAll(filepath.Dir(e.dir), 0o755); err != nil {
			return nil, err
		}
		if dir, err = os.MkdirTemp(filepath.Dir(e.dir), ".build-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir) // gone by then when stored
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	bin := ""
	var err error
	if o.Binary != nil {
		bin, err = o.Binary(t)
	} else {
		bin, err = buildAgent(ctx, o, t, filepath.Join(dir, "bin"))
	}
	if err != nil {
		return nil, err
	}
	names, err := pack(ctx, o, t, bin, signer, dir)
	if err != nil {
		return nil, err
	}
	if o.Cache != "" {
		if err := os.RemoveAll(filepath.Join(dir, "bin")); err != nil {
			return nil, err
		}
		if err := e.store(dir, names); err != nil {
			return nil, err
		}
		dir = e.dir
	}
	return names, publishFrom(dir, o.Out, names)
}

func publishFrom(dir, out string, names []string) error {
	for _, n := range names {
		if err := copyIfChanged(filepath.Join(dir, n), filepath.Join(out, n)); err != nil {
			return err
		}
	}
	return nil
}

// pack packages the agent bin for t into dir and answers the files' names.
func pack(ctx context.Context, o Options, t Target, bin string, signer Signer, dir string) ([]string, error) {
	switch t.OS {
	case "linux":
		deb := FileName(o.Version, t, ".deb")
		fmt.Fprintf(o.Log, "packaging %s\n", deb)
		if err := Deb(DebInfo{Version: o.Version, Arch: t.Arch, Binary: bin, Tray: t.Tray, IconPNG: filepath.Join(o.Repo, Icon)}, filepath.Join(dir, deb)); err != nil {
			return nil, fmt.Errorf("%s: %w", deb, err)
		}
		tgz := FileName(o.Version, t, ".tar.gz")
		fmt.Fprintf(o.Log, "packaging %s\n", tgz)
		if err := TarGz(bin, filepath.Join(dir, tgz)); err != nil {
			return nil, fmt.Errorf("%s: %w", tgz, err)
		}
		return []string{deb, tgz}, nil
	case "windows":
		exe := FileName(o.Version, t, "-setup.exe")
		fmt.Fprintf(o.Log, "packaging and signing %s\n", exe)
		if err := WindowsInstaller(ctx, bin, filepath.Join(dir, exe), o.Version, signer); err != nil {
			return nil, fmt.Errorf("%s: %w", exe, err)
		}
		return []string{exe}, nil
	case "macos":
		z := FileName(o.Version, t, ".zip")
		fmt.Fprintf(o.Log, "packaging %s\n", z)
		if err := MacZip(bin, o.Version, filepath.Join(o.Repo, Icon), filepath.Join(dir, z)); err != nil {
			return nil, fmt.Errorf("%s: %w", z, err)
		}
		return []string{z}, nil
	}
	return nil, fmt.Errorf("packaging for %s is not built here", t.OS)
}

// lockedWriter keeps the lines of targets building at once whole.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w == nil {
		return len(p), nil
	}
	return l.w.Write(p)
}
