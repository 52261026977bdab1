package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestWithInputsFillsEveryText: a component's input reaches every text of
// every step type, the parameters of the steps real suites need too (a
// log's message, a prompt's answer, a request's headers and body, a drop
// target's locators), and a script's code as an expression.
func TestWithInputsFillsEveryText(t *testing.T) {
	in := "${who}"
	tgt := func() *Target {
		return &Target{Locators: []Locator{{Kind: "role", Value: "button", Name: in}}, Frame: []Locator{{Kind: "css", Value: in}},
			Fingerprint: map[string]string{"text": in}}
	}
	steps := []Step{
		{ID: "a", Type: "log", Message: in},
		{ID: "b", Type: "dialog", Action: "accept", Text: Ptr(in), Expected: Ptr(in)},
		{ID: "c", Type: "request", URL: "/u/" + in, Headers: map[string]string{"X-Who": in}, Body: Ptr(`{"who":"` + in + `"}`)},
		{ID: "d", Type: "dragTo", Target: tgt(), ToTarget: tgt()},
		{ID: "e", Type: "switchTab", To: "match", Title: in},
		{ID: "f", Type: "assertAttribute", Target: tgt(), Name: "title", Expected: Ptr(in)},
		{ID: "g", Type: "fill", Target: tgt(), Value: Ptr(in), Description: in},
		{ID: "h", Type: "callComponent", Component: "cmp_x", Inputs: map[string]string{"inner": in}},
		{ID: "i", Type: "script", Code: "return ${who}.length;"},
	}
	for _, s := range steps {
		out := s.WithInputs(map[string]string{"who": "Ann"})
		data, _ := json.Marshal(out)
		if strings.Contains(string(data), "${who}") && s.Type != "script" {
			t.Errorf("%s: an input is left: %s", s.Type, data)
		}
		if !strings.Contains(string(data), "Ann") {
			t.Errorf("%s: the input's value is missing: %s", s.Type, data)
		}
		// The step is a copy: the component's own step is unchanged.
		orig, _ := json.Marshal(s)
		if strings.Contains(string(orig), "Ann") {
			t.Errorf("%s: the original changed: %s", s.Type, orig)
		}
	}
	if got := steps[8].WithInputs(map[string]string{"who": "Ann"}).Code; got != `return "Ann".length;` {
		t.Errorf("script code = %q", got)
	}
	// Other references stay for the runner; ids and types are names.
	s := Step{ID: "who", Type: "log", Message: "${who} ${secrets.PW} ${user}"}.WithInputs(map[string]string{"who": "Ann", "user": "${secrets.U}"})
	if s.ID != "who" || s.Message != "Ann ${secrets.PW} ${secrets.U}" {
		t.Errorf("step = %+v", s)
	}
}
