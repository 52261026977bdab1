package main

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"time"
)

// servePprof serves Go's profiles (heap, goroutines, CPU) on a listener of
// their own, apart from the hub's address, when HUB_PPROF names one: to find
// out what a loaded hub spends its memory and time on. Off by default; the
// profiles show the hub's internals, so keep the address on loopback.
func servePprof(ctx context.Context, addr string, logger *slog.Logger) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index) // heap, goroutine, allocs, block, mutex ...
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	logger.Warn("HUB_PPROF: profiles are served; they show the hub's internals, keep this address private", "addr", "http://"+addr+"/debug/pprof/")
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		logger.Error("HUB_PPROF", "err", err)
	}
}
