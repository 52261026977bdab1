package author

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/testautomation/ta/agent/runner"
	"github.com/testautomation/ta/protocol"
)

// The quality corpus (testdata/corpus) and the issue's three figures:
//
//	replay_green_%        recorded sessions whose document, saved as a test,
//	                      replays green the first time (target 98)
//	pick_unique_%         picks whose first locator matched exactly the
//	                      picked element in the live page (target 100)
//	fallback_survival_%   recorded targets still found, through the
//	                      runner's own resolution with its fallbacks,
//	                      after one mutation of the page (target 90)
//
// TestCorpus proves the corpus and the scripted sessions themselves: each
// session played with trusted input reaches its result, and a hand-written
// document of the same flow replays green. TestRecordingQuality records
// the sessions with the real recorder and measures; `make bench` prints
// the figures through BenchmarkRecordingQuality.

// chromiumFlags are the issue's flags for this machine, plus site
// isolation off as the authoring browser runs (see doc.go).
func qLaunchChromium(t testing.TB) *rod.Browser {
	t.Helper()
	bin, err := runner.FindBrowser(os.Getenv("TA_BROWSER"))
	if err != nil {
		t.Skip("the quality corpus needs Chromium:", err)
	}
	l := launcher.New().Bin(bin).HeadlessNew(true).NoSandbox(true).
		Set("disable-gpu").Set("disable-background-networking").Set("disable-component-update").
		Set("no-first-run").Set("disable-dev-shm-usage").Set("window-size", "1280,800").
		Set("disable-site-isolation-trials").Set("disable-features", "IsolateOrigins,site-per-process")
	u, err := l.Launch()
	if err != nil {
		t.Fatal(err)
	}
	b := rod.New().ControlURL(u)
	if err := b.Connect(); err != nil {
		l.Kill()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.Close() //nolint:errcheck
		l.Kill()
		l.Cleanup()
	})
	return b
}

func qLaunchRunner(t testing.TB) *runner.Browser {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := runner.Launch(ctx, runner.Options{BrowserPath: os.Getenv("TA_BROWSER")})
	if err != nil {
		t.Skip("the quality corpus needs Chromium:", err)
	}
	t.Cleanup(func() { b.Close() }) //nolint:errcheck
	return b
}

// qTarget is a CSS target for w (the inner part of a shadow selector: the
// runner's CSS looks into open shadow roots; scoped to its host with
// :host(...) when the host part is more than a tag, as todo-item:nth-of-type(2)).
func qTarget(w qWhere) *protocol.Target {
	sel := w.Sel
	if parts := strings.Split(sel, ">>>"); len(parts) > 1 {
		sel = strings.TrimSpace(parts[len(parts)-1])
		if host := strings.TrimSpace(parts[len(parts)-2]); strings.ContainsAny(host, ":.[#") {
			sel = ":host(" + host + ") " + sel
		}
	}
	t := &protocol.Target{Locators: []protocol.Locator{{Kind: "css", Value: sel}}}
	if w.Frame != "" {
		t.Frame = []protocol.Locator{{Kind: "css", Value: w.Frame}}
	}
	return t
}

// qAssert is the session's final check: the result element's text.
func qAssert(s qSession) protocol.Step {
	return protocol.Step{Type: "assertText", Target: qTarget(s.Result), Expected: protocol.Ptr(s.Want), Match: "contains"}
}

// qExpected is the document a recorder should give for s, written with
// CSS locators from the session's own selectors.
func qExpected(site *corpusSite, s qSession) []protocol.Step {
	steps := []protocol.Step{{Type: "navigate", URL: site.url(s.Page)}}
	for _, a := range s.Acts {
		w := qWhere{a.Sel, a.Frame}
		switch a.Do {
		case "type":
			steps = append(steps, protocol.Step{Type: "fill", Target: qTarget(w), Value: protocol.Ptr(a.Text)})
		case "press":
			st := protocol.Step{Type: "press", Key: a.Text}
			if a.Sel != "" {
				st.Target = qTarget(w)
			}
			steps = append(steps, st)
		case "select":
			steps = append(steps, protocol.Step{Type: "select", Target: qTarget(w), Value: protocol.Ptr(a.Text)})
		case "check":
			steps = append(steps, protocol.Step{Type: "click", Target: qTarget(w)})
		default:
			steps = append(steps, protocol.Step{Type: a.Do, Target: qTarget(w)})
		}
	}
	return append(steps, qAssert(s))
}

// qDocument numbers the steps and validates the document as the hub does
// before saving a test.
func qDocument(name string, steps []protocol.Step) (protocol.Document, error) {
	steps = append([]protocol.Step(nil), steps...)
	for i := range steps {
		steps[i].ID = fmt.Sprintf("s%d", i+1)
	}
	d := protocol.Document{DSL: protocol.DSLVersion, Name: name, Steps: steps}
	if issues := d.Validate(); len(issues) > 0 {
		b, _ := json.MarshalIndent(d, "", " ")
		return d, fmt.Errorf("the document is invalid: %+v\n%s", issues, b)
	}
	return d, nil
}

type qDiscard struct{}

func (qDiscard) Event(protocol.Event)                   {}
func (qDiscard) Artifact(protocol.ArtifactInfo, []byte) {}

// qReplay runs doc as the agent runs a job.
func qReplay(ctx context.Context, b *runner.Browser, doc protocol.Document) protocol.RunResult {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	return b.Run(ctx, protocol.Job{RunID: "quality", Version: 1, Document: doc}, qDiscard{})
}

// qFailure words a run's first failing step.
func qFailure(res protocol.RunResult) string {
	for _, s := range res.Steps {
		if s.Status != protocol.StepPassed {
			return fmt.Sprintf("step %d (%s) %s: %s", s.Index+1, s.Type, s.Status, s.Error)
		}
	}
	return res.Status + ": " + res.Error
}

// TestCorpus: every scripted session, played with trusted input, reaches
// the result its page shows; and the same flow as a hand-written
// document replays green through the runner. A recording that fails to
// replay is then the recorder's fault, not the page's.
func TestCorpus(t *testing.T) {
	if n := len(qSessions); n < 20 {
		t.Fatalf("the corpus has %d sessions, the issue asks for at least 20", n)
	}
	site := newCorpusSite(t)
	rb := qLaunchRunner(t)
	cb := qLaunchChromium(t)
	for _, s := range qSessions {
		t.Run(strings.TrimSuffix(s.Page, ".html"), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			page, err := cb.Context(ctx).Page(protoTarget(site.url(s.Page)))
			if err != nil {
				t.Fatal(err)
			}
			defer page.Close() //nolint:errcheck
			if err := page.WaitLoad(); err != nil {
				t.Fatal(err)
			}
			if err := qPlay(ctx, page, s); err != nil {
				t.Errorf("played with trusted input: %v", err)
			}
			doc, err := qDocument("expected "+s.Page, qExpected(site, s))
			if err != nil {
				t.Fatal(err)
			}
			if res := qReplay(ctx, rb, doc); res.Status != protocol.RunPassed {
				t.Errorf("the expected document does not replay: %s", qFailure(res))
			}
		})
	}
}

// The issue's targets.
const (
	targetGreen    = 98.0
	targetUnique   = 100.0
	targetSurvival = 90.0
)

// TestRecordingQuality records every scripted session with the recorder,
// saves it as a document (its final check, the page's visible result,
// recorded with the overlay toolbar's Assert text; appended by hand for
// results inside an iframe, where the toolbar does not reach),
// replays it through the runner, picks, and mutates; it fails below any
// of the issue's three targets.
func TestRecordingQuality(t *testing.T) {
	au := newQAuthor(t)
	if au == nil {
		t.Skip("the recorder (author.Manager) is not built yet")
	}
	site := newCorpusSite(t)
	rb := qLaunchRunner(t)
	f := qMeasure(t, au, site, rb, qOptions{MaxTargets: 1, Picks: 1})
	t.Logf("quality: %s", f)
	for _, m := range f.Misses {
		t.Log(m)
	}
	if f.GreenPct() < targetGreen {
		t.Errorf("replay green %.1f%%, the issue asks for %.0f%%", f.GreenPct(), targetGreen)
	}
	if f.UniquePct() < targetUnique {
		t.Errorf("first pick locator unique %.1f%%, the issue asks for %.0f%%", f.UniquePct(), targetUnique)
	}
	if f.BadAssert > 0 {
		t.Errorf("the toolbar's Assert text failed in %d sessions", f.BadAssert)
	}
	if f.SurvivalPct() < targetSurvival {
		t.Errorf("fallback survival %.1f%%, the issue asks for %.0f%%", f.SurvivalPct(), targetSurvival)
	}
}

// BenchmarkRecordingQuality reports the three figures with every mutation
// kind on every recorded target (`make bench`; -benchtime 1x: the figures
// do not depend on b.N).
func BenchmarkRecordingQuality(b *testing.B) {
	au := newQAuthor(b)
	if au == nil {
		b.Skip("the recorder (author.Manager) is not built yet")
	}
	site := newCorpusSite(b)
	rb := qLaunchRunner(b)
	var f qFigures
	for range b.N {
		f = qMeasure(b, au, site, rb, qOptions{Full: true})
	}
	// The figures first: a benchmark's log is cut after a few lines.
	b.Logf("quality: %s", f)
	for _, m := range f.Misses {
		b.Log(m)
	}
	b.ReportMetric(f.GreenPct(), "replay_green_%")
	b.ReportMetric(f.UniquePct(), "pick_unique_%")
	b.ReportMetric(f.SurvivalPct(), "fallback_survival_%")
}

// TestMutationsBite: each mutation really breaks a locator that depends on
// what it changes, leaves a locator that does not alone, and an action
// that lands on another element than the recorded one does not count as
// survival.
func TestMutationsBite(t *testing.T) {
	site := newCorpusSite(t)
	rb := qLaunchRunner(t)
	css := func(v string) protocol.Locator { return protocol.Locator{Kind: "css", Value: v} }
	nav := func(page string) protocol.Step { return protocol.Step{Type: "navigate", URL: site.url(page)} }
	act := func(typ string, locs ...protocol.Locator) protocol.Step {
		st := protocol.Step{Type: typ, Target: &protocol.Target{Locators: locs}}
		if typ == "fill" {
			st.Value = protocol.Ptr("x")
		}
		return st
	}
	cases := []struct {
		page, kind, sel string
		step            protocol.Step
		survives        bool
	}{
		{"signin.html", "id", "#email", act("fill", css("#email")), false},
		{"signin.html", "id", "#email", act("fill", css("#email"), protocol.Locator{Kind: "label", Value: "Email"}), true},
		{"settings.html", "reclass", ".btn_x7f3a", act("click", css(".btn_x7f3a")), false},
		{"settings.html", "reclass", ".btn_x7f3a", act("click", css(".btn_x7f3a"), protocol.Locator{Kind: "role", Value: "button", Name: "Save changes"}), true},
		{"newsletter.html", "wrap", "#sub button", act("click", css("#sub > button")), false},
		// After the reorder the path finds the other button: not the recorded one.
		{"testids.html", "reorder", "[data-testid=stock-inc]", act("click", css("[data-testid=stock] > :last-child")), false},
		{"testids.html", "reorder", "[data-testid=stock-inc]", act("click", css("[data-testid=stock] > :last-child"), protocol.Locator{Kind: "testId", Value: "stock-inc"}), false},
		{"testids.html", "reorder", "[data-testid=stock-inc]", act("click", protocol.Locator{Kind: "testId", Value: "stock-inc"}), true},
		{"icons.html", "text", "[aria-label=Bold]", act("click", protocol.Locator{Kind: "role", Value: "button", Name: "Bold", Exact: true}), false},
		{"icons.html", "text", "[aria-label=Bold]", act("click", protocol.Locator{Kind: "role", Value: "button", Name: "Bold", Exact: true}, css("[aria-label^=Bold]")), true},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	for _, c := range cases {
		ok, why := qSurvives(ctx, site, rb, []protocol.Step{nav(c.page), c.step}, &mutation{Kind: c.kind, Sel: c.sel})
		if ok != c.survives {
			t.Errorf("%s %s on %s with %s: survived %v, want %v (%s)", c.page, c.kind, c.sel, qLocators(c.step.Target), ok, c.survives, why)
		}
	}
}
