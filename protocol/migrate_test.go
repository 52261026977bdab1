package protocol

import (
	"encoding/json"
	"reflect"
	"testing"
)

func css(v string) []Locator { return []Locator{{Kind: "css", Value: v}} }

func TestSeleniumLocators(t *testing.T) {
	tests := []struct {
		in   string
		want Locator
	}{
		{"id=email", Locator{Kind: "css", Value: "#email"}},
		{"id=user.name:1", Locator{Kind: "css", Value: `#user\.name\:1`}},
		{"id=1st", Locator{Kind: "css", Value: `#\31 st`}},
		{"id=-2", Locator{Kind: "css", Value: `#-\32 `}},
		{"id=a b", Locator{Kind: "css", Value: `#a\ b`}},
		{"id=${field}-x", Locator{Kind: "css", Value: "#${field}-x"}},
		{"name=q", Locator{Kind: "css", Value: `[name="q"]`}},
		{`name=say "hi"\`, Locator{Kind: "css", Value: `[name="say \"hi\"\\"]`}},
		{"identifier=q", Locator{Kind: "css", Value: `#q, [name="q"]`}},
		{"css=div > a.b", Locator{Kind: "css", Value: "div > a.b"}},
		{"xpath=//a[@x='1']", Locator{Kind: "xpath", Value: "//a[@x='1']"}},
		{"//div/a", Locator{Kind: "xpath", Value: "//div/a"}},
		{"(//a)[2]", Locator{Kind: "xpath", Value: "(//a)[2]"}},
		{"link=Sign in", Locator{Kind: "role", Value: "link", Name: "Sign in", Exact: true}},
		{"linkText=Sign in", Locator{Kind: "text", Value: "Sign in", Exact: true}},
		{"partialLinkText=Sign", Locator{Kind: "text", Value: "Sign"}},
		{"#plain.css", Locator{Kind: "css", Value: "#plain.css"}},
		{"input[name=q]", Locator{Kind: "css", Value: "input[name=q]"}},
		{"  css=a  ", Locator{Kind: "css", Value: "a"}},
	}
	for _, tc := range tests {
		got, err := ParseSeleniumLocator(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("%q: got %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "  ", "dom=document.forms[0]", "id=", "css= "} {
		if _, err := ParseSeleniumLocator(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// v1 parses a version 1 document with the given steps.
func v1(t *testing.T, steps string) (Document, []Issue) {
	t.Helper()
	doc, from, issues := Parse([]byte(`{"version": 1, "name": "Legacy", "steps": [` + steps + `]}`))
	if from != 1 {
		t.Fatalf("from = %d", from)
	}
	return doc, issues
}

func TestMigrateCommands(t *testing.T) {
	tgt := func(css string) *Target { return &Target{Locators: []Locator{{Kind: "css", Value: css}}} }
	tests := []struct {
		cmd  string
		want []Step
	}{
		{`{"command":"open","target":"/login"}`, []Step{{Type: "navigate", URL: "/login"}}},
		{`{"command":"open","target":"","value":"https://x.test/"}`, []Step{{Type: "navigate", URL: "https://x.test/"}}},
		{`{"command":"click","target":"id=go","value":""}`, []Step{{Type: "click", Target: tgt("#go")}}},
		{`{"command":"clickAndWait","target":"css=.go"}`, []Step{{Type: "click", Target: tgt(".go")}}},
		{`{"command":"clickAt","target":"css=.go","value":"10,10"}`, []Step{{Type: "click", Target: tgt(".go"), Position: &Position{X: 10, Y: 10}}}},
		{`{"command":"doubleClick","target":"css=.row"}`, []Step{{Type: "dblclick", Target: tgt(".row")}}},
		{`{"command":"type","target":"name=q","value":"shoes"}`, []Step{{Type: "fill", Target: tgt(`[name="q"]`), Value: Ptr("shoes")}}},
		{`{"command":"type","target":"name=q"}`, []Step{{Type: "fill", Target: tgt(`[name="q"]`), Value: Ptr("")}}},
		{`{"command":"sendKeys","target":"id=q","value":"${KEY_ENTER}"}`, []Step{{Type: "press", Target: tgt("#q"), Key: "Enter"}}},
		{`{"command":"sendKeys","target":"id=q","value":"a${KEY_TAB}${KEY_PAGE_DOWN}"}`, []Step{
			{Type: "press", Target: tgt("#q"), Key: "a"}, {Type: "press", Target: tgt("#q"), Key: "Tab"},
			{Type: "press", Target: tgt("#q"), Key: "PageDown"}}},
		{`{"command":"select","target":"id=c","value":"label=Belgium"}`, []Step{{Type: "select", Target: tgt("#c"), Value: Ptr("Belgium")}}},
		{`{"command":"select","target":"id=c","value":"value=be"}`, []Step{{Type: "select", Target: tgt("#c"), Value: Ptr("be")}}},
		{`{"command":"select","target":"id=c","value":"Belgium"}`, []Step{{Type: "select", Target: tgt("#c"), Value: Ptr("Belgium")}}},
		{`{"command":"check","target":"id=t"}`, []Step{{Type: "check", Target: tgt("#t")}}},
		{`{"command":"uncheck","target":"id=t"}`, []Step{{Type: "uncheck", Target: tgt("#t")}}},
		{`{"command":"mouseOver","target":"id=m"}`, []Step{{Type: "hover", Target: tgt("#m")}}},
		{`{"command":"assertText","target":"css=h1","value":"Hi"}`, []Step{{Type: "assertText", Target: tgt("h1"), Expected: Ptr("Hi"), Match: "equals"}}},
		{`{"command":"verifyText","target":"css=h1","value":"Hi"}`, []Step{{Type: "assertText", Target: tgt("h1"), Expected: Ptr("Hi"), Match: "equals", Soft: true}}},
		{`{"command":"assertTitle","target":"Home"}`, []Step{{Type: "assertTitle", Expected: Ptr("Home"), Match: "equals"}}},
		{`{"command":"verifyTitle","target":"","value":"Home"}`, []Step{{Type: "assertTitle", Expected: Ptr("Home"), Match: "equals", Soft: true}}},
		{`{"command":"assertElementPresent","target":"css=.ok"}`, []Step{{Type: "waitFor", Target: tgt(".ok"), State: "attached"}}},
		{`{"command":"verifyElementPresent","target":"css=.ok"}`, []Step{{Type: "waitFor", Target: tgt(".ok"), State: "attached"}}},
		{`{"command":"assertElementNotPresent","target":"css=.err"}`, []Step{{Type: "assertCount", Target: tgt(".err"), Count: Ptr(0)}}},
		{`{"command":"verifyElementNotPresent","target":"css=.err"}`, []Step{{Type: "assertCount", Target: tgt(".err"), Count: Ptr(0), Soft: true}}},
		{`{"command":"assertValue","target":"id=q","value":"x"}`, []Step{{Type: "assertValue", Target: tgt("#q"), Expected: Ptr("x"), Match: "equals"}}},
		{`{"command":"verifyValue","target":"id=q","value":""}`, []Step{{Type: "assertValue", Target: tgt("#q"), Expected: Ptr(""), Match: "equals", Soft: true}}},
		{`{"command":"waitForElementVisible","target":"id=l","value":"5000"}`, []Step{{Type: "waitFor", Target: tgt("#l"), State: "visible", TimeoutMs: 5000}}},
		{`{"command":"waitForElementPresent","target":"id=l"}`, []Step{{Type: "waitFor", Target: tgt("#l"), State: "attached"}}},
		{`{"command":"waitForElementNotVisible","target":"id=l"}`, []Step{{Type: "waitFor", Target: tgt("#l"), State: "hidden"}}},
		{`{"command":"pause","target":"1500"}`, []Step{{Type: "wait", Ms: Ptr(1500)}}},
		{`{"command":"pause","target":"","value":"0"}`, []Step{{Type: "wait", Ms: Ptr(0)}}},
		{`{"command":"executeScript","target":"return 1","value":"one"}`, []Step{{Type: "script", Code: "return 1", Assign: "one"}}},
		{`{"command":"runScript","target":"window.scrollTo(0,0)"}`, []Step{{Type: "script", Code: "window.scrollTo(0,0)"}}},
		{`{"command":"store","target":"alice","value":"user"}`, []Step{{Type: "setVariable", Name: "user", Value: Ptr("alice")}}},
		{`{"command":"storeText","target":"css=.id","value":"orderId"}`, []Step{{Type: "setVariable", Name: "orderId", Target: tgt(".id")}}},
		{`{"command":"storeTitle","target":"title"}`, []Step{{Type: "setVariable", Name: "title", From: "title"}}},
		{`{"command":"captureEntirePageScreenshot","target":"shots/home.png"}`, []Step{{Type: "screenshot", Name: "home", FullPage: true}}},
		{`{"command":"click","target":"id=a","comment":"Go on"}`, []Step{{Type: "click", Target: tgt("#a"), Description: "Go on"}}},
		{`{"id":"keep","command":"click","target":"id=a"}`, []Step{{ID: "keep", Type: "click", Target: tgt("#a")}}},
		{`{"command":"click","target":"id=a","targets":[["css=#a","css:finder"],["xpath=//b","xpath:position"],["linkText=B","linkText"],"name=a","dom=x"]}`,
			[]Step{{Type: "click", Target: &Target{Locators: []Locator{{Kind: "css", Value: "#a"}, {Kind: "text", Value: "B", Exact: true},
				{Kind: "css", Value: `[name="a"]`}, {Kind: "xpath", Value: "//b"}}}}}},
	}
	for _, tc := range tests {
		t.Run(tc.cmd, func(t *testing.T) {
			doc, issues := v1(t, tc.cmd)
			wantIssues(t, issues)
			for i := range tc.want {
				if tc.want[i].ID == "" {
					tc.want[i].ID = "s" + itoa(i+1)
				}
			}
			if !reflect.DeepEqual(doc.Steps, tc.want) {
				got, _ := json.Marshal(doc.Steps)
				want, _ := json.Marshal(tc.want)
				t.Errorf("\n got %s\nwant %s", got, want)
			}
		})
	}
}

// Comment rows, disabled commands and frames change no step of their own
// but are kept; a window size sizes the page.
func TestMigrateStatefulRows(t *testing.T) {
	doc, issues := v1(t, `{"command":"","target":"","value":"","comment":"Log in"},
		{"command":"setWindowSize","target":"1280x800"},
		{"command":"//click","target":"css=.old"},
		{"command":"selectFrame","target":"id=pay"},
		{"command":"selectFrame","target":"index=1"},
		{"command":"type","target":"name=card","value":"4242"},
		{"command":"selectFrame","target":"relative=parent"},
		{"command":"click","target":"css=.in-first"},
		{"command":"selectFrame","target":"relative=top"},
		{"command":"click","target":"css=.top"},
		{"command":"","comment":"the end"}`)
	wantIssues(t, issues)
	want := []Step{
		{ID: "s1", Type: "setViewport", Width: 1280, Height: 800, Description: "Log in"},
		{ID: "s2", Type: "fill", Value: Ptr("4242"),
			Description: "disabled in Selenium IDE: click css=.old",
			Target:      &Target{Locators: css(`[name="card"]`), Frame: []Locator{{Kind: "css", Value: "#pay"}, {Kind: "xpath", Value: "(//iframe|//frame)[2]"}}}},
		{ID: "s3", Type: "click", Target: &Target{Locators: css(".in-first"), Frame: css("#pay")}},
		{ID: "s4", Type: "click", Target: &Target{Locators: css(".top")}, Description: "the end"},
	}
	if !reflect.DeepEqual(doc.Steps, want) {
		got, _ := json.MarshalIndent(doc.Steps, "", " ")
		t.Errorf("got %s", got)
	}
}

func TestMigrateIssues(t *testing.T) {
	tests := []struct {
		cmd  string
		want []string
	}{
		{`{"command":"while","target":"${n} < 3"}`, []string{"steps[0].command format"}}, // a loop without its end
		{`{"command":"frobnicate","target":"id=a"}`, []string{"steps[0].command unsupported"}},
		{`{"command":"selectWindow","target":"handle=${nope}"}`, []string{"steps[0].target unsupported"}},
		{`{"command":"acceptAlert"}`, []string{"steps[0].command unsupported"}},
		{`{"command":"clickAt","target":"id=a","value":"left"}`, []string{"steps[0].value format"}},
		{`{"command":"setWindowSize","target":"big"}`, []string{"steps[0].target format"}},
		{`{"command":"storeAttribute","target":"id=a","value":"v"}`, []string{"steps[0].target format"}},
		{`{"command":"storeJson","target":"{nope","value":"v"}`, []string{"steps[0].target format"}},
		{`{"command":"submit","target":"link=Go"}`, []string{"steps[0].target unsupported"}},
		{`{"command":"","target":"id=a"}`, []string{"steps[0].command required"}},
		{`{"command":"click","target":""}`, []string{"steps[0].target required"}},
		{`{"command":"click","target":"dom=document.body"}`, []string{"steps[0].target unsupported"}},
		{`{"command":"open"}`, []string{"steps[0].target required"}},
		{`{"command":"sendKeys","target":"id=q","value":"${KEY_HYPER}"}`, []string{"steps[0].value unsupported"}},
		{`{"command":"sendKeys","target":"id=q","value":""}`, []string{"steps[0].value unsupported"}},
		{`{"command":"select","target":"link=Countries","value":"index=2"}`, []string{"steps[0].target unsupported"}},
		{`{"command":"pause","target":"soon"}`, []string{"steps[0].target format"}},
		{`{"command":"waitForElementVisible","target":"id=a","value":"later"}`, []string{"steps[0].value format"}},
		{`{"command":"store","target":"x"}`, []string{"steps[0].value required"}},
		{`{"command":"store","target":"x","value":"not a name"}`, []string{"steps[0].name format"}},
		{`{"command":"executeScript","target":""}`, []string{"steps[0].target required"}},
		{`{"command":"selectFrame","target":"index=x"}`, []string{"steps[0].target format"}},
		{`{"command":"click","target":"id=a","colour":"red"}`, []string{"steps[0].colour unknown"}},
		{`{"command":1,"target":"id=a"}`, []string{"steps[0].command type"}},
		{`"click"`, []string{"steps[0] type"}},
	}
	for _, tc := range tests {
		t.Run(tc.cmd, func(t *testing.T) {
			_, issues := v1(t, tc.cmd)
			wantIssues(t, issues, tc.want...)
		})
	}
}

func TestMigrateDocumentFields(t *testing.T) {
	doc, from, issues := Parse([]byte(`{"version":1,"name":" Old ","suite":"S","tags":["t"],"description":"d","variables":{"a":"1"},"extra":true,"steps":[]}`))
	wantIssues(t, issues, "extra unknown")
	if from != 1 || doc.DSL != 2 || doc.Name != "Old" || doc.Suite != "S" || doc.Tags[0] != "t" || doc.Description != "d" || doc.Variables["a"] != "1" {
		t.Errorf("got %+v", doc)
	}
}
