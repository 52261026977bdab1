package api

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/webhooks"
	"github.com/testautomation/ta/protocol"
)

// startWebhooks runs a webhook sender for the harness until the test ends.
func (h *harness) startWebhooks(t *testing.T, timeout time.Duration, backoff ...time.Duration) {
	t.Helper()
	if backoff == nil {
		backoff = []time.Duration{}
	}
	w := webhooks.New(webhooks.Config{Store: h.store, Secrets: h.api.Secrets, Logger: slog.New(slog.NewTextHandler(h.logs, nil)),
		BaseURL: "http://hub.test", Timeout: timeout, Backoff: backoff, Poll: 250 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
}

// hookCall is one request a receiver got.
type hookCall struct {
	header http.Header
	body   []byte
	at     time.Time
}

func (c hookCall) payload(t *testing.T) webhooks.Payload {
	t.Helper()
	var p webhooks.Payload
	if err := json.Unmarshal(c.body, &p); err != nil {
		t.Fatalf("webhook body %s: %v", c.body, err)
	}
	return p
}

// receiver is a webhook target: answer decides each request's status
// (n counts from 1); it records every request.
type receiver struct {
	srv   *httptest.Server
	calls chan hookCall
	mu    sync.Mutex
	n     int
}

func newReceiver(t *testing.T, answer func(n int, w http.ResponseWriter, r *http.Request)) *receiver {
	rc := &receiver{calls: make(chan hookCall, 100)}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.n++
		n := rc.n
		rc.mu.Unlock()
		rc.calls <- hookCall{header: r.Header.Clone(), body: body, at: time.Now()}
		if answer != nil {
			answer(n, w, r)
		}
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) next(t *testing.T) hookCall {
	t.Helper()
	select {
	case c := <-rc.calls:
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("the webhook's receiver got nothing within 10 s")
		return hookCall{}
	}
}

// quiet fails when the receiver gets anything within d.
func (rc *receiver) quiet(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case c := <-rc.calls:
		t.Errorf("unexpected delivery %s %s", c.header.Get(webhooks.HeaderEvent), c.body)
	case <-time.After(d):
	}
}

// verify checks the delivery's headers and its signature with secret.
func (c hookCall) verify(t *testing.T, secret, event string) {
	t.Helper()
	if got := c.header.Get(webhooks.HeaderEvent); got != event {
		t.Errorf("X-TA-Event %q, want %q", got, event)
	}
	if c.header.Get("Content-Type") != "application/json" || c.header.Get("User-Agent") != webhooks.UserAgent ||
		!strings.HasPrefix(c.header.Get(webhooks.HeaderDelivery), "whd_") {
		t.Errorf("delivery headers %v", c.header)
	}
	if !webhooks.Verify(secret, c.body, c.header.Get(webhooks.HeaderSignature)) {
		t.Errorf("signature %q does not verify with the secret", c.header.Get(webhooks.HeaderSignature))
	}
}

// finishRun has the raw agent run its next job to status; it answers the
// run's id and how long the hub took to record the finish.
func finishRun(t *testing.T, a *rawAgent, seq *int64, status string) (string, time.Duration) {
	t.Helper()
	return finishJob(t, a, a.assigned(), seq, status)
}

// finishJob runs an assigned job to status.
func finishJob(t *testing.T, a *rawAgent, job protocol.Job, seq *int64, status string) (string, time.Duration) {
	t.Helper()
	a.send(protocol.Message{Type: protocol.MsgAccept, RunID: job.RunID})
	*seq++
	start := time.Now()
	a.send(protocol.Message{Type: protocol.MsgFinish, ID: *seq, RunID: job.RunID, Result: report(job, status)})
	a.acked(*seq)
	return job.RunID, time.Since(start)
}

// A run finishing sends one signed run.finished; a batch of two sends one
// batch.finished after both; a rotated secret signs what follows; a Slack
// webhook gets a summary line; runs of Private tests are not sent.
func TestWebhookRunAndBatchDeliveries(t *testing.T) {
	h := newHarness(t)
	h.startWebhooks(t, 5*time.Second)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	rc := newReceiver(t, nil)
	slackRC := newReceiver(t, nil)
	created := mgr.projectDo(o.project, "POST", "/api/webhooks", obj{"name": "CI", "url": rc.srv.URL + "/hook"}).want(t, 201).json()
	secret, hookID := created["secret"].(string), created["id"].(string)
	if !strings.HasPrefix(secret, "whsec_") || !strings.HasPrefix(hookID, "whk_") || created["format"] != "json" || created["enabled"] != true ||
		len(created["events"].([]any)) != 2 {
		t.Fatalf("create answered %v", created)
	}
	mgr.projectDo(o.project, "POST", "/api/webhooks", obj{"name": "Slack", "url": slackRC.srv.URL, "format": "slack", "events": []any{"run.finished"}}).want(t, 201)
	list := mgr.projectDo(o.project, "GET", "/api/webhooks", nil).want(t, 200)
	if strings.Contains(string(list.body), secret) || strings.Contains(string(list.body), "secret") {
		t.Errorf("the list shows the secret: %s", list.body)
	}

	a := h.rawAgent(t, mgr, "")
	var seq int64
	testID := mgr.createTest(t, o.project, doc("Sign in", 2))
	mgr.projectDo(o.project, "POST", "/api/runs", obj{"testId": testID}).want(t, 201)
	runID, took := finishRun(t, a, &seq, protocol.RunFailed)
	if took > 2*time.Second {
		t.Errorf("finishing the run took %s", took)
	}
	call := rc.next(t)
	call.verify(t, secret, "run.finished")
	p := call.payload(t)
	if p.Event != "run.finished" || p.Project.ID != o.project || p.Project.Name != "Shop" || p.Run == nil || p.Run.RunID != runID ||
		p.Run.TestID != testID || p.Run.TestName != "Sign in" || p.Run.Status != "failed" || p.Run.Passed != 1 || p.Run.Total != 2 ||
		p.Run.URL != "http://hub.test/runs/"+runID || p.Run.FinishedAt == nil || p.DeliveryID != call.header.Get(webhooks.HeaderDelivery) {
		t.Errorf("run.finished payload %s", call.body)
	}
	sc := slackRC.next(t)
	var slack struct {
		Text   string `json:"text"`
		Blocks []struct {
			Type string `json:"type"`
		} `json:"blocks"`
	}
	if err := json.Unmarshal(sc.body, &slack); err != nil || !strings.Contains(slack.Text, "Sign in") || !strings.Contains(slack.Text, "failed") ||
		!strings.Contains(slack.Text, "http://hub.test/runs/"+runID) || len(slack.Blocks) != 1 || strings.Contains(string(sc.body), `"event"`) {
		t.Errorf("slack body %s", sc.body)
	}
	if sc.header.Get(webhooks.HeaderSignature) == "" {
		t.Error("a Slack-format delivery is not signed")
	}

	// A private test's run is nobody's business but its owner's.
	priv := mgr.createTest(t, o.project, with(doc("Mine", 1), "visibility", "Private"))
	mgr.projectDo(o.project, "POST", "/api/runs", obj{"testId": priv}).want(t, 201)
	finishRun(t, a, &seq, protocol.RunPassed)

	// Rotate, then a batch of two.
	rotated := mgr.do("POST", "/api/webhooks/"+hookID+"/secret", nil).want(t, 200).str("secret")
	if rotated == secret || !strings.HasPrefix(rotated, "whsec_") {
		t.Fatalf("rotated secret %q", rotated)
	}
	other := mgr.createTest(t, o.project, doc("Search", 1))
	batch := mgr.startBatch(t, o.project, obj{"testIds": []any{testID, other}})["batchId"].(string)
	jobs := []protocol.Job{a.assigned(), a.assigned()}
	finishJob(t, a, jobs[0], &seq, protocol.RunPassed)
	finishJob(t, a, jobs[1], &seq, protocol.RunPassed)
	var batches []hookCall
	for range 3 {
		c := rc.next(t)
		c.verify(t, rotated, c.header.Get(webhooks.HeaderEvent))
		if webhooks.Verify(secret, c.body, c.header.Get(webhooks.HeaderSignature)) {
			t.Error("the old secret still verifies after rotation")
		}
		if c.header.Get(webhooks.HeaderEvent) == "batch.finished" {
			batches = append(batches, c)
		}
	}
	rc.quiet(t, 700*time.Millisecond)
	if len(batches) != 1 {
		t.Fatalf("%d batch.finished deliveries", len(batches))
	}
	bp := batches[0].payload(t)
	if bp.Batch == nil || bp.Batch.BatchID != batch || bp.Batch.Status != "passed" || bp.Batch.Passed != 2 || bp.Batch.Total != 2 ||
		len(bp.Batch.Runs) != 2 || bp.Batch.URL != "http://hub.test/batches/"+batch || bp.Batch.Schedule != nil ||
		!strings.Contains(string(batches[0].body), `"schedule":null`) {
		t.Errorf("batch.finished payload %s", batches[0].body)
	}

	// The log: newest first, all succeeded at the first attempt (without
	// the status: the receiver is on loopback).
	ds := mgr.do("GET", "/api/webhooks/"+hookID+"/deliveries", nil).want(t, 200).json()["deliveries"].([]any)
	if len(ds) != 4 {
		t.Fatalf("%d deliveries logged, want 4: %v", len(ds), ds)
	}
	first := ds[0].(map[string]any)
	if first["status"] != "succeeded" || num(first["attempts"]) != 1 || first["responseStatus"] != nil || len(first["attemptLog"].([]any)) != 1 {
		t.Errorf("delivery %v", first)
	}
	if last := ds[3].(map[string]any); last["subject"] != runID || last["event"] != "run.finished" {
		t.Errorf("oldest delivery %v", last)
	}
	if l := mgr.projectDo(o.project, "GET", "/api/webhooks", nil).want(t, 200).json()["webhooks"].([]any)[0].(map[string]any); l["lastDelivery"] == nil {
		t.Errorf("list without lastDelivery: %v", l)
	}
}

// A target answering 500 twice then 200 gets three attempts and the
// delivery succeeds; one that hangs is given up after the bounded
// attempts; neither slows the run down.
func TestWebhookRetries(t *testing.T) {
	h := newHarness(t)
	h.startWebhooks(t, 300*time.Millisecond, 50*time.Millisecond, 50*time.Millisecond)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	flaky := newReceiver(t, func(n int, w http.ResponseWriter, _ *http.Request) {
		if n <= 2 {
			w.WriteHeader(http.StatusInternalServerError)
		}
	})
	release := make(chan struct{})
	hanging := newReceiver(t, func(_ int, _ http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	flakyID := mgr.projectDo(o.project, "POST", "/api/webhooks", obj{"name": "Flaky", "url": flaky.srv.URL}).want(t, 201).str("id")
	hangID := mgr.projectDo(o.project, "POST", "/api/webhooks", obj{"name": "Hangs", "url": hanging.srv.URL, "events": []any{"run.finished"}}).want(t, 201).str("id")

	a := h.rawAgent(t, mgr, "")
	var seq int64
	testID := mgr.createTest(t, o.project, doc("Checkout", 1))
	mgr.projectDo(o.project, "POST", "/api/runs", obj{"testId": testID}).want(t, 201)
	runID, took := finishRun(t, a, &seq, protocol.RunPassed)
	if took > time.Second {
		t.Errorf("finishing the run took %s with a hanging webhook", took)
	}
	if r := mgr.do("GET", "/api/runs/"+runID, nil); r.status != 200 || r.str("status") != "passed" {
		t.Errorf("run after finish: %d %s", r.status, r.body)
	}
	for range 3 {
		flaky.next(t)
		hanging.next(t)
	}
	flaky.quiet(t, 400*time.Millisecond)
	hanging.quiet(t, 100*time.Millisecond)

	deliveries := func(id string) map[string]any {
		t.Helper()
		var d map[string]any
		for range 100 {
			ds := mgr.do("GET", "/api/webhooks/"+id+"/deliveries", nil).want(t, 200).json()["deliveries"].([]any)
			if len(ds) != 1 {
				t.Fatalf("%d deliveries", len(ds))
			}
			if d = ds[0].(map[string]any); d["status"] != "pending" {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		return d
	}
	d := deliveries(flakyID)
	log, _ := d["attemptLog"].([]any)
	// Both receivers are on loopback: the log says failed or not, no more
	// (TestWebhookPrivateReceiversFailAlike).
	if d["status"] != "succeeded" || num(d["attempts"]) != 3 || len(log) != 3 || log[0].(map[string]any)["error"] != webhooks.InternalFailure ||
		log[2].(map[string]any)["error"] != nil || d["error"] != nil {
		t.Errorf("flaky target's delivery %v", d)
	}
	d = deliveries(hangID)
	log, _ = d["attemptLog"].([]any)
	if d["status"] != "failed" || num(d["attempts"]) != 3 || len(log) != 3 || d["error"] != webhooks.InternalFailure ||
		d["nextAttemptAt"] != nil {
		t.Errorf("hanging target's delivery %v", d)
	}
	if strings.Contains(h.logs.String(), hanging.srv.URL) {
		t.Error("the hub's log names the webhook's address")
	}
}

// Webhooks are Test Managers' and Admins'; another project's answer 404 and
// are audited; bad input is 422 with issues and changes nothing.
func TestWebhookRoutesGuarded(t *testing.T) {
	h := newHarness(t)
	o, theirs := h.org(t), h.org(t)
	mgr := o.members[access.TestManager]
	hook := mgr.projectDo(o.project, "POST", "/api/webhooks", obj{"name": "CI", "url": "http://127.0.0.1:9/hook"}).want(t, 201).str("id")
	for _, role := range []access.Role{access.Tester, access.TestDeveloper} {
		c := o.members[role]
		c.projectDo(o.project, "GET", "/api/webhooks", nil).want(t, 403)
		c.projectDo(o.project, "POST", "/api/webhooks", obj{"name": "Mine", "url": "https://example.com/"}).want(t, 403)
		c.do("GET", "/api/webhooks/"+hook+"/deliveries", nil).want(t, 403)
		c.do("POST", "/api/webhooks/"+hook+"/secret", nil).want(t, 403)
		c.do("POST", "/api/webhooks/"+hook+"/test", nil).want(t, 403)
		c.do("DELETE", "/api/webhooks/"+hook, nil).want(t, 403)
	}
	o.members[access.Admin].projectDo(o.project, "GET", "/api/webhooks", nil).want(t, 200)

	// Another project's manager.
	stranger := theirs.members[access.TestManager]
	before := len(readAudit(t, h))
	for _, rq := range [][2]string{{"GET", "/deliveries"}, {"POST", "/secret"}, {"POST", "/test"}, {"DELETE", ""}} {
		r := stranger.do(rq[0], "/api/webhooks/"+hook+rq[1], nil).want(t, 404)
		if missing := stranger.do(rq[0], "/api/webhooks/whk_aaaaaaaaaaaaaaaa"+rq[1], nil).want(t, 404); string(missing.body) != string(r.body) {
			t.Errorf("another project's webhook answers %s, a missing one %s", r.body, missing.body)
		}
	}
	stranger.projectDo(theirs.project, "POST", "/api/webhooks", obj{"id": hook, "name": "Taken", "url": "https://evil.example/"}).want(t, 404)
	if got := len(readAudit(t, h)) - before; got != 5 {
		t.Errorf("%d audit lines for 5 refusals", got)
	}

	for _, body := range []obj{
		{"name": "A", "url": "ftp://example.com/"},
		{"name": "A", "url": "/relative"},
		{"name": "A", "url": ""},
		{"name": "A"},
		{"name": "A", "url": "http://169.254.169.254/latest/meta-data"},
		{"name": "A", "url": "http://[fe80::1]/"},
		{"name": "A", "url": "https://example.com/" + strings.Repeat("x", 2000)},
		{"name": "A", "url": "https://example.com/", "events": []any{"test.deleted"}},
		{"name": "A", "url": "https://example.com/", "events": []any{}},
		{"name": "A", "url": "https://example.com/", "events": "run.finished"},
		{"name": "A", "url": "https://example.com/", "format": "xml"},
		{"name": "A", "url": "https://example.com/", "enabled": "yes"},
		{"name": "", "url": "https://example.com/"},
	} {
		r := mgr.projectDo(o.project, "POST", "/api/webhooks", body).want(t, 422)
		if len(r.json()["issues"].([]any)) == 0 {
			t.Errorf("%v: no issues", body)
		}
	}
	mgr.projectDo(o.project, "POST", "/api/webhooks", obj{"name": "ci", "url": "https://example.com/"}).want(t, 409)
	mgr.projectDo(o.project, "POST", "/api/webhooks", obj{"id": "whk_aaaaaaaaaaaaaaaa", "name": "X", "url": "https://example.com/"}).want(t, 404)
	if n := len(mgr.projectDo(o.project, "GET", "/api/webhooks", nil).want(t, 200).json()["webhooks"].([]any)); n != 1 {
		t.Errorf("%d webhooks after refused writes", n)
	}

	// Update keeps what it does not name; delete.
	up := mgr.projectDo(o.project, "POST", "/api/webhooks", obj{"id": hook, "name": "CI", "url": "https://ci.example.com/", "enabled": false}).want(t, 200).json()
	if up["enabled"] != false || len(up["events"].([]any)) != 2 || up["secret"] != nil || up["url"] != "https://ci.example.com/" {
		t.Errorf("update answered %v", up)
	}
	mgr.do("POST", "/api/webhooks/"+hook+"/test", nil).want(t, 202)
	mgr.do("DELETE", "/api/webhooks/"+hook, nil).want(t, 204)
	mgr.do("GET", "/api/webhooks/"+hook+"/deliveries", nil).want(t, 404)
}

// The two runs of a batch ending at the same moment on two agents queue
// exactly one batch.finished, never none and never two.
func TestWebhookBatchFinishedOnceUnderRace(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	hook := mgr.projectDo(o.project, "POST", "/api/webhooks", obj{"name": "CI", "url": "http://127.0.0.1:9/", "events": []any{"batch.finished"}}).want(t, 201).str("id")
	agents := []*rawAgent{h.rawAgentSlots(t, mgr, "", 1), h.rawAgentSlots(t, mgr, "", 1)}
	tests := []any{mgr.createTest(t, o.project, doc("One", 1)), mgr.createTest(t, o.project, doc("Two", 1))}
	const rounds = 6
	for i := range rounds {
		mgr.startBatch(t, o.project, obj{"testIds": tests})
		jobs := []protocol.Job{agents[0].assigned(), agents[1].assigned()}
		var wg sync.WaitGroup
		for k, a := range agents {
			a.send(protocol.Message{Type: protocol.MsgAccept, RunID: jobs[k].RunID})
		}
		id := int64(i + 1)
		for k, a := range agents {
			wg.Add(1)
			go func() {
				defer wg.Done()
				a.send(protocol.Message{Type: protocol.MsgFinish, ID: id, RunID: jobs[k].RunID, Result: report(jobs[k], protocol.RunPassed)})
			}()
		}
		wg.Wait()
		agents[0].acked(id)
		agents[1].acked(id)
	}
	ds := mgr.do("GET", "/api/webhooks/"+hook+"/deliveries", nil).want(t, 200).json()["deliveries"].([]any)
	seen := map[string]int{}
	for _, d := range ds {
		seen[d.(map[string]any)["subject"].(string)]++
	}
	if len(ds) != rounds || len(seen) != rounds {
		t.Errorf("%d batch.finished deliveries for %d batches: %v", len(ds), rounds, seen)
	}
}
