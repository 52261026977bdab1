package protocol

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// el is a target with one css locator.
func el(css string) *Target { return &Target{Locators: []Locator{{Kind: "css", Value: css}}} }

// everyStep is a valid step of every type, ids s1, s2 ...
func everyStep() []Step {
	steps := []Step{
		{Type: "navigate", URL: "${baseUrl}/login"},
		{Type: "click", Target: el("#go")},
		{Type: "dblclick", Target: el("#row")},
		{Type: "hover", Target: el("#menu")},
		{Type: "fill", Target: el("#email"), Value: Ptr("")},
		{Type: "press", Key: "Enter"},
		{Type: "select", Target: el("#country"), Value: Ptr("Belgium")},
		{Type: "check", Target: el("#terms")},
		{Type: "uncheck", Target: el("#news")},
		{Type: "assertVisible", Target: el("#ok")},
		{Type: "assertHidden", Target: el("#spinner")},
		{Type: "assertText", Target: el("h1"), Expected: Ptr("Welcome"), Match: "equals"},
		{Type: "assertValue", Target: el("#email"), Expected: Ptr("")},
		{Type: "assertUrl", Expected: Ptr("/home")},
		{Type: "assertTitle", Expected: Ptr("^Home$"), Match: "regex"},
		{Type: "wait", Ms: Ptr(0)},
		{Type: "waitFor", Target: el("#list"), State: "detached"},
		{Type: "screenshot", Name: "home", FullPage: true},
		{Type: "setVariable", Name: "token", Target: el("#token")},
		{Type: "script", Code: "return 1;", Assign: "one"},
		{Type: "callComponent", Component: "cmp_abc123", Version: 2, Inputs: map[string]string{"user": "${user}"}},
	}
	for i := range steps {
		steps[i].ID = fmt.Sprintf("s%d", i+1)
	}
	return steps
}

func validDoc() Document {
	return Document{DSL: 2, Name: "Every step", Variables: map[string]string{"user": "alice"}, Steps: everyStep()}
}

// pc renders issues as "path code" lines for comparison.
func pc(is []Issue) []string {
	out := []string{}
	for _, x := range is {
		out = append(out, x.Path+" "+x.Code)
	}
	return out
}

func wantIssues(t *testing.T, got []Issue, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if g := pc(got); !slices.Equal(g, want) {
		t.Errorf("issues:\n  got  %s\n  want %s\n  messages: %s", strings.Join(g, ", "), strings.Join(want, ", "), messages(got))
	}
}

func messages(is []Issue) string {
	var out []string
	for _, x := range is {
		out = append(out, x.Message)
	}
	return strings.Join(out, " | ")
}
