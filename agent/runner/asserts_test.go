package runner

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

// The assertions, variables and options of issue 28, against
// testdata/site/asserts.html: the page changes 300 ms after it loads, so
// each assertion on the changed state proves it waits.

func checked(t *protocol.Target, want *bool) protocol.Step {
	return protocol.Step{Type: "assertChecked", Target: t, Checked: want}
}

func attrIs(t *protocol.Target, name, match, want string, not bool) protocol.Step {
	return protocol.Step{Type: "assertAttribute", Target: t, Name: name, Expected: protocol.Ptr(want), Match: match, Not: not}
}

func countIs(t *protocol.Target, n int) protocol.Step {
	return protocol.Step{Type: "assertCount", Target: t, Count: protocol.Ptr(n)}
}

func varIs(name, match, want string) protocol.Step {
	return protocol.Step{Type: "assertVariable", Name: name, Expected: protocol.Ptr(want), Match: match}
}

func from(name, src string, t *protocol.Target) protocol.Step {
	return protocol.Step{Type: "setVariable", Name: name, From: src, Target: t}
}

func TestNewAssertionsPass(t *testing.T) {
	t.Parallel()
	no := protocol.Ptr(false)
	cases := []struct {
		name  string
		steps []protocol.Step
	}{
		{"assertChecked", []protocol.Step{checked(css("#agree"), nil), checked(css("#news"), no),
			checked(css("#late-check"), protocol.Ptr(true)), checked(tgt(loc("label", "Agree")), nil)}},
		{"assertEnabled", []protocol.Step{{Type: "assertEnabled", Target: css("#later-btn")},
			{Type: "assertEnabled", Target: css("#dis"), Enabled: no}, {Type: "assertEnabled", Target: css("#plain")}}},
		{"assertEditable", []protocol.Step{{Type: "assertEditable", Target: css("#ed")},
			{Type: "assertEditable", Target: css("#dis"), Editable: no},
			{Type: "assertEditable", Target: css("#aria-ro"), Editable: no},
			{Type: "assertEditable", Target: css("#ro")}}}, // its readonly goes away
		{"assertAttribute", []protocol.Step{attrIs(css("#home"), "href", "equals", "/home", false),
			attrIs(css("#home"), "data-state", "equals", "open", false),
			attrIs(css("#home"), "data-state", "equals", "closed", true),
			attrIs(css("#home"), "title", "contains", "x", true), // no such attribute: not x
			attrIs(css("#home"), "href", "regex", `^/h\w+$`, false),
			attrIs(css("#home"), "style", "equals", "color: blue;", false)}}, // as WebDriver reads it
		{"assertCount waits, counts 0, and heals", []protocol.Step{countIs(css("li.item"), 4),
			countIs(css(".nothing"), 0), countIs(tgt(loc("css", ".missing"), loc("css", "li.item")), 4),
			countIs(tgt(role("listitem", "")), 4), countIs(css("#msg"), 1)}},
		{"assertSelected", []protocol.Step{{Type: "assertSelected", Target: css("#size"), Expected: protocol.Ptr("Large")},
			{Type: "assertSelected", Target: tgt(loc("label", "Size")), Expected: protocol.Ptr("l"), By: "value"},
			{Type: "assertSelected", Target: css("#many"), Expected: protocol.Ptr("Apple, Cherry")}}},
		{"not on text, value, title and url", []protocol.Step{
			{Type: "assertText", Target: css("#msg"), Expected: protocol.Ptr("Hello"), Not: true},
			{Type: "assertValue", Target: css("#ed"), Expected: protocol.Ptr("other"), Match: "equals", Not: true},
			{Type: "assertTitle", Expected: protocol.Ptr("Asserts"), Match: "equals", Not: true},
			{Type: "assertUrl", Expected: protocol.Ptr("/nope"), Not: true}}},
		{"waitFor enabled, disabled, editable, readonly", []protocol.Step{
			{Type: "waitFor", Target: css("#later-btn"), State: "enabled"},
			{Type: "waitFor", Target: css("#dis"), State: "disabled"},
			{Type: "waitFor", Target: css("#ro"), State: "editable"},
			{Type: "waitFor", Target: css("#aria-ro"), State: "readonly"},
			{Type: "waitFor", Target: css("#dis"), State: "readonly"}}},
		{"setVariable from, then assertVariable", []protocol.Step{
			textIs(css("#msg"), "equals", "Goodbye world"),
			from("text", "text", css("#msg")), varIs("text", "equals", "Goodbye world"),
			from("value", "value", css("#ed")), varIs("value", "equals", "typed"),
			{Type: "setVariable", Name: "href", From: "attribute", Attribute: "href", Target: css("#home")}, varIs("href", "equals", "/home"),
			from("count", "count", css("li.item")), varIs("count", "equals", "4"),
			from("title", "title", nil), varIs("title", "equals", "Asserts done"),
			from("url", "url", nil), varIs("url", "regex", `/asserts\.html$`),
			from("size", "selectedLabel", css("#size")), varIs("size", "equals", "Large"),
			{Type: "setVariable", Name: "plain", Target: css("#plain")}, varIs("plain", "", "Pla"),
			varIs("plain", "regex", "^P"),
			fillStep(css("#ed"), "${count} items, ${size}"), valueIs(css("#ed"), "4 items, Large")}},
		{"script awaits", []protocol.Step{
			{Type: "script", Code: "await new Promise(r => setTimeout(r, 20));\nreturn document.title", Assign: "t"},
			{Type: "script", Code: "const n = await Promise.resolve(Number(${count}));\nreturn n + 1", Assign: "n"},
			varIs("n", "equals", "5"),
			{Type: "script", Code: "await null"},
			{Type: "script", Code: "return (async () => 'inner')()", Assign: "inner"}, varIs("inner", "equals", "inner")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			steps := append([]protocol.Step{nav("/asserts.html")}, c.steps...)
			if c.name == "script awaits" {
				steps = append([]protocol.Step{nav("/asserts.html"), {Type: "setVariable", Name: "count", Value: protocol.Ptr("4")}}, c.steps...)
			}
			res, rec := runSteps(t, steps...)
			mustPass(t, res)
			if c.name == "assertCount waits, counts 0, and heals" {
				if h := res.Steps[3].HealedBy; h == nil || h.Value != "li.item" {
					t.Errorf("the count by a fallback locator is not reported healed: %+v", res.Steps[3])
				}
				if !slices.ContainsFunc(rec.logs(), func(m string) bool {
					return strings.Contains(m, `the first locator, css ".missing", matches no element`)
				}) {
					t.Errorf("no healing log: %q", rec.logs())
				}
			}
			if c.name == "script awaits" {
				if u := res.Steps[2].Used; u["result"] != "Asserts done" && u["result"] != "Asserts" {
					t.Errorf("awaited result %+v", u)
				}
			}
		})
	}
}

// Each new assertion fails with a message that says what it expected and
// what it found; "not" says "not".
func TestNewAssertionsFail(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		step protocol.Step
		want string
	}{
		{"checked", checked(css("#news"), nil), "timed out after 800ms: expected the element to be checked, but it is not checked"},
		{"unchecked", checked(css("#agree"), protocol.Ptr(false)), "expected the element to be not checked, but it is checked"},
		{"not a checkbox", checked(css("#plain"), nil), "the element is not a checkbox or a radio button"},
		{"enabled", protocol.Step{Type: "assertEnabled", Target: css("#dis")}, "expected the element to be enabled, but it is disabled"},
		{"disabled", protocol.Step{Type: "assertEnabled", Target: css("#ok-btn"), Enabled: protocol.Ptr(false)}, "expected the element to be disabled, but it is enabled"},
		{"editable", protocol.Step{Type: "assertEditable", Target: css("#aria-ro")}, "expected the element to be editable, but it is read-only (not editable)"},
		{"editable of a div", protocol.Step{Type: "assertEditable", Target: css("#plain")}, "the element is not an <input>, <textarea>, <select> or [contenteditable] element"},
		{"attribute", attrIs(css("#home"), "href", "equals", "/away", false), `expected the attribute "href" to equal "/away", but it is "/home"`},
		{"no attribute", attrIs(css("#home"), "title", "equals", "x", false), `expected the attribute "title" to equal "x", but the element has no such attribute`},
		{"not attribute", attrIs(css("#home"), "href", "contains", "home", true), `expected the attribute "href" not to contain "home", but it is "/home"`},
		{"not text", protocol.Step{Type: "assertText", Target: css("#plain"), Expected: protocol.Ptr("Plain"), Match: "equals", Not: true}, `expected the text not to equal "Plain", but it is "Plain"`},
		{"not title", protocol.Step{Type: "assertTitle", Expected: protocol.Ptr("Asserts"), Not: true}, `expected the title not to contain "Asserts", but it is "Asserts done"`},
		{"count", countIs(css("li.item"), 2), "expected 2 elements to match, but 4 do"},
		{"count none", countIs(css(".nothing"), 1), "expected 1 element to match, but none does"},
		{"selected", protocol.Step{Type: "assertSelected", Target: css("#size"), Expected: protocol.Ptr("Small")}, `expected the selected option's label to equal "Small", but it is "Large"`},
		{"selected of a div", protocol.Step{Type: "assertSelected", Target: css("#plain"), Expected: protocol.Ptr("x")}, "the element is not a <select>"},
		{"variable", varIs("who", "equals", "bob"), `expected the variable who to equal "bob", but it is "ann"`},
		{"variable field", varIs("who.name", "equals", "bob"), "${who.name}: the variable who does not hold JSON, so it has no fields"},
		{"unknown variable", varIs("nobody", "equals", "bob"), "unknown variable ${nobody}"},
		{"waitFor enabled", protocol.Step{Type: "waitFor", Target: css("#dis"), State: "enabled"}, "expected the element to be enabled, but it is disabled"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			settled := textIs(css("#msg"), "equals", "Goodbye world")
			res, _ := runSteps(t, nav("/asserts.html"), settled, protocol.Step{Type: "setVariable", Name: "who", Value: protocol.Ptr("ann")}, short(c.step, 800))
			if res.Status != protocol.RunFailed || res.Steps[3].Status != protocol.StepFailed {
				t.Fatalf("run %s, steps %+v", res.Status, res.Steps)
			}
			if got := res.Steps[3].Error; !strings.Contains(got, c.want) {
				t.Errorf("error %q, want it to contain %q", got, c.want)
			}
		})
	}
}

// A soft assertion that fails is recorded on its step and the run goes on;
// the run ends failed, naming it.
func TestSoftAssertion(t *testing.T) {
	t.Parallel()
	soft := func(st protocol.Step) protocol.Step { st.Soft = true; return st }
	res, rec := runSteps(t, nav("/asserts.html"),
		soft(short(textIs(css("#plain"), "equals", "Not plain"), 500)),
		fillStep(css("#ed"), "went on"),
		soft(short(countIs(css("li.item"), 9), 500)),
		soft(checked(css("#agree"), nil)), // holds
		valueIs(css("#ed"), "went on"))
	if res.Status != protocol.RunFailed || res.Passed != 4 || len(res.Steps) != 6 {
		t.Fatalf("run %s passed %d: %+v", res.Status, res.Passed, res.Steps)
	}
	want := []string{protocol.StepPassed, protocol.StepFailed, protocol.StepPassed, protocol.StepFailed, protocol.StepPassed, protocol.StepPassed}
	for i, s := range res.Steps {
		if s.Status != want[i] {
			t.Errorf("step %d %s, want %s (%s)", i+1, s.Status, want[i], s.Error)
		}
	}
	if !strings.HasPrefix(res.Error, `step 2 (s2, assertText) failed: timed out after 500ms: expected the text to equal "Not plain"`) ||
		!strings.HasSuffix(res.Error, "(and 1 more soft assertions failed)") {
		t.Errorf("run error %q", res.Error)
	}
	kinds := rec.kinds()
	if k := kinds[len(kinds)-1]; k != "run.finished:failed" {
		t.Errorf("last event %s", k)
	}
	if !slices.Contains(kinds, "step.finished[5]:passed") {
		t.Errorf("the steps after the soft failures did not run: %v", kinds)
	}
	// soft is for assertions: a failing action still stops the run.
	res, _ = runSteps(t, nav("/asserts.html"), func() protocol.Step { s := short(click(css("#nothing")), 300); return s }(), valueIs(css("#ed"), "typed"))
	if res.Status != protocol.RunFailed || res.Steps[2].Status != protocol.StepSkipped {
		t.Errorf("after a failed action: %s %+v", res.Status, res.Steps)
	}
}

// log shows its interpolated message on the step, secrets masked.
func TestLogStep(t *testing.T) {
	t.Parallel()
	const secret = "s3cr3t-log-value"
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	doc := document(t, protocol.Step{Type: "setVariable", Name: "who", Value: protocol.Ptr("ann")},
		protocol.Step{Type: "log", Message: "hello ${who}, the key is ${secrets.KEY}"})
	res, rec := runJob(t, ctx, protocol.Job{Version: 1, Document: doc, Secrets: map[string]string{"KEY": secret}})
	mustPass(t, res)
	if got := res.Steps[1].Used["message"]; got != "hello ann, the key is ***" {
		t.Errorf("message %q", got)
	}
	fin := rec.ofKind(protocol.StepFinished)[1]
	if fin.Used["message"] != "hello ann, the key is ***" {
		t.Errorf("step.finished used %+v", fin.Used)
	}
	b, _ := json.Marshal(rec.events)
	if strings.Contains(string(b), secret) {
		t.Errorf("the secret leaked into the events")
	}
}

func TestFieldLookup(t *testing.T) {
	t.Parallel()
	v := `{"status":201,"body":{"items":[{"id":7,"big":12345678901234567890,"name":"x"}],"ok":true,"none":null}}`
	for path, want := range map[string]string{"status": "201", "body.items.0.id": "7", "body.items.0.name": "x",
		"body.ok": "true", "body.none": "", "body.items.0.big": "12345678901234567890", "body.items": `[{"big":12345678901234567890,"id":7,"name":"x"}]`} {
		if got, err := field("r", v, path); err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", path, got, err, want)
		}
	}
	for path, want := range map[string]string{
		"body.nope":        `${r.body.nope}: r.body has no field "nope" (it has items, none, ok)`,
		"body.items.3.id":  `${r.body.items.3.id}: r.body.items is a list of 1 items, and "3" is not an index of it (0 to 0)`,
		"status.x":         `${r.status.x}: r.status is a number, which has no field "x"`,
		"body.items.first": `"first" is not an index`,
	} {
		if _, err := field("r", v, path); err == nil || !strings.Contains(err.Error(), want) || !isPermanent(err) {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
	}
	if _, err := field("r", "plain text", "a"); err == nil || !strings.Contains(err.Error(), `the variable r does not hold JSON`) {
		t.Errorf("text: %v", err)
	}
}

// A value a script returned reaches a later script as that value, not
// its JSON text, as Selenium IDE's stored values do (its executescript
// example: return ${list}[0] + 2); a value set as text stays text.
func TestScriptValuesKeepTheirType(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	doc := document(t,
		protocol.Step{Type: "script", Code: "return [1, 2, 3]", Assign: "list"},
		protocol.Step{Type: "script", Code: "return ${list}[0] + 2", Assign: "sum"},
		protocol.Step{Type: "script", Code: "return {a: {b: 'deep'}}", Assign: "obj"},
		protocol.Step{Type: "script", Code: "return ${obj}.a.b + ' ' + typeof ${sum}", Assign: "out"},
		protocol.Step{Type: "setVariable", Name: "list", Value: protocol.Ptr("[9]")},
		protocol.Step{Type: "script", Code: "return typeof ${list}", Assign: "kind"},
		protocol.Step{Type: "assertVariable", Name: "sum", Expected: protocol.Ptr("3"), Match: "equals"},
		protocol.Step{Type: "assertVariable", Name: "out", Expected: protocol.Ptr("deep number"), Match: "equals"},
		protocol.Step{Type: "assertVariable", Name: "kind", Expected: protocol.Ptr("string"), Match: "equals"})
	res, _ := runJob(t, ctx, protocol.Job{Version: 1, Document: doc})
	mustPass(t, res)
}
