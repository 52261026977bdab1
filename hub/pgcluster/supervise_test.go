package pgcluster

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func startSupervised(t *testing.T, dir string) *Cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	c, err := Start(ctx, Options{Dir: dir, Fast: true, Logger: testLogger(t), Restart: true})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = c.Stop(context.Background()) })
	return c
}

// waitServing polls until the cluster answers a query again and returns
// how long that took.
func waitServing(t *testing.T, c *Cluster, since time.Time) time.Duration {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := c.admin(ctx)
		if err == nil {
			err = conn.Ping(ctx)
			conn.Close(ctx)
		}
		cancel()
		if err == nil {
			return time.Since(since)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the cluster did not serve again within 90 s")
	return 0
}

// A server that dies (killed, out of memory) is started again by the
// supervisor; the figure is how long the database was away.
func TestSupervisorRestartsAKilledServer(t *testing.T) {
	c := startSupervised(t, filepath.Join(worldDir(t), "pg"))
	old := c.PID()
	killed := time.Now()
	if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	took := waitServing(t, c, killed)
	for c.Restarts() == 0 && time.Since(killed) < 90*time.Second {
		time.Sleep(20 * time.Millisecond) // served by the new server before the supervisor recorded it
	}
	if c.Restarts() != 1 || c.PID() == old || !processAlive(c.PID()) {
		t.Fatalf("restarts %d, pid %d (was %d)", c.Restarts(), c.PID(), old)
	}
	t.Logf("figure: the database answered again %s after its server was killed", took.Round(time.Millisecond))
	stop(t, c)
	if processAlive(c.PID()) {
		t.Error("Stop left the restarted server running")
	}
}

// `pg_ctl restart` by an operator replaces the server with one the hub did
// not start: the supervisor adopts it instead of starting a second one,
// and Stop stops it.
func TestSupervisorAdoptsPgCtlRestart(t *testing.T) {
	dir := filepath.Join(worldDir(t), "pg")
	c := startSupervised(t, dir)
	old := c.PID()
	cmd := exec.Command(filepath.Join(c.binDir, "pg_ctl"), "-D", dir, "restart", "-m", "fast", "-w",
		"-l", filepath.Join(dir, "log", "pg_ctl.log")) // else the new server keeps our output pipe open
	cmd.Env = serverEnv()
	if c.acct != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.acct.cred}
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pg_ctl restart: %v\n%s", err, out)
	}
	waitServing(t, c, time.Now())
	deadline := time.Now().Add(30 * time.Second)
	for c.Restarts() == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	pid := c.PID()
	if c.Restarts() != 1 || pid == old || pid != c.livePostmaster() {
		t.Fatalf("after pg_ctl restart: restarts %d, pid %d (was %d), postmaster.pid names %d", c.Restarts(), pid, old, c.livePostmaster())
	}
	stop(t, c)
	if processAlive(pid) {
		t.Error("Stop left the adopted server running")
	}
}

// The cluster trusts its Unix socket only: no TCP address, even after
// someone edits pg_hba.conf by hand.
func TestHBATrustsNoTCPAddress(t *testing.T) {
	dir := filepath.Join(worldDir(t), "pg")
	stop(t, start(t, dir))
	f, err := os.OpenFile(filepath.Join(dir, "pg_hba.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("host all all 0.0.0.0/0 trust\n")
	f.Close()
	c := start(t, dir)
	data, err := os.ReadFile(filepath.Join(dir, "pg_hba.conf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) > 0 && !strings.HasPrefix(f[0], "#") && f[0] != "local" {
			t.Errorf("pg_hba.conf lets in more than the Unix socket: %q", line)
		}
	}
	// and the server it started still lets the hub in
	waitServing(t, c, time.Now())
}
