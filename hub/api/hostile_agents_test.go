package api

import (
	"strings"
	"testing"
)

// TestHostileAgentUpdate: PUT /api/agent/:id with bad names and labels
// answers 422 with every issue and changes nothing; someone else's agent,
// an unknown one and a malformed id are 404 whatever the body; without a
// session it is 401. No answer is a 5xx.
func TestHostileAgentUpdate(t *testing.T) {
	h := newHarness(t)
	ann, _ := h.register("Ann")
	bob, _ := h.register("Bob")
	id := h.pairAgentShown(t, ann, true, "").id()
	path := "/api/agent/" + id
	ann.do("PUT", path, obj{"name": "Build box", "labels": []any{"linux"}}).want(t, 200)
	forty := strings.Repeat("a", 40)
	many := make([]any, 21)
	for i := range many {
		many[i] = "l" + strings.Repeat("x", i)
	}
	for _, tc := range []struct {
		body  any
		paths []string
	}{
		{obj{"name": "", "labels": []any{}}, []string{"name"}},
		{obj{"name": "   ", "labels": []any{}}, []string{"name"}},
		{obj{"name": strings.Repeat("é", 81), "labels": []any{}}, []string{"name"}},
		{obj{"name": "two\nlines", "labels": []any{}}, []string{"name"}},
		{obj{"name": "bidi\u202e", "labels": []any{}}, []string{"name"}},
		{obj{"labels": []any{}}, []string{"name"}},
		{obj{"name": "Box"}, []string{"labels"}},
		{obj{"name": "Box", "labels": []any{"Linux"}}, []string{"labels[0]"}},
		{obj{"name": "Box", "labels": []any{"office vpn"}}, []string{"labels[0]"}},
		{obj{"name": "Box", "labels": []any{""}}, []string{"labels[0]"}},
		{obj{"name": "Box", "labels": []any{forty + "a"}}, []string{"labels[0]"}},
		{obj{"name": "Box", "labels": []any{"ok", "ok"}}, []string{"labels[1]"}},
		{obj{"name": "Box", "labels": []any{"ümlaut", "x/y"}}, []string{"labels[0]", "labels[1]"}},
		{obj{"name": "Box", "labels": many}, []string{"labels"}},
		{obj{"name": "", "labels": []any{"BAD"}}, []string{"name", "labels[0]"}},
	} {
		r := ann.do("PUT", path, tc.body)
		if r.status != 422 {
			t.Errorf("%v: %d %s", tc.body, r.status, r.body)
			continue
		}
		var got []string
		for _, is := range r.json()["issues"].([]any) {
			got = append(got, is.(map[string]any)["path"].(string))
		}
		if strings.Join(got, ",") != strings.Join(tc.paths, ",") {
			t.Errorf("%v: issues at %v, want %v", tc.body, got, tc.paths)
		}
	}
	for _, body := range []string{`{`, `[]`, `{"name": 5, "labels": []}`, `{"name": "x", "labels": "linux"}`, `{"name": "x", "labels": [1]}`} {
		if r := ann.do("PUT", path, body); r.status != 400 && r.status != 422 {
			t.Errorf("%s: %d %s", body, r.status, r.body)
		}
	}
	valid := obj{"name": "Mine now", "labels": []any{"stolen"}}
	bob.do("PUT", path, valid).wantCode(t, 404, codeNotFound)
	bob.do("PUT", path, obj{"name": ""}).wantCode(t, 404, codeNotFound) // not told the body is wrong either
	ann.do("PUT", "/api/agent/agt_aaaaaaaaaaaaaaaa", valid).wantCode(t, 404, codeNotFound)
	ann.do("PUT", "/api/agent/not-an-id", valid).wantCode(t, 404, codeNotFound)
	h.client().do("PUT", path, valid).want(t, 401)

	a := ann.do("GET", "/api/agent", nil).want(t, 200).json()["agents"].([]any)[0].(map[string]any)
	if a["name"] != "Build box" || strings.Join(strs(a["labels"]), ",") != "linux" {
		t.Errorf("refused updates changed the agent: %v", a)
	}
	// Labels come back sorted; the name is trimmed.
	r := ann.do("PUT", path, obj{"name": "  Office box ", "labels": []any{"vpn", "linux", "chrome-beta"}}).want(t, 200).json()
	if r["name"] != "Office box" || strings.Join(strs(r["labels"]), ",") != "chrome-beta,linux,vpn" || r["state"] != "idle" {
		t.Errorf("updated: %v", r)
	}
}
