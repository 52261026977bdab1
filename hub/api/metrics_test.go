package api

import (
	"bytes"
	"net/netip"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/metrics"
	"github.com/testautomation/ta/protocol"
)

// scrape reads /metrics and parses the exposition.
func scrape(t *testing.T, r response) map[string]*dto.MetricFamily {
	t.Helper()
	r.want(t, 200)
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(r.body))
	if err != nil {
		t.Fatalf("exposition: %v\n%s", err, r.body)
	}
	return fams
}

// sample finds the metric of a family whose labels include want.
func sample(t *testing.T, fams map[string]*dto.MetricFamily, name string, want map[string]string) *dto.Metric {
	t.Helper()
	f := fams[name]
	if f == nil {
		t.Fatalf("no %s in the exposition", name)
	}
next:
	for _, m := range f.Metric {
		got := map[string]string{}
		for _, l := range m.Label {
			got[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if got[k] != v {
				continue next
			}
		}
		return m
	}
	t.Fatalf("no %s%v in the exposition", name, want)
	return nil
}

func TestMetrics(t *testing.T) {
	h := newHarness(t)
	h.metrics = metrics.New()
	h.allow = []netip.Prefix{netip.MustParsePrefix("127.0.0.2/32")}
	h.restart(t)
	o := h.org(t) // its owner registered first: the platform administrator
	mgr := o.members[access.TestManager]

	// Who may read it.
	wantCode(t, h.client().do("GET", "/metrics", nil), 401, codeUnauthenticated)
	wantCode(t, h.bearer("tat_nonsense").do("GET", "/metrics", nil), 401, codeTokenInvalid)
	_, mgrToken := mgr.newToken(t, map[string]any{"name": "m"})
	wantCode(t, h.bearer(mgrToken).do("GET", "/metrics", nil), 403, codeForbidden)
	_, capped := o.owner.newToken(t, map[string]any{"name": "capped", "role": "Test Manager"})
	wantCode(t, h.bearer(capped).do("GET", "/metrics", nil), 403, codeForbidden)
	_, admin := o.owner.newToken(t, map[string]any{"name": "prometheus"})
	scrape(t, h.bearer(admin).do("GET", "/metrics", nil))
	far := h.clientFrom(t, "127.0.0.2", "Scraper")
	scrape(t, far.do("GET", "/metrics", nil))

	// A run through the real wire with an agent speaking the protocol.
	a := h.rawAgent(t, mgr, "")
	id := mgr.createTest(t, o.project, doc("Metered", 1))
	runID := mgr.do("POST", "/api/runs", map[string]any{"testId": id}, ProjectHeader, o.project).want(t, 201).str("runId")
	a.assigned()
	a.send(protocol.Message{Type: protocol.MsgAccept, RunID: runID})
	took := int64(120)
	a.send(protocol.Message{Type: protocol.MsgEvent, RunID: runID, Event: &protocol.Event{Seq: 1, Kind: protocol.RunStarted}})
	a.send(protocol.Message{Type: protocol.MsgEvent, RunID: runID, Event: &protocol.Event{Seq: 2, Kind: protocol.StepFinished,
		Index: protocol.Ptr(0), StepType: "navigate", Status: "passed", DurationMs: &took}})
	a.send(protocol.Message{Type: protocol.MsgFinish, RunID: runID, Result: &protocol.RunResult{Status: "passed", Passed: 1, Total: 1,
		DurationMs: 1500, Steps: []protocol.StepResult{{Index: 0, ID: "s1", Type: "navigate", Status: "passed", DurationMs: took}}}})
	for i := 0; mgr.do("GET", "/api/runs/"+runID, nil).status != 200; i++ {
		if i > 200 {
			t.Fatal("the run did not finish")
		}
		time.Sleep(10 * time.Millisecond)
	}
	mgr.do("GET", "/api/runs/"+runID, nil).want(t, 200) // at least two samples, however fast the run ended

	// Server-sent events stream through the timing middleware.
	if events := mgr.sse(t, runID); len(events) != 3 || events[2].Kind != protocol.RunFinished {
		t.Errorf("events %+v", events)
	}
	fams := scrape(t, h.bearer(admin).do("GET", "/metrics", nil))
	if v := sample(t, fams, "ta_runs_finished_total", map[string]string{"status": "passed"}).GetCounter().GetValue(); v != 1 {
		t.Errorf("ta_runs_finished_total{status=passed} = %v", v)
	}
	if v := sample(t, fams, "ta_runs_finished_total", map[string]string{"status": "failed"}).GetCounter().GetValue(); v != 0 {
		t.Errorf("ta_runs_finished_total{status=failed} = %v", v)
	}
	run := sample(t, fams, "ta_run_duration_seconds", map[string]string{"status": "passed"}).GetHistogram()
	if run.GetSampleCount() != 1 || run.GetSampleSum() != 1.5 {
		t.Errorf("run duration count %d sum %v", run.GetSampleCount(), run.GetSampleSum())
	}
	step := sample(t, fams, "ta_step_duration_seconds", map[string]string{"type": "navigate", "status": "passed"}).GetHistogram()
	if step.GetSampleCount() != 1 || step.GetSampleSum() != 0.12 {
		t.Errorf("step duration count %d sum %v", step.GetSampleCount(), step.GetSampleSum())
	}
	if n := sample(t, fams, "ta_run_queue_wait_seconds", nil).GetHistogram().GetSampleCount(); n != 1 {
		t.Errorf("queue waits %d", n)
	}
	if n := sample(t, fams, "ta_http_request_duration_seconds", map[string]string{"route": "/api/runs/{id}", "method": "GET", "code": "2xx"}).
		GetHistogram().GetSampleCount(); n < 2 {
		t.Errorf("GET /api/runs/{id} 2xx latency samples %d", n)
	}
	for _, m := range fams["ta_http_request_duration_seconds"].Metric {
		for _, l := range m.Label {
			if l.GetName() == "route" && l.GetValue() == "/api/runs/"+runID {
				t.Errorf("a raw path is a label: %s", l.GetValue())
			}
		}
	}
	sample(t, fams, "ta_http_request_duration_seconds", map[string]string{"route": "/metrics", "code": "4xx"})
	sample(t, fams, "ta_http_request_duration_seconds", map[string]string{"route": "/api/runs/{id}/events", "code": "2xx"})
	if v := sample(t, fams, "ta_agents_connected", nil).GetGauge().GetValue(); v != 1 {
		t.Errorf("agents connected %v", v)
	}
	if v := sample(t, fams, "ta_runs_queued", nil).GetGauge().GetValue(); v != 0 {
		t.Errorf("runs queued %v", v)
	}
	sample(t, fams, "ta_sse_subscribers", nil)
	sample(t, fams, "go_goroutines", nil)
}
