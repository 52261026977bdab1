package api

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// BenchmarkRunStartAcrossHubs measures the time from POST /api/runs to
// the run's first event (run.started, sent by the agent) for a run posted
// to the hub its idle agent is connected to (single-hub) and for one
// posted to another hub of the same database, which reaches the agent
// through a notification (docs/several-hubs.md): p50 and p99 of each,
// side by side, and the ratio of the p50s. The hubs' sweeps are 20 s
// apart here, so no run starts through them.
func BenchmarkRunStartAcrossHubs(b *testing.B) {
	a, agentHub := hubPair(b)
	talk(b, a, agentHub)
	o := a.org(b)
	c := o.members[access.Tester]
	agentHub.pairAgent(b, c.on(agentHub), browserRunner{sharedBrowser(b)})
	id := c.createTest(b, o.project, map[string]any{"dsl": 2, "name": "Start", "steps": []map[string]any{
		{"type": "navigate", "url": site(b) + "/login.html"}}})
	start := func(via *client) time.Duration {
		time.Sleep(300 * time.Millisecond) // an idle agent, its browser done with the last run
		t0 := time.Now()
		runID := via.do("POST", "/api/runs", map[string]any{"testId": id, "screenshots": false}, ProjectHeader, o.project).want(b, 201).str("runId")
		wake, stop := agentHub.dispatch.Watch(runID)
		defer stop()
		var first time.Duration
		for {
			if first == 0 {
				if events, _ := agentHub.store.Events(context.Background(), runID, 0, 1); len(events) > 0 {
					first = time.Since(t0)
				}
			}
			if r, _ := agentHub.store.Run(context.Background(), runID); protocol.Final(r.Status) {
				if r.Status != protocol.RunPassed {
					b.Fatalf("run %s: %s", r.Status, r.Error)
				}
				return first
			}
			select {
			case <-wake:
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	var single, cross []time.Duration
	for b.Loop() {
		single = append(single, start(c.on(agentHub)))
		cross = append(cross, start(c))
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	pct := func(d []time.Duration, p int) time.Duration {
		slices.Sort(d)
		return d[(len(d)*p+99)/100-1]
	}
	b.ReportMetric(ms(pct(single, 50)), "single-hub-p50-ms")
	b.ReportMetric(ms(pct(single, 99)), "single-hub-p99-ms")
	b.ReportMetric(ms(pct(cross, 50)), "cross-hub-p50-ms")
	b.ReportMetric(ms(pct(cross, 99)), "cross-hub-p99-ms")
	b.ReportMetric(float64(pct(cross, 50))/float64(pct(single, 50)), "x-single-hub")
}
