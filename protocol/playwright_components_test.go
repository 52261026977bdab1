package protocol

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// A test calling a component that calls another renders each component
// version once as a helper; under node, every value reaches the page as a
// run would give it: the call's inputs, the defaults (a secret from the
// environment), the test's variables inside the components, and an input
// shadowing a test variable of the same name.
func TestRenderComponentsAsHelpers(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	label := func(v string) *Target { return &Target{Locators: []Locator{{Kind: "label", Value: v}}} }
	comps := map[string]PlaywrightComponent{
		"cmp_creds@1": {Name: "Credentials", Version: 1,
			Inputs: []PlaywrightInput{{Name: "email"}, {Name: "password", Default: Ptr("${secrets.S}")}},
			Steps: []Step{
				{ID: "e", Type: "fill", Target: label("Email"), Value: Ptr("${email}")},
				{ID: "p", Type: "fill", Target: label("Password"), Value: Ptr("${password}")},
			}},
		"cmp_login@2": {Name: "Sign in", Version: 2,
			Inputs: []PlaywrightInput{{Name: "user"}, {Name: "site", Default: Ptr("${baseUrl}/login")}},
			Steps: []Step{
				{ID: "o", Type: "navigate", URL: "${site}"},
				{ID: "c", Type: "callComponent", Component: "cmp_creds", Version: 1, Inputs: map[string]string{"email": "${user}"}},
				{ID: "t", Type: "fill", Target: label("Team"), Value: Ptr("${team}")},
			}},
	}
	lookups := 0
	lookup := func(id string, v int) (PlaywrightComponent, bool) {
		lookups++
		if v == 0 {
			v = 2
		}
		c, ok := comps[id+"@"+string(rune('0'+v))]
		return c, ok
	}
	d := Document{DSL: 2, Name: "Two calls", Variables: map[string]string{"user": "outer", "team": "blue"}, Steps: []Step{
		{ID: "a", Type: "callComponent", Component: "cmp_login", Version: 2, Inputs: map[string]string{"user": "ann@x.test"}},
		{ID: "b", Type: "callComponent", Component: "cmp_login", Inputs: map[string]string{"user": "${user}", "site": "https://other.test/"}},
		{ID: "c", Type: "callComponent", Component: "cmp_gone", Version: 1},
		{ID: "d", Type: "fill", Target: label("Note"), Value: Ptr("${user}")},
	}}
	script := RenderPlaywrightWith(d, lookup)
	if n := strings.Count(script, "const signInV2 = async"); n != 1 {
		t.Fatalf("Sign in v2 rendered %d times:\n%s", n, script)
	}
	if strings.Count(script, "const credentialsV1 = async") != 1 || !strings.Contains(script, "await credentialsV1({ email: user });") {
		t.Fatalf("nested helper:\n%s", script)
	}
	if !strings.Contains(script, "component cmp_gone v1: inline it") {
		t.Errorf("an unresolved call is not a comment:\n%s", script)
	}
	if strings.Index(script, "const credentialsV1") > strings.Index(script, "const signInV2") {
		t.Errorf("the callee comes after its caller:\n%s", script)
	}
	calls := runRendered(t, node, script, "x")
	var fills, gotos []string
	for _, c := range calls {
		var v string
		if len(c.Args) > 0 {
			_ = json.Unmarshal(c.Args[0], &v)
		}
		switch c.Call {
		case "page.getByLabel().fill":
			fills = append(fills, v)
		case "page.goto":
			gotos = append(gotos, v)
		}
	}
	want := []string{"ann@x.test", "x", "blue", "outer", "x", "blue", "outer"}
	if strings.Join(fills, "|") != strings.Join(want, "|") {
		t.Errorf("filled %q, want %q\n%s", fills, want, script)
	}
	if strings.Join(gotos, "|") != "/login|https://other.test/" {
		t.Errorf("navigated to %q\n%s", gotos, script)
	}
	// Without a lookup the calls stay comments, as before.
	if s := RenderPlaywright(d); strings.Contains(s, "= async (") || !strings.Contains(s, "component cmp_login v2") {
		t.Errorf("without components:\n%s", s)
	}
	if lookups == 0 {
		t.Error("lookup never called")
	}
}

func TestCamelIdent(t *testing.T) {
	for in, want := range map[string]string{"Sign in (SSO)": "signInSSO", "2FA code": "component2FACode", "": "component", "ünï": "n", "__": "component"} {
		if got := camelIdent(in); got != want {
			t.Errorf("camelIdent(%q) = %q, want %q", in, got, want)
		}
	}
}
