// Package downloads serves the agent's installers from a folder
// (HUB_DOWNLOADS, default <data>/downloads; `make installers` fills it).
//
// Files are found by name: ta-agent_<version>_<os>_<arch><suffix>, where
// os is linux, windows or macos, arch amd64 or arm64 and the suffix names
// the kind: .deb, .tar.gz, -setup.exe, .msi or .zip. When several versions
// of one kind are there, the newest file wins.
//
// A download carries the hub's address, so the installed agent pairs with
// the hub it came from without asking: packages that are not signed (.deb,
// .tar.gz, .zip) get a hub.json added as they are served (see stamp.go);
// a signed Windows installer is served as built and takes the address from
// its command line (/HUB=...), which the hub's one-line command passes.
package downloads

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"sync"
	"time"

	"github.com/testautomation/ta/protocol"
)

// File is one download this hub serves.
type File struct {
	OS      string `json:"os"`
	Arch    string `json:"arch"`
	Kind    string `json:"kind"` // deb, tar.gz, exe, msi, zip
	File    string `json:"file"`
	Version string `json:"version"`
	Size    int64  `json:"size"`
	SHA256  string `json:"sha256"` // of the bytes served, hub address included
}

var nameRe = regexp.MustCompile(`^ta-agent_([0-9A-Za-z.+~]+(?:-[0-9A-Za-z.+~]+)*?)_(linux|windows|macos)_(amd64|arm64)(\.deb|\.tar\.gz|-setup\.exe|\.msi|\.zip)$`)

var kinds = map[string]string{".deb": "deb", ".tar.gz": "tar.gz", "-setup.exe": "exe", ".msi": "msi", ".zip": "zip"}

// preference orders the kinds offered first for an OS.
var preference = map[string][]string{
	"linux":   {"deb", "tar.gz"},
	"windows": {"exe", "msi"},
	"macos":   {"zip"},
}

// Parse reads a download's name; false when it is not one.
func Parse(name string) (File, bool) {
	m := nameRe.FindStringSubmatch(name)
	if m == nil {
		return File{}, false
	}
	return File{Version: m[1], OS: m[2], Arch: m[3], Kind: kinds[m[4]], File: name}, true
}

// Dir is a downloads folder; HubURL is the address stamped into packages,
// kept in Cache (a folder of the hub's own) as they are served.
type Dir struct {
	Path   string
	HubURL string
	Cache  string
	Logger *slog.Logger // nil: slog.Default()

	mu    sync.Mutex
	cache map[string]*served // by file name
}

// served is a file as the hub serves it, kept while the file is unchanged.
type served struct {
	size    int64
	modTime time.Time
	path    string // the file served: the original or its stamped copy
	sum     string
	length  int64
}

// List is every download in the folder, one per OS, architecture and
// kind (the newest), sorted.
func (d *Dir) List() ([]File, error) {
	entries, err := os.ReadDir(d.Path)
	if errors.Is(err, os.ErrNotExist) {
		return []File{}, nil
	}
	if err != nil {
		return nil, err
	}
	type cand struct {
		f   File
		mod time.Time
	}
	best := map[string]cand{}
	for _, e := range entries {
		f, ok := Parse(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		key := f.OS + "/" + f.Arch + "/" + f.Kind
		if c, ok := best[key]; !ok || info.ModTime().After(c.mod) {
			best[key] = cand{f, info.ModTime()}
		}
	}
	out := make([]File, 0, len(best))
	for _, c := range best {
		s, err := d.prepare(c.f)
		if err != nil {
			return nil, err
		}
		c.f.Size, c.f.SHA256 = s.length, s.sum
		out = append(out, c.f)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.OS != b.OS {
			return a.OS < b.OS
		}
		if a.Arch != b.Arch {
			return a.Arch < b.Arch
		}
		return rank(a) < rank(b)
	})
	return out, nil
}

func rank(f File) int {
	for i, k := range preference[f.OS] {
		if k == f.Kind {
			return i
		}
	}
	return 99
}

// Pick chooses from a List the download for os and arch: of kind when
// given, else the preferred kind there is.
func Pick(list []File, osName, arch, kind string) (File, bool) {
	for _, f := range list { // sorted by preference
		if f.OS == osName && f.Arch == arch && (kind == "" || f.Kind == kind) {
			return f, true
		}
	}
	return File{}, false
}

// Open opens a download as served (the caller closes it) and tells its
// time.
func (d *Dir) Open(f File) (*os.File, time.Time, error) {
	s, err := d.prepare(f)
	if err != nil {
		return nil, time.Time{}, err
	}
	file, err := os.Open(s.path)
	return file, s.modTime, err
}

// prepare stamps (when the kind allows) and sums a file once per version
// of it on disk.
func (d *Dir) prepare(f File) (*served, error) {
	path := filepath.Join(d.Path, f.File)
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if s, ok := d.cache[f.File]; ok && s.size == info.Size() && s.modTime.Equal(info.ModTime()) {
		return s, nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s := &served{size: info.Size(), modTime: info.ModTime(), path: path}
	body := raw
	stamped := []byte(nil)
	if stamp := stampers[f.Kind]; stamp != nil && d.HubURL != "" && d.Cache != "" {
		if stamped, err = stamp(raw, HubFile{Hub: d.HubURL}); err != nil {
			// A damaged package is served as it is: its checksum against
			// SHA256SUMS tells the user; an installed agent asks for --hub.
			d.logger().Warn("agent download served without the hub's address: it does not read as a "+f.Kind, "file", f.File, "err", err)
		}
	}
	if stamped != nil {
		body = stamped
		if err := os.MkdirAll(d.Cache, 0o755); err != nil {
			return nil, err
		}
		s.path = filepath.Join(d.Cache, f.File)
		tmp := s.path + ".tmp"
		if err := os.WriteFile(tmp, body, 0o644); err != nil {
			return nil, err
		}
		if err := os.Rename(tmp, s.path); err != nil {
			return nil, err
		}
	}
	sum := sha256.Sum256(body)
	s.sum, s.length = hex.EncodeToString(sum[:]), int64(len(body))
	if d.cache == nil {
		d.cache = map[string]*served{}
	}
	d.cache[f.File] = s
	return s, nil
}

// Latest is the newest version the folder has for an OS and architecture
// (any kind), "" for none.
func (d *Dir) Latest(osName, arch string) string {
	entries, err := os.ReadDir(d.Path)
	if err != nil {
		return ""
	}
	best := ""
	for _, e := range entries {
		f, ok := Parse(e.Name())
		if ok && f.OS == osName && f.Arch == arch && (best == "" || protocol.NewerVersion(f.Version, best)) {
			best = f.Version
		}
	}
	return best
}

// Warm prepares every download (adds the hub's address, sums it) ahead of
// the first visitor, who would otherwise wait for it; errors are logged.
func (d *Dir) Warm() {
	if _, err := d.List(); err != nil {
		d.logger().Warn("agent downloads", "folder", d.Path, "err", err)
	}
}

func (d *Dir) logger() *slog.Logger {
	if d.Logger == nil {
		return slog.Default()
	}
	return d.Logger
}
