package pgcluster

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// worldDir returns a fresh folder every account can traverse (t.TempDir is
// 0700, which the postgres account could not enter when tests run as root).
func worldDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "pgcluster-test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	if err := os.Chmod(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func start(t *testing.T, dir string) *Cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	c, err := Start(ctx, Options{Dir: dir, Fast: true, Logger: testLogger(t)})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = c.Stop(context.Background()) })
	return c
}

func stop(t *testing.T, c *Cluster) {
	t.Helper()
	if err := c.Stop(context.Background()); err != nil {
		t.Fatalf("Stop: %v", err)
	}
}

func connect(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect %q: %v", url, err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func queryString(t *testing.T, conn *pgx.Conn, sql string) string {
	t.Helper()
	var s string
	if err := conn.QueryRow(context.Background(), sql).Scan(&s); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return s
}

func postgresUID(t *testing.T) uint32 {
	t.Helper()
	u, err := user.Lookup("postgres")
	if err != nil {
		t.Fatalf("running as root needs a postgres account: %v", err)
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32)
	return uint32(uid)
}

// procUID returns the real uid of pid from /proc/<pid>/status.
func procUID(t *testing.T, pid int) uint32 {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "Uid:"); ok {
			uid, err := strconv.ParseUint(strings.Fields(rest)[0], 10, 32)
			if err != nil {
				t.Fatal(err)
			}
			return uint32(uid)
		}
	}
	t.Fatalf("no Uid line in /proc/%d/status", pid)
	return 0
}

func ownerUID(t *testing.T, path string) uint32 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t).Uid
}

func waitDone(t *testing.T, c *Cluster, d time.Duration) {
	t.Helper()
	select {
	case <-c.srv.done:
	case <-time.After(d):
		t.Fatalf("postgres pid %d still running after %s", c.srv.pid, d)
	}
}

func TestStartReuse(t *testing.T) {
	base := worldDir(t)
	// The data folder does not exist yet: Start creates it (0700) and,
	// as root, makes it traversable for the postgres account.
	newDir := filepath.Join(base, "new")
	dataDir := filepath.Join(newDir, "data")
	dir := filepath.Join(dataDir, "pg")
	c := start(t, dir)
	ctx := context.Background()

	conn := connect(t, c.URL("hub"))
	if got := queryString(t, conn, "SELECT current_user"); got != "hub" {
		t.Errorf("current_user = %q, want hub", got)
	}
	if got := queryString(t, conn, "SHOW listen_addresses"); got != "" {
		t.Errorf("listen_addresses = %q, want empty (no TCP listener)", got)
	}
	if got := queryString(t, conn, "SHOW fsync"); got != "off" {
		t.Errorf("fsync = %q, want off with Fast", got)
	}
	if c.sockDir != dir {
		t.Errorf("socket dir = %q, want the data folder %q", c.sockDir, dir)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("data folder mode = %v (%v), want 0700", fi.Mode().Perm(), err)
	}
	if _, err := os.Stat(filepath.Join(dir, "log", "postgres.log")); err != nil {
		t.Errorf("postgres log: %v", err)
	}
	if os.Geteuid() == 0 {
		want := postgresUID(t)
		if got := procUID(t, c.srv.pid); got != want {
			t.Errorf("postgres runs as uid %d, want %d (postgres)", got, want)
		}
		if got := ownerUID(t, dir); got != want {
			t.Errorf("%s owned by uid %d, want %d (postgres)", dir, got, want)
		}
		if got := ownerUID(t, filepath.Join(dir, "log", "postgres.log")); got != want {
			t.Errorf("postgres.log owned by uid %d, want %d", got, want)
		}
		for _, d := range []string{newDir, dataDir} {
			if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o701 {
				t.Errorf("%s mode = %v (%v), want 0701 (created 0700, o+x added)", d, fi.Mode().Perm(), err)
			}
		}
	}
	if _, err := conn.Exec(ctx, "CREATE TABLE keep (x int); INSERT INTO keep VALUES (42)"); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)

	// CreateDatabase / DropDatabase.
	if err := c.CreateDatabase(ctx, "extra", ""); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateDatabase(ctx, "extra", ""); err != nil {
		t.Fatalf("CreateDatabase must be idempotent without a template: %v", err)
	}
	if err := c.CreateDatabase(ctx, "copy", "hub"); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateDatabase(ctx, "copy", "hub"); err == nil {
		t.Error("CreateDatabase with a template over an existing database: want error")
	}
	cp := connect(t, c.URL("copy"))
	if got := queryString(t, cp, "SELECT x::text FROM keep"); got != "42" {
		t.Errorf("copy of hub: keep.x = %q", got)
	}
	if err := c.DropDatabase(ctx, "copy"); err != nil { // cp is still connected: FORCE
		t.Fatal(err)
	}
	if err := c.DropDatabase(ctx, "copy"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "Hub", "a-b", `x"; DROP`, "a b"} {
		if err := c.CreateDatabase(ctx, bad, ""); err == nil {
			t.Errorf("CreateDatabase(%q): want error", bad)
		}
		if err := c.DropDatabase(ctx, bad); err == nil {
			t.Errorf("DropDatabase(%q): want error", bad)
		}
	}

	stop(t, c)
	if err := c.Stop(ctx); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "postmaster.pid")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("postmaster.pid after a clean stop: %v", err)
	}

	// Second start reuses the cluster.
	c2 := start(t, dir)
	conn2 := connect(t, c2.URL("hub"))
	if got := queryString(t, conn2, "SELECT x::text FROM keep"); got != "42" {
		t.Errorf("after restart: keep.x = %q, want 42", got)
	}
	conn2.Close(ctx)
	stop(t, c2)
}

func TestStalePidFile(t *testing.T) {
	dir := filepath.Join(worldDir(t), "pg")
	stop(t, start(t, dir))

	deadPid := 999999
	for processAlive(deadPid) {
		deadPid++
	}
	for _, tc := range []struct {
		name string
		pid  int
	}{
		{"live non-postgres pid", os.Getpid()},
		{"dead pid", deadPid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			content := fmt.Sprintf("%d\n%s\n1700000000\n5432\n%s\n\n  5432001    32769\nready   \n", tc.pid, dir, dir)
			if err := os.WriteFile(filepath.Join(dir, "postmaster.pid"), []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			c := start(t, dir)
			conn := connect(t, c.URL("hub"))
			if got := queryString(t, conn, "SELECT 'ok'"); got != "ok" {
				t.Errorf("got %q", got)
			}
			conn.Close(context.Background())
			stop(t, c)
		})
	}
}

func TestOrphan(t *testing.T) {
	dir := filepath.Join(worldDir(t), "pg")
	orphan := start(t, dir) // "forgotten": a crashed hub never stops it
	orphanPid := orphan.srv.pid

	c := start(t, dir)
	if c.srv.pid == orphanPid {
		t.Fatal("same postgres pid")
	}
	waitDone(t, orphan, 5*time.Second)
	conn := connect(t, c.URL("hub"))
	if got := queryString(t, conn, "SELECT current_user"); got != "hub" {
		t.Errorf("current_user = %q", got)
	}
	conn.Close(context.Background())
	stop(t, c)
	if err := orphan.Stop(context.Background()); err == nil {
		t.Error("Stop of a cluster whose postgres was already shut down: want an error saying so")
	}
}

func TestLongSocketPath(t *testing.T) {
	base := worldDir(t)
	dir := filepath.Join(base, strings.Repeat("d", 100-len(base)), "pg")
	c := start(t, dir)
	if !c.tmpSock || c.sockDir == dir {
		t.Fatalf("socket dir = %q: want a short temporary folder for a %d-byte data path", c.sockDir, len(dir))
	}
	fi, err := os.Stat(c.sockDir)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("socket folder mode %v, want 0700", fi.Mode().Perm())
	}
	if os.Geteuid() == 0 && fi.Sys().(*syscall.Stat_t).Uid != postgresUID(t) {
		t.Errorf("socket folder not owned by postgres")
	}
	conn := connect(t, c.URL("hub"))
	if got := queryString(t, conn, "SHOW unix_socket_directories"); got != c.sockDir {
		t.Errorf("unix_socket_directories = %q, want %q", got, c.sockDir)
	}
	conn.Close(context.Background())
	stop(t, c)
	if _, err := os.Stat(c.sockDir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("temporary socket folder left behind: %v", err)
	}
}

func TestUnreachableAncestor(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only meaningful as root")
	}
	blocked := filepath.Join(worldDir(t), "blocked")
	if err := os.Mkdir(blocked, 0o700); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(blocked, "data", "pg")
	_, err := Start(context.Background(), Options{Dir: dir, Fast: true, Logger: testLogger(t)})
	if err == nil {
		t.Fatal("Start under a 0700 root folder: want error")
	}
	t.Log(err)
	for _, want := range []string{blocked + " ", "--data", "chmod o+x " + blocked} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "PG_VERSION")); err == nil {
		t.Error("initdb ran despite the unreachable folder")
	}
	if fi, err := os.Stat(filepath.Join(blocked, "data")); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("data folder mode changed before failing: %v (%v)", fi.Mode().Perm(), err)
	}
}

func TestMissingAccount(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("RunAs only applies as root")
	}
	_, err := Start(context.Background(), Options{Dir: filepath.Join(worldDir(t), "pg"), RunAs: "no_such_account_x", Logger: testLogger(t)})
	if err == nil || !strings.Contains(err.Error(), `account "no_such_account_x" does not exist`) {
		t.Fatalf("err = %v", err)
	}
}

func TestFindBinaries(t *testing.T) {
	root := t.TempDir()
	old := pgLibGlob
	pgLibGlob = filepath.Join(root, "*", "bin")
	t.Cleanup(func() { pgLibGlob = old })
	t.Setenv("PATH", "")

	_, err := FindBinaries()
	const want = "PostgreSQL server binaries (initdb, postgres) not found on PATH or in /usr/lib/postgresql/*/bin: install them with `apt-get install postgresql`, or set DATABASE_URL to use an existing server"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}

	mk := func(dir string, names ...string) string {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	mk(filepath.Join(root, "9.6", "bin"), "initdb", "postgres")
	v15 := mk(filepath.Join(root, "15", "bin"), "initdb", "postgres")
	mk(filepath.Join(root, "16", "bin"), "initdb") // incomplete
	mk(filepath.Join(root, "10", "bin"), "initdb", "postgres")
	if got, err := FindBinaries(); err != nil || got != v15 {
		t.Errorf("FindBinaries = %q, %v; want %q (highest complete version)", got, err, v15)
	}

	onPath := mk(filepath.Join(root, "path"), "initdb", "postgres")
	t.Setenv("PATH", mk(filepath.Join(root, "other"), "postgres")+string(os.PathListSeparator)+onPath)
	if got, err := FindBinaries(); err != nil || got != onPath {
		t.Errorf("FindBinaries = %q, %v; want %q from PATH", got, err, onPath)
	}
}

func TestCompareVersions(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"16", "15", 1}, {"9.6", "15", -1}, {"15", "15", 0}, {"9.6", "9.5", 1},
	} {
		if got := compareVersions(tc.a, tc.b); got != tc.want {
			t.Errorf("compareVersions(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestURLQuoting(t *testing.T) {
	c := &Cluster{sockDir: `/tmp/a dir/it's`}
	cfg, err := pgx.ParseConfig(c.URL("hub"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Host != c.sockDir || cfg.User != "hub" || cfg.Database != "hub" || cfg.Port != 5432 || cfg.TLSConfig != nil {
		t.Errorf("parsed %q: host=%q user=%q db=%q port=%d tls=%v", c.URL("hub"), cfg.Host, cfg.User, cfg.Database, cfg.Port, cfg.TLSConfig != nil)
	}
}

// TestHubDies checks the parent-death signal: when the process that started
// postgres is killed outright, postgres shuts itself down.
func TestHubDies(t *testing.T) {
	if dir := os.Getenv("PGCLUSTER_TEST_HUB_DIR"); dir != "" {
		// Child mode: start the cluster, report the pid, wait to be killed.
		c, err := Start(context.Background(), Options{Dir: dir, Fast: true})
		if err != nil {
			fmt.Println("ERR", err)
			os.Exit(1)
		}
		fmt.Println("PID", c.srv.pid)
		time.Sleep(time.Minute)
		os.Exit(2)
	}
	dir := filepath.Join(worldDir(t), "pg")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHubDies$", "-test.count=1")
	cmd.Env = append(os.Environ(), "PGCLUSTER_TEST_HUB_DIR="+dir)
	cmd.Stderr = t.Output()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	sc := bufio.NewScanner(out)
	pid := 0
	for sc.Scan() {
		if s, ok := strings.CutPrefix(sc.Text(), "PID "); ok {
			pid, _ = strconv.Atoi(s)
			break
		}
		t.Log("child:", sc.Text())
	}
	if pid == 0 {
		t.Fatal("child did not start a cluster")
	}
	if !processAlive(pid) {
		t.Fatal("postgres not running")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if !waitGone(ctx, pid, 30*time.Second) {
		_ = syscall.Kill(pid, syscall.SIGQUIT)
		t.Fatalf("postgres %d still running after its parent was killed", pid)
	}
}

func TestEarlyExitReportsLog(t *testing.T) {
	dir := filepath.Join(worldDir(t), "pg")
	stop(t, start(t, dir))
	f, err := os.OpenFile(filepath.Join(dir, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, "no_such_setting_xyz = on")
	f.Close()
	_, err = Start(context.Background(), Options{Dir: dir, Fast: true, Logger: testLogger(t)})
	if err == nil {
		t.Fatal("Start with a broken postgresql.conf: want error")
	}
	t.Log(err)
	if !strings.Contains(err.Error(), "exited during startup") || !strings.Contains(err.Error(), "no_such_setting_xyz") {
		t.Errorf("error does not explain the failure with the log tail: %v", err)
	}
}
