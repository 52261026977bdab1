package api

import (
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// TestHostilePrivateSuite sends the hostile bodies of the suite routes as
// the Admin at a suite that only a Tester's private test makes (issue 26,
// finding 7): renaming it is never accepted, deleting it answers 404, the
// settings' suite list never touches it, and it stays out of the Admin's
// lists while its owner keeps it.
func TestHostilePrivateSuite(t *testing.T) {
	h := newHarness(t)
	w := newHostileWorld(t, h)
	owner, carol := w.o.owner, w.o.members[access.Tester]
	const secret = "ZZ-Acquisition"
	id := carol.createTest(t, w.o.project, map[string]any{"name": "Due diligence", "suite": secret, "visibility": "Private"})
	samples := w.samples()
	path := "/api/suites/" + secret
	renames := append(samples["PUT /api/suites/{name}"], obj{"name": "Exposed"}) // a free name too
	for _, rq := range bodyRequests(t, path, renames, w.o.project) {
		hostileSend(t, owner, "PUT", refusedToo(rq, "a rename of a suite the caller cannot see was accepted"))
	}
	for _, rq := range bodyRequests(t, "/api/settings", samples["POST /api/settings"], w.o.project) {
		hostileSend(t, owner, "POST", rq)
	}
	if r := owner.do("DELETE", path, nil, ProjectHeader, w.o.project); r.status != 404 {
		t.Errorf("delete: %d %s", r.status, r.body)
	}
	if got := carol.test(t, id); got["suite"] != secret || num(got["version"]) != 1 {
		t.Errorf("Carol's test after the hostile requests: suite %v, version %v", got["suite"], got["version"])
	}
	if got := suiteCounts(t, carol, w.o.project); got[secret] != 1 {
		t.Errorf("Carol's suites %v", got)
	}
	for _, route := range []string{"/api/suites", "/api/settings"} {
		if r := owner.do("GET", route, nil, ProjectHeader, w.o.project).want(t, 200); strings.Contains(string(r.body), secret) {
			t.Errorf("%s names the private suite: %s", route, r.body)
		}
	}
}
