package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/testautomation/ta/hub/dbtest"
	"github.com/testautomation/ta/hub/netlimit"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// startServer starts the hub's HTTP server as run does (services, listen)
// on a fresh database, within the limits l, and answers its base URL.
func startServer(t *testing.T, l netlimit.Limits) string {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg := config{Addr: "127.0.0.1:0", BaseURL: "http://127.0.0.1", Limits: l}
	srv, hub, handler, err := services(cfg, store.New(dbtest.Pool(t)), t.TempDir(), logger)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	dispatched := make(chan struct{})
	go func() { hub.Run(ctx); close(dispatched) }()
	httpSrv, ln, err := listen(cfg, handler, logger)
	if err != nil {
		t.Fatal(err)
	}
	go httpSrv.Serve(ln) //nolint:errcheck // ends with Close
	t.Cleanup(func() {
		httpSrv.Close()
		cancel()
		<-dispatched
		srv.Wait()
	})
	return "http://" + ln.Addr().String()
}

// The reported attack, small: connections that send headers and one byte
// of a longer body. Those over the per-address cap are closed at once, the
// rest when the body's time limit passes, and meanwhile the hub still
// answers others.
func TestSlowBodiesDoNotStarveHub(t *testing.T) {
	l := netlimit.Defaults
	l.MaxConns, l.MaxConnsPerAddr, l.Body = 300, 256, 2*time.Second
	base := startServer(t, l)
	addr := strings.TrimPrefix(base, "http://")

	const n = 300
	var wg sync.WaitGroup
	early, open := make(chan int, n), make(chan int, n)
	for i := range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		defer c.Close()
		dialed := time.Now()
		fmt.Fprintf(c, "POST /api/auth/login HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", addr)
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.SetReadDeadline(dialed.Add(l.Body + 5*time.Second)) //nolint:errcheck
			_, err := io.Copy(io.Discard, c)
			var ne net.Error
			switch {
			case errors.As(err, &ne) && ne.Timeout():
				open <- i
			case time.Since(dialed) < l.Body/2:
				early <- i
			}
		}()
	}

	// Another client (another address: the per-address cap is not its
	// concern) is answered while the slow ones hold their slots.
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}
	hc := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}, Timeout: 2 * time.Second}
	for range 3 {
		start := time.Now()
		resp, err := hc.Get(base + "/healthz")
		if err != nil {
			t.Fatalf("/healthz during the attack: %v", err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("/healthz during the attack: %d", resp.StatusCode)
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Fatalf("/healthz took %v", took)
		}
	}

	wg.Wait()
	close(early)
	close(open)
	if len(open) > 0 {
		t.Errorf("%d slow connections were still open %v after the body's time limit", len(open), 5*time.Second)
	}
	if len(early) != n-l.MaxConnsPerAddr {
		t.Errorf("%d connections closed at once, want the %d over the per-address cap", len(early), n-l.MaxConnsPerAddr)
	}
}

// Streams outlive the time limits: a run's event stream waits longer than
// the write limit between events, and an agent's WebSocket (hijacked from
// net/http with the request's deadlines) stays usable long after them.
func TestStreamsOutliveTimeLimits(t *testing.T) {
	l := netlimit.Defaults
	l.Header, l.Body, l.Write, l.Idle = 300*time.Millisecond, 300*time.Millisecond, 300*time.Millisecond, 300*time.Millisecond
	base := startServer(t, l)
	wait := 4 * l.Write
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	call := func(t *testing.T, method, path, project string, body any, want int) map[string]any {
		t.Helper()
		data, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, base+path, bytes.NewReader(data))
		req.Header.Set("Content-Type", "application/json")
		if project != "" {
			req.Header.Set("x-project-id", project)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out) //nolint:errcheck
		if resp.StatusCode != want {
			t.Fatalf("%s %s: %d %v", method, path, resp.StatusCode, out)
		}
		return out
	}
	call(t, "POST", "/api/auth/register", "", map[string]string{"name": "Ann", "email": "ann@example.com", "password": "correct horse battery"}, 201)
	org := call(t, "POST", "/api/orgs", "", map[string]string{"name": "Acme"}, 201)["id"].(string)
	project := call(t, "POST", "/api/orgs/"+org+"/projects", "", map[string]string{"name": "Shop"}, 201)["id"].(string)
	test := call(t, "POST", "/api/tests", project, map[string]any{"dsl": 2, "name": "T",
		"steps": []map[string]any{{"id": "s1", "type": "navigate", "url": "https://example.com/"}}}, 201)["id"].(string)
	run := call(t, "POST", "/api/runs", project, map[string]any{"testId": test}, 201)["runId"].(string)

	t.Run("events", func(t *testing.T) {
		resp, err := c.Get(base + "/api/runs/" + run + "/events")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		lines := make(chan string)
		go func() {
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		time.Sleep(wait) // nothing to send for longer than the limits
		call(t, "POST", "/api/runs/"+run+"/cancel", "", nil, 202)
		timeout := time.After(5 * time.Second)
		for {
			select {
			case line, ok := <-lines:
				if !ok {
					t.Fatal("the stream ended without run.finished")
				}
				if line == "event: run.finished" {
					return
				}
			case <-timeout:
				t.Fatal("no run.finished on the stream")
			}
		}
	})

	t.Run("agent", func(t *testing.T) {
		ws, _, err := websocket.Dial(t.Context(), "ws"+strings.TrimPrefix(base, "http")+"/api/agent/connect", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		send := func(m protocol.Message) {
			data, _ := m.Encode()
			if err := ws.Write(t.Context(), websocket.MessageText, data); err != nil {
				t.Fatalf("agent write: %v", err)
			}
		}
		read := func() protocol.Message {
			ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
			defer cancel()
			_, data, err := ws.Read(ctx)
			if err != nil {
				t.Fatalf("agent read: %v", err)
			}
			var m protocol.Message
			json.Unmarshal(data, &m) //nolint:errcheck
			return m
		}
		time.Sleep(wait)
		send(protocol.Message{Type: protocol.MsgHello, Protocol: protocol.Version, Pair: &protocol.PairRequest{Hostname: "slow", OS: "linux"}})
		m := read()
		if m.Type != protocol.MsgPairing {
			t.Fatalf("agent got %+v, want a pairing code", m)
		}
		time.Sleep(wait)
		call(t, "POST", "/api/agent/pair/"+m.Code, "", nil, 201)
		for _, want := range []string{protocol.MsgPaired, protocol.MsgWelcome} {
			if m := read(); m.Type != want {
				t.Fatalf("agent got %+v, want %s", m, want)
			}
		}
	})
}

func TestParseConfigLimitsAndOrigin(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	c, err := parseConfig(nil, getenv, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Limits != netlimit.Defaults || c.Origin != "" || c.RegisterLimit != 0 || c.FilesMB != 1024 {
		t.Errorf("defaults: limits %+v, origin %q, registrations %d, files %d MiB", c.Limits, c.Origin, c.RegisterLimit, c.FilesMB)
	}
	env["HUB_MAX_CONNS"], env["HUB_MAX_CONNS_PER_ADDR"], env["HUB_BASE_URL"] = "100", "0", "https://tests.example.com/"
	env["HUB_REGISTER_PER_ADDR"], env["HUB_FILES_PER_PROJECT_MB"] = "50", "200"
	c, err = parseConfig(nil, getenv, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Limits.MaxConns != 100 || c.Limits.MaxConnsPerAddr != 0 || c.Origin != "https://tests.example.com" || c.RegisterLimit != 50 || c.FilesMB != 200 {
		t.Errorf("from environment: limits %+v, origin %q, registrations %d", c.Limits, c.Origin, c.RegisterLimit)
	}
	for k, v := range map[string]string{"HUB_MAX_CONNS": "0", "HUB_MAX_CONNS_PER_ADDR": "-1", "HUB_BASE_URL": "tests.example.com",
		"HUB_REGISTER_PER_ADDR": "0", "HUB_FILES_PER_PROJECT_MB": "0"} {
		bad := map[string]string{k: v}
		if _, err := parseConfig(nil, func(k string) string { return bad[k] }, io.Discard); err == nil {
			t.Errorf("%s=%s was accepted", k, v)
		}
	}
	var l netlimit.Limits
	l.MaxConns = 4096
	if !l.FitFiles(1024, fileReserve) || l.MaxConns != 1024-fileReserve {
		t.Errorf("4096 connections with 1024 files: %d", l.MaxConns)
	}
	if l.FitFiles(1<<20, fileReserve) {
		t.Error("a cap that fits was changed")
	}
}
