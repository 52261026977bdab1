package installer

import (
	"archive/tar"
	"compress/gzip"
	"os"
	"path/filepath"
	"time"

	"github.com/goreleaser/nfpm/v2"
	_ "github.com/goreleaser/nfpm/v2/deb" // registers the deb packager
	"github.com/goreleaser/nfpm/v2/files"
)

// The Linux agent: /usr/bin/ta-agent, a menu entry, an autostart entry for
// every desktop session (XDG) and the icon.
const (
	PackageName = "ta-agent"
	binPath     = "/usr/bin/ta-agent"
	desktopPath = "/usr/share/applications/ta-agent.desktop"
	autostart   = "/etc/xdg/autostart/ta-agent.desktop"
	iconPath    = "/usr/share/icons/hicolor/256x256/apps/ta-agent.png"
)

// desktopEntry starts the tray agent from the menu and at login; the hub's
// address comes from the hub.json the hub added to the package.
const desktopEntry = `[Desktop Entry]
Type=Application
Name=Test Automation Agent
Comment=Runs, records and picks UI tests for your test automation hub
Exec=/usr/bin/ta-agent
Icon=ta-agent
Terminal=false
Categories=Development;
StartupNotify=false
X-GNOME-Autostart-enabled=true
`

// Maintainer scripts: refresh the menu; on removal stop running agents (the
// users' tokens in their config folders stay, so an upgrade or a
// reinstall connects as before); purge removes what the package created.
// They honour DPKG_ROOT (an installation into another root, as the tests
// do): paths go under it, and processes of the running system are left
// alone.
const (
	postinst = `#!/bin/sh
set -e
if [ "$1" = "configure" ] && [ -z "$DPKG_ROOT" ] && command -v update-desktop-database >/dev/null 2>&1; then
	update-desktop-database -q /usr/share/applications || true
fi
exit 0
`
	prerm = `#!/bin/sh
set -e
if { [ "$1" = "remove" ] || [ "$1" = "deconfigure" ]; } && [ -z "$DPKG_ROOT" ]; then
	pkill -TERM -x ta-agent 2>/dev/null || true
fi
exit 0
`
	postrm = `#!/bin/sh
set -e
if [ "$1" = "purge" ]; then
	rm -rf "$DPKG_ROOT/etc/ta-agent"
fi
if [ -z "$DPKG_ROOT" ] && command -v update-desktop-database >/dev/null 2>&1; then
	update-desktop-database -q /usr/share/applications || true
fi
exit 0
`
)

// Icon is the agent's icon (the tray's), read from the repository.
var Icon = filepath.Join("agent", "tray", "icon.png")

// DebInfo describes a Debian package of the agent.
type DebInfo struct {
	Version string
	Arch    string // amd64, arm64
	Binary  string // the agent executable
	IconPNG string // path of the icon; "" leaves it out
	Tray    bool   // the tray build: depends on X11 and OpenGL libraries
}

// Deb writes the agent's Debian package to path.
func Deb(d DebInfo, path string) error {
	work, err := os.MkdirTemp("", "ta-deb-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	write := func(name, body string, mode os.FileMode) (string, error) {
		p := filepath.Join(work, name)
		return p, os.WriteFile(p, []byte(body), mode)
	}
	entry, err := write("ta-agent.desktop", desktopEntry, 0o644)
	if err != nil {
		return err
	}
	scripts := map[string]string{}
	for name, body := range map[string]string{"postinst": postinst, "prerm": prerm, "postrm": postrm} {
		if scripts[name], err = write(name, body, 0o755); err != nil {
			return err
		}
	}
	contents := files.Contents{
		{Source: d.Binary, Destination: binPath, FileInfo: &files.ContentFileInfo{Mode: 0o755}},
		{Source: entry, Destination: desktopPath, FileInfo: &files.ContentFileInfo{Mode: 0o644}},
		{Source: entry, Destination: autostart, Type: files.TypeConfig, FileInfo: &files.ContentFileInfo{Mode: 0o644}},
	}
	if d.IconPNG != "" {
		contents = append(contents, &files.Content{Source: d.IconPNG, Destination: iconPath, FileInfo: &files.ContentFileInfo{Mode: 0o644}})
	}
	info := &nfpm.Info{
		Name:        PackageName,
		Arch:        d.Arch,
		Platform:    "linux",
		Version:     d.Version,
		Section:     "devel",
		Priority:    "optional",
		Maintainer:  "Test automation <agent@testautomation.invalid>",
		Description: "Desktop agent of the test automation hub\nRuns, records and picks UI tests in a local Chromium for the hub it pairs with.",
		Vendor:      "testautomation",
		License:     "Proprietary",
		MTime:       time.Unix(0, 0).UTC(),
		Overridables: nfpm.Overridables{
			Contents: contents,
			// The headless shell makes headless runs' screenshots cheap
			// (agent/runner/frames.go).
			Recommends: []string{"chromium | google-chrome-stable", "chromium-headless-shell"},
			Scripts:    nfpm.Scripts{PostInstall: scripts["postinst"], PreRemove: scripts["prerm"], PostRemove: scripts["postrm"]},
			Deb:        nfpm.Deb{Compression: "gzip"}, // hub/downloads adds hub.json to a gzip data member
		},
	}
	if d.Tray {
		info.Depends = []string{"libgl1", "libx11-6", "libxcursor1", "libxrandr2", "libxinerama1", "libxi6", "libxxf86vm1"}
	}
	info = nfpm.WithDefaults(info)
	if err := nfpm.PrepareForPackager(info, "deb"); err != nil {
		return err
	}
	pkg, err := nfpm.Get("deb")
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pkg.Package(info, f); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}

// TarGz writes the agent as ta-agent/ta-agent (with its desktop entry) in a
// .tar.gz, for systems without dpkg.
func TarGz(binary, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	add := func(name string, mode int64, data []byte) error {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: mode, Size: int64(len(data)), ModTime: time.Unix(0, 0), Typeflag: tar.TypeReg, Format: tar.FormatGNU}); err != nil {
			return err
		}
		_, err := tw.Write(data)
		return err
	}
	bin, err := os.ReadFile(binary)
	if err == nil {
		err = tw.WriteHeader(&tar.Header{Name: "ta-agent/", Mode: 0o755, ModTime: time.Unix(0, 0), Typeflag: tar.TypeDir, Format: tar.FormatGNU})
	}
	if err == nil {
		err = add("ta-agent/ta-agent", 0o755, bin)
	}
	if err == nil {
		err = add("ta-agent/ta-agent.desktop", 0o644, []byte(desktopEntry))
	}
	if err == nil {
		err = add("ta-agent/README.txt", 0o644, []byte(tarReadme))
	}
	for _, c := range []func() error{tw.Close, zw.Close, f.Close} {
		if e := c(); err == nil {
			err = e
		}
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

const tarReadme = `Test automation agent

Start it with ./ta-agent (add --headless on a machine without a desktop).
It pairs with the hub this archive was downloaded from (hub.json beside
it): open the pairing page it shows, approve, and it runs your tests.
To start it at login, copy ta-agent.desktop to ~/.config/autostart/ and
set Exec= to this folder's ta-agent.
`
