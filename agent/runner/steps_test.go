package runner

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

func typed(typ string, t *protocol.Target) protocol.Step { return protocol.Step{Type: typ, Target: t} }

// jsAssert is a script step that throws unless cond holds in the page.
func jsAssert(cond string) protocol.Step {
	return protocol.Step{Type: "script", Code: "if (!(" + cond + ")) throw new Error('not true: ' + " + quoteJS(cond) + ");"}
}

func quoteJS(s string) string { return "'" + strings.ReplaceAll(s, "'", "\\'") + "'" }

var out = css("#out")

// TestStepTypes runs every step type of the registry, and every locator
// kind, against the fixture site; each case must pass.
func TestStepTypes(t *testing.T) {
	cases := []struct {
		name  string
		vars  map[string]string
		steps []protocol.Step
	}{
		{"navigate and page assertions", nil, []protocol.Step{nav("/login.html"),
			{Type: "assertTitle", Expected: protocol.Ptr("Login"), Match: "equals"},
			{Type: "assertTitle", Expected: protocol.Ptr("Log")},
			{Type: "assertUrl", Expected: protocol.Ptr("/login.html")},
			{Type: "assertUrl", Expected: protocol.Ptr(`^http://127\.0\.0\.1:\d+/login\.html$`), Match: "regex"}}},
		{"navigate waits for a slow page", nil, []protocol.Step{nav("/slow"), textIs(css("#slow"), "equals", "Slow page")}},
		{"navigate relative to baseUrl", map[string]string{"baseUrl": site.URL}, []protocol.Step{
			{Type: "navigate", URL: "login.html"}, {Type: "assertTitle", Expected: protocol.Ptr("Login")}}},
		{"sign in: fill, click by role, title and url change", nil, []protocol.Step{nav("/login.html"),
			fillStep(tgt(loc("label", "Email")), "ann@example.com"),
			fillStep(tgt(loc("placeholder", "Password")), "pw"),
			click(tgt(role("button", "Sign in"))),
			textIs(tgt(loc("testId", "greeting")), "", "Welcome, ann@example.com"),
			{Type: "assertTitle", Expected: protocol.Ptr("Welcome"), Match: "equals"},
			{Type: "assertUrl", Expected: protocol.Ptr("/welcome?user=ann%40example.com")}}},
		{"fill replaces content of inputs, textareas and contenteditables", nil, []protocol.Step{nav("/login.html"),
			fillStep(tgt(loc("testId", "email")), "first"), fillStep(tgt(loc("testId", "email")), "second"),
			valueIs(css("#email"), "second"),
			fillStep(tgt(loc("placeholder", "Notes")), "new notes"), valueIs(css("#notes"), "new notes"),
			fillStep(tgt(loc("testId", "editor")), "new text"), textIs(css("#editor"), "equals", "new text"),
			fillStep(tgt(loc("label", "When")), "2024-05-06"), valueIs(css("#when"), "2024-05-06"),
			fillStep(css("#qty"), "12"), fillStep(css("#qty"), "3"), valueIs(css("#qty"), "3"),
			fillStep(css("#notes"), ""), valueIs(css("#notes"), "")}},
		{"labels: for, wrapping, aria-label, aria-labelledby", nil, []protocol.Step{nav("/login.html"),
			fillStep(tgt(loc("label", "password")), "secret-ish"), valueIs(css("#password"), "secret-ish"),
			fillStep(tgt(loc("label", "Search")), "query"), valueIs(css("#search"), "query"),
			fillStep(tgt(loc("label", "Quantity")), "3"), valueIs(css("#qty"), "3")}},
		{"alt, title, text, xpath and exact text locators", nil, []protocol.Step{nav("/login.html"),
			typed("assertVisible", tgt(loc("alt", "company LOGO"))),
			typed("assertVisible", tgt(loc("title", "Help text"))),
			click(tgt(loc("text", "remember me"))), jsAssert("document.getElementById('remember').checked"),
			typed("assertVisible", tgt(protocol.Locator{Kind: "text", Value: "Quantity", Exact: true})),
			typed("assertVisible", tgt(loc("xpath", `//button[@data-testid="submit"]`))),
			typed("assertVisible", tgt(role("img", "Company logo"))),
			typed("assertVisible", tgt(role("heading", "sign"))),
			typed("assertVisible", tgt(role("textbox", "Email")))}},
		{"a text locator waits for the element, not a script's source", nil, []protocol.Step{nav("/late.html"),
			click(tgt(loc("text", "Quarterly numbers"))), textIs(out, "equals", "clicked")}},
		{"press keys", nil, []protocol.Step{nav("/login.html"),
			fillStep(css("#keys"), "hello"),
			{Type: "press", Key: "Control+A", Target: css("#keys")},
			{Type: "press", Key: "Backspace"},
			valueIs(css("#keys"), ""),
			{Type: "press", Key: "Shift+a"}, {Type: "press", Key: "ArrowDown"}, {Type: "press", Key: "Tab"},
			textIs(css("#keylog"), "contains", "[Shift+A][ArrowDown][Tab]"),
			valueIs(css("#keys"), "A"),
			fillStep(css("#email"), "enter@example.com"),
			{Type: "press", Key: "Enter", Target: css("#email")},
			textIs(css("#greeting"), "", "Welcome, enter@example.com")}},
		{"select by value and by label", nil, []protocol.Step{nav("/widgets.html"),
			{Type: "select", Target: tgt(role("combobox", "Color")), Value: protocol.Ptr("g")},
			textIs(out, "", "color=g;"),
			{Type: "select", Target: css("#color"), Value: protocol.Ptr("Blue")},
			valueIs(css("#color"), "b")}},
		{"check and uncheck are idempotent", nil, []protocol.Step{nav("/widgets.html"),
			typed("check", tgt(loc("label", "Agree"))), typed("check", css("#agree")),
			jsAssert("document.getElementById('agree').checked"),
			typed("uncheck", css("#news")), typed("uncheck", css("#news")),
			jsAssert("!document.getElementById('news').checked"),
			typed("check", tgt(role("radio", "Large"))), jsAssert("document.getElementById('large').checked"),
			typed("check", css("#aria-box")), jsAssert("document.getElementById('aria-box').getAttribute('aria-checked') === 'true'")}},
		{"click waits: disabled, moving, covered, below the fold", nil, []protocol.Step{nav("/widgets.html"),
			click(css("#delayed")), click(css("#mover")), click(css("#covered")), click(css("#bottom")),
			textIs(out, "equals", "delayed clicked;mover clicked;covered clicked;bottom clicked;")}},
		{"hover and dblclick", nil, []protocol.Step{nav("/widgets.html"),
			typed("hover", css("#hover-target")), typed("dblclick", tgt(loc("text", "Double"))),
			textIs(out, "", "hovered;"), textIs(out, "", "double clicked;")}},
		{"visibility assertions and waitFor states", nil, []protocol.Step{nav("/widgets.html"),
			typed("assertVisible", css("#late")), typed("assertHidden", css("#hidden")),
			typed("assertHidden", css("#nothing-here")),
			{Type: "waitFor", Target: css("#vanish"), State: "detached"},
			{Type: "waitFor", Target: css("#late"), State: "attached"},
			{Type: "waitFor", Target: css("#hidden"), State: "hidden"},
			{Type: "waitFor", Target: css("#late")}}},
		{"wait", nil, []protocol.Step{{Type: "wait", Ms: protocol.Ptr(50)}, {Type: "wait", Ms: protocol.Ptr(0)}}},
		{"setVariable from a value and from text, then interpolation", map[string]string{"who": "env-user"}, []protocol.Step{
			nav("/login.html"),
			fillStep(css("#email"), "${who}"), valueIs(css("#email"), "env-user"),
			{Type: "setVariable", Name: "who", Value: protocol.Ptr("set-user")},
			fillStep(css("#email"), "${who}@example.com"), click(css("button[type=submit]")),
			{Type: "setVariable", Name: "greet", Target: css("#greeting")},
			fillStep(css("#notes"), "${greet}!"), valueIs(css("#notes"), "Welcome, set-user@example.com!")}},
		{"script with references and assign", map[string]string{"n": "20"}, []protocol.Step{nav("/login.html"),
			{Type: "script", Code: "return Number(${n}) + 1", Assign: "sum"},
			{Type: "script", Code: "document.getElementById('notes').value = ${sum} + '|' + typeof ${sum}; return {a: [1, 'x']}", Assign: "obj"},
			valueIs(css("#notes"), "21|number"), // a script's number reaches the next script as a number
			fillStep(css("#search"), "${obj}"), valueIs(css("#search"), `{"a":[1,"x"]}`),
			{Type: "script", Code: "return new Promise(r => setTimeout(() => r(document.title), 10))", Assign: "title"},
			fillStep(css("#search"), "${title}"), valueIs(css("#search"), "Login")}},
		{"screenshots of the page and of an element", nil, []protocol.Step{nav("/login.html"),
			{Type: "screenshot", Name: "login page"}, {Type: "screenshot", FullPage: true},
			{Type: "screenshot", Name: "logo.png", Target: tgt(loc("alt", "Company logo"))}}},
		{"assertions, log and request of issue 28 (asserts_test.go, request_test.go)", nil, []protocol.Step{nav("/asserts.html"),
			checked(css("#agree"), nil), {Type: "assertEnabled", Target: css("#ok-btn")}, {Type: "assertEditable", Target: css("#ed")},
			attrIs(css("#home"), "href", "equals", "/home", false), countIs(css("li.item"), 4),
			{Type: "assertSelected", Target: css("#size"), Expected: protocol.Ptr("Large")},
			{Type: "request", URL: siteURL("/login.html"), ExpectStatus: 200, Assign: "page"}, varIs("page.status", "equals", "200"),
			{Type: "log", Message: "status ${page.status}"}}},
	}
	cases = append(cases, actionStepCases()...)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
			defer cancel()
			res, _ := runJob(t, ctx, protocol.Job{Version: 1, Document: document(t, tc.steps...), Variables: tc.vars})
			mustPass(t, res)
		})
	}
	t.Run("covers the registry", func(t *testing.T) {
		used := map[string]bool{}
		for _, tc := range cases {
			for _, st := range tc.steps {
				used[st.Type] = true
			}
		}
		used["callComponent"] = true // TestStepErrors: not supported yet
		used["upload"] = true        // TestUploadStep: it needs a file fetcher
		for _, st := range protocol.Registry() {
			if protocol.IsBlock(st.Type) {
				continue // TestBlocksRun: blocks are run by flow.go, not by a step function
			}
			if !used[st.Type] {
				t.Errorf("no test runs a %s step", st.Type)
			}
			if stepFuncs[st.Type] == nil {
				t.Errorf("the runner cannot run %s steps", st.Type)
			}
		}
	})
}

// closedURL is the address of a port nothing listens on.
func closedURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/"
}

// TestStepErrors checks that failing steps say why, and that failures
// waiting cannot fix fail at once.
func TestStepErrors(t *testing.T) {
	cases := []struct {
		name    string
		steps   []protocol.Step
		want    string
		quickly bool // fails before its timeout: a permanent error
	}{
		{"relative url without baseUrl", []protocol.Step{{Type: "navigate", URL: "/login.html"}},
			`the url "/login.html" is not absolute after interpolation`, true},
		{"unreachable page", []protocol.Step{{Type: "navigate", URL: closedURL(t)}}, "net::ERR_CONNECTION_REFUSED", true},
		{"callComponent", []protocol.Step{{Type: "callComponent", Component: "cmp_aaaaaaaaaaaaaaaa"}},
			"components are not supported by this agent yet", true},
		{"unknown variable", []protocol.Step{nav("/login.html"), fillStep(css("#email"), "${nope}")}, "unknown variable ${nope}", true},
		{"unknown secret", []protocol.Step{nav("/login.html"), fillStep(css("#email"), "${secrets.NOPE}")},
			"unknown secret ${secrets.NOPE}", true},
		{"ambiguous locator", []protocol.Step{nav("/widgets.html"), short(click(tgt(loc("text", "Same"))), 1000)},
			`text "Same" matches 2 elements`, false},
		{"missing element", []protocol.Step{nav("/widgets.html"), short(click(css("#missing")), 1000)},
			`timed out after 1s: no element matches css "#missing"`, false},
		{"invalid css", []protocol.Step{nav("/widgets.html"), click(css("button[["))}, `invalid css "button[["`, true},
		{"text mismatch", []protocol.Step{nav("/login.html"), short(textIs(css("h1"), "equals", "Log in"), 1000)},
			`expected the text to equal "Log in", but it is "Sign in"`, false},
		{"fill a checkbox", []protocol.Step{nav("/widgets.html"), fillStep(css("#agree"), "x")},
			`cannot fill an input of type "checkbox"`, true},
		{"fill a read-only input", []protocol.Step{nav("/login.html"), short(fillStep(css("#fixed"), "x"), 1000)},
			"the element is not editable (read-only)", false},
		{"uncheck a radio", []protocol.Step{nav("/widgets.html"), typed("check", css("#small")), typed("uncheck", css("#small"))},
			"cannot uncheck a radio button", true},
		{"invalid regex", []protocol.Step{nav("/login.html"), {Type: "setVariable", Name: "re", Value: protocol.Ptr("(")},
			textIs(css("h1"), "regex", "${re}")}, "invalid regular expression", true},
		{"unknown key", []protocol.Step{nav("/login.html"), {Type: "press", Key: "Hyper+Q"}}, `unknown modifier "Hyper"`, true},
		{"missing option", []protocol.Step{nav("/widgets.html"), short(protocol.Step{Type: "select", Target: css("#color"), Value: protocol.Ptr("Purple")}, 1000)},
			`the select has no option with value or label "Purple"`, false},
		{"script throws", []protocol.Step{nav("/login.html"), {Type: "script", Code: "throw new Error('boom')"}},
			"the script threw: Error: boom", true},
		{"hidden element", []protocol.Step{nav("/widgets.html"), short(typed("assertVisible", css("#hidden")), 1000)},
			"expected the element to be visible, but it is hidden", false},
		{"element outside an iframe", []protocol.Step{nav("/frame.html"),
			click(&protocol.Target{Locators: []protocol.Locator{loc("css", "#inner-btn")}, Frame: []protocol.Locator{loc("css", "p")}})},
			`frame: css "p" matches a <p>, not an iframe`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			res, rec := runSteps(t, tc.steps...)
			if res.Status != protocol.RunFailed {
				t.Fatalf("status %s, want failed (%s)", res.Status, res.Error)
			}
			last := res.Steps[len(res.Steps)-1]
			if last.Status != protocol.StepFailed || !strings.Contains(last.Error, tc.want) {
				t.Fatalf("last step %s: %q, want failed with %q", last.Status, last.Error, tc.want)
			}
			if !strings.Contains(res.Error, tc.want) {
				t.Errorf("run error %q does not contain %q", res.Error, tc.want)
			}
			if tc.quickly {
				if d := time.Since(start); d > 5*time.Second {
					t.Errorf("a permanent failure took %s", d)
				}
				if n := len(rec.ofKind(protocol.StepRetry)); n > 0 {
					t.Errorf("a permanent failure was retried %d times", n)
				}
			}
		})
	}
}
