package main

// Several hub processes on one database (docs/several-hubs.md), as an
// operator runs them: real hub binaries, a real agent binary, real
// Chromium.

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/dbtest"
	"github.com/testautomation/ta/hub/objtest"
	"github.com/testautomation/ta/hub/secretbox"
)

// The private database of the first hub takes a second hub: the first
// writes the URL to use, owner-only, and a second one with that URL and the
// same secret key serves the same accounts; one with another key refuses
// to start, saying why.
func TestSecondHubSharesPrivateDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the hub binary")
	}
	bin := buildHub(t)
	base := clusterDir(t)
	first := startHub(t, bin, filepath.Join(base, "one"))
	path := filepath.Join(base, "one", databaseURLFile)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatalf("the first hub wrote no %s: %v\n%s", databaseURLFile, err, first.log())
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("%s is %v; it reaches the database without a password, so owner-only", path, st.Mode().Perm())
	}
	if !strings.Contains(first.log(), path) || !strings.Contains(first.log(), "HUB_ARTIFACTS="+filepath.Join(base, "one", "artifacts")) {
		t.Errorf("the first hub does not say where the URL for a second hub is:\n%s", first.log())
	}
	url, _ := os.ReadFile(path)
	key, _ := os.ReadFile(filepath.Join(base, "one", secretbox.KeyFile))
	if err := os.MkdirAll(filepath.Join(base, "two"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "two", secretbox.KeyFile), key, 0o600); err != nil { // as the first hub's log says
		t.Fatal(err)
	}
	second := startHub(t, bin, filepath.Join(base, "two"), "DATABASE_URL="+strings.TrimSpace(string(url)),
		"HUB_ARTIFACTS="+filepath.Join(base, "one", "artifacts"))
	c := newSession(t)
	if s := post(t, c, first.url+"/api/auth/register", map[string]string{"name": "Ann", "email": "ann@example.com", "password": "long enough pw"}); s != 201 {
		t.Fatalf("register on the first hub: %d", s)
	}
	if s := post(t, newSession(t), second.url+"/api/auth/login", map[string]string{"email": "ann@example.com", "password": "long enough pw"}); s != 200 {
		t.Errorf("sign in on the second hub with the account made on the first: %d\n%s", s, second.log())
	}
	other := exec.Command(bin, "--addr", freeAddr(t), "--data", filepath.Join(base, "three"))
	other.Env = append(os.Environ(), "DATABASE_URL="+strings.TrimSpace(string(url)), "HUB_SECRET_KEY="+newKey(t))
	out, err := other.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "every hub sharing a database needs the same HUB_SECRET_KEY") {
		t.Errorf("a hub with another secret key: %v\n%s", err, out)
	}
	second.stop(t)
	first.stop(t)
}

func newKey(t *testing.T) string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func newSession(t *testing.T) *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: 30 * time.Second}
}

// call sends a JSON request and decodes the answer into out (if not nil).
func call(t *testing.T, c *http.Client, method, url, project string, body, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = strings.NewReader(string(data))
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Content-Type", "application/json")
	if project != "" {
		req.Header.Set("X-Project-Id", project)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil {
		_ = json.Unmarshal(data, out)
	}
	return resp.StatusCode
}

// agentProcess runs the headless agent binary against a list of hubs and
// returns its pairing code.
func agentProcess(t *testing.T, hubs, dir string) (*exec.Cmd, <-chan string, *lineLog) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "ta-agent")
	if out, err := exec.Command("go", "build", "-tags", "headless", "-o", bin, "../agent").CombinedOutput(); err != nil {
		t.Fatalf("go build agent: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--hub", hubs, "--headless", "--config", dir, "--parallel", "2")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	codes := make(chan string, 1)
	logs := &lineLog{}
	re := regexp.MustCompile(`^pairing code: (\S+)$`)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			logs.add(sc.Text())
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				codes <- m[1]
			}
		}
	}()
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Wait() })
	return cmd, codes, logs
}

type lineLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *lineLog) add(s string) { l.mu.Lock(); l.lines = append(l.lines, s); l.mu.Unlock() }
func (l *lineLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// runEvents reads a finished run's whole event stream and returns the
// events' ids and the last event's kind.
func runEvents(t *testing.T, c *http.Client, url string) ([]int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	resp, err := (&http.Client{Jar: c.Jar}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var seqs []int
	last := ""
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "id: "); ok {
			n, _ := strconv.Atoi(v)
			seqs = append(seqs, n)
		}
		if v, ok := strings.CutPrefix(line, "event: "); ok {
			last = v
		}
	}
	return seqs, last
}

// agentHub is the hub the Agents list says the agent is connected from,
// by asking each hub's /api/agent whether it is connected: all must agree
// it is, and the question is which hub's log says it connected last.
func agentConnected(t *testing.T, c *http.Client, hubURL string) bool {
	var out struct {
		Agents []struct {
			Connected bool `json:"connected"`
		} `json:"agents"`
	}
	call(t, c, "GET", hubURL+"/api/agent", "", nil, &out)
	return len(out.Agents) == 1 && out.Agents[0].Connected
}

// Twenty runs started on hub A, run by an agent connected to hub B, with
// artifacts in a real S3-compatible bucket (SeaweedFS): B is killed
// (SIGKILL) half way; the agent moves to hub C, which carries on
// with the runs it was running; every run passes with every event, none
// twice, and its screenshots come back through hub A. Then C stops gracefully: its agent moves to A within the drain
// time, and C is gone by then.
func TestHubsLoseNoRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs hub and agent binaries")
	}
	bin := buildHub(t)
	db := dbtest.New(t)
	key := newKey(t)
	bucket := objtest.Weed(t) // a real S3-compatible server: every hub serves every run's screenshots
	common := []string{"DATABASE_URL=" + db, "HUB_SECRET_KEY=" + key, "HUB_DRAIN_SECONDS=15",
		"HUB_S3_ENDPOINT=" + bucket.Endpoint, "HUB_S3_BUCKET=" + bucket.Bucket, "HUB_S3_ACCESS_KEY=" + bucket.AccessKey,
		"HUB_S3_SECRET_KEY=" + bucket.SecretKey, "HUB_S3_REGION=" + bucket.Region}
	a := startHub(t, bin, t.TempDir(), common...)
	b := startHub(t, bin, t.TempDir(), common...)
	hc := startHub(t, bin, t.TempDir(), common...)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Shop</title><h1>Welcome</h1>`)
	}))
	t.Cleanup(site.Close)

	c := newSession(t)
	if s := call(t, c, "POST", a.url+"/api/auth/register", "", map[string]string{"name": "Ann", "email": "ann@example.com", "password": "long enough pw"}, nil); s != 201 {
		t.Fatalf("register: %d", s)
	}
	var org, proj struct {
		ID string `json:"id"`
	}
	if s := call(t, c, "POST", a.url+"/api/orgs", "", map[string]string{"name": "Shop"}, &org); s != 201 {
		t.Fatalf("create org: %d", s)
	}
	if s := call(t, c, "POST", a.url+"/api/orgs/"+org.ID+"/projects", "", map[string]string{"name": "Web"}, &proj); s != 201 {
		t.Fatalf("create project: %d", s)
	}
	project := proj.ID
	steps := []map[string]any{{"id": "open", "type": "navigate", "url": site.URL + "/"}}
	for i := range 4 {
		steps = append(steps, map[string]any{"id": fmt.Sprintf("w%d", i), "type": "wait", "ms": 300})
	}
	steps = append(steps, map[string]any{"id": "see", "type": "assertText", "target": map[string]any{"locators": []map[string]any{{"kind": "css", "value": "h1"}}}, "expected": "Welcome"})
	var test struct {
		ID string `json:"id"`
	}
	if s := call(t, c, "POST", a.url+"/api/tests", project, map[string]any{"dsl": 2, "name": "Shop", "steps": steps}, &test); s != 201 {
		t.Fatalf("create test: %d", s)
	}

	_, codes, agentLog := agentProcess(t, b.url+","+hc.url+","+a.url, t.TempDir())
	select {
	case code := <-codes:
		if s := call(t, c, "POST", a.url+"/api/agent/pair/"+code, "", nil, nil); s != 201 {
			t.Fatalf("approve on hub A the code the agent got from hub B: %d\n%s", s, agentLog)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("the agent printed no pairing code\n%s", agentLog)
	}
	waitUntil(t, "the agent connected", func() bool { return agentConnected(t, c, a.url) })

	var runs []string
	for range 20 {
		var r struct {
			RunID string `json:"runId"`
		}
		if s := call(t, c, "POST", a.url+"/api/runs", project, map[string]any{"testId": test.ID}, &r); s != 201 {
			t.Fatalf("start a run: %d", s)
		}
		runs = append(runs, r.RunID)
	}
	finished := func() int {
		var out struct {
			Runs []struct {
				Status string `json:"status"`
			} `json:"runs"`
		}
		call(t, c, "GET", a.url+"/api/runs?limit=50", project, nil, &out)
		n := 0
		for _, r := range out.Runs {
			if r.Status != "queued" && r.Status != "running" {
				n++
			}
		}
		return n
	}
	waitUntil(t, "some runs finished", func() bool { return finished() >= 6 })
	killed := time.Now()
	_ = b.cmd.Process.Signal(syscall.SIGKILL)
	<-b.done
	waitUntil(t, "all runs finished", func() bool { return finished() == 20 })
	t.Logf("figure: the 14 runs left when hub B was killed finished %s later", time.Since(killed).Round(time.Millisecond))
	for _, id := range runs {
		var r struct {
			Status string `json:"status"`
			Error  string `json:"error"`
		}
		call(t, c, "GET", hc.url+"/api/runs/"+id, "", nil, &r)
		if r.Status != "passed" {
			t.Errorf("run %s: %s (%s)", id, r.Status, r.Error)
		}
		// Its screenshots, stored by whichever hub held the agent, from a
		// hub that never did.
		if got := call(t, c, "GET", a.url+"/api/runs/"+id+"/artifacts/step-001-open.jpg", "", nil, nil); got != 200 {
			t.Errorf("run %s: its first screenshot through hub A: %d", id, got)
		}
		seqs, last := runEvents(t, c, hc.url+"/api/runs/"+id+"/events")
		if last != "run.finished" {
			t.Errorf("run %s: the stream ended on %q", id, last)
		}
		for i, s := range seqs {
			if s != i+1 {
				t.Errorf("run %s: event %d has id %d (gaps or duplicates): %v", id, i+1, s, seqs)
				break
			}
		}
	}

	// A graceful stop of the hub now holding the agent.
	stopAt := time.Now()
	if err := hc.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-hc.done:
	case <-time.After(20 * time.Second):
		t.Fatalf("hub C did not stop within its drain time (15 s)\n%s", hc.log())
	}
	stopped := time.Since(stopAt)
	waitUntil(t, "the agent connected to hub A", func() bool { return agentConnected(t, c, a.url) })
	t.Logf("figure: hub C stopped %s after SIGTERM; its agent was on hub A %s after it", stopped.Round(time.Millisecond), time.Since(stopAt).Round(time.Millisecond))
	if !strings.Contains(hc.log(), "draining: closing the agents' connections so they reconnect to another hub") {
		t.Errorf("hub C did not say it sent its agent away:\n%s", hc.log())
	}
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
