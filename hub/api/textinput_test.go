package api

import (
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// issuesOf lists a 422 answer's (or a validation's) issues as "path code".
func issuesOf(t *testing.T, r response) []string {
	t.Helper()
	var body struct {
		Issues []Issue `json:"issues"`
	}
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatalf("%s", r.body)
	}
	var out []string
	for _, is := range body.Issues {
		out = append(out, is.Path+" "+is.Code)
	}
	return out
}

// TestNULInDocumentsRefused: a NUL character anywhere in a document is an
// issue at its path (PostgreSQL cannot store it), on every route that
// takes a document; other control characters are refused in names and in
// free text, where tabs and line breaks stay allowed.
func TestNULInDocumentsRefused(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.owner
	id := c.createTest(t, o.project, doc("Clean", 1))
	hostile := doc("Sign in", 1, "description", "a\x00b")
	hostile["variables"] = map[string]any{"user": "al\x00ice"}
	hostile["steps"].([]map[string]any)[0]["url"] = "https://example.com/\x00"
	want := []string{"description format", "steps[0].url format", "variables.user format"}

	for _, rq := range []struct{ method, path string }{
		{"POST", "/api/tests"}, {"PUT", "/api/tests/" + id}, {"POST", "/api/tests/import"}, {"POST", "/api/script"},
	} {
		r := c.do(rq.method, rq.path, hostile, ProjectHeader, o.project).want(t, 422)
		if got := issuesOf(t, r); !slices.Equal(got, want) {
			t.Errorf("%s %s: issues %v, want %v", rq.method, rq.path, got, want)
		}
	}
	r := c.do("POST", "/api/tests/"+id+"/validate", hostile).want(t, 200)
	if got := issuesOf(t, r); !slices.Equal(got, want) || r.json()["valid"] != false {
		t.Errorf("validate: %s", r.body)
	}

	// A version 1 document and a Selenium IDE project are checked after
	// their migration, at the migrated path.
	v1 := map[string]any{"version": 1, "name": "Legacy", "steps": []any{map[string]any{"command": "click", "target": "css=#go\x00"}}}
	r = c.do("POST", "/api/tests/import", v1, ProjectHeader, o.project).want(t, 422)
	if got := issuesOf(t, r); !slices.Equal(got, []string{"steps[0].target.locators[0].value format"}) {
		t.Errorf("v1 import: %v", got)
	}
	side := `{"id":"p","version":"2.0","name":"Shop","url":"https://shop.example.com/","tests":[{"id":"t","name":"Search",
		"commands":[{"id":"c","comment":"bell\u0007","command":"open","target":"/search\u0000","targets":[],"value":""}]}]}`
	// A .side import brings what it can (issue 10): the command with a
	// control character and a NUL is skipped, said why, and stored nowhere.
	r = c.do("POST", "/api/tests/import", side, ProjectHeader, o.project).want(t, 201)
	if sk := r.json()["skipped"].([]any); len(sk) != 1 || !strings.Contains(sk[0].(map[string]any)["reason"].(string), "control characters") {
		t.Errorf("side import: skipped %v", sk)
	}
	if b := string(r.body); strings.ContainsRune(b, 0) || strings.Contains(b, `\u0000`) || strings.Contains(b, `\u0007`) {
		t.Errorf("side import echoed a control character: %s", r.body)
	}

	// Names hold no control or invisible characters; free text keeps its
	// tabs and line breaks.
	named := doc("Sign in\u202e", 0, "suite", "Acc\x01ounts")
	named["tags"] = []string{"smo\u200bke"}
	r = c.do("POST", "/api/tests", named, ProjectHeader, o.project).want(t, 422)
	if got := issuesOf(t, r); !slices.Equal(got, []string{"name format", "suite format", "tags[0] format"}) {
		t.Errorf("names: %v", got)
	}
	text := doc("Multi-line", 1, "description", "first\r\nsecond\tthird")
	text["steps"].([]map[string]any)[0]["description"] = "open\nthe page"
	c.do("POST", "/api/tests", text, ProjectHeader, o.project).want(t, 201)
	text["description"] = "bell\a"
	r = c.do("POST", "/api/tests", text, ProjectHeader, o.project).want(t, 422)
	if got := issuesOf(t, r); !slices.Equal(got, []string{"description format"}) {
		t.Errorf("control character in a description: %v", got)
	}
}

// TestNULInListFiltersRefused: list filters and suite names in paths
// never reach PostgreSQL with a NUL or invalid UTF-8.
func TestNULInListFiltersRefused(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.owner
	for _, q := range []string{"?q=a%00b", "?suite=%00", "?suite=%ff%fe"} {
		c.do("GET", "/api/tests"+q, nil, ProjectHeader, o.project).want(t, 422)
	}
	nul := base64.RawURLEncoding.EncodeToString([]byte(`["\u0000","tc_\u0000"]`))
	c.do("GET", "/api/tests?cursor="+nul, nil, ProjectHeader, o.project).want(t, 422)
	c.do("GET", "/api/runs?cursor="+nul, nil, ProjectHeader, o.project).want(t, 422)
	c.do("GET", "/api/runs?testId=%00", nil, ProjectHeader, o.project).want(t, 422)
	c.do("PUT", "/api/suites/a%00b", map[string]string{"name": "B"}, ProjectHeader, o.project).want(t, 404)
	c.do("DELETE", "/api/suites/%ff%fe", nil, ProjectHeader, o.project).want(t, 404)
}
