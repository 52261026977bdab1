// Package metrics is the hub's Prometheus instrumentation: a private
// registry (never the global default) holding the ta_ metrics, the hooks
// the dispatcher and the API call, and the exposition handler served at
// /metrics. Every method is safe on a nil *Metrics, which records nothing,
// so code and tests built without metrics need no checks.
package metrics

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds the hub's collectors in their own registry.
type Metrics struct {
	reg          *prometheus.Registry
	runsFinished *prometheus.CounterVec
	runDuration  *prometheus.HistogramVec
	queueWait    prometheus.Histogram
	stepDuration *prometheus.HistogramVec
	httpDuration *prometheus.HistogramVec
	peerOnce     sync.Once
	peerLatency  prometheus.Histogram // registered at the first notification from another hub (hubs.go)
}

// Buckets in seconds: steps take milliseconds to a minute, runs seconds to
// an hour, queue waits none to the queue's time-out.
var (
	stepBuckets  = []float64{.01, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}
	runBuckets   = []float64{1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600}
	waitBuckets  = []float64{.01, .1, .5, 1, 5, 10, 30, 60, 300, 900, 3600}
	httpBuckets  = prometheus.DefBuckets
	statusLabels = []string{"passed", "failed", "error", "cancelled"}
)

// New builds the registry with the ta_ metrics and Go's and the process's
// own.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		runsFinished: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ta_runs_finished_total",
			Help: "Runs that ended, by final status (passed, failed, error, cancelled)."}, []string{"status"}),
		runDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "ta_run_duration_seconds",
			Help: "How long finished runs took, as their agents measured, by final status.", Buckets: runBuckets}, []string{"status"}),
		queueWait: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "ta_run_queue_wait_seconds",
			Help: "Time from a run being queued to its first assignment to an agent.", Buckets: waitBuckets}),
		stepDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "ta_step_duration_seconds",
			Help: "Duration of finished steps, by step type and status.", Buckets: stepBuckets}, []string{"type", "status"}),
		httpDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "ta_http_request_duration_seconds",
			Help: "Latency of HTTP requests by route pattern, method and status class.", Buckets: httpBuckets}, []string{"route", "method", "code"}),
	}
	m.reg.MustRegister(m.runsFinished, m.runDuration, m.queueWait, m.stepDuration, m.httpDuration,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, s := range statusLabels { // present at 0 from the start, so rate() sees the first run
		m.runsFinished.WithLabelValues(s)
	}
	return m
}

// Gauge registers a gauge read at scrape time from f (state the hub
// already keeps: queued runs, connected agents, live subscribers).
func (m *Metrics) Gauge(name, help string, f func() float64) {
	if m == nil {
		return
	}
	g := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f)
	if err := m.reg.Register(g); err != nil {
		// A rebuilt dispatcher or server (tests restart the hub) takes
		// over its gauge from the one it replaces.
		var dup prometheus.AlreadyRegisteredError
		if !errors.As(err, &dup) {
			panic(err)
		}
		m.reg.Unregister(dup.ExistingCollector)
		m.reg.MustRegister(g)
	}
}

// RunFinished counts a run that ended with status after d.
func (m *Metrics) RunFinished(status string, d time.Duration) {
	if m == nil {
		return
	}
	m.runsFinished.WithLabelValues(status).Inc()
	m.runDuration.WithLabelValues(status).Observe(d.Seconds())
}

// RunAssigned records how long a run waited in the queue.
func (m *Metrics) RunAssigned(wait time.Duration) {
	if m == nil {
		return
	}
	m.queueWait.Observe(max(0, wait.Seconds()))
}

// StepFinished records a step.finished event.
func (m *Metrics) StepFinished(stepType, status string, d time.Duration) {
	if m == nil {
		return
	}
	m.stepDuration.WithLabelValues(bounded(stepType), bounded(status)).Observe(max(0, d.Seconds()))
}

// bounded keeps a label an agent sent from growing the series without end.
func bounded(s string) string {
	if s == "" {
		return "unknown"
	}
	if len(s) > 40 {
		return "other"
	}
	return s
}

// Handler serves the registry in Prometheus's exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Registry is the private registry (for tests and extra collectors).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// HTTP is middleware that times every request under the chi route pattern
// it matched ("/api/tests/{id}", never the raw path, so the number of
// series stays bounded; the web application's pages are all "/*").
func (m *Metrics) HTTP(next http.Handler) http.Handler {
	if m == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r)
		route := "unmatched"
		if rc := chi.RouteContext(r.Context()); rc != nil {
			if p := rc.RoutePattern(); p != "" {
				route = p
			}
		}
		m.httpDuration.WithLabelValues(route, method(r.Method), strconv.Itoa(sw.status/100)+"xx").Observe(time.Since(start).Seconds())
	})
}

func method(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions:
		return m
	}
	return "other"
}

// statusWriter remembers the status a handler wrote. It passes Flush and
// Unwrap on, so server-sent events and WebSocket upgrades still work.
type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Hijack hands the connection over (the agents' WebSocket).
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(w.ResponseWriter).Hijack()
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// ParseAllow reads HUB_METRICS_ALLOW: comma-separated addresses
// (10.0.0.5, ::1) or CIDR ranges (10.0.0.0/8) allowed to scrape /metrics
// without a token.
func ParseAllow(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if strings.Contains(part, "/") {
			p, err := netip.ParsePrefix(part)
			if err != nil {
				return nil, fmt.Errorf("%q is not an address or a range like 10.0.0.0/8", part)
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(part)
		if err != nil {
			return nil, fmt.Errorf("%q is not an address or a range like 10.0.0.0/8", part)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// Allowed reports whether the client address addr (no port) is in allow.
func Allowed(allow []netip.Prefix, addr string) bool {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return false
	}
	a = a.Unmap()
	for _, p := range allow {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
