package pgcluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The supervisor keeps the server up while the hub runs. When the server
// process exits without Stop, it looks at the data folder: a live
// postmaster there (`pg_ctl restart` by an operator, or a server started by
// hand) is adopted and watched; otherwise a new child is started, with
// growing pauses while it fails (the old server's processes may still hold
// its shared memory for a moment after a crash).

// restartGrace is how long the supervisor waits before starting a server
// itself, so that a `pg_ctl restart` in progress starts its own first.
var restartGrace = 500 * time.Millisecond

func (c *Cluster) supervise() {
	defer close(c.supervised)
	for {
		c.mu.Lock()
		srv := c.srv
		c.mu.Unlock()
		select {
		case <-c.quit:
			return
		case <-srv.done:
		}
		c.log.Warn("PostgreSQL exited while the hub was using it; bringing it back", "pid", srv.pid, "exit", srv.err)
		wait := restartGrace
		for {
			select {
			case <-c.quit:
				return
			case <-time.After(wait):
			}
			next, how, err := c.revive()
			if err == nil {
				c.mu.Lock()
				c.srv = next
				c.restarts++
				c.mu.Unlock()
				c.log.Info("PostgreSQL is back", "pid", next.pid, "how", how)
				break
			}
			c.log.Warn("PostgreSQL did not come back yet; trying again", "err", err, "in", wait)
			wait = min(wait*2, 10*time.Second)
		}
	}
}

// revive adopts a postmaster serving the data folder, or starts one.
func (c *Cluster) revive() (*server, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	if pid := c.livePostmaster(); pid > 0 {
		srv := watchPID(pid)
		if err := c.waitReady(ctx, srv, 0); err != nil {
			return nil, "", err
		}
		return srv, "adopted the server started by someone else (pg_ctl restart?)", nil
	}
	if err := recoverPidFile(ctx, c.log, c.dir); err != nil {
		return nil, "", err
	}
	logFile, err := c.openLog(c.acct)
	if err != nil {
		return nil, "", err
	}
	defer logFile.Close()
	logStart, _ := logFile.Seek(0, io.SeekEnd)
	srv := &server{cmd: c.command(logFile), done: make(chan struct{})}
	if err := c.spawn(srv); err != nil {
		return nil, "", err
	}
	if err := c.waitReady(ctx, srv, logStart); err != nil {
		_ = srv.cmd.Process.Kill()
		<-srv.done
		return nil, "", err
	}
	return srv, "started again", nil
}

// livePostmaster returns the pid in postmaster.pid when that process is a
// postgres serving this data folder, else 0.
func (c *Cluster) livePostmaster() int {
	data, err := os.ReadFile(filepath.Join(c.dir, "postmaster.pid"))
	if err != nil {
		return 0
	}
	first, _, _ := strings.Cut(string(data), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil || pid <= 0 || !processAlive(pid) {
		return 0
	}
	if ours, err := isPostmasterFor(pid, c.dir); err != nil || !ours {
		return 0
	}
	return pid
}

// watchPID follows a server that is not the hub's child: done closes when
// the process is gone. How it exited cannot be known (err stays nil).
func watchPID(pid int) *server {
	srv := &server{pid: pid, done: make(chan struct{})}
	go func() {
		for processAlive(pid) {
			time.Sleep(200 * time.Millisecond)
		}
		close(srv.done)
	}()
	return srv
}

// PID returns the server's process id now.
func (c *Cluster) PID() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.srv.pid
}

// Restarts counts the times the supervisor brought the server back.
func (c *Cluster) Restarts() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.restarts
}

// hbaConf lets in only local (Unix socket) connections. The server has no
// TCP listener, but initdb's default file also trusts 127.0.0.1 and ::1: a
// listen_addresses set by hand must not open the database to every local
// user.
const hbaConf = `# Written by the hub at every start: only the hub's own Unix socket
# (in a 0700 folder) may connect. No TCP address is trusted.
local   all   all   trust
`

// restrictHBA writes hbaConf over the cluster's pg_hba.conf.
func restrictHBA(dir string, acct *account) error {
	path := filepath.Join(dir, "pg_hba.conf")
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, []byte(hbaConf)) {
		return nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("pgcluster: %w", err)
	}
	if err := os.WriteFile(path, []byte(hbaConf), 0o600); err != nil {
		return fmt.Errorf("pgcluster: write pg_hba.conf: %w", err)
	}
	if acct != nil {
		if err := os.Chown(path, int(acct.uid), int(acct.gid)); err != nil {
			return fmt.Errorf("pgcluster: %w", err)
		}
	}
	return nil
}
