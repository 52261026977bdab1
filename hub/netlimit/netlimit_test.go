package netlimit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// dialFrom connects to addr from the loopback address ip.
func dialFrom(t *testing.T, ip, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 2 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// closedSoon says whether the other side closes c within d.
func closedSoon(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d)) //nolint:errcheck
	_, err := c.Read(make([]byte, 1))
	var ne net.Error
	return err != nil && !(errors.As(err, &ne) && ne.Timeout())
}

func TestListenerCaps(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := Limits{MaxConns: 3, MaxConnsPerAddr: 2}.Listener(raw, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer ln.Close()
	accepted := make(chan net.Conn, 10)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	addr := raw.Addr().String()
	held := func(ip string) net.Conn {
		t.Helper()
		dialFrom(t, ip, addr)
		select {
		case s := <-accepted:
			return s
		case <-time.After(2 * time.Second):
			t.Fatalf("a connection from %s was not accepted", ip)
			return nil
		}
	}
	refused := func(ip string) {
		t.Helper()
		if c := dialFrom(t, ip, addr); !closedSoon(c, 2*time.Second) {
			t.Fatalf("a connection from %s over a cap stayed open", ip)
		}
	}
	first := held("127.0.0.1")
	held("127.0.0.1")
	refused("127.0.0.1") // per address
	held("127.0.0.2")
	refused("127.0.0.3") // overall
	first.Close()        // gives its slot back, once
	first.Close()
	held("127.0.0.1")
	refused("127.0.0.3")
}

func TestAddrKey(t *testing.T) {
	for _, c := range []struct{ addr, key string }{
		{"192.0.2.7:5000", "192.0.2.7"},
		{"[::ffff:192.0.2.7]:5000", "192.0.2.7"},
		{"[2001:db8:1:2:aaaa::1]:5000", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:bbbb::9]:6000", "2001:db8:1:2::/64"},
		{"[2001:db8:1:3::1]:5000", "2001:db8:1:3::/64"},
	} {
		a, err := net.ResolveTCPAddr("tcp", c.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := addrKey(a); got != c.key {
			t.Errorf("addrKey(%s) = %q, want %q", c.addr, got, c.key)
		}
	}
}

// serve runs h behind Deadlines on a loopback server.
func serve(t *testing.T, h http.HandlerFunc, body, write time.Duration) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: Deadlines(h, body, write)}
	go srv.Serve(ln) //nolint:errcheck
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// A body must arrive within its limit; once it has, the limit is gone, so
// a handler that works long afterwards keeps its context.
func TestBodyLimit(t *testing.T) {
	const limit = 300 * time.Millisecond
	results := make(chan string, 1)
	addr := serve(t, func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		if err != nil {
			results <- "body: " + err.Error()
			return
		}
		select {
		case <-time.After(3 * limit):
			results <- "worked"
		case <-r.Context().Done():
			results <- "cancelled"
		}
		w.Write([]byte("done")) //nolint:errcheck
	}, limit, 0)

	slow := dialFrom(t, "127.0.0.1", addr)
	fmt.Fprintf(slow, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{")
	if got := <-results; !strings.HasPrefix(got, "body: ") || !strings.Contains(got, "timeout") {
		t.Errorf("a slow body gave %q", got)
	}

	whole := dialFrom(t, "127.0.0.1", addr)
	fmt.Fprintf(whole, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
	if got := <-results; got != "worked" {
		t.Errorf("a handler working past the body's limit: %q", got)
	}
	resp, err := http.ReadResponse(bufio.NewReader(whole), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("response: %v %v", resp, err)
	}
}

// The write limit is per write: a response that pauses longer than it
// lives on, and one the client stops taking is cut.
func TestWriteLimit(t *testing.T) {
	const limit = 300 * time.Millisecond
	cut := make(chan error, 1)
	addr := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/pause" {
			for i := range 3 {
				fmt.Fprintf(w, "part %d\n", i)
				w.(http.Flusher).Flush()
				time.Sleep(2 * limit)
			}
			return
		}
		chunk := make([]byte, 64<<10)
		start := time.Now()
		for time.Since(start) < 10*time.Second {
			if _, err := w.Write(chunk); err != nil {
				cut <- err
				return
			}
		}
		cut <- nil
	}, 0, limit)

	resp, err := http.Get("http://" + addr + "/pause")
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || string(data) != "part 0\npart 1\npart 2\n" {
		t.Errorf("a paused response: %q %v", data, err)
	}

	c := dialFrom(t, "127.0.0.1", addr)
	fmt.Fprintf(c, "GET /flood HTTP/1.1\r\nHost: x\r\n\r\n") // and never read
	select {
	case err := <-cut:
		if err == nil {
			t.Error("a client that reads nothing held the response for 10 s")
		}
	case <-time.After(10 * time.Second):
		t.Error("the write to a client that reads nothing was not cut")
	}
}
