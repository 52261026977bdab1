package api

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/downloads"
	"github.com/testautomation/ta/installer"
)

// A new user downloads the Linux agent from the hub, installs it (dpkg -x
// into a scratch root) and starts it without telling it any address: it
// shows a pairing code for this hub, the user approves, and it is connected.
// Asking for what the hub does not have answers 404 naming what it has.
func TestAgentDownloadInstallsAndPairs(t *testing.T) {
	if _, err := exec.LookPath("dpkg-deb"); err != nil {
		t.Skip("dpkg-deb is not installed")
	}
	h := newHarness(t)
	dir := filepath.Join(h.dataDir, "downloads")
	h.api.Downloads = &downloads.Dir{Path: dir, Cache: filepath.Join(h.dataDir, "served"), HubURL: h.srv.URL}
	ann, _ := h.register("Ann")

	h.client().do("GET", "/api/agent/download", nil).want(t, 401)
	if l := ann.do("GET", "/api/agent/download", nil).want(t, 200).json()["downloads"].([]any); len(l) != 0 {
		t.Fatalf("no installers yet, listed %v", l)
	}
	if r := ann.do("GET", "/api/agent/download?os=linux&arch=amd64", nil).want(t, 404); !strings.Contains(r.str("error"), "make installers") {
		t.Errorf("nothing built: %s", r.body)
	}

	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	deb := filepath.Join(dir, "ta-agent_0.5.0_linux_amd64.deb")
	if err := installer.Deb(installer.DebInfo{Version: "0.5.0", Arch: "amd64", Binary: buildAgent(t)}, deb); err != nil {
		t.Fatal(err)
	}
	list := ann.do("GET", "/api/agent/download", nil).want(t, 200).json()["downloads"].([]any)
	if len(list) != 1 {
		t.Fatalf("listed %v", list)
	}
	item := list[0].(map[string]any)
	if item["os"] != "linux" || item["arch"] != "amd64" || item["kind"] != "deb" || item["file"] != "ta-agent_0.5.0_linux_amd64.deb" || num(item["size"]) == 0 {
		t.Fatalf("listed %v", item)
	}
	for _, bad := range []string{"?os=beos&arch=amd64", "?os=linux", "?arch=arm64", "?os=linux&arch=amd64&kind=rpm", "?os=linux&arch=mips"} {
		ann.do("GET", "/api/agent/download"+bad, nil).want(t, 400)
	}
	if r := ann.do("GET", "/api/agent/download?os=windows&arch=amd64", nil).want(t, 404); !strings.Contains(r.str("error"), "linux/amd64 (deb)") {
		t.Errorf("missing windows: %s", r.body)
	}
	ann.do("GET", "/api/agent/download?os=linux&arch=amd64&kind=tar.gz", nil).want(t, 404)

	got := ann.do("GET", "/api/agent/download?os=linux&arch=amd64", nil).want(t, 200)
	s := sha256.Sum256(got.body)
	if hex.EncodeToString(s[:]) != item["sha256"] || got.header.Get("X-Content-SHA256") != item["sha256"] ||
		!strings.Contains(got.header.Get("Content-Disposition"), `filename=ta-agent_0.5.0_linux_amd64.deb`) {
		t.Fatalf("served %d bytes, sum %x; headers %v", len(got.body), s, got.header)
	}
	pkg := filepath.Join(t.TempDir(), "ta-agent.deb")
	if err := os.WriteFile(pkg, got.body, 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if out, err := exec.Command("dpkg-deb", "-x", pkg, root).CombinedOutput(); err != nil {
		t.Fatalf("dpkg-deb -x: %v %s", err, out)
	}

	// Start the installed agent as its menu entry does: no --hub.
	cmd := exec.Command(filepath.Join(root, "usr/bin/ta-agent"), "--headless", "--config", t.TempDir())
	cmd.Env = append(os.Environ(), "AGENT_HUB=")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Wait() })
	codes := make(chan string, 1)
	var (
		mu    sync.Mutex
		lines []string
	)
	go func() {
		re := regexp.MustCompile(`^pairing code: (\S+)$`)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			mu.Lock()
			lines = append(lines, sc.Text())
			mu.Unlock()
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				codes <- m[1]
			}
		}
	}()
	select {
	case code := <-codes:
		ann.do("POST", "/api/agent/pair/"+code, nil).want(t, 201)
	case <-time.After(60 * time.Second):
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("the installed agent showed no pairing code; it said:\n%s", strings.Join(lines, "\n"))
	}
	waitFor(t, func() bool {
		agents := ann.do("GET", "/api/agent", nil).json()["agents"].([]any)
		return len(agents) == 1 && agents[0].(map[string]any)["connected"] == true
	})
}
