package runner

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

func TestCancelMidRun(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	doc := document(t, nav("/widgets.html"), short(typed("assertVisible", css("#never")), 30000), click(css("#delayed")))
	var res protocol.RunResult
	rec := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		res = testBrowser.Run(ctx, protocol.Job{Version: 1, Document: doc, Screenshots: true}, rec)
	}()
	for !slices.Contains(rec.kinds(), "step.started[1]") { // the assertion is waiting
		select {
		case <-done:
			t.Fatalf("the run ended before its second step: %v", rec.kinds())
		case <-time.After(20 * time.Millisecond):
		}
	}
	time.Sleep(300 * time.Millisecond)
	cancelled := time.Now()
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the run did not stop within 5 s of its cancellation")
	}
	if d := time.Since(cancelled); d > time.Second {
		t.Errorf("the run took %s to stop", d)
	}
	if res.Status != protocol.RunCancelled || res.Error != "run cancelled" {
		t.Fatalf("status %s error %q", res.Status, res.Error)
	}
	statuses := []string{}
	for _, s := range res.Steps {
		statuses = append(statuses, s.Status)
	}
	if !slices.Equal(statuses, []string{"passed", "skipped", "skipped"}) || res.Steps[1].Error != "run cancelled" {
		t.Errorf("steps %+v", res.Steps)
	}
	kinds := rec.kinds()
	if last := kinds[len(kinds)-1]; last != "run.finished:cancelled" {
		t.Errorf("last event %s", last)
	}
	if !slices.Contains(kinds, "step.finished[2]:skipped") {
		t.Errorf("events %v", kinds)
	}
}

// TestSecretsMasked makes the runner echo a secret every way it can: in an
// assertion's expected value and actual text, a typed value the browser
// rejects, a URL, a locator that heals, a screenshot name and a script
// error. No event, result or artifact name may contain the value.
func TestSecretsMasked(t *testing.T) {
	t.Parallel()
	secret := `hunter2"<Secret>`
	lasts := []protocol.Step{
		short(valueIs(css("#notes"), "nope"), 1000),
		short(textIs(css("h1"), "contains", "${secrets.PASSWORD}"), 1000),
		fillStep(tgt(loc("label", "When")), "${secrets.PASSWORD}"),
		short(protocol.Step{Type: "assertUrl", Expected: protocol.Ptr("nope"), Match: "equals"}, 1000),
		{Type: "script", Code: "throw new Error('leak ' + ${secrets.PASSWORD})"},
		{Type: "navigate", URL: "http://${secrets.PASSWORD}.invalid/"},
		{Type: "script", Code: "location = 'file:///tmp/' + ${secrets.PASSWORD}"}, // refused, naming the address
		{Type: "script", Code: "throw new Error('leak ' + vars.secrets.PASSWORD)"},
	}
	for i, last := range lasts {
		t.Run(last.Type+strconv.Itoa(i), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			doc := document(t, nav("/login.html?pw=${secrets.PASSWORD}"),
				fillStep(css("#notes"), "${secrets.PASSWORD}"),
				fillStep(tgt(loc("css", "#x${secrets.PASSWORD}"), loc("css", "#email")), "${secrets.PASSWORD}"),
				protocol.Step{Type: "screenshot", Name: "shot-${secrets.PASSWORD}"},
				last)
			res, rec := runJob(t, ctx, protocol.Job{Version: 1, Document: doc, Screenshots: true,
				Secrets: map[string]string{"PASSWORD": secret}})
			t.Logf("%s", res.Error)
			if res.Status != protocol.RunFailed || !strings.Contains(res.Error, Mask) {
				t.Errorf("status %s, error %q: want failed with the secret masked", res.Status, res.Error)
			}
			var all strings.Builder
			enc := json.NewEncoder(&all)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(rec.events)
			_ = enc.Encode(res)
			_ = enc.Encode(rec.infos)
			for name := range rec.artifacts {
				all.WriteString(name + "\n")
			}
			for _, form := range []string{secret, `hunter2\"<Secret>`, "hunter2", "Secret"} {
				if strings.Contains(all.String(), form) {
					t.Errorf("the secret shows as %q in:\n%s", form, all.String())
				}
			}
			if !strings.Contains(all.String(), `healed by the fallback locator css \"#email\"`) {
				t.Errorf("no healing log")
			}
		})
	}
}

// TestScriptVarsSecrets (issue 26, finding 11): a script step reads a
// secret as vars.secrets.NAME, as the README says; one the run was not
// given fails the step naming it.
func TestScriptVarsSecrets(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	doc := document(t, nav("/login.html"),
		protocol.Step{Type: "script", Code: "document.getElementById('greeting').textContent = 'length ' + vars.secrets.PW.length"},
		textIs(css("#greeting"), "equals", "length 10"),
		protocol.Step{Type: "script", Code: "return vars.secrets.MISSING"})
	res, _ := runJob(t, ctx, protocol.Job{Version: 1, Document: doc, Secrets: map[string]string{"PW": "0123456789"}})
	if res.Status != protocol.RunFailed || res.Steps[2].Status != protocol.StepPassed ||
		!strings.Contains(res.Steps[3].Error, "unknown secret ${secrets.MISSING}") {
		t.Fatalf("status %s: %+v", res.Status, res.Steps)
	}
}

func TestParallelRunsDoNotShareCookies(t *testing.T) {
	t.Parallel()
	g := "g" + time.Now().Format("150405.000000000")
	a := []protocol.Step{nav("/cookie?set=alpha&gate=" + g), nav("/cookie"), textIs(css("#cookies"), "equals", "who=alpha")}
	b := []protocol.Step{nav("/cookie?wait=" + g), textIs(css("#cookies"), "equals", "none")}
	var wg sync.WaitGroup
	results := make([]protocol.RunResult, 2)
	for i, steps := range [][]protocol.Step{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], _ = runSteps(t, steps...)
		}()
	}
	wg.Wait()
	for i, res := range results {
		if res.Status != protocol.RunPassed {
			t.Errorf("run %d: %s: %s", i, res.Status, res.Error)
		}
	}
	// A later run starts clean too.
	res, _ := runSteps(t, nav("/cookie"), textIs(css("#cookies"), "equals", "none"))
	mustPass(t, res)
}

func TestHeadedRunWithoutDisplay(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, rec := runJob(t, ctx, protocol.Job{Version: 1, Headed: true, Document: document(t, nav("/login.html"))})
	mustPass(t, res)
	logs := rec.ofKind(protocol.LogLine)
	if len(logs) != 1 || logs[0].Level != "warn" || !strings.Contains(logs[0].Message, "running headless") {
		t.Errorf("logs %+v, want one warning", logs)
	}
	if k := rec.kinds(); k[0] != "run.started" || k[1] != "log:warn" {
		t.Errorf("events %v", k)
	}
	if started := rec.ofKind(protocol.RunStarted); len(started) != 1 || started[0].Headed == nil || *started[0].Headed {
		t.Errorf("run.started %+v, want headed false: no window is shown", started)
	}
}

func TestDialogsAreDismissed(t *testing.T) {
	t.Parallel()
	res, rec := runSteps(t, nav("/login.html"),
		protocol.Step{Type: "script", Code: "setTimeout(() => { document.title = confirm('Sure?') ? 'yes' : 'no' }, 0)"},
		protocol.Step{Type: "assertTitle", Expected: protocol.Ptr("no"), Match: "equals"})
	mustPass(t, res)
	var seen bool
	for _, e := range rec.ofKind(protocol.LogLine) {
		seen = seen || strings.Contains(e.Message, "confirm dialog dismissed: Sure?")
	}
	if !seen {
		t.Errorf("no log of the dismissed dialog: %v", rec.kinds())
	}
}

func TestPageCrashIsError(t *testing.T) {
	t.Parallel()
	// chrome://crash is no page a test may open: the renderer is crashed
	// from outside while the second step waits.
	page := siteURL("/login.html?crash=" + strconv.FormatInt(time.Now().UnixNano(), 36))
	rec := &recorder{}
	go func() {
		for start := time.Now(); !slices.Contains(rec.kinds(), "step.started[1]") && time.Since(start) < 20*time.Second; {
			time.Sleep(10 * time.Millisecond)
		}
		crashPage(page)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	doc := document(t, protocol.Step{Type: "navigate", URL: page}, protocol.Step{Type: "wait", Ms: protocol.Ptr(10000)}, fillStep(css("#email"), "x"))
	res := testBrowser.Run(ctx, protocol.Job{RunID: "run_test", Version: 1, Document: doc}, rec)
	if res.Status != protocol.RunError || !strings.Contains(res.Error, "crashed") {
		t.Fatalf("status %s error %q, want error: the page crashed", res.Status, res.Error)
	}
	if res.Steps[1].Status != protocol.StepFailed || res.Steps[2].Status != protocol.StepSkipped {
		t.Errorf("steps %+v", res.Steps)
	}
	if k := rec.kinds(); k[len(k)-1] != "run.finished:error" {
		t.Errorf("events %v", k)
	}
}

// crashPage crashes the renderer of the run's tab showing url, once one does.
func crashPage(url string) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		targets, err := proto.TargetGetTargets{}.Call(testBrowser.root.with(ctx))
		if err != nil {
			return
		}
		for _, ti := range targets.TargetInfos {
			if ti.URL != url {
				continue
			}
			testBrowser.mu.Lock()
			var crash *tab
			for _, tb := range testBrowser.watched {
				if tb.target == ti.TargetID {
					crash = tb
				}
			}
			testBrowser.mu.Unlock()
			if crash != nil {
				cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
				err := proto.PageCrash{}.Call(crash.sess.with(cctx)) // no answer comes: the renderer is gone
				cancel()
				if err == nil || !strings.Contains(err.Error(), "pending navigations") {
					return
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
}
