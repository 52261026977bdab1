// Package pgcluster runs the hub's private PostgreSQL cluster.
//
// When the hub is not given an external server (DATABASE_URL), it keeps its
// own cluster in its data folder (typically <data>/pg) and runs the
// PostgreSQL server binaries itself:
//
//   - initdb runs once, on the first start (the folder has no PG_VERSION);
//     later starts reuse the cluster. The superuser is "hub" and local
//     connections are trusted, which is safe because the server has no TCP
//     listener: it only listens on a Unix socket in a 0700 folder (the data
//     folder itself, or a short temporary folder when the data folder's path
//     is too long for a socket address) with socket permissions 0700.
//   - postgres runs as a direct child process in its own session, so Ctrl-C
//     on the terminal reaches only the hub, which then stops postgres with a
//     fast shutdown. If the hub dies, the kernel sends postgres SIGINT
//     (parent-death signal). Its output goes to <Dir>/log/postgres.log.
//   - PostgreSQL refuses to run as root. When the hub runs as root, initdb
//     and postgres run as an unprivileged account (default "postgres"), the
//     data folder is owned by that account, and every folder above it must
//     be traversable by it.
//   - A postmaster.pid left behind by a crash is handled before starting:
//     an orphaned postgres still serving this folder is shut down, and a pid
//     file naming a dead or unrelated process is removed.
package pgcluster

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Options configures Start.
type Options struct {
	Dir    string       // cluster data directory, e.g. <data>/pg (PGDATA). Created if missing.
	Logger *slog.Logger // nil = slog.Default()
	RunAs  string       // when the process runs as root: OS account that runs initdb/postgres; "" = "postgres"
	Fast   bool         // throwaway test clusters: fsync=off, synchronous_commit=off, full_page_writes=off, initdb --no-sync
	// Restart keeps the server up: if it exits while the cluster is not
	// being stopped, it is started again (or, if `pg_ctl restart` already
	// started a new one, that one is watched instead).
	Restart bool
}

const (
	superuser      = "hub"
	port           = 5432
	socketName     = ".s.PGSQL.5432"
	maxSocketPath  = 100 // sun_path is 108 bytes on Linux; keep a margin
	readyTimeout   = 60 * time.Second
	stopTimeout    = 30 * time.Second
	quitTimeout    = 10 * time.Second
	logRotateBytes = 10 << 20
)

// pgLibGlob is where FindBinaries looks when initdb/postgres are not on
// $PATH. A variable so tests can point it elsewhere.
var pgLibGlob = "/usr/lib/postgresql/*/bin"

var errNoBinaries = errors.New("PostgreSQL server binaries (initdb, postgres) not found on PATH or in /usr/lib/postgresql/*/bin: install them with `apt-get install postgresql`, or set DATABASE_URL to use an existing server")

var validName = regexp.MustCompile(`^[a-z0-9_]+$`)

// Cluster is a running private PostgreSQL server.
type Cluster struct {
	dir     string
	sockDir string
	tmpSock bool // sockDir is a temporary folder to remove after Stop
	logPath string
	log     *slog.Logger

	binDir string
	args   []string
	acct   *account

	// srv is the server process now; the supervisor replaces it (under
	// mu) when it starts or adopts another one.
	srv *server

	mu      sync.Mutex
	stopped bool
	// quit ends the supervisor; supervised is closed when it has ended
	// (nil without Options.Restart).
	quit       chan struct{}
	supervised chan struct{}
	restarts   int // guarded by mu: times the supervisor brought the server back
}

// server is one postmaster process.
type server struct {
	cmd  *exec.Cmd     // the postgres child; nil for an adopted server
	pid  int           // the postmaster's pid
	done chan struct{} // closed once the process has exited
	err  error         // how the child exited; valid after done
}

// FindBinaries returns the folder holding initdb and postgres: the first
// $PATH entry that has both, else the highest-versioned
// /usr/lib/postgresql/*/bin that has both.
func FindBinaries() (binDir string, err error) {
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		if hasServerBinaries(d) {
			// Prefer the real folder when the PATH entries are symlinks
			// (e.g. /usr/local/bin/initdb -> /usr/lib/postgresql/15/bin/initdb).
			if real, err := filepath.EvalSymlinks(filepath.Join(d, "initdb")); err == nil {
				if rd := filepath.Dir(real); rd != d && hasServerBinaries(rd) {
					return rd, nil
				}
			}
			return d, nil
		}
	}
	matches, _ := filepath.Glob(pgLibGlob)
	// Order by version, highest first: "16" > "15" > "9.6".
	slices.SortFunc(matches, func(a, b string) int {
		return compareVersions(versionOf(b), versionOf(a))
	})
	for _, d := range matches {
		if hasServerBinaries(d) {
			return d, nil
		}
	}
	return "", errNoBinaries
}

// versionOf extracts the version folder of a path matching pgLibGlob, e.g.
// "/usr/lib/postgresql/15/bin" -> "15".
func versionOf(binDir string) string {
	return filepath.Base(filepath.Dir(binDir))
}

func compareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(as), len(bs)); i++ {
		var x, y int
		if i < len(as) {
			x, _ = strconv.Atoi(as[i])
		}
		if i < len(bs) {
			y, _ = strconv.Atoi(bs[i])
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return strings.Compare(a, b)
}

func hasServerBinaries(dir string) bool {
	return isExecutable(filepath.Join(dir, "initdb")) && isExecutable(filepath.Join(dir, "postgres"))
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// account is who runs initdb and postgres; nil cred means the current user.
type account struct {
	name   string
	uid    uint32
	gid    uint32
	groups []uint32
	cred   *syscall.Credential
}

func lookupAccount(name string) (*account, error) {
	u, err := user.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("PostgreSQL refuses to run as root and the account %q does not exist: create it (useradd --system postgres) or set DATABASE_URL", name)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("account %q: unexpected uid/gid %q/%q", name, u.Uid, u.Gid)
	}
	a := &account{name: name, uid: uint32(uid), gid: uint32(gid)}
	gids, _ := u.GroupIds()
	for _, g := range gids {
		if n, err := strconv.ParseUint(g, 10, 32); err == nil {
			a.groups = append(a.groups, uint32(n))
		}
	}
	if !slices.Contains(a.groups, a.gid) {
		a.groups = append(a.groups, a.gid)
	}
	a.cred = &syscall.Credential{Uid: a.uid, Gid: a.gid, Groups: a.groups}
	return a, nil
}

// Start starts the cluster in opts.Dir, creating it with initdb on first use,
// waits until it accepts connections and makes sure the "hub" database
// exists. Stop it with Stop.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	if opts.Dir == "" {
		return nil, errors.New("pgcluster: no data directory given")
	}
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("pgcluster: %w", err)
	}
	binDir, err := FindBinaries()
	if err != nil {
		return nil, err
	}

	var acct *account
	if os.Geteuid() == 0 {
		name := opts.RunAs
		if name == "" {
			name = "postgres"
		}
		if acct, err = lookupAccount(name); err != nil {
			return nil, err
		}
	}

	// The data folder (and its parents) may be new; remember which folders
	// we create, as only those (and the data folder) may be opened up below.
	created, err := mkdirAll(filepath.Dir(dir))
	if err != nil {
		return nil, err
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("pgcluster: create %s: %w", dir, err)
	}
	// postgres refuses a data folder others can access (0700 or 0750 only).
	if fi, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("pgcluster: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("pgcluster: %s is not a folder", dir)
	} else if p := fi.Mode().Perm(); p != 0o700 && p != 0o750 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return nil, fmt.Errorf("pgcluster: %w", err)
		}
	}
	if acct != nil {
		if err := checkTraversable(log, dir, acct, created); err != nil {
			return nil, err
		}
		if err := chownTree(dir, acct.uid, acct.gid); err != nil {
			return nil, fmt.Errorf("pgcluster: give %s to %s: %w", dir, acct.name, err)
		}
	}

	if err := recoverPidFile(ctx, log, dir); err != nil {
		return nil, err
	}

	if _, err := os.Stat(filepath.Join(dir, "PG_VERSION")); errors.Is(err, fs.ErrNotExist) {
		if err := initdb(ctx, log, binDir, dir, acct, opts.Fast); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, fmt.Errorf("pgcluster: %w", err)
	}

	if err := restrictHBA(dir, acct); err != nil {
		return nil, err
	}

	c := &Cluster{dir: dir, log: log, binDir: binDir, acct: acct, quit: make(chan struct{})}

	logFile, err := c.openLog(acct)
	if err != nil {
		return nil, err
	}
	logStart, _ := logFile.Seek(0, io.SeekEnd)

	if err := c.chooseSocketDir(acct); err != nil {
		logFile.Close()
		return nil, err
	}

	c.args = []string{
		"-D", dir,
		"-p", strconv.Itoa(port),
		"-c", "listen_addresses=",
		"-c", "unix_socket_directories=" + quoteGUCListItem(c.sockDir),
		"-c", "unix_socket_permissions=0700",
	}
	if opts.Fast {
		c.args = append(c.args, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	}
	c.srv = &server{cmd: c.command(logFile), done: make(chan struct{})}

	log.Info("starting PostgreSQL", "dir", dir, "socket_dir", c.sockDir, "bin", binDir, "log", c.logPath)
	if err := c.spawn(c.srv); err != nil {
		logFile.Close()
		c.removeTmpSock()
		return nil, fmt.Errorf("pgcluster: start postgres: %w", err)
	}
	logFile.Close() // the child has its own copy

	if err := c.waitReady(ctx, c.srv, logStart); err != nil {
		c.kill()
		return nil, err
	}
	if err := c.CreateDatabase(ctx, "hub", ""); err != nil {
		_ = c.Stop(context.WithoutCancel(ctx))
		return nil, err
	}
	log.Info("PostgreSQL ready", "pid", c.srv.pid, "socket_dir", c.sockDir)
	if opts.Restart {
		c.supervised = make(chan struct{})
		go c.supervise()
	}
	return c, nil
}

// command makes the postgres child process, writing to logFile.
func (c *Cluster) command(logFile *os.File) *exec.Cmd {
	cmd := exec.Command(filepath.Join(c.binDir, "postgres"), c.args...)
	cmd.Dir = c.dir
	cmd.Env = serverEnv()
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Setsid:    true,           // not in the terminal's process group: Ctrl-C goes to the hub only
		Pdeathsig: syscall.SIGINT, // fast shutdown if the hub dies
	}
	if c.acct != nil {
		cmd.SysProcAttr.Credential = c.acct.cred
	}
	return cmd
}

// spawn starts srv's child from a goroutine locked to its OS thread,
// which stays alive until the child has exited: the parent-death signal
// fires when the *thread* that forked the child ends (go.dev/issue/27505),
// not only when the process does. srv.done closes when the child exits.
func (c *Cluster) spawn(srv *server) error {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if err := srv.cmd.Start(); err != nil {
			runtime.UnlockOSThread()
			started <- err
			return
		}
		srv.pid = srv.cmd.Process.Pid
		started <- nil
		srv.err = srv.cmd.Wait()
		runtime.UnlockOSThread()
		close(srv.done)
	}()
	return <-started
}

// serverEnv is the environment for initdb/postgres: ours without PG*
// variables (PGPORT, PGDATA, ... would override what we pass).
func serverEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") {
			env = append(env, kv)
		}
	}
	return env
}

// quoteGUCListItem quotes a folder for a list-valued setting such as
// unix_socket_directories when it contains a separator.
func quoteGUCListItem(s string) string {
	if !strings.ContainsAny(s, ", \t\"") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

func (c *Cluster) openLog(acct *account) (*os.File, error) {
	logDir := filepath.Join(c.dir, "log")
	if err := os.MkdirAll(logDir, 0o700); err != nil {
		return nil, fmt.Errorf("pgcluster: %w", err)
	}
	c.logPath = filepath.Join(logDir, "postgres.log")
	if fi, err := os.Stat(c.logPath); err == nil && fi.Size() > logRotateBytes {
		_ = os.Rename(c.logPath, c.logPath+".1")
	}
	f, err := os.OpenFile(c.logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("pgcluster: open postgres log: %w", err)
	}
	if acct != nil {
		_ = os.Chown(logDir, int(acct.uid), int(acct.gid))
		_ = f.Chown(int(acct.uid), int(acct.gid))
	}
	return f, nil
}

// chooseSocketDir uses the data folder for the socket unless the socket
// path would be too long for a Unix socket address.
func (c *Cluster) chooseSocketDir(acct *account) error {
	if len(filepath.Join(c.dir, socketName)) <= maxSocketPath {
		c.sockDir = c.dir
		return nil
	}
	d, err := os.MkdirTemp("", "hubpg")
	if err != nil {
		return fmt.Errorf("pgcluster: socket folder: %w", err)
	}
	if err := os.Chmod(d, 0o700); err != nil {
		os.Remove(d)
		return fmt.Errorf("pgcluster: socket folder: %w", err)
	}
	if acct != nil {
		if err := os.Chown(d, int(acct.uid), int(acct.gid)); err != nil {
			os.Remove(d)
			return fmt.Errorf("pgcluster: socket folder: %w", err)
		}
	}
	c.sockDir, c.tmpSock = d, true
	c.log.Info("data folder path too long for a Unix socket; using a temporary socket folder",
		"dir", c.dir, "socket_dir", d, "max_socket_path", maxSocketPath)
	return nil
}

func (c *Cluster) removeTmpSock() {
	if c.tmpSock {
		_ = os.RemoveAll(c.sockDir)
	}
}

func (c *Cluster) waitReady(ctx context.Context, srv *server, logStart int64) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	var lastErr error
	for {
		select {
		case <-srv.done:
			return fmt.Errorf("pgcluster: postgres exited during startup (%v); last lines of %s:\n%s",
				srv.err, c.logPath, tailFile(c.logPath, logStart, 20))
		default:
		}
		cctx, ccancel := context.WithTimeout(ctx, 5*time.Second)
		conn, err := pgx.Connect(cctx, c.URL("postgres"))
		if err == nil {
			err = conn.Ping(cctx)
			conn.Close(context.WithoutCancel(cctx))
		}
		ccancel()
		if err == nil {
			return nil
		}
		lastErr = err
		select {
		case <-srv.done:
			// reported at the top of the loop
		case <-ctx.Done():
			return fmt.Errorf("pgcluster: postgres did not accept connections within %s (%v; last error: %v); last lines of %s:\n%s",
				readyTimeout, ctx.Err(), lastErr, c.logPath, tailFile(c.logPath, logStart, 20))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// kill ends a child that failed to become ready.
func (c *Cluster) kill() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopped = true
	c.quitNow()
	c.removeTmpSock()
}

// quitNow ends the server process with an immediate shutdown; c.mu is held.
func (c *Cluster) quitNow() {
	_ = syscall.Kill(c.srv.pid, syscall.SIGQUIT)
	select {
	case <-c.srv.done:
	case <-time.After(quitTimeout):
		_ = syscall.Kill(c.srv.pid, syscall.SIGKILL)
		<-c.srv.done
	}
}

// tailFile returns the last n lines of path after offset from.
func tailFile(path string, from int64, n int) string {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Sprintf("(cannot read log: %v)", err)
	}
	defer f.Close()
	const maxTail = 64 << 10
	if fi, err := f.Stat(); err == nil && fi.Size()-from > maxTail {
		from = fi.Size() - maxTail
	}
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return fmt.Sprintf("(cannot read log: %v)", err)
	}
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if len(lines) > n {
			lines = lines[1:]
		}
	}
	if len(lines) == 0 {
		return "(log is empty)"
	}
	return strings.Join(lines, "\n")
}

func initdb(ctx context.Context, log *slog.Logger, binDir, dir string, acct *account, fast bool) error {
	args := []string{"-D", dir, "-U", superuser, "--auth=trust", "-E", "UTF8", "--locale=C"}
	if fast {
		args = append(args, "--no-sync")
	}
	log.Info("initialising PostgreSQL cluster", "dir", dir)
	cmd := exec.CommandContext(ctx, filepath.Join(binDir, "initdb"), args...)
	cmd.Dir = dir
	cmd.Env = serverEnv()
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	// SIGTERM makes initdb remove what it created if the hub dies meanwhile.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGTERM}
	if acct != nil {
		cmd.SysProcAttr.Credential = acct.cred
	}
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("pgcluster: initdb %s failed (%v):\n%s", dir, err, lastLines(out.String(), 20))
	}
	return nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// mkdirAll creates dir and its missing parents (0700), returning the
// folders it created.
func mkdirAll(dir string) (map[string]bool, error) {
	created := map[string]bool{}
	var missing []string
	for p := dir; ; p = filepath.Dir(p) {
		if _, err := os.Stat(p); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("pgcluster: %w", err)
		}
		missing = append(missing, p)
		if p == filepath.Dir(p) {
			break
		}
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if err := os.Mkdir(missing[i], 0o700); err != nil {
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			return nil, fmt.Errorf("pgcluster: create %s: %w", missing[i], err)
		}
		created[missing[i]] = true
	}
	return created, nil
}

// checkTraversable makes sure acct can reach dir: every ancestor must be
// searchable by it. Folders the hub created itself (the immediate parent,
// i.e. the hub's data folder, when it is root's, and any folder created by
// this Start) get o+x when they lack it; any other blocker is an error, and
// then nothing is changed.
func checkTraversable(log *slog.Logger, dir string, acct *account, created map[string]bool) error {
	parent := filepath.Dir(dir)
	type fix struct {
		path string
		mode fs.FileMode
	}
	var fixes []fix
	for p := parent; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("pgcluster: %w", err)
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			return fmt.Errorf("pgcluster: stat %s: no owner information", p)
		}
		if !canSearch(fi.Mode(), st.Uid, st.Gid, acct) {
			if created[p] || (p == parent && st.Uid == 0) {
				fixes = append(fixes, fix{p, fi.Mode().Perm() | 0o001})
			} else {
				return fmt.Errorf("pgcluster: the PostgreSQL account %q cannot reach %s because it cannot enter the folder %s (mode %#o, owner uid %d, gid %d): choose a data folder elsewhere with --data (e.g. /var/lib/tahub), or run `chmod o+x %s`",
					acct.name, dir, p, fi.Mode().Perm(), st.Uid, st.Gid, p)
			}
		}
		if p == filepath.Dir(p) {
			break
		}
	}
	for _, f := range fixes {
		if err := os.Chmod(f.path, f.mode); err != nil {
			return fmt.Errorf("pgcluster: let %s traverse %s: %w", acct.name, f.path, err)
		}
		log.Info("made a folder traversable for the PostgreSQL account (o+x)",
			"folder", f.path, "account", acct.name, "mode", fmt.Sprintf("%#o", f.mode))
	}
	return nil
}

func canSearch(mode fs.FileMode, uid, gid uint32, acct *account) bool {
	perm := mode.Perm()
	switch {
	case uid == acct.uid:
		return perm&0o100 != 0
	case slices.Contains(acct.groups, gid):
		return perm&0o010 != 0
	default:
		return perm&0o001 != 0
	}
}

// chownTree gives dir and everything in it to uid:gid (skipping what
// already belongs to them).
func chownTree(dir string, uid, gid uint32) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Uid == uid && st.Gid == gid {
			return nil
		}
		return os.Lchown(path, int(uid), int(gid))
	})
}

// recoverPidFile deals with a postmaster.pid left by a previous run: an
// orphaned postgres still serving dir is shut down; a pid file naming a
// dead or unrelated process is removed.
func recoverPidFile(ctx context.Context, log *slog.Logger, dir string) error {
	pidPath := filepath.Join(dir, "postmaster.pid")
	data, err := os.ReadFile(pidPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	first, _, _ := strings.Cut(string(data), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil || pid <= 0 {
		log.Warn("removing unreadable postmaster.pid", "file", pidPath, "first_line", first)
		return removePidFile(pidPath)
	}
	if !processAlive(pid) {
		log.Warn("removing stale postmaster.pid (process no longer exists)", "file", pidPath, "pid", pid)
		return removePidFile(pidPath)
	}
	isOurs, err := isPostmasterFor(pid, dir)
	if err != nil {
		return fmt.Errorf("pgcluster: %s names live process %d that cannot be inspected: %w", pidPath, pid, err)
	}
	if !isOurs {
		log.Warn("removing stale postmaster.pid (pid now belongs to another process)", "file", pidPath, "pid", pid)
		return removePidFile(pidPath)
	}

	log.Warn("found an orphaned postgres for this data folder (left by a crashed hub); shutting it down", "pid", pid, "dir", dir)
	if err := syscall.Kill(pid, syscall.SIGINT); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("pgcluster: stop orphaned postgres %d: %w", pid, err)
	}
	if waitGone(ctx, pid, stopTimeout) {
		return nil
	}
	log.Warn("orphaned postgres did not stop in time; sending SIGQUIT", "pid", pid)
	_ = syscall.Kill(pid, syscall.SIGQUIT)
	if waitGone(context.WithoutCancel(ctx), pid, quitTimeout) {
		return nil
	}
	return fmt.Errorf("pgcluster: orphaned postgres (pid %d) for %s does not stop; stop it by hand", pid, dir)
}

func removePidFile(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("pgcluster: remove stale %s: %w", path, err)
	}
	return nil
}

// processAlive reports whether pid is a running (not zombie) process.
func processAlive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return false
		}
		// No usable /proc: fall back to signal 0.
		err := syscall.Kill(pid, 0)
		return err == nil || errors.Is(err, syscall.EPERM)
	}
	// "pid (comm) S ...": the state follows the last ')'.
	s := string(data)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z' && s[i+2] != 'X'
	}
	return true
}

// waitGone polls until pid has exited, reporting false after timeout.
func waitGone(ctx context.Context, pid int, timeout time.Duration) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for processAlive(pid) {
		select {
		case <-ctx.Done():
			return false
		case <-deadline.C:
			return false
		case <-tick.C:
		}
	}
	return true
}

// isPostmasterFor reports whether pid is a postgres server whose data
// directory (-D) is dir.
func isPostmasterFor(pid int, dir string) (bool, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	args := strings.Split(strings.TrimRight(string(data), "\x00"), "\x00")
	if len(args) == 0 {
		return false, nil
	}
	if b := filepath.Base(args[0]); b != "postgres" && b != "postmaster" {
		return false, nil
	}
	for i, a := range args {
		var d string
		switch {
		case a == "-D" && i+1 < len(args):
			d = args[i+1]
		case strings.HasPrefix(a, "-D") && len(a) > 2:
			d = a[2:]
		default:
			continue
		}
		if sameDir(d, dir) {
			return true, nil
		}
	}
	return false, nil
}

func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// URL returns a pgx connection string for database on the cluster's Unix
// socket, as the "hub" superuser.
func (c *Cluster) URL(database string) string {
	return fmt.Sprintf("host=%s port=%d user=%s dbname=%s sslmode=disable",
		quoteConnValue(c.sockDir), port, superuser, quoteConnValue(database))
}

// quoteConnValue quotes a keyword/value connection string value if needed.
func quoteConnValue(v string) string {
	if v != "" && !strings.ContainsAny(v, " \t\n\r\v\f'\\") {
		return v
	}
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`)
	return "'" + r.Replace(v) + "'"
}

func (c *Cluster) admin(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return nil, fmt.Errorf("pgcluster: connect: %w", err)
	}
	return conn, nil
}

// CreateDatabase creates database name, as a copy of template when template
// is not "". Without a template it does nothing if the database exists.
// Names must match [a-z0-9_]+.
func (c *Cluster) CreateDatabase(ctx context.Context, name string, template string) error {
	if !validName.MatchString(name) {
		return fmt.Errorf("pgcluster: invalid database name %q (want [a-z0-9_]+)", name)
	}
	if template != "" && !validName.MatchString(template) {
		return fmt.Errorf("pgcluster: invalid template database name %q (want [a-z0-9_]+)", template)
	}
	conn, err := c.admin(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if template == "" {
		var exists bool
		if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
			return fmt.Errorf("pgcluster: create database %s: %w", name, err)
		}
		if exists {
			return nil
		}
	}
	sql := "CREATE DATABASE " + pgx.Identifier{name}.Sanitize()
	if template != "" {
		sql += " TEMPLATE " + pgx.Identifier{template}.Sanitize()
	}
	if _, err := conn.Exec(ctx, sql); err != nil {
		var pgErr *pgconn.PgError
		if template == "" && errors.As(err, &pgErr) && pgErr.Code == "42P04" { // duplicate_database: lost a race
			return nil
		}
		return fmt.Errorf("pgcluster: create database %s: %w", name, err)
	}
	return nil
}

// DropDatabase drops database name if it exists, disconnecting its sessions.
func (c *Cluster) DropDatabase(ctx context.Context, name string) error {
	if !validName.MatchString(name) {
		return fmt.Errorf("pgcluster: invalid database name %q (want [a-z0-9_]+)", name)
	}
	conn, err := c.admin(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("pgcluster: drop database %s: %w", name, err)
	}
	return nil
}

// Stop shuts the server down: SIGINT (fast shutdown: sessions are
// disconnected, a checkpoint is written), then, if it has not exited when
// ctx is done or after 30 s, SIGQUIT (immediate shutdown). It returns nil
// on a clean shutdown. Calling it again does nothing.
func (c *Cluster) Stop(ctx context.Context) error {
	c.mu.Lock()
	if c.stopped {
		c.mu.Unlock()
		return nil
	}
	c.stopped = true
	close(c.quit)
	c.mu.Unlock()
	if c.supervised != nil {
		<-c.supervised // it may be starting a server: let it finish
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.removeTmpSock()

	select {
	case <-c.srv.done:
		return fmt.Errorf("pgcluster: postgres had already exited: %v (see %s)", c.srv.err, c.logPath)
	default:
	}

	pid := c.srv.pid
	c.log.Info("stopping PostgreSQL", "pid", pid)
	if err := syscall.Kill(pid, syscall.SIGINT); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("pgcluster: stop postgres: %w", err)
	}
	timer := time.NewTimer(stopTimeout)
	defer timer.Stop()
	var forced string
	select {
	case <-c.srv.done:
	case <-ctx.Done():
		forced = "the stop was cancelled (" + ctx.Err().Error() + ")"
	case <-timer.C:
		forced = "it did not stop within " + stopTimeout.String()
	}
	if forced != "" {
		c.log.Warn("PostgreSQL slow to shut down; sending SIGQUIT (immediate shutdown)", "pid", pid, "reason", forced)
		c.quitNow()
		return fmt.Errorf("pgcluster: postgres forced to quit because %s (exit: %v)", forced, c.srv.err)
	}
	if c.srv.err != nil {
		return fmt.Errorf("pgcluster: postgres exited uncleanly: %v (see %s)", c.srv.err, c.logPath)
	}
	c.log.Info("PostgreSQL stopped", "pid", pid)
	return nil
}
