package author

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/agent/runner"
	"github.com/testautomation/ta/protocol"
)

// The locator tests drive a real Chromium (headless, site isolation off as
// in an authoring session) on the pages of testdata/locators, served twice
// so that an iframe can be cross-origin.
var (
	locOnce    sync.Once
	locBrowser *rod.Browser
	locErr     error
	locSite    *httptest.Server // the pages
	locOther   *httptest.Server // the same pages on another origin
)

func locatorBrowser(t testing.TB) *rod.Browser {
	t.Helper()
	locOnce.Do(func() {
		bin := os.Getenv("TA_BROWSER")
		if bin == "" {
			bin = "/usr/bin/chromium"
		}
		l := launcher.New().Bin(bin).Headless(true).NoSandbox(true).
			Set("disable-gpu").Set("disable-background-networking").Set("disable-component-update").
			Set("no-first-run").Set("disable-site-isolation-trials").
			Set("disable-features", "IsolateOrigins,site-per-process")
		u, err := l.Launch()
		if err != nil {
			locErr = err
			return
		}
		b := rod.New().ControlURL(u)
		if locErr = b.Connect(); locErr != nil {
			return
		}
		locBrowser = b
		locOther = httptest.NewServer(http.FileServer(http.Dir("testdata/locators")))
		files := http.FileServer(http.Dir("testdata/locators"))
		locSite = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/frame.html" {
				b, _ := os.ReadFile("testdata/locators/frame.html")
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				_, _ = w.Write([]byte(strings.ReplaceAll(string(b), "FRAME_SRC", locOther.URL+"/inner.html")))
				return
			}
			files.ServeHTTP(w, r)
		}))
	})
	if locErr != nil {
		t.Fatalf("launching Chromium: %v", locErr)
	}
	return locBrowser
}

func TestMain(m *testing.M) {
	code := m.Run()
	if locBrowser != nil {
		_ = locBrowser.Close()
		locSite.Close()
		locOther.Close()
	}
	os.Exit(code)
}

// testPage opens path in a fresh incognito context.
func testPage(t testing.TB, path string) *rod.Page {
	t.Helper()
	b := locatorBrowser(t)
	inc, err := b.Incognito()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = inc.Close() })
	p, err := inc.Page(proto.TargetCreateTarget{URL: locSite.URL + path})
	if err != nil {
		t.Fatal(err)
	}
	p = p.Timeout(30 * time.Second)
	if err := p.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	return p
}

// world installs the in-page script in an isolated world of a frame (the
// main frame when frameID is empty) and returns that world's context.
func world(t testing.TB, p *rod.Page, frameID proto.PageFrameID) proto.RuntimeExecutionContextID {
	t.Helper()
	if frameID == "" {
		frameID = p.FrameID
	}
	w, err := proto.PageCreateIsolatedWorld{FrameID: frameID, WorldName: worldName, GrantUniveralAccess: true}.Call(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := proto.RuntimeEvaluate{Expression: inpageJS, ContextID: w.ExecutionContextID}.Call(p)
	if err != nil || res.ExceptionDetails != nil {
		t.Fatalf("installing the in-page script: %v %+v", err, res.ExceptionDetails)
	}
	return w.ExecutionContextID
}

// object evaluates expr in the world and returns the remote object.
func object(t testing.TB, p *rod.Page, ctxID proto.RuntimeExecutionContextID, expr string) proto.RuntimeRemoteObjectID {
	t.Helper()
	res, err := proto.RuntimeEvaluate{Expression: expr, ContextID: ctxID}.Call(p)
	if err != nil || res.ExceptionDetails != nil || res.Result.ObjectID == "" {
		t.Fatalf("evaluating %s: %v %+v", expr, err, res)
	}
	return res.Result.ObjectID
}

// childFrame is the id of the main frame's child frame whose URL contains part.
func childFrame(t *testing.T, p *rod.Page, part string) proto.PageFrameID {
	t.Helper()
	tree, err := proto.PageGetFrameTree{}.Call(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range tree.FrameTree.ChildFrames {
		if strings.Contains(c.Frame.URL, part) {
			return c.Frame.ID
		}
	}
	t.Fatalf("no frame at %s", part)
	return ""
}

// backend is the backend node id of obj.
func backend(t *testing.T, p *rod.Page, obj proto.RuntimeRemoteObjectID) proto.DOMBackendNodeID {
	t.Helper()
	n, err := proto.DOMDescribeNode{ObjectID: obj}.Call(p)
	if err != nil {
		t.Fatal(err)
	}
	return n.Node.BackendNodeID
}

// ownerDoc is obj's document, in obj's world.
func ownerDoc(t *testing.T, p *rod.Page, obj proto.RuntimeRemoteObjectID) proto.RuntimeRemoteObjectID {
	t.Helper()
	res, err := proto.RuntimeCallFunctionOn{ObjectID: obj, FunctionDeclaration: `function () { return this.ownerDocument; }`}.Call(p)
	if err != nil {
		t.Fatal(err)
	}
	return res.Result.ObjectID
}

// heal resolves the target's locators as the runner does: the first that
// matches exactly one element wins. It answers that element and which
// locator found it (-1 when none did).
func heal(t *testing.T, p *rod.Page, doc proto.RuntimeRemoteObjectID, ls []protocol.RankedLocator) (proto.DOMBackendNodeID, int) {
	t.Helper()
	for i, l := range ls {
		if l.Matches != 1 {
			break // the recorded target keeps only the unique ones
		}
		n, id, err := runner.Match(context.Background(), p, p.SessionID, doc, l.Locator)
		if err == nil && n == 1 {
			return id, i
		}
	}
	return 0, -1
}

// locCase is one element of the locator pages.
type locCase struct {
	name  string
	page  string
	frame string // the child frame (part of its URL) the element is in
	expr  string // finds the element in the in-page script's world
	first string // a kind the first locator must be, when it matters
}

var locCases = []locCase{
	{name: "email by label", page: "/form.html", expr: `document.querySelector('#email')`},
	{name: "password in label", page: "/form.html", expr: `document.querySelector('[name=password]')`},
	{name: "textarea labelledby", page: "/form.html", expr: `document.querySelector('textarea')`},
	{name: "checkbox", page: "/form.html", expr: `document.querySelector('[name=remember]')`, first: "role"},
	{name: "select", page: "/form.html", expr: `document.querySelector('select')`, first: "role"},
	{name: "submit", page: "/form.html", expr: `document.querySelector('button')`, first: "role"},
	{name: "heading", page: "/form.html", expr: `document.querySelector('h1')`, first: "role"},
	{name: "icon delete", page: "/icons.html", expr: `document.querySelectorAll('button')[0]`, first: "role"},
	{name: "icon archive", page: "/icons.html", expr: `document.querySelectorAll('button')[1]`, first: "role"},
	{name: "icon share (test id)", page: "/icons.html", expr: `document.querySelectorAll('button')[2]`, first: "testId"},
	{name: "icon svg is its button", page: "/icons.html", expr: `document.querySelectorAll('button svg')[1]`, first: "role"},
	{name: "settings link", page: "/icons.html", expr: `document.querySelector('a')`, first: "role"},
	{name: "settings image", page: "/icons.html", expr: `document.querySelector('img')`},
	{name: "badge by title", page: "/icons.html", expr: `document.querySelector('.badge')`},
	{name: "generated save", page: "/generated.html", expr: `document.querySelectorAll('button')[0]`, first: "role"},
	{name: "generated publish", page: "/generated.html", expr: `document.querySelectorAll('button')[1]`, first: "role"},
	{name: "generated search", page: "/generated.html", expr: `document.querySelector('input')`},
	{name: "generated status", page: "/generated.html", expr: `document.querySelector('.b-7f8e9d')`},
	{name: "edit row 1", page: "/table.html", expr: `document.querySelectorAll('button')[0]`},
	{name: "edit row 2", page: "/table.html", expr: `document.querySelectorAll('button')[1]`},
	{name: "edit row 3", page: "/table.html", expr: `document.querySelectorAll('button')[2]`},
	{name: "edit row 4", page: "/table.html", expr: `document.querySelectorAll('button')[3]`},
	{name: "card 1 add to cart", page: "/cards.html", expr: `document.querySelectorAll('button')[0]`},
	{name: "card 3 add to cart", page: "/cards.html", expr: `document.querySelectorAll('button')[2]`},
	{name: "card 2 details link", page: "/cards.html", expr: `document.querySelectorAll('.card a')[1]`},
	{name: "shadow input", page: "/shadow.html", expr: `document.querySelectorAll('x-newsletter')[1].shadowRoot.querySelector('input')`},
	{name: "shadow button", page: "/shadow.html", expr: `document.querySelector('x-newsletter').shadowRoot.querySelector('button')`, first: "role"},
	{name: "iframe input", page: "/frame.html", frame: "inner.html", expr: `document.querySelector('input')`},
	{name: "iframe button", page: "/frame.html", frame: "inner.html", expr: `document.querySelector('button')`, first: "role"},
	{name: "nav link", page: "/text.html", expr: `document.querySelector('a[href="/about"]')`, first: "role"},
	{name: "inline text", page: "/text.html", expr: `document.querySelector('.hint')`, first: "text"},
	{name: "aria button", page: "/text.html", expr: `document.querySelector('.cta')`, first: "role"},
	{name: "button with span", page: "/text.html", expr: `document.querySelector('button')`, first: "role"},
	{name: "list item", page: "/text.html", expr: `document.querySelectorAll('.features li')[1]`},
}

// mutations change the page around (or of) the element, as a new release
// of the application under test would.
var mutations = []struct{ name, js string }{
	{"id changed", `function () { this.id = 'renamed-' + (this.id || 'x'); if (this.getRootNode().host) this.getRootNode().host.id = 'h2'; }`},
	{"class changed", `function () { this.className = 'restyled'; if (this.parentElement) this.parentElement.className = 'restyled-parent'; }`},
	{"wrapper added", `function () { const w = this.ownerDocument.createElement('div'); w.className = 'wrap'; this.replaceWith(w); w.append(this); }`},
	{"siblings reordered", `function () {
  let n = this.closest('tr, .card') || this;
  while (n.parentElement && n.parentElement.children.length < 2) n = n.parentElement;
  const p = n.parentElement || n.getRootNode();
  [...p.children].reverse().forEach(k => p.append(k));
}`},
	{"text changed", `function () {
  const w = this.ownerDocument.createTreeWalker(this, NodeFilter.SHOW_TEXT);
  for (let n = w.nextNode(); n; n = w.nextNode()) if (n.data.trim()) { n.data = 'Changed text'; break; }
  if (this.placeholder) this.placeholder = 'Changed placeholder';
}`},
}

// describeTimes are how long describeTarget took, for the figures.
var describeTimes []time.Duration

// describeCase opens the case's page and describes its element.
func describeCase(t *testing.T, p *rod.Page, c locCase) (*rod.Page, proto.RuntimeRemoteObjectID, protocol.PickedTarget, protocol.PickedElement) {
	t.Helper()
	if p == nil {
		p = testPage(t, c.page)
	} else {
		if err := p.Navigate(locSite.URL + c.page); err != nil {
			t.Fatal(err)
		}
		if err := p.WaitLoad(); err != nil {
			t.Fatal(err)
		}
	}
	var frames []protocol.Locator
	wid := world(t, p, "")
	if c.frame != "" {
		iframe := object(t, p, wid, `[...document.querySelectorAll('iframe')].find(f => f.src.includes('`+c.frame+`'))`)
		fl, err := frameLocator(context.Background(), p, iframe)
		if err != nil {
			t.Fatal(err)
		}
		frames = []protocol.Locator{fl}
		wid = world(t, p, childFrame(t, p, c.frame))
	}
	obj := object(t, p, wid, c.expr)
	start := time.Now()
	target, el, err := describeTarget(context.Background(), p, obj, frames)
	if err != nil {
		t.Fatal(err)
	}
	describeTimes = append(describeTimes, time.Since(start))
	return p, obj, target, el
}

// TestLocatorsFirstUniqueAndFallbacksSurvive: for every element of the
// locator pages, the first locator is unique and finds that element through
// the runner's engine, no generated id or class is used, and after each
// mutation at least one recorded locator still finds it (the runner taking
// the first that matches one element).
func TestLocatorsFirstUniqueAndFallbacksSurvive(t *testing.T) {
	firstOK, survived, mutated := 0, 0, 0
	for _, c := range locCases {
		t.Run(c.name, func(t *testing.T) {
			p, obj, target, el := describeCase(t, nil, c)
			ls := target.Locators
			if len(ls) == 0 || ls[0].Matches != 1 {
				t.Fatalf("no unique first locator: %+v", ls)
			}
			var kinds []string
			uniqueKinds := map[string]bool{}
			for _, l := range ls {
				if l.Matches == 1 {
					uniqueKinds[l.Kind] = true
					kinds = append(kinds, describeLoc(l))
				}
				for _, bad := range []string{"ember1234", ":r0:", "mui-4521", "css-1x2y3zq", "sc-bdfBwQ", "jsx-3456789", "Button_root__a1b2c", "f3a9c2e1", "a8f3e2b1c9d0", "css-1hw9v6k", "input_x9k2p"} {
					if strings.Contains(l.Value, bad) && l.Matches == 1 {
						t.Errorf("generated %q used in %s", bad, describeLoc(l))
					}
				}
			}
			t.Logf("%s <%s> %q: %s", c.name, el.Tag, el.Name, strings.Join(kinds, " | "))
			if c.first != "" && ls[0].Kind != c.first {
				t.Errorf("first locator %s, want kind %s", describeLoc(ls[0]), c.first)
			}
			if len(uniqueKinds) < 2 {
				t.Errorf("only %d kind(s) of unique locator: no real fallback", len(uniqueKinds))
			}
			self := backend(t, p, retarget(context.Background(), p, obj))
			doc := ownerDoc(t, p, obj)
			if id, i := heal(t, p, doc, ls); i != 0 || id != self {
				t.Fatalf("the first locator does not find the element (locator %d, node %d, want %d)", i, id, self)
			}
			firstOK++
			if el.Box == nil || el.Box.Width <= 0 || el.Box.DPR <= 0 {
				t.Errorf("no box: %+v", el.Box)
			}
			if target.Fingerprint["tag"] != el.Tag {
				t.Errorf("fingerprint %v", target.Fingerprint)
			}

			for _, m := range mutations {
				p, obj, target, _ := describeCase(t, p, c)
				self := backend(t, p, retarget(context.Background(), p, obj))
				if _, err := (proto.RuntimeCallFunctionOn{ObjectID: obj, FunctionDeclaration: m.js}).Call(p); err != nil {
					t.Fatal(err)
				}
				mutated++
				id, i := heal(t, p, ownerDoc(t, p, obj), target.Locators)
				switch {
				case i < 0:
					t.Errorf("%s: no recorded locator finds an element", m.name)
				case id != self:
					t.Errorf("%s: %s finds another element", m.name, describeLoc(target.Locators[i]))
				default:
					survived++
				}
			}
		})
	}
	var total, worst time.Duration
	for _, d := range describeTimes {
		total += d
		worst = max(worst, d)
	}
	if len(describeTimes) > 0 {
		t.Logf("describeTarget: %v on average, %v at worst (%d elements)", total/time.Duration(len(describeTimes)), worst, len(describeTimes))
	}
	t.Logf("first locator unique and right: %d/%d (%.0f%%); fallback survival after mutations: %d/%d (%.0f%%)",
		firstOK, len(locCases), 100*float64(firstOK)/float64(len(locCases)), survived, mutated, 100*float64(survived)/float64(max(mutated, 1)))
}

func describeLoc(l protocol.RankedLocator) string {
	s := l.Kind + " " + l.Value
	if l.Name != "" {
		s += " " + `"` + l.Name + `"`
	}
	if l.Exact {
		s += " (exact)"
	}
	return s
}

// TestFrameLocator: an iframe gets a locator its parent document matches
// with the runner's engine to that very iframe, also when it has no
// attribute to tell it apart; an element inside it keeps that frame path
// and its box is in the top frame's viewport.
func TestFrameLocator(t *testing.T) {
	p := testPage(t, "/frame.html")
	wid := world(t, p, "")
	mainDoc := object(t, p, wid, "document")
	for _, c := range []struct{ expr, want string }{
		{`document.querySelector('#payment')`, "css"},
		{`document.querySelector('iframe')`, "css"},
	} {
		iframe := object(t, p, wid, c.expr)
		fl, err := frameLocator(context.Background(), p, iframe)
		if err != nil {
			t.Fatal(err)
		}
		n, id, err := runner.Match(context.Background(), p, p.SessionID, mainDoc, fl)
		if err != nil || n != 1 || id != backend(t, p, iframe) {
			t.Fatalf("%s: frame locator %+v matches %d (%v)", c.expr, fl, n, err)
		}
		if fl.Kind != c.want {
			t.Errorf("%s: frame locator %+v, want kind %s", c.expr, fl, c.want)
		}
		t.Logf("%s: %s %q", c.expr, fl.Kind, fl.Value)
	}

	iframe := object(t, p, wid, `document.querySelector('#payment')`)
	fl, _ := frameLocator(context.Background(), p, iframe)
	inner := world(t, p, childFrame(t, p, "inner.html"))
	button := object(t, p, inner, `document.querySelector('button')`)
	target, el, err := describeTarget(context.Background(), p, button, []protocol.Locator{fl})
	if err != nil {
		t.Fatal(err)
	}
	if len(target.Frame) != 1 || target.Frame[0] != fl || len(el.Frame) != 1 {
		t.Errorf("frame path %+v / %+v, want [%+v]", target.Frame, el.Frame, fl)
	}
	top, err := p.Eval(`() => document.querySelector('#payment').getBoundingClientRect().top`)
	if err != nil {
		t.Fatal(err)
	}
	frameTop := top.Value.Num()
	if el.Box == nil || el.Box.Y < frameTop {
		t.Errorf("box %+v is not in the top viewport (the iframe starts at y=%v)", el.Box, frameTop)
	}
}

// TestPickerCandidates: a picked element lists its unique locators first
// and then the candidates that match several elements, with their counts
// in the live page, as the picker shows them.
func TestPickerCandidates(t *testing.T) {
	_, _, target, el := describeCase(t, nil, locCase{page: "/table.html", expr: `document.querySelectorAll('button')[2]`})
	seenOther := false
	for i, l := range target.Locators {
		if l.Matches != 1 {
			seenOther = true
		} else if seenOther {
			t.Errorf("unique locator %d (%s) after a non-unique one", i, describeLoc(l))
		}
		if l.Kind == "role" && l.Name == "Edit" && !l.Exact && l.Matches != 4 {
			t.Errorf("role button \"Edit\" matches %d, want 4", l.Matches)
		}
	}
	if !seenOther {
		t.Errorf("no non-unique candidate listed: %+v", target.Locators)
	}
	if el.Tag != "button" || el.Role != "button" || el.Name != "Edit" || el.Text != "Edit" || el.Attributes["class"] != "edit" {
		t.Errorf("element %+v", el)
	}
}

// TestHighlight: the highlight is one overlay element that no locator
// counts, labelled with the best unique locator, and goes away.
func TestHighlight(t *testing.T) {
	p := testPage(t, "/form.html")
	wid := world(t, p, "")
	doc := object(t, p, wid, "document")
	count := func(sel string) int {
		n, _, err := runner.Match(context.Background(), p, p.SessionID, doc, protocol.Locator{Kind: "css", Value: sel})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	divs, all := count("div"), count("*")
	res, err := proto.RuntimeEvaluate{ContextID: wid, ReturnByValue: true, Expression: `(() => {
  const el = document.querySelector('button');
  __taAuthor.highlight(el);
  __taAuthor.highlight(el);
  return [__taAuthor.bestLabel(el), document.querySelectorAll('ta-author-overlay').length,
    document.elementFromPoint(el.getBoundingClientRect().x + 2, el.getBoundingClientRect().y + 2) === el];
})()`}.Call(p)
	if err != nil || res.ExceptionDetails != nil {
		t.Fatal(err, res.ExceptionDetails)
	}
	got := res.Result.Value.Arr()
	if got[0].Str() != `role=button "Sign in"` || got[1].Int() != 1 || !got[2].Bool() {
		t.Errorf("label, overlays, click reaches the page = %v", got)
	}
	if count("div") != divs || count("*") != all+1 {
		t.Errorf("the overlay is counted: div %d→%d, * %d→%d", divs, count("div"), all, count("*"))
	}
	if n, _, _ := runner.Match(context.Background(), p, p.SessionID, doc, protocol.Locator{Kind: "text", Value: "Sign in"}); n != 2 {
		t.Errorf("text \"Sign in\" matches %d with the overlay shown, want 2 (heading and button)", n)
	}
	res, err = proto.RuntimeEvaluate{ContextID: wid, ReturnByValue: true, Expression: `__taAuthor.highlight(null), document.querySelectorAll('ta-author-overlay').length`}.Call(p)
	if err != nil || res.Result.Value.Int() != 0 {
		t.Errorf("the overlay stays: %v %v", err, res.Result.Value)
	}
}

// TestLargePage: on a table of 2,000 rows (10,000 elements), the picker's
// label and a verified target of a row's button come (in reasonable time:
// BenchmarkLargePage measures it), and the button still gets a unique
// locator.
func TestLargePage(t *testing.T) {
	label, target := largePageTarget(t)
	t.Logf("highlight label %q; target %s", label, describeLoc(target.Locators[0]))
	if target.Locators[0].Matches != 1 {
		t.Errorf("no unique locator: %+v", target.Locators)
	}
}

// BenchmarkLargePage: the picker's highlight and label plus a verified
// target of a row's button on the 2,000-row table (`make bench`).
func BenchmarkLargePage(b *testing.B) {
	for range b.N {
		largePageTarget(b)
	}
}

// largePageTarget highlights and labels the 1,235th button of big.html,
// as the picker does, and describes it as a verified target.
func largePageTarget(t testing.TB) (string, protocol.PickedTarget) {
	p := testPage(t, "/big.html")
	wid := world(t, p, "")
	obj := object(t, p, wid, `document.querySelectorAll('button')[1234]`)
	res, err := proto.RuntimeCallFunctionOn{ObjectID: obj, ReturnByValue: true,
		FunctionDeclaration: `function () { __taAuthor.highlight(this); return __taAuthor.bestLabel(this); }`}.Call(p)
	if err != nil || res.ExceptionDetails != nil {
		t.Fatal(err, res.ExceptionDetails)
	}
	target, _, err := describeTarget(context.Background(), p, obj, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Result.Value.Str(), target
}

// TestGeneratedNames: stable ids and classes become css candidates, the
// ones a framework generated (counters, hashes, React ids, CSS-modules and
// styled-components classes, state classes) do not.
func TestGeneratedNames(t *testing.T) {
	p := testPage(t, "/names.html")
	wid := world(t, p, "")
	for _, c := range []struct {
		i        int
		want     []string
		unwanted []string
	}{
		{0, []string{"#user-profile", "button.nav_items"}, []string{"kXyZab"}},
		{1, nil, []string{"radix", "Header_title", "sc-aXZVg"}},
		{2, []string{"button.btn-primary"}, []string{"12345", "is-active"}},
		{3, []string{"#step-2", "button.card"}, []string{"emotion-0"}},
	} {
		res, err := proto.RuntimeEvaluate{ContextID: wid, ReturnByValue: true,
			Expression: fmt.Sprintf(`__taAuthor.candidates(document.querySelectorAll('button')[%d]).filter(c => c.kind === 'css').map(c => c.value).join('\n')`, c.i)}.Call(p)
		if err != nil || res.ExceptionDetails != nil {
			t.Fatal(err, res.ExceptionDetails)
		}
		got := res.Result.Value.Str()
		for _, w := range c.want {
			if !slices.Contains(strings.Split(got, "\n"), w) {
				t.Errorf("button %d: no css %s in\n%s", c.i, w, got)
			}
		}
		for _, u := range c.unwanted {
			if strings.Contains(got, u) {
				t.Errorf("button %d: %s used in\n%s", c.i, u, got)
			}
		}
	}
}
