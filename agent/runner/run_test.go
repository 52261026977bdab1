package runner

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

var (
	pngMagic  = []byte("\x89PNG\r\n\x1a\n")
	jpegMagic = []byte("\xff\xd8\xff")
)

// checkArtifacts verifies that every artifact event names bytes the
// emitter got first, with a valid name and the right size: a JPEG for the
// screenshots after passed steps (.jpg), else a PNG (.png).
func checkArtifacts(t *testing.T, rec *recorder) {
	t.Helper()
	for _, e := range rec.ofKind(protocol.ArtifactMade) {
		data, ok := rec.artifacts[e.Name]
		switch {
		case !ok:
			t.Errorf("artifact event %q without its bytes", e.Name)
		case !protocol.ValidArtifactName(e.Name):
			t.Errorf("invalid artifact name %q", e.Name)
		case strings.HasSuffix(e.Name, ".jpg") && (!bytes.HasPrefix(data, jpegMagic) || e.ContentType != "image/jpeg"):
			t.Errorf("artifact %q is not a JPEG (%s)", e.Name, e.ContentType)
		case !strings.HasSuffix(e.Name, ".jpg") && (!bytes.HasPrefix(data, pngMagic) || e.ContentType != "image/png"):
			t.Errorf("artifact %q is not a PNG (%s)", e.Name, e.ContentType)
		case e.Size != int64(len(data)) || e.Step == nil:
			t.Errorf("artifact %q: size %d for %d bytes, step %v", e.Name, e.Size, len(data), e.Step)
		}
	}
}

func TestPassingRunEvents(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	doc := document(t, nav("/login.html"), fillStep(tgt(loc("label", "Email")), "a@b.c"),
		protocol.Step{Type: "assertTitle", Expected: protocol.Ptr("Login")})
	res, rec := runJob(t, ctx, protocol.Job{Version: 7, Document: doc, Screenshots: true, Trace: protocol.TraceOff}) // traces: trace_test.go
	mustPass(t, res)
	want := []string{"run.started",
		"step.started[0]", "artifact", "step.finished[0]:passed",
		"step.started[1]", "artifact", "step.finished[1]:passed",
		"step.started[2]", "artifact", "step.finished[2]:passed",
		"run.finished:passed"}
	if got := rec.kinds(); !slices.Equal(got, want) {
		t.Fatalf("events\n got %v\nwant %v", got, want)
	}
	started := rec.ofKind(protocol.RunStarted)[0]
	if started.Version != 7 || *started.Total != 3 {
		t.Errorf("run.started: version %d total %d", started.Version, *started.Total)
	}
	fin := rec.ofKind(protocol.RunFinished)[0]
	if *fin.Passed != 3 || *fin.Total != 3 || fin.DurationMs == nil || fin.Error != "" {
		t.Errorf("run.finished: %+v", fin)
	}
	var names []string
	for i, e := range rec.ofKind(protocol.StepFinished) {
		names = append(names, e.Screenshot)
		if e.StepID != doc.Steps[i].ID || e.StepType != doc.Steps[i].Type || e.DurationMs == nil {
			t.Errorf("step.finished %d: %+v", i, e)
		}
		if res.Steps[i].Screenshot != e.Screenshot || res.Steps[i].Status != protocol.StepPassed {
			t.Errorf("result step %d: %+v", i, res.Steps[i])
		}
	}
	if want := []string{"step-001-s1.jpg", "step-002-s2.jpg", "step-003-s3.jpg"}; !slices.Equal(names, want) {
		t.Errorf("screenshots %v, want %v", names, want)
	}
	checkArtifacts(t, rec)
	if res.Passed != 3 || res.Total != 3 || len(res.Steps) != 3 {
		t.Errorf("result %+v", res)
	}
}

func TestFailingAssertion(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	doc := document(t, nav("/login.html"), short(textIs(css("h1"), "equals", "Log in"), 1500), fillStep(css("#email"), "x"))
	res, rec := runJob(t, ctx, protocol.Job{Version: 1, Document: doc, Screenshots: true, Trace: protocol.TraceOff}) // traces: trace_test.go
	if res.Status != protocol.RunFailed || res.Passed != 1 {
		t.Fatalf("status %s passed %d, want failed 1", res.Status, res.Passed)
	}
	wantErr := `timed out after 1.5s: expected the text to equal "Log in", but it is "Sign in"`
	if s := res.Steps[1]; s.Status != protocol.StepFailed || s.Error != wantErr || s.Screenshot != "step-002-s2-failure.png" {
		t.Errorf("failed step: %+v", s)
	}
	if res.Error != "step 2 (s2, assertText) failed: "+wantErr {
		t.Errorf("run error %q", res.Error)
	}
	if s := res.Steps[2]; s.Status != protocol.StepSkipped {
		t.Errorf("step after the failure: %+v", s)
	}
	kinds := rec.kinds()
	want := []string{"run.started", "step.started[0]", "artifact", "step.finished[0]:passed",
		"step.started[1]", "artifact", "step.finished[1]:failed", "step.finished[2]:skipped", "run.finished:failed"}
	if !slices.Equal(kinds, want) {
		t.Errorf("events\n got %v\nwant %v", kinds, want)
	}
	if data := rec.artifacts["step-002-s2-failure.png"]; !bytes.HasPrefix(data, pngMagic) {
		t.Errorf("no failure screenshot")
	}
	// Polling an assertion is auto-waiting, not retrying.
	if retries := rec.ofKind(protocol.StepRetry); len(retries) > 0 || res.Steps[1].Attempts != 1 {
		t.Errorf("an assertion's auto-wait counted as retries: %+v, attempts %d", retries, res.Steps[1].Attempts)
	}
	fin := rec.ofKind(protocol.StepFinished)[1]
	if fin.Error != wantErr || fin.Screenshot != "step-002-s2-failure.png" {
		t.Errorf("step.finished: %+v", fin)
	}
	checkArtifacts(t, rec)
}

// Waiting for a button to be enabled is auto-waiting: no step.retry, one
// attempt.
func TestWaitsUntilEnabledWithoutRetry(t *testing.T) {
	t.Parallel()
	// The page enables #delayed 300 ms after it loads, which a loaded
	// machine may take to navigate: disable it again, right before the click.
	disable := protocol.Step{Type: "script", Code: "const b = document.getElementById('delayed'); b.disabled = true; " +
		"setTimeout(() => { b.disabled = false; }, 1000);"}
	res, rec := runSteps(t, nav("/widgets.html"), disable, click(css("#delayed")), textIs(out, "", "delayed clicked"))
	mustPass(t, res)
	if retries := rec.ofKind(protocol.StepRetry); len(retries) > 0 {
		t.Errorf("step.retry while waiting for the button to be enabled: %+v", retries)
	}
	if res.Steps[2].Attempts != 1 {
		t.Errorf("attempts %d, want 1", res.Steps[2].Attempts)
	}
}

func TestHealedLocator(t *testing.T) {
	t.Parallel()
	broken := loc("css", "#old-submit-button")
	working := role("button", "Sign in")
	res, rec := runSteps(t, nav("/login.html"), fillStep(css("#email"), "h@example.com"),
		click(tgt(broken, working)), textIs(css("#greeting"), "", "Welcome, h@example.com"))
	mustPass(t, res)
	if h := res.Steps[2].HealedBy; h == nil || *h != working {
		t.Fatalf("healedBy %+v, want %+v", h, working)
	}
	fin := rec.ofKind(protocol.StepFinished)[2]
	if fin.HealedBy == nil || *fin.HealedBy != working {
		t.Errorf("step.finished healedBy %+v", fin.HealedBy)
	}
	var warned bool
	for _, e := range rec.ofKind(protocol.LogLine) {
		if e.Level == "warn" && *e.Step == 2 && strings.Contains(e.Message, `no element matches css "#old-submit-button"`) &&
			strings.Contains(e.Message, `healed by the fallback locator role button "Sign in"`) {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no warn log naming the healing locator: %+v", rec.ofKind(protocol.LogLine))
	}
	for i, s := range res.Steps {
		if i != 2 && s.HealedBy != nil {
			t.Errorf("step %d healed: %+v", i, s.HealedBy)
		}
	}
}

func TestIframes(t *testing.T) {
	t.Parallel()
	in := func(ls ...protocol.Locator) *protocol.Target {
		return &protocol.Target{Locators: ls, Frame: []protocol.Locator{loc("css", "#frame")}}
	}
	deep := &protocol.Target{Locators: []protocol.Locator{role("button", "Deep button")},
		Frame: []protocol.Locator{loc("title", "Inner frame"), loc("css", "iframe#deep")}}
	res, _ := runSteps(t, nav("/frame.html"),
		click(in(role("button", "Inner button"))), // below the fold: the main page must scroll
		textIs(in(loc("css", "#inner-out")), "equals", "inner clicked by"),
		fillStep(in(loc("label", "Inner name")), "Ida"),
		click(in(role("button", "Inner button"))),
		textIs(in(loc("css", "#inner-out")), "equals", "inner clicked by Ida"),
		click(deep),
		textIs(&protocol.Target{Locators: []protocol.Locator{loc("css", "#deep-btn")}, Frame: deep.Frame}, "equals", "Deep done"),
		click(css("#outer")),
		protocol.Step{Type: "screenshot", Target: in(loc("css", "#inner-btn"))})
	mustPass(t, res)
}

func TestScreenshotsOff(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	doc := document(t, nav("/login.html"), fillStep(css("#email"), "x"), short(typed("assertVisible", css("#nope")), 1000))
	res, rec := runJob(t, ctx, protocol.Job{Version: 1, Document: doc, Screenshots: false, Trace: protocol.TraceOff}) // traces: trace_test.go
	if res.Status != protocol.RunFailed {
		t.Fatalf("status %s", res.Status)
	}
	var names []string
	for _, info := range rec.infos {
		names = append(names, info.Name)
	}
	if !slices.Equal(names, []string{"step-003-s3-failure.png"}) {
		t.Errorf("artifacts %v, want only the failure screenshot", names)
	}
	if res.Steps[0].Screenshot != "" || res.Steps[2].Screenshot != "step-003-s3-failure.png" {
		t.Errorf("screenshots in result: %+v", res.Steps)
	}
	checkArtifacts(t, rec)
}

func TestScreenshotStepArtifacts(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	doc := document(t, nav("/login.html"),
		protocol.Step{Type: "screenshot", Name: "Login page: ünïcode?"},
		protocol.Step{Type: "screenshot", Name: "Login page: ünïcode?", FullPage: true},
		protocol.Step{ID: "logo", Type: "screenshot", Target: tgt(loc("alt", "Company logo"))})
	res, rec := runJob(t, ctx, protocol.Job{Version: 1, Document: doc, Screenshots: true, Trace: protocol.TraceOff}) // traces: trace_test.go
	mustPass(t, res)
	var got []string
	for _, s := range res.Steps {
		got = append(got, s.Screenshot)
	}
	want := []string{"step-001-s1.jpg", "Login-page-n-code.png", "Login-page-n-code-2.png", "logo.png"}
	if !slices.Equal(got, want) {
		t.Errorf("screenshots %v, want %v; logs %v", got, want, rec.logs())
	}
	checkArtifacts(t, rec)
	if n := len(rec.infos); n != 4 {
		t.Errorf("%d artifacts, want 4 (a screenshot step is its own after-step screenshot)", n)
	}
}

// An after-step screenshot is captured while the next step begins (see
// overlap in screenshot.go), yet it shows the page as its own step left
// it: every step here paints the whole page a new colour at once, with no
// wait between steps, and each screenshot must have its step's colour.
// The far button is out of view: its click scrolls, which also waits.
// Each capture starts 150 ms late, so a step that changed the page before
// the capture was taken would show in the previous step's screenshot.
//
// The two headless shell variants run at once in one browser: their frames
// share its lock (frames.go).
func TestStepScreenshotShowsItsStep(t *testing.T) {
	t.Parallel()
	for _, br := range []struct {
		name string
		b    func(testing.TB) *Browser
	}{{"headless shell", shell}, {"headless shell, a second page at once", shell},
		{"chromium", func(testing.TB) *Browser { return testBrowser }},
		{"headless shell, frames without images", dropping}} {
		t.Run(br.name, func(t *testing.T) {
			t.Parallel()
			screenshotsShowTheirSteps(t, br.b(t))
		})
	}
}

// ownShell launches a headless shell of the test's own, closed when the
// test ends; it skips the test when none is installed.
func ownShell(t testing.TB) *Browser {
	b, err := Launch(context.Background(), Options{BrowserPath: os.Getenv("TA_BROWSER")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	if !b.frames {
		t.Skip("no headless shell installed")
	}
	return b
}

// dropping launches a headless shell whose frames come without an image.
func dropping(t testing.TB) *Browser {
	b := ownShell(t)
	b.dropImages.Store(true)
	return b
}

// A page that stops drawing (errStalled: seen now and then in the headless
// shell after a navigation) costs its run the screenshots, not the run: no
// step waits for a frame that never comes. Before, every screenshot waited
// 10 s for its timeout, and the step after it timed out while waiting.
func TestStalledPageRunsOn(t *testing.T) {
	t.Parallel()
	b := ownShell(t)
	b.starveFrames.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	steps := []protocol.Step{nav("/login.html"), fillStep(css("#email"), "ann@example.com"),
		click(css("button[type=submit]")), textIs(css("#greeting"), "equals", "Welcome, ann@example.com")}
	start := time.Now()
	res := b.Run(ctx, protocol.Job{RunID: "run_stalled", Version: 1, Document: document(t, steps...), Screenshots: true}, &recorder{})
	took := time.Since(start)
	mustPass(t, res)
	for i, s := range res.Steps {
		if s.Screenshot != "" {
			t.Errorf("step %d has a screenshot %q of a page that draws nothing", i+1, s.Screenshot)
		}
		// The step says so itself, not only the run's log.
		if !strings.Contains(s.ScreenshotError, "no screenshot: the browser stopped drawing the page") {
			t.Errorf("step %d: screenshotError %q", i+1, s.ScreenshotError)
		}
	}
	rec := &recorder{}
	start = time.Now()
	res = b.Run(ctx, protocol.Job{RunID: "run_stalled_2", Version: 1, Document: document(t, steps...), Screenshots: true}, rec)
	took = max(took, time.Since(start))
	mustPass(t, res)
	warned := 0
	for _, l := range rec.logs() {
		if strings.Contains(l, "no screenshot after the step: the browser stopped drawing the page") {
			warned++
		}
	}
	if warned != len(steps) {
		t.Errorf("%d warnings of a page that stopped drawing, want one a step: %q", warned, rec.logs())
	}
	for _, e := range rec.ofKind(protocol.StepFinished) {
		if e.ScreenshotError == "" {
			t.Errorf("step.finished of step %d says nothing of its missing screenshot", *e.Index+1)
		}
	}
	// Each run: one check of the page (about half a second), then none.
	if took > 5*time.Second {
		t.Errorf("a run on a page that draws nothing took %s", took)
	}
	// A failed step's screenshot does not wait either.
	start = time.Now()
	res = b.Run(ctx, protocol.Job{RunID: "run_stalled_3", Version: 1, Document: document(t, nav("/login.html"),
		protocol.Step{Type: "script", Code: "throw new Error('boom')"}), Screenshots: true}, &recorder{})
	if res.Status != protocol.RunFailed || !strings.Contains(res.Error, "boom") {
		t.Fatalf("run %s: %s, want failed with boom", res.Status, res.Error)
	}
	if f := res.Steps[1]; f.Screenshot != "" || f.ScreenshotError == "" {
		t.Errorf("failed step: screenshot %q, screenshotError %q", f.Screenshot, f.ScreenshotError)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a failed run on a page that draws nothing took %s", d)
	}
}

// screenshotsShowTheirSteps paints the page a new colour at every step,
// with every capture started late, and checks each step's screenshot.
func screenshotsShowTheirSteps(t *testing.T, b *Browser) {
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	paint := tgt(loc("label", "Paint"))
	steps := []protocol.Step{nav("/colors.html")}
	want := []string{""}
	for _, c := range []string{"#0000ff", "#000000", "#0000ff"} {
		steps = append(steps, fillStep(paint, c))
		want = append(want, c)
	}
	steps = append(steps,
		click(css("#red")), protocol.Step{Type: "check", Target: css("#green")}, fillStep(paint, "#000000"),
		protocol.Step{Type: "select", Target: css("#pick"), Value: protocol.Ptr("#ff00ff")},
		protocol.Step{Type: "uncheck", Target: css("#green")}, click(css("#far")), fillStep(paint, "#0000ff"),
		textIs(css("#red"), "equals", "Red"))
	want = append(want, "#ff0000", "#00ff00", "#000000", "#ff00ff", "#ffff00", "#ffffff", "#0000ff", "#0000ff")
	res, rec := unlessStalled(t, b, func(rec *recorder) protocol.RunResult {
		mask := newMasker(nil)
		r := &run{b: b, job: protocol.Job{RunID: "run_colors", Version: 1, Document: document(t, steps...), Screenshots: true, Trace: protocol.TraceOff},
			mask: mask, vars: map[string]string{}, parent: ctx, out: &output{emit: rec, mask: mask, log: b.log},
			shotDelay: 150 * time.Millisecond}
		r.current.Store(-1)
		return r.execute(ctx)
	})
	mustPass(t, res)
	checkArtifacts(t, rec)
	for i, w := range want {
		name := res.Steps[i].Screenshot
		if name == "" {
			t.Fatalf("step %d has no screenshot", i+1)
		}
		if w == "" {
			continue
		}
		img, err := jpeg.Decode(bytes.NewReader(rec.artifacts[name]))
		if err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		b := img.Bounds()
		r, g, bl, _ := img.At(b.Max.X-20, b.Max.Y-20).RGBA()
		got := fmt.Sprintf("#%02x%02x%02x", round8(r), round8(g), round8(bl))
		if got != w {
			t.Errorf("step %d (%s): the screenshot's colour is %s, want %s", i+1, steps[i].Type, got, w)
		}
	}
	// step.finished of a step comes before the next step's step.started.
	var order []string
	for _, k := range rec.kinds() {
		if strings.HasPrefix(k, "step.") {
			order = append(order, k)
		}
	}
	for i := range steps {
		if order[2*i] != fmt.Sprintf("step.started[%d]", i) || order[2*i+1] != fmt.Sprintf("step.finished[%d]:passed", i) {
			t.Fatalf("events out of order: %v", order)
		}
	}
}

// round8 maps a 16-bit colour channel to 0 or 255 (JPEG blurs a little).
func round8(c uint32) uint32 {
	if c>>8 >= 128 {
		return 255
	}
	return 0
}

// A screenshot step's image has the size of what it shows: the viewport,
// the whole page (taller than the viewport), or the element's box; with
// the headless shell's frames and with the browser's own capture.
func TestScreenshotStepSizes(t *testing.T) {
	t.Parallel()
	for _, br := range []struct {
		name string
		b    func(testing.TB) *Browser
	}{{"headless shell", shell}, {"chromium", func(testing.TB) *Browser { return testBrowser }}} {
		t.Run(br.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			doc := document(t, nav("/login.html"),
				protocol.Step{Type: "script", Code: "document.body.style.height = '2400px'; document.body.style.background = 'linear-gradient(#f00, #00f)'"},
				protocol.Step{Type: "screenshot", Name: "viewport"},
				protocol.Step{Type: "screenshot", Name: "page", FullPage: true},
				protocol.Step{Type: "screenshot", Name: "logo", Target: tgt(loc("alt", "Company logo"))},
				protocol.Step{Type: "screenshot", Name: "viewport again"})
			b := br.b(t)
			res, rec := unlessStalled(t, b, func(rec *recorder) protocol.RunResult {
				return b.Run(ctx, protocol.Job{RunID: "run_sizes", Version: 1, Document: doc}, rec)
			})
			mustPass(t, res)
			size := func(name string) image.Point {
				cfg, err := png.DecodeConfig(bytes.NewReader(rec.artifacts[name]))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				return image.Point{cfg.Width, cfg.Height}
			}
			vp := size("viewport.png")
			if vp.X != 1280 || vp.Y < 600 || vp.Y > 800 || size("viewport-again.png") != vp {
				t.Errorf("viewport %v, again %v", vp, size("viewport-again.png"))
			}
			if p := size("page.png"); p.X != vp.X || p.Y < 2400 || p.Y > 2500 {
				t.Errorf("the whole page is %v, want %d wide and about 2400 high", p, vp.X)
			}
			if l := size("logo.png"); l != (image.Point{20, 20}) {
				t.Errorf("the logo is %v, want 20x20", l)
			}
		})
	}
}
