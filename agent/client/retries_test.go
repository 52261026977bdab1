package client

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/testautomation/ta/agent/runner"
	"github.com/testautomation/ta/protocol"
)

// browserRunner runs jobs in a real Chromium.
type browserRunner struct{ b *runner.Browser }

func (r browserRunner) Run(ctx context.Context, job protocol.Job, emit Emitter) protocol.RunResult {
	return r.b.Run(ctx, job, emit)
}

// recorder keeps what a run emits.
type recorder struct {
	mu        sync.Mutex
	events    []protocol.Event
	artifacts []protocol.ArtifactInfo
}

func (r *recorder) Event(e protocol.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) Artifact(info protocol.ArtifactInfo, _ []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.artifacts = append(r.artifacts, info)
}

func (r *recorder) FetchFile(context.Context, string) (string, error) {
	return "", fmt.Errorf("no files")
}

func (r *recorder) count(kind protocol.EventKind) int {
	n := 0
	for _, e := range r.events {
		if e.Kind == kind {
			n++
		}
	}
	return n
}

// flakySite serves /page: "not yet" for its first failures requests, then
// "ready".
func flakySite(t *testing.T, failures int64) string {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/page" {
			http.NotFound(w, r)
			return
		}
		text := "ready"
		if n.Add(1) <= failures {
			text = "not yet"
		}
		fmt.Fprintf(w, "<!doctype html><title>Flaky</title><h1 id=out>%s</h1>", text)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func retryJob(base string, retries int) protocol.Job {
	return protocol.Job{RunID: "run_retry", Version: 1, Screenshots: true, Retries: retries, Trace: protocol.TraceFailures,
		Variables: map[string]string{"baseUrl": base},
		Document: protocol.Document{DSL: 2, Name: "Flaky", Steps: []protocol.Step{
			{ID: "open", Type: "navigate", URL: "${baseUrl}/page"},
			{ID: "check", Type: "assertText", Expected: ptr("ready"), TimeoutMs: 500, Target: &protocol.Target{Locators: []protocol.Locator{{Kind: "css", Value: "#out"}}}},
		}}}
}

func launch(t *testing.T, maxRunTime time.Duration) *Client {
	t.Helper()
	path, err := runner.FindBrowser("")
	if err != nil {
		t.Fatalf("Chromium: %v", err)
	}
	b, err := runner.Launch(context.Background(), runner.Options{BrowserPath: path, HeadlessShell: "off", MaxRunTime: maxRunTime})
	if err != nil {
		t.Fatalf("Chromium: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	return New(Config{Runner: browserRunner{b}})
}

// A test that fails once and then passes, with retries 2, is passed and
// flaky after two attempts; each attempt keeps its own screenshots and
// trace, and the second attempt's events say so. Without retries it
// fails; always failing, it fails after 3 attempts and is not flaky.
func TestRetriesRunAFailedTestAgain(t *testing.T) {
	c := launch(t, 0)
	ctx := context.Background()

	rec := &recorder{}
	res := c.runRetried(ctx, retryJob(flakySite(t, 1), 2), rec)
	if res.Status != protocol.RunPassed || !res.Flaky || len(res.Attempts) != 2 {
		t.Fatalf("fails once, retries 2: status %s flaky %v attempts %d (%s)", res.Status, res.Flaky, len(res.Attempts), res.Error)
	}
	if a := res.Attempts[0]; a.Attempt != 1 || a.Status != protocol.RunFailed || !strings.Contains(a.Error, "not yet") {
		t.Errorf("attempt 1: %+v", a)
	}
	if a := res.Attempts[1]; a.Attempt != 2 || a.Status != protocol.RunPassed || a.Passed != 2 {
		t.Errorf("attempt 2: %+v", a)
	}
	if rec.count(protocol.RunStarted) != 1 || rec.count(protocol.RunFinished) != 1 || rec.count(protocol.RunRetry) != 1 {
		t.Errorf("run.started %d, run.finished %d, run.retry %d: want 1 each", rec.count(protocol.RunStarted), rec.count(protocol.RunFinished), rec.count(protocol.RunRetry))
	}
	second := false
	for _, e := range rec.events {
		switch {
		case e.Kind == protocol.RunRetry:
			if e.RunAttempt != 2 || !strings.HasPrefix(e.Message, "attempt 1 failed: ") || !strings.HasSuffix(e.Message, "running again (2 of 3)") {
				t.Errorf("run.retry: %+v", e)
			}
			second = true
		case e.Kind == protocol.RunFinished:
			if e.Status != protocol.RunPassed || e.RunAttempt != 0 {
				t.Errorf("run.finished: %+v", e)
			}
		case second && e.RunAttempt != 2:
			t.Errorf("an event of attempt 2 is not marked: %+v", e)
		case !second && e.RunAttempt != 0:
			t.Errorf("an event of attempt 1 is marked: %+v", e)
		}
	}
	names := map[string]int{}
	for _, a := range rec.artifacts {
		attempt, base := protocol.SplitAttempt(a.Name)
		if attempt != max(a.Attempt, 1) {
			t.Errorf("artifact %s has attempt %d", a.Name, a.Attempt)
		}
		names[base]++
	}
	// Both attempts took step 1's screenshot, under their own names.
	if names["step-001-open.jpg"] != 2 {
		t.Errorf("artifacts %v: want step 1's screenshot of each attempt", names)
	}
	if shot := res.Steps[0].Screenshot; shot != "a2-step-001-open.jpg" {
		t.Errorf("the run's (last attempt's) step 1 screenshot is %q", shot)
	}
	if shot := res.Attempts[0].Steps[1].Screenshot; shot == "" || strings.HasPrefix(shot, "a") {
		t.Errorf("attempt 1's failed step screenshot is %q", shot)
	}
	traced := false
	for _, a := range rec.artifacts {
		traced = traced || strings.HasPrefix(a.Name, "trace-") // attempt 1 failed: its trace was sent
	}
	if !traced {
		t.Errorf("attempt 1 sent no trace")
	}

	if res := c.runRetried(ctx, retryJob(flakySite(t, 1), 0), &recorder{}); res.Status != protocol.RunFailed || res.Flaky || res.Attempts != nil {
		t.Errorf("fails once, retries 0: %s flaky %v attempts %d", res.Status, res.Flaky, len(res.Attempts))
	}

	rec = &recorder{}
	res = c.runRetried(ctx, retryJob(flakySite(t, 100), 2), rec)
	if res.Status != protocol.RunFailed || res.Flaky || len(res.Attempts) != 3 || rec.count(protocol.RunRetry) != 2 {
		t.Errorf("always fails, retries 2: %s flaky %v attempts %d retries %d", res.Status, res.Flaky, len(res.Attempts), rec.count(protocol.RunRetry))
	}
}

// An error (the test could not run: here it went over the agent's time
// bound for a run) is not retried, nor is a cancelled run.
func TestRetriesLeaveErrorsAndCancels(t *testing.T) {
	c := launch(t, 300*time.Millisecond)
	job := retryJob(flakySite(t, 100), 3)
	job.Document.Steps[1].TimeoutMs = 3000
	rec := &recorder{}
	res := c.runRetried(context.Background(), job, rec)
	if res.Status != protocol.RunError || res.Attempts != nil || rec.count(protocol.RunRetry) != 0 {
		t.Errorf("an error: %s attempts %d retries %d (%s)", res.Status, len(res.Attempts), rec.count(protocol.RunRetry), res.Error)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec = &recorder{}
	res = c.runRetried(ctx, retryJob(flakySite(t, 100), 3), rec)
	if res.Status == protocol.RunPassed || res.Attempts != nil || rec.count(protocol.RunRetry) != 0 {
		t.Errorf("cancelled: %s attempts %d retries %d", res.Status, len(res.Attempts), rec.count(protocol.RunRetry))
	}
}

func ptr[T any](v T) *T { return &v }

// A data-driven run retries a failed row on its own: the row that failed
// first passes on its retry and is flaky, its retry's artifacts carry the
// row's prefix and then the attempt's; the run passes and is flaky.
func TestRetriesRetryARowOnItsOwn(t *testing.T) {
	c := launch(t, 0)
	job := retryJob(flakySite(t, 1), 1)
	job.Rows = []protocol.DataRow{{Row: 0, Values: map[string]string{}}, {Row: 1, Values: map[string]string{}}}
	em := &emitter{c: c, runID: job.RunID, files: &runFiles{c: c, for_: "run", id: job.RunID}}
	res := c.runRows(context.Background(), job, em)
	if res.Status != protocol.RunPassed || !res.Flaky || res.Passed != 2 {
		t.Fatalf("rows: %s flaky %v passed %d (%s)", res.Status, res.Flaky, res.Passed, res.Error)
	}
	row0, row1 := res.Rows[0], res.Rows[1]
	if !row0.Flaky || len(row0.Attempts) != 2 || row0.Attempts[0].Status != protocol.RunFailed || row1.Flaky || row1.Attempts != nil {
		t.Errorf("row 0 flaky %v attempts %d; row 1 flaky %v attempts %d", row0.Flaky, len(row0.Attempts), row1.Flaky, len(row1.Attempts))
	}
	var names []string
	retries, rowStarts := 0, 0
	for m, ok := c.box.next(); ok; m, ok = c.box.next() {
		c.box.wrote(m.msg.ID)
		switch {
		case m.msg.Artifact != nil:
			names = append(names, m.msg.Artifact.Name)
		case m.msg.Event != nil && m.msg.Event.Kind == protocol.RunRetry:
			retries++
			if m.msg.Event.Row == nil || *m.msg.Event.Row != 0 {
				t.Errorf("run.retry of row %v", m.msg.Event.Row)
			}
		case m.msg.Event != nil && m.msg.Event.Kind == protocol.RowStarted:
			rowStarts++
		}
	}
	if retries != 1 || rowStarts != 2 || !slices.Contains(names, "r0-a2-step-001-open.jpg") || !slices.Contains(names, "r0-step-001-open.jpg") {
		t.Errorf("run.retry %d, row.started %d, artifacts %v", retries, rowStarts, names)
	}
}
