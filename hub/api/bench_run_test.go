package api

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// benchSteps are 20 steps on the fixture's login page.
func benchSteps(base string) map[string]any {
	steps := []map[string]any{{"type": "navigate", "url": base + "/login.html"}}
	for i := range 9 {
		steps = append(steps,
			map[string]any{"type": "fill", "value": fmt.Sprintf("user%d@example.com", i), "target": target(loc("css", "#email"))},
			map[string]any{"type": "assertValue", "expected": fmt.Sprintf("user%d@example.com", i), "match": "equals", "target": target(loc("css", "#email"))})
	}
	steps = append(steps, map[string]any{"type": "click", "target": target(loc("css", "button"))})
	return map[string]any{"dsl": 2, "name": "Bench", "steps": steps}
}

// rawRod does the same 20 steps with plain rod calls in a fresh incognito
// context.
func rawRod(b *testing.B, browser *rod.Browser, base string) {
	inc, err := browser.Incognito()
	if err != nil {
		b.Fatal(err)
	}
	defer inc.Close()
	page, err := inc.Page(proto.TargetCreateTarget{URL: base + "/login.html"})
	if err != nil {
		b.Fatal(err)
	}
	if err := page.WaitLoad(); err != nil {
		b.Fatal(err)
	}
	for i := range 9 {
		el, err := page.Element("#email")
		if err == nil {
			err = el.SelectAllText()
		}
		if err == nil {
			err = el.Input(fmt.Sprintf("user%d@example.com", i))
		}
		if err != nil {
			b.Fatal(err)
		}
		if v, err := el.Property("value"); err != nil || v.String() != fmt.Sprintf("user%d@example.com", i) {
			b.Fatalf("value %v %v", v, err)
		}
	}
	btn, err := page.Element("button")
	if err == nil {
		err = btn.Click("left", 1)
	}
	if err != nil {
		b.Fatal(err)
	}
}

func p50(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}

// BenchmarkRunThroughHub runs a 20-step test through the hub and a warm
// agent (POST /api/runs to run.finished) and the same 20 steps as a raw rod
// program on the same Chromium, and reports the ratio (goal ≤ 1.15) and
// the time from POST /api/runs to run.started on an idle, warm agent
// (issue 15: p50 under 10 ms, p99 under 50 ms).
func BenchmarkRunThroughHub(b *testing.B) {
	h := newHarness(b)
	o := h.org(b)
	c := o.members[access.Tester]
	br := sharedBrowser(b)
	h.pairAgent(b, c, browserRunner{br})
	base := site(b)
	id := c.createTest(b, o.project, benchSteps(base))
	raw := rod.New().ControlURL(br.ControlURL()).MustConnect()
	var hub, direct, started []time.Duration
	for b.Loop() {
		// A run starts on an idle agent, as a tester's does: the browser
		// has finished with the previous run (the load test starts one
		// run every 250 ms the same way).
		b.StopTimer()
		time.Sleep(300 * time.Millisecond)
		b.StartTimer()
		start := time.Now()
		runID := c.do("POST", "/api/runs", map[string]any{"testId": id, "screenshots": false}, ProjectHeader, o.project).want(b, 201).str("runId")
		wake, stop := h.dispatch.Watch(runID)
		var first time.Duration
		for first == 0 {
			events, _ := h.store.Events(context.Background(), runID, 0, 1<<20)
			if len(events) > 0 {
				first = time.Since(start)
				break
			}
			<-wake
		}
		for {
			r, _ := h.store.Run(context.Background(), runID)
			if protocol.Final(r.Status) {
				if r.Status != protocol.RunPassed {
					b.Fatalf("run %s: %s", r.Status, r.Error)
				}
				break
			}
			<-wake
		}
		stop()
		hub = append(hub, time.Since(start))
		started = append(started, first)
		start = time.Now()
		rawRod(b, raw, base)
		direct = append(direct, time.Since(start))
	}
	b.ReportMetric(float64(p50(hub))/float64(time.Millisecond), "hub-p50-ms")
	b.ReportMetric(float64(p50(direct))/float64(time.Millisecond), "rawrod-p50-ms")
	b.ReportMetric(float64(p50(hub))/float64(p50(direct)), "x-rawrod")
	b.ReportMetric(float64(p50(started))/float64(time.Millisecond), "to-started-p50-ms")
	slices.Sort(started)
	b.ReportMetric(float64(started[(len(started)*99+99)/100-1])/float64(time.Millisecond), "to-started-p99-ms")
}
