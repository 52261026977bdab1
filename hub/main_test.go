package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestParseConfig(t *testing.T) {
	env := map[string]string{"HUB_ADDR": "0.0.0.0:9000", "HUB_DATA": "/srv/hub", "HUB_LOG_FORMAT": "json"}
	getenv := func(k string) string { return env[k] }
	c, err := parseConfig(nil, getenv, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "0.0.0.0:9000" || c.DataDir != "/srv/hub" || c.LogFormat != "json" || c.BaseURL != "http://127.0.0.1:9000" {
		t.Errorf("from environment: %+v", c)
	}
	c, err = parseConfig([]string{"--addr", "127.0.0.1:7000", "--data", "d", "--log-format", "text"}, getenv, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:7000" || c.DataDir != "d" || c.LogFormat != "text" {
		t.Errorf("flags must win over the environment: %+v", c)
	}
	env["HUB_BASE_URL"] = "https://hub.example.com/"
	if c, _ := parseConfig(nil, getenv, io.Discard); c.BaseURL != "https://hub.example.com" {
		t.Errorf("base URL %q", c.BaseURL)
	}
	for _, args := range [][]string{{"--log-format", "xml"}, {"--addr", "nonsense"}, {"extra"}} {
		if _, err := parseConfig(args, getenv, io.Discard); err == nil {
			t.Errorf("parseConfig(%v) accepted bad input", args)
		}
	}
	env["HUB_METRICS_ALLOW"] = "10.0.0.0/8, 127.0.0.1"
	if c, err := parseConfig(nil, getenv, io.Discard); err != nil || len(c.MetricsAllow) != 2 || c.MetricsAllow[1].String() != "127.0.0.1/32" {
		t.Errorf("HUB_METRICS_ALLOW: %v %v", c.MetricsAllow, err)
	}
	env["HUB_METRICS_ALLOW"] = "10.0.0.0/99"
	if _, err := parseConfig(nil, getenv, io.Discard); err == nil {
		t.Error("a bad HUB_METRICS_ALLOW must be refused")
	}
	delete(env, "HUB_METRICS_ALLOW")
	env["HUB_ADMIN_EMAIL"] = "admin@example.com"
	if _, err := parseConfig(nil, getenv, io.Discard); err == nil {
		t.Error("HUB_ADMIN_EMAIL without HUB_ADMIN_PASSWORD must be refused")
	}
}

// hubProcess is the real hub binary running on a private cluster.
type hubProcess struct {
	cmd  *exec.Cmd
	url  string
	logs *bytes.Buffer
	mu   *sync.Mutex
	done chan error
}

func buildHub(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "hub")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// clusterDir is a folder for data folders with a private cluster: t.TempDir
// is 0700, not reachable by the postgres account the cluster runs as.
func clusterDir(t *testing.T) string {
	t.Helper()
	base, err := os.MkdirTemp("", "hubbin")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	return base
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func startHub(t *testing.T, bin, dataDir string, env ...string) *hubProcess {
	t.Helper()
	addr := freeAddr(t)
	cmd := exec.Command(bin, "--addr", addr, "--data", dataDir)
	cmd.Env = append(os.Environ(), "DATABASE_URL=")
	cmd.Env = append(cmd.Env, env...)
	h := &hubProcess{cmd: cmd, url: "http://" + addr, logs: &bytes.Buffer{}, mu: &sync.Mutex{}, done: make(chan error, 1)}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			h.mu.Lock()
			h.logs.WriteString(sc.Text() + "\n")
			h.mu.Unlock()
		}
	}()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { h.done <- cmd.Wait(); pw.Close() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Signal(syscall.SIGTERM)
			<-h.done
		}
	})
	deadline := time.Now().Add(90 * time.Second)
	for {
		resp, err := http.Get(h.url + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return h
			}
		}
		select {
		case err := <-h.done:
			t.Fatalf("hub exited early: %v\n%s", err, h.log())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("hub did not become healthy\n%s", h.log())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (h *hubProcess) log() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.logs.String()
}

func (h *hubProcess) stop(t *testing.T) {
	t.Helper()
	if err := h.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-h.done:
		if err != nil {
			t.Fatalf("hub exited with %v\n%s", err, h.log())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("hub did not stop\n%s", h.log())
	}
}

func post(t *testing.T, c *http.Client, url string, body any) int {
	t.Helper()
	data, _ := json.Marshal(body)
	resp, err := c.Post(url, "application/json", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestHubBinary runs the hub as a user would: the private database is
// created on first start (as the postgres account when run as root),
// reused on the next start, and stopped cleanly on SIGTERM.
func TestHubBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the hub binary")
	}
	bin := buildHub(t)
	base := clusterDir(t)
	data := filepath.Join(base, "data")
	admin := []string{"HUB_ADMIN_EMAIL=root@example.com", "HUB_ADMIN_PASSWORD=bootstrap password"}

	h := startHub(t, bin, data, admin...)
	if !strings.Contains(h.log(), "Hub running at "+h.url) || !strings.Contains(h.log(), "sign in as root@example.com") {
		t.Errorf("start-up does not say where the hub is and how to sign in:\n%s", h.log())
	}
	// Without HUB_BASE_URL only loopback names and addresses are served,
	// and the hub says so at start.
	if !strings.Contains(h.log(), "HUB_BASE_URL not set: only requests addressed to localhost or an IP address are accepted") {
		t.Errorf("start-up does not say which host names are served:\n%s", h.log())
	}
	foreign, _ := http.NewRequest("GET", h.url+"/api/auth/session", nil)
	foreign.Host = "rebound.example"
	if resp, err := http.DefaultClient.Do(foreign); err != nil || resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("a request addressed to another host name: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	pid := postmasterPID(t, data)
	if os.Geteuid() == 0 {
		st, err := os.Stat(filepath.Join(data, "pg"))
		if err != nil {
			t.Fatal(err)
		}
		if uid := st.Sys().(*syscall.Stat_t).Uid; uid == 0 {
			t.Error("the private cluster's folder is owned by root; PostgreSQL must run unprivileged")
		}
		if procUID(t, pid) == "0" {
			t.Error("postgres runs as root")
		}
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	if s := post(t, c, h.url+"/api/auth/login", map[string]string{"email": "root@example.com", "password": "bootstrap password"}); s != 200 {
		t.Fatalf("bootstrap admin sign-in: %d\n%s", s, h.log())
	}
	// A second hub on the same data folder refuses to start, and leaves the
	// first one's database alone.
	second := exec.Command(bin, "--addr", freeAddr(t), "--data", data)
	second.Env = append(os.Environ(), "DATABASE_URL=")
	out, err := second.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "in use by another hub") {
		t.Errorf("second hub on the same data: %v\n%s", err, out)
	}
	if s := post(t, c, h.url+"/api/orgs", map[string]string{"name": "Still here"}); s != 201 {
		t.Fatalf("first hub after the second one tried: %d\n%s", s, h.log())
	}
	// Someone registers an email; naming it as HUB_ADMIN_EMAIL later must not
	// hand them platform administration.
	if s := post(t, &http.Client{}, h.url+"/api/auth/register", map[string]string{"name": "Eve", "email": "eve@example.com", "password": "eve's own password"}); s != 201 {
		t.Fatalf("register: %d", s)
	}
	if s := post(t, c, h.url+"/api/orgs", map[string]string{"name": "Kept"}); s != 201 {
		t.Fatalf("create org: %d", s)
	}
	h.stop(t)
	if _, err := os.Stat(filepath.Join(data, "pg", "postmaster.pid")); !os.IsNotExist(err) {
		t.Errorf("postmaster.pid left after shutdown (%v): database not stopped cleanly", err)
	}
	if processAlive(pid) {
		t.Errorf("postgres (pid %d) still running after the hub stopped", pid)
	}

	eve := exec.Command(bin, "--addr", freeAddr(t), "--data", data)
	eve.Env = append(os.Environ(), "DATABASE_URL=", "HUB_ADMIN_EMAIL=eve@example.com", "HUB_ADMIN_PASSWORD=operator password")
	if out, err := eve.CombinedOutput(); err == nil || !strings.Contains(string(out), "refusing to make it a platform administrator") {
		t.Errorf("HUB_ADMIN_EMAIL of someone else's account: %v\n%s", err, out)
	}

	// Second start: the same cluster and data; the existing admin's password is not reset.
	h = startHub(t, bin, data, "HUB_ADMIN_EMAIL=root@example.com", "HUB_ADMIN_PASSWORD=another password")
	jar, _ = cookiejar.New(nil)
	c = &http.Client{Jar: jar}
	if s := post(t, c, h.url+"/api/auth/login", map[string]string{"email": "root@example.com", "password": "bootstrap password"}); s != 200 {
		t.Fatalf("sign-in after restart: %d\n%s", s, h.log())
	}
	resp, err := c.Get(h.url + "/api/context")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `"name":"Kept"`) {
		t.Errorf("data did not survive a restart: %s", body)
	}

	// The private database dies (killed, out of memory): the hub starts it
	// again by itself, and /healthz says when it is back.
	old := postmasterPID(t, data)
	killed := time.Now()
	if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for {
		res, err := http.Get(h.url + "/healthz")
		if err == nil {
			res.Body.Close()
			b, _ := os.ReadFile(filepath.Join(data, "pg", "postmaster.pid"))
			pid, _ := strconv.Atoi(strings.SplitN(string(b), "\n", 2)[0])
			if res.StatusCode == 200 && pid > 0 && pid != old && processAlive(pid) {
				break
			}
		}
		if time.Since(killed) > 90*time.Second {
			t.Fatalf("/healthz did not recover within 90 s after the database was killed:\n%s", h.log())
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Logf("figure: /healthz answered 200 again %s after the private PostgreSQL was killed", time.Since(killed).Round(time.Millisecond))
	h.stop(t)
}

func postmasterPID(t *testing.T, data string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(data, "pg", "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.SplitN(string(b), "\n", 2)[0])
	if err != nil {
		t.Fatalf("postmaster.pid: %v", err)
	}
	return pid
}

func procUID(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "Uid:" {
			return f[1]
		}
	}
	return ""
}

func processAlive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] != "Z"
}
