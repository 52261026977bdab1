package loadtest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/pgcluster"
)

// raiseFileLimit lifts this process's open-file limit to the hard limit:
// the tool holds a socket per agent and subscriber, and the hub it starts
// inherits the limit for its side of them.
func raiseFileLimit(b *testing.B) uint64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		b.Fatal(err)
	}
	lim.Cur = lim.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		b.Fatal(err)
	}
	return lim.Cur
}

// tempDir is a folder the postgres account can reach when the tool runs as
// root (b.TempDir's parents are private to the user).
func tempDir(b *testing.B) string {
	d, err := os.MkdirTemp("", "loadtest")
	if err != nil {
		b.Fatal(err)
	}
	if err := os.Chmod(d, 0o755); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// startDatabase starts a private PostgreSQL as the hub's own (make run)
// would be: durable commits, not the test clusters' fsync=off.
func startDatabase(b *testing.B, dir string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: filepath.Join(dir, "pg"), Logger: log})
	if err != nil {
		b.Fatalf("start PostgreSQL: %v", err)
	}
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := c.Stop(ctx); err != nil {
			b.Errorf("stop PostgreSQL: %v", err)
		}
	})
	return c.URL("hub")
}

// hubProc is the hub binary running as a child process.
type hubProc struct {
	cmd   *exec.Cmd
	url   string
	pprof string // its HUB_PPROF address
	log   string // its log file
}

func freeAddr(b *testing.B) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startHub builds the hub and starts it on databaseURL. HUB_MAX_CONNS_PER_ADDR
// is 0: every agent and subscriber of the test comes from 127.0.0.1, and
// the default cap of 256 per address would refuse them.
func startHub(b *testing.B, dir, databaseURL string) *hubProc {
	bin := filepath.Join(dir, "hub")
	build := exec.Command("go", "build", "-o", bin, "github.com/testautomation/ta/hub")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build ./hub: %v\n%s", err, out)
	}
	h := &hubProc{url: "http://" + freeAddr(b), pprof: freeAddr(b), log: filepath.Join(dir, "hub.log")}
	logFile, err := os.Create(h.log)
	if err != nil {
		b.Fatal(err)
	}
	defer logFile.Close()
	h.cmd = exec.Command(bin, "--addr", strings.TrimPrefix(h.url, "http://"), "--data", filepath.Join(dir, "data"))
	h.cmd.Env = append(os.Environ(), "DATABASE_URL="+databaseURL, "HUB_MAX_CONNS_PER_ADDR=0", "HUB_PPROF="+h.pprof,
		"HUB_ADMIN_EMAIL=", "HUB_ADMIN_PASSWORD=", "HUB_BASE_URL=")
	h.cmd.Stdout, h.cmd.Stderr = logFile, logFile
	if err := h.cmd.Start(); err != nil {
		b.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- h.cmd.Wait() }()
	b.Cleanup(func() {
		if h.cmd.ProcessState == nil {
			_ = h.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-done:
			case <-time.After(40 * time.Second):
				_ = h.cmd.Process.Kill()
				<-done
			}
		}
	})
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get(h.url + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return h
			}
		}
		select {
		case err := <-done:
			b.Fatalf("the hub exited: %v\n%s", err, h.tail())
		default:
		}
		if time.Now().After(deadline) {
			b.Fatalf("the hub did not answer /healthz\n%s", h.tail())
		}
	}
}

// tail is the end of the hub's log, for failure messages.
func (h *hubProc) tail() string {
	data, _ := os.ReadFile(h.log)
	if len(data) > 4000 {
		data = data[len(data)-4000:]
	}
	return string(data)
}

// procStats is what the hub process uses at one moment.
type procStats struct {
	RSS, Peak  int64 // VmRSS and VmHWM, bytes
	Anon       int64 // RssAnon: the part of RSS that is the process's own memory, not its mapped binary
	Goroutines int
	Files      int   // open file descriptors
	Heap       int64 // Go heap in use (HeapInuse), bytes
	Stacks     int64 // goroutine stacks in use (StackInuse), bytes
}

// stats reads the hub's /proc status and its goroutine count (HUB_PPROF).
func (h *hubProc) stats(b *testing.B) procStats {
	pid := h.cmd.Process.Pid
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var s procStats
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ":")
		fields := strings.Fields(v)
		if len(fields) == 2 && fields[1] == "kB" {
			n, _ := strconv.ParseInt(fields[0], 10, 64)
			switch k {
			case "VmRSS":
				s.RSS = n << 10
			case "VmHWM":
				s.Peak = n << 10
			case "RssAnon":
				s.Anon = n << 10
			}
		}
	}
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	s.Files = len(fds)
	resp, err := http.Get("http://" + h.pprof + "/debug/pprof/goroutine?debug=1")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	first, _ := bufio.NewReader(resp.Body).ReadString('\n')
	if _, err := fmt.Sscanf(first, "goroutine profile: total %d", &s.Goroutines); err != nil {
		b.Fatalf("goroutine profile: %q", first)
	}
	// The text heap profile ends with the runtime's memory statistics;
	// gc=1 collects first, so the heap counts what is live.
	heap, err := http.Get("http://" + h.pprof + "/debug/pprof/heap?debug=1&gc=1")
	if err != nil {
		b.Fatal(err)
	}
	defer heap.Body.Close()
	sc = bufio.NewScanner(heap.Body)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "# HeapInuse = "); ok {
			s.Heap, _ = strconv.ParseInt(v, 10, 64)
		} else if v, ok := strings.CutPrefix(line, "# Stack = "); ok {
			in, _, _ := strings.Cut(v, " ")
			s.Stacks, _ = strconv.ParseInt(in, 10, 64)
		}
	}
	return s
}

// saveProfiles writes the hub's heap and goroutine profiles into dir, for
// go tool pprof.
func (h *hubProc) saveProfiles(b *testing.B, dir, label string) {
	for _, p := range []string{"heap", "goroutine"} {
		resp, err := http.Get("http://" + h.pprof + "/debug/pprof/" + p)
		if err != nil {
			b.Fatal(err)
		}
		out, err := os.Create(filepath.Join(dir, label+"-"+p+".pb.gz"))
		if err == nil {
			_, err = io.Copy(out, resp.Body)
			out.Close()
		}
		resp.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
}
