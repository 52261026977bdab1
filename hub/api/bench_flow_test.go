package api

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/testautomation/ta/agent/runner"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// flowDoc is the benchmark flow of issue 15 as a test: sign in on
// shop.html (the runner's page, agent/runner/testdata/site, which site()
// serves; its answer takes 300 ms), then five rounds of choose a size,
// tick gift wrap, add to cart, check the cart: 25 steps, the same as
// testdata/bench/flow.mjs does in Playwright.
func flowDoc() map[string]any {
	sizes := []string{"s", "m", "l", "s", "m"}
	steps := []map[string]any{
		{"type": "navigate", "url": "${baseUrl}/shop.html"},
		{"type": "fill", "value": "amy@shop.test", "target": target(loc("label", "Email"))},
		{"type": "fill", "value": "amy-password", "target": target(loc("label", "Password"))},
		{"type": "click", "target": target(loc("role", "button", "Sign in"))},
		{"type": "assertText", "expected": "Welcome, amy@shop.test", "target": target(loc("testId", "greeting"))},
	}
	for i, s := range sizes {
		steps = append(steps,
			map[string]any{"type": "select", "value": s, "target": target(loc("label", "Size"))},
			map[string]any{"type": "check", "target": target(loc("label", "Gift wrap"))},
			map[string]any{"type": "click", "target": target(loc("role", "button", "Add to cart"))},
			map[string]any{"type": "assertText", "expected": fmt.Sprintf("Cart: %d items, last %s gift", i+1, s), "target": target(loc("testId", "cart"))})
	}
	return map[string]any{"dsl": 2, "name": "Shop flow", "steps": steps}
}

// playwrightFlow runs testdata/bench/flow.mjs: n timed runs of the flow in
// Playwright after a warm-up, with or without a screenshot after every step,
// in the browser binary given ("": Debian's Chromium).
func playwrightFlow(b *testing.B, base string, n int, shots bool, binary string) []time.Duration {
	b.Helper()
	arg := "0"
	if shots {
		arg = "1"
	}
	cmd := exec.Command("node", "testdata/bench/flow.mjs", base, strconv.Itoa(n), arg)
	if binary != "" {
		cmd.Env = append(os.Environ(), "CHROMIUM="+binary)
	}
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("node flow.mjs: %v", err)
	}
	var ms []float64
	if err := json.Unmarshal(out, &ms); err != nil {
		b.Fatalf("flow.mjs printed %q: %v", out, err)
	}
	d := make([]time.Duration, len(ms))
	for i, m := range ms {
		d[i] = time.Duration(m * float64(time.Millisecond))
	}
	return d
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkFlowVsPlaywright measures the 25-step flow end to end through
// the service (POST /api/runs to the final status, hub and a paired agent
// on a warm Chromium) and in Playwright (one Node process, a new context
// per flow, Debian's Chromium), both without and with a screenshot after
// every step, medians of b.N runs after a warm-up (-benchtime 10x). Goals
// (issue 15): service ≤ 0.7x Playwright; screenshots cost ≤ 20% over none.
// The agent runs its default (agent=chromium), then with the headless shell
// the agent's --headless-shell auto picks (agent=headless-shell), if one is
// installed; Playwright's anchors are measured again beside each.
func BenchmarkFlowVsPlaywright(b *testing.B) {
	b.Run("agent=chromium", func(b *testing.B) { flowVsPlaywright(b, sharedBrowser(b), "") })
	b.Run("agent=headless-shell", func(b *testing.B) {
		shell, err := runner.FindHeadlessShell("")
		if err != nil {
			b.Fatal(err)
		}
		if shell == "" {
			b.Skip("no headless shell installed")
		}
		br, err := runner.Launch(context.Background(), runner.Options{HeadlessShell: shell})
		if err != nil {
			b.Fatal(err)
		}
		defer br.Close()
		flowVsPlaywright(b, br, shell)
	})
}

// flowVsPlaywright measures the flow through an agent on br; shell, when
// br runs one, is also Playwright's second anchor.
func flowVsPlaywright(b *testing.B, br *runner.Browser, shell string) {
	if _, err := exec.LookPath("node"); err != nil {
		b.Skip("node is not installed")
	}
	if _, err := os.Stat("../../web/node_modules/playwright"); err != nil {
		b.Skip("web/node_modules is not installed (npm ci in web/)")
	}
	h := newHarness(b)
	o := h.org(b)
	c := o.members[access.TestManager]
	base := site(b)
	env := c.projectDo(o.project, "POST", "/api/environments", map[string]any{"name": "Local", "variables": map[string]string{"baseUrl": base}}).want(b, 201).str("id")
	h.pairAgent(b, c, browserRunner{br})
	id := c.createTest(b, o.project, flowDoc())
	run := func(shots bool) time.Duration {
		start := time.Now()
		runID := c.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": id, "environmentId": env, "screenshots": shots}).want(b, 201).str("runId")
		wake, stop := h.dispatch.Watch(runID)
		defer stop()
		for {
			r, _ := h.store.Run(context.Background(), runID)
			if protocol.Final(r.Status) {
				if r.Status != protocol.RunPassed {
					b.Fatalf("run %s: %s", r.Status, r.Error)
				}
				return time.Since(start)
			}
			<-wake
		}
	}
	run(false) // warm-up
	run(true)
	n := b.N
	var plain, shots []time.Duration
	b.ResetTimer()
	for range n {
		plain = append(plain, run(false))
		shots = append(shots, run(true))
	}
	b.StopTimer()
	pw, pwShots := playwrightFlow(b, base, n, false, ""), playwrightFlow(b, base, n, true, "")
	svc, svcS, pwM, pwS := p50(plain), p50(shots), p50(pw), p50(pwShots)
	// Playwright runs headless in its headless shell by default too: the
	// second anchor, when the agent's browser is one.
	if shell != "" {
		pwSh, pwShS := p50(playwrightFlow(b, base, n, false, shell)), p50(playwrightFlow(b, base, n, true, shell))
		b.ReportMetric(ms(pwSh), "playwright-shell-ms")
		b.ReportMetric(ms(svc)/ms(pwSh), "x-playwright-shell")
		b.ReportMetric(ms(pwShS), "playwright-shell-shots-ms")
		b.ReportMetric(ms(svcS)/ms(pwShS), "x-playwright-shell-shots")
		b.ReportMetric(100*(ms(pwShS)/ms(pwSh)-1), "playwright-shell-shot-cost-%")
	}
	b.ReportMetric(ms(svc), "service-ms")
	b.ReportMetric(ms(pwM), "playwright-ms")
	b.ReportMetric(ms(svc)/ms(pwM), "x-playwright")
	b.ReportMetric(ms(svcS), "service-shots-ms")
	b.ReportMetric(ms(pwS), "playwright-shots-ms")
	b.ReportMetric(ms(svcS)/ms(pwS), "x-playwright-shots")
	b.ReportMetric(100*(ms(svcS)/ms(svc)-1), "service-shot-cost-%")
	b.ReportMetric(100*(ms(pwS)/ms(pwM)-1), "playwright-shot-cost-%")
}
