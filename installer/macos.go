package installer

import (
	"archive/zip"
	"os"
	"time"
)

// The macOS agent: what Linux can build honestly is the agent without the
// tray (no cgo for Cocoa here), in an app bundle that runs in the
// background (LSUIElement) and opens the pairing page in the browser on
// first start; the tray build needs a Mac (`make installers` there). The
// bundle carries a launchd agent to copy to ~/Library/LaunchAgents, which
// the agent's own "start at login" writes too.

const appName = "TA Agent.app"

func infoPlist(version string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict>
<key>CFBundleName</key><string>TA Agent</string>
<key>CFBundleDisplayName</key><string>Test Automation Agent</string>
<key>CFBundleIdentifier</key><string>com.testautomation.agent</string>
<key>CFBundleVersion</key><string>` + version + `</string>
<key>CFBundleShortVersionString</key><string>` + version + `</string>
<key>CFBundleExecutable</key><string>ta-agent</string>
<key>CFBundlePackageType</key><string>APPL</string>
<key>LSUIElement</key><true/>
<key>LSMinimumSystemVersion</key><string>11.0</string>
</dict></plist>
`
}

const launchdPlist = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict>
<key>Label</key><string>com.testautomation.agent</string>
<key>ProgramArguments</key><array><string>/Applications/TA Agent.app/Contents/MacOS/ta-agent</string></array>
<key>RunAtLoad</key><true/>
<key>ProcessType</key><string>Interactive</string>
</dict></plist>
`

const macReadme = `Test Automation Agent for macOS

1. Move "TA Agent.app" to Applications and open it (the first time:
   right-click, Open, as it is not notarized).
2. It opens your hub's pairing page in the browser: approve this Mac.
3. To start it at login: cp "TA Agent.app/Contents/Resources/com.testautomation.agent.plist" ~/Library/LaunchAgents/
   then: launchctl load ~/Library/LaunchAgents/com.testautomation.agent.plist

This build has no menu bar icon; the tray build needs a Mac: run
make installers there.
`

// MacZip writes the agent binary as an app bundle in a .zip.
func MacZip(binary, version, icon, path string) error {
	bin, err := os.ReadFile(binary)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	add := func(name string, mode os.FileMode, data []byte) error {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: time.Unix(0, 0).UTC()}
		h.SetMode(mode)
		w, err := zw.CreateHeader(h)
		if err == nil {
			_, err = w.Write(data)
		}
		return err
	}
	files := []struct {
		name string
		mode os.FileMode
		data []byte
	}{
		{appName + "/Contents/Info.plist", 0o644, []byte(infoPlist(version))},
		{appName + "/Contents/MacOS/ta-agent", 0o755, bin},
		{appName + "/Contents/Resources/com.testautomation.agent.plist", 0o644, []byte(launchdPlist)},
		{"README.txt", 0o644, []byte(macReadme)},
	}
	if icon != "" {
		if data, err := os.ReadFile(icon); err == nil {
			files = append(files, struct {
				name string
				mode os.FileMode
				data []byte
			}{appName + "/Contents/Resources/ta-agent.png", 0o644, data})
		}
	}
	for _, x := range files {
		if err = add(x.name, x.mode, x.data); err != nil {
			break
		}
	}
	for _, c := range []func() error{zw.Close, f.Close} {
		if e := c(); err == nil {
			err = e
		}
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}
