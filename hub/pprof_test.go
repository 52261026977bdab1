package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"
)

// HUB_PPROF is off unless set, must be an address, and serves the
// goroutine profile there.
func TestPprofAddress(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if c, err := parseConfig(nil, getenv, io.Discard); err != nil || c.Pprof != "" {
		t.Fatalf("default: %q %v", c.Pprof, err)
	}
	env["HUB_PPROF"] = "nonsense"
	if _, err := parseConfig(nil, getenv, io.Discard); err == nil {
		t.Error("HUB_PPROF=nonsense was accepted")
	}
	addr := freeAddr(t)
	env["HUB_PPROF"] = addr
	c, err := parseConfig(nil, getenv, io.Discard)
	if err != nil || c.Pprof != addr {
		t.Fatalf("HUB_PPROF=%s: %q %v", addr, c.Pprof, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { servePprof(ctx, c.Pprof, slog.New(slog.NewTextHandler(io.Discard, nil))); close(done) }()
	defer func() { cancel(); <-done }()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get("http://" + addr + "/debug/pprof/goroutine?debug=1")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !strings.HasPrefix(string(body), "goroutine profile: total ") {
				t.Fatalf("goroutine profile: %d %.200s", resp.StatusCode, body)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
	}
}
