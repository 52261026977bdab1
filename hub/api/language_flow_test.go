package api

import (
	"testing"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/language/langtest"
)

// TestLanguageDraftsAnIf (issue 29): the model answers a draft with an
// if; the hub keeps it whole and checks its targets on the live page, the
// condition's as well as the steps' inside it.
func TestLanguageDraftsAnIf(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	f := withModel(t, h, 0)
	c := o.members[access.Tester]
	base := site(t)
	env := o.owner.projectDo(o.project, "POST", "/api/environments", obj{"name": "Local", "variables": obj{"baseUrl": base}}).want(t, 201).str("id")
	startPairedAgent(t, h, c)
	f.Queue(langtest.Reply{Content: `{"steps":[
 {"type":"navigate","url":"${baseUrl}/login.html"},
 {"type":"if","condition":{"kind":"visible","target":{"locators":[{"kind":"label","value":"Email"}]}},
  "steps":[{"type":"click","target":{"locators":[{"kind":"role","value":"button","name":"Sign in"}]}}],
  "else":[{"type":"click","target":{"locators":[{"kind":"testId","value":"no-such-thing"}]}}]}
]}`})
	got := c.projectDo(o.project, "POST", "/api/language/generate", obj{"text": "sign in if the form shows", "environmentId": env}).want(t, 200).json()
	steps := got["steps"].([]any)
	if len(steps) != 2 || len(got["issues"].([]any)) != 0 {
		t.Fatalf("draft %v", got)
	}
	block := steps[1].(map[string]any)
	then, other := block["steps"].([]any)[0].(map[string]any), block["else"].([]any)[0].(map[string]any)
	found := map[string]any{}
	for _, ch := range got["checks"].([]any) {
		m := ch.(map[string]any)
		found[m["stepId"].(string)] = m["found"]
	}
	if found[block["id"].(string)] != true || found[then["id"].(string)] != true || found[other["id"].(string)] != false || len(found) != 3 {
		t.Errorf("checks %v (if %v, then %v, else %v)", got["checks"], block["id"], then["id"], other["id"])
	}
	if g := got["grounding"].(map[string]any); g["verified"] != true {
		t.Errorf("grounding %v", g)
	}
}
