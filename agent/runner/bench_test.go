package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/testautomation/ta/protocol"
)

// The benchmarks run the same 20 steps on the fixture's login page, in a
// fresh incognito context each time: through Browser.Run (no screenshots),
// and as plain rod calls on the same Chromium. The hub's goal is a ratio
// of at most 1.15. Both use the agent's default browser, without frames on
// demand: rod's own pages in a headless shell started for them would never
// render, and its waits for an animation frame would hang.

func benchDocument(b *testing.B) protocol.Document { return benchDoc(b) }

func benchDoc(b testing.TB) protocol.Document {
	return document(b,
		nav("/login.html"),
		fillStep(css("#email"), "bench@example.com"),
		fillStep(css("#password"), "pw"),
		click(css("#remember")),
		fillStep(css("#search"), "query"),
		fillStep(css("#notes"), "some notes"),
		valueIs(css("#email"), "bench@example.com"),
		valueIs(css("#notes"), "some notes"),
		fillStep(css("#qty"), "3"),
		valueIs(css("#qty"), "3"),
		click(css("button[type=submit]")),
		textIs(css("#greeting"), "contains", "Welcome, bench@example.com"),
		protocol.Step{Type: "assertTitle", Expected: protocol.Ptr("Welcome")},
		protocol.Step{Type: "assertUrl", Expected: protocol.Ptr("/welcome")},
		fillStep(css("#search"), "second"),
		valueIs(css("#search"), "second"),
		click(css("#search")),
		typed("assertVisible", css("h1")),
		fillStep(css("#email"), "again@example.com"),
		valueIs(css("#email"), "again@example.com"),
	)
}

func BenchmarkRun20Steps(b *testing.B) {
	doc := benchDocument(b)
	if len(doc.Steps) != 20 {
		b.Fatalf("%d steps", len(doc.Steps))
	}
	ctx := context.Background()
	for b.Loop() {
		res := testBrowser.Run(ctx, protocol.Job{Version: 1, Document: doc}, discard{})
		if res.Status != protocol.RunPassed {
			b.Fatalf("%s: %s", res.Status, res.Error)
		}
	}
}

func BenchmarkRawRod20Steps(b *testing.B) {
	browser := rod.New().ControlURL(testBrowser.url).NoDefaultDevice()
	if err := browser.Connect(); err != nil {
		b.Fatal(err)
	}
	base := site.URL
	for b.Loop() {
		if err := rawSteps(browser, base); err != nil {
			b.Fatal(err)
		}
	}
}

// rawSteps is benchDocument written with rod.
func rawSteps(browser *rod.Browser, base string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = r.(error)
		}
	}()
	inc := browser.MustIncognito()
	defer inc.MustClose()
	p := inc.MustPage("")
	p.MustNavigate(base + "/login.html").MustWaitLoad()
	fill := func(sel, v string) { p.MustElement(sel).MustSelectAllText().MustInput(v) }
	value := func(sel, want string) {
		if got := p.MustElement(sel).MustProperty("value").Str(); got != want {
			panic(errorf("value of %s is %q", sel, got))
		}
	}
	fill("#email", "bench@example.com")
	fill("#password", "pw")
	p.MustElement("#remember").MustClick()
	fill("#search", "query")
	fill("#notes", "some notes")
	value("#email", "bench@example.com")
	value("#notes", "some notes")
	fill("#qty", "3")
	value("#qty", "3")
	p.MustElement("button[type=submit]").MustClick()
	if t := p.MustElement("#greeting").MustText(); !strings.Contains(t, "Welcome, bench@example.com") {
		panic(errorf("greeting %q", t))
	}
	if info := p.MustInfo(); !strings.Contains(info.Title, "Welcome") || !strings.Contains(info.URL, "/welcome") {
		panic(errorf("page %q %q", info.Title, info.URL))
	}
	fill("#search", "second")
	value("#search", "second")
	p.MustElement("#search").MustClick()
	if !p.MustElement("h1").MustVisible() {
		panic(errorf("h1 hidden"))
	}
	fill("#email", "again@example.com")
	value("#email", "again@example.com")
	return nil
}

type benchError string

func (e benchError) Error() string { return string(e) }

func errorf(format string, a ...any) error {
	return benchError(fmt.Sprintf(format, a...))
}

// discard is an Emitter that drops everything.
type discard struct{}

func (discard) Event(protocol.Event)                   {}
func (discard) Artifact(protocol.ArtifactInfo, []byte) {}

// shopDoc is the hub's flow benchmark (hub/api/bench_flow_test.go) on the
// runner alone: sign in on shop.html, then five rounds of choose a size,
// tick gift wrap, add to cart, check the cart: 25 steps.
func shopDoc(b testing.TB) protocol.Document {
	label := func(v string) *protocol.Target { return tgt(loc("label", v)) }
	steps := []protocol.Step{
		nav("/shop.html"),
		fillStep(label("Email"), "amy@shop.test"),
		fillStep(label("Password"), "amy-password"),
		click(tgt(role("button", "Sign in"))),
		textIs(tgt(loc("testId", "greeting")), "contains", "Welcome, amy@shop.test"),
	}
	for i, s := range []string{"s", "m", "l", "s", "m"} {
		steps = append(steps,
			protocol.Step{Type: "select", Value: protocol.Ptr(s), Target: label("Size")},
			protocol.Step{Type: "check", Target: label("Gift wrap")},
			click(tgt(role("button", "Add to cart"))),
			textIs(tgt(loc("testId", "cart")), "contains", fmt.Sprintf("Cart: %d items, last %s gift", i+1, s)))
	}
	return document(b, steps...)
}

// BenchmarkShopFlow runs shopDoc without and with a screenshot after every
// step (the sign-in answer alone takes 300 ms of it), in the headless shell
// with frames on demand (when one is installed) and in the browser itself
// (headless=chromium, the shared test browser).
func BenchmarkShopFlow(b *testing.B) {
	for _, br := range []struct {
		name string
		b    func(testing.TB) *Browser
	}{{"shell", shell}, {"chromium", func(testing.TB) *Browser { return testBrowser }}} {
		for _, shots := range []bool{false, true} {
			b.Run(fmt.Sprintf("headless=%s/screenshots=%v", br.name, shots), func(b *testing.B) {
				doc := shopDoc(b)
				ctx := context.Background()
				for b.Loop() {
					res := br.b(b).Run(ctx, protocol.Job{Version: 1, Document: doc, Screenshots: shots}, discard{})
					if res.Status != protocol.RunPassed {
						b.Fatalf("%s: %s", res.Status, res.Error)
					}
				}
			})
		}
	}
}
