package api

import (
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// TestDuplicateTakesName: the editor's Duplicate asks for the copy's name;
// the hub keeps it (trimmed), refuses a name a created test could not have
// with 422 and creates nothing, and still names an unnamed copy "(copy)".
func TestDuplicateTakesName(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.Tester]
	id := c.createTest(t, o.project, doc("Checkout", 2))
	path := "/api/tests/" + id + "/duplicate"

	r := c.do("POST", path, map[string]any{"name": "  Checkout with coupon "}).want(t, 201)
	if got := r.json(); got["name"] != "Checkout with coupon" || num(got["steps"]) != 2 || got["id"] == id {
		t.Errorf("named copy: %s", r.body)
	}
	if r := c.do("POST", path, nil).want(t, 201); r.str("name") != "Checkout (copy)" {
		t.Errorf("unnamed copy: %s", r.body)
	}
	if r := c.do("POST", path, map[string]any{}).want(t, 201); r.str("name") != "Checkout (copy)" {
		t.Errorf("copy with an empty body: %s", r.body)
	}

	count := func() int {
		return len(c.do("GET", "/api/tests", nil, ProjectHeader, o.project).want(t, 200).json()["tests"].([]any))
	}
	before := count()
	for _, bad := range []any{"", "   ", "two\nlines", strings.Repeat("n", 201), 7} {
		r := c.do("POST", path, map[string]any{"name": bad}).want(t, 422)
		if !strings.Contains(string(r.body), `"path":"name"`) {
			t.Errorf("name %q: the issue does not name the field: %s", bad, r.body)
		}
	}
	if after := count(); after != before {
		t.Errorf("refused copies created tests: %d before, %d after", before, after)
	}
}
