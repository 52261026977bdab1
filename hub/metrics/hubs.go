package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Several hubs (docs/several-hubs.md): how long a notification from one
// hub takes to reach another, and how many agents each hub holds.

var peerBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 5}

// PeerLatency records how long a notification from another hub took to
// arrive (a run queued there reaching an agent here, an event there waking
// a watcher here).
func (m *Metrics) PeerLatency(d time.Duration) {
	if m == nil {
		return
	}
	m.peerOnce.Do(func() {
		m.peerLatency = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "ta_hub_peer_latency_seconds",
			Help: "Time from another hub sending a notification (run queued, events, cancel) to this hub receiving it.", Buckets: peerBuckets})
		m.reg.MustRegister(m.peerLatency)
	})
	m.peerLatency.Observe(max(0, d.Seconds()))
}

// HubAgents registers ta_hub_agents_connected{hub}: the agents each live
// hub holds, read at scrape time from f (hub id → count).
func (m *Metrics) HubAgents(f func() map[string]int) {
	if m == nil {
		return
	}
	c := &hubAgents{f: f, desc: prometheus.NewDesc("ta_hub_agents_connected", "Agents connected to each live hub sharing this database.", []string{"hub"}, nil)}
	if err := m.reg.Register(c); err != nil {
		if dup, ok := err.(prometheus.AlreadyRegisteredError); ok {
			m.reg.Unregister(dup.ExistingCollector)
			m.reg.MustRegister(c)
		}
	}
}

type hubAgents struct {
	f    func() map[string]int
	desc *prometheus.Desc
}

func (c *hubAgents) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *hubAgents) Collect(ch chan<- prometheus.Metric) {
	for hub, n := range c.f() {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n), hub)
	}
}
