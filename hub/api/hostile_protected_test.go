package api

import (
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// refusedToo adds "must not be accepted" to a hostile request's own check.
func refusedToo(rq hostileRequest, why string) hostileRequest {
	own := rq.want
	rq.want = func(status int, body []byte) string {
		if status < 400 {
			return why
		}
		if own != nil {
			return own(status, body)
		}
		return ""
	}
	return rq
}

// TestHostileProtectedData sends the hostile bodies of the data routes as a
// Test Developer against a protected data set and pool (issue 26, finding
// 3): none is accepted, none answers 5xx, and the set and pool are
// unchanged; delete and reset are refused too. Hostile run requests on a
// protected environment with data that is not protected never queue a run
// on that environment.
func TestHostileProtectedData(t *testing.T) {
	h := newHarness(t)
	w := newHostileWorld(t, h)
	owner, dev := w.o.owner, w.o.members[access.TestDeveloper]
	p := func(method, path string, body any) response {
		return owner.do(method, path, body, ProjectHeader, w.o.project)
	}
	p("POST", "/api/test-data", obj{"id": w.dataSet, "name": "Logins", "protected": true}).want(t, 200)
	p("POST", "/api/data-pools", obj{"id": w.dataPool, "name": "Cards", "protected": true}).want(t, 200)
	snapshot := func() string {
		return string(owner.do("GET", "/api/test-data/"+w.dataSet, nil).want(t, 200).body) +
			string(owner.do("GET", "/api/data-pools/"+w.dataPool, nil).want(t, 200).body)
	}
	before := snapshot()
	samples := w.samples()
	n := 0
	for _, path := range []string{"/api/test-data", "/api/data-pools"} {
		update := with(samples["POST "+path][1].(obj), "protected", false) // the sample naming the protected record
		for _, rq := range bodyRequests(t, path, []any{update}, w.o.project) {
			hostileSend(t, dev, "POST", refusedToo(rq, "a Test Developer's hostile body was accepted"))
			n++
		}
	}
	for _, rt := range []struct{ method, path string }{
		{"DELETE", "/api/test-data/" + w.dataSet}, {"DELETE", "/api/data-pools/" + w.dataPool}, {"POST", "/api/data-pools/" + w.dataPool + "/reset"},
	} {
		if r := dev.do(rt.method, rt.path, nil); r.status != 403 || r.str("code") != "data_protected" {
			t.Errorf("%s %s as a Test Developer: %d %s", rt.method, rt.path, r.status, r.body)
		}
	}
	if snapshot() != before {
		t.Errorf("hostile bodies changed protected data:\n%s\n%s", before, snapshot())
	}

	// A protected environment and a Ready test bound to a set that is not.
	prod := p("POST", "/api/environments", obj{"name": "Prod", "protected": true}).want(t, 201).str("id")
	open := p("POST", "/api/test-data", obj{"name": "Open", "columns": []any{"user"}, "rows": []any{obj{"user": "eve"}}}).want(t, 201).str("id")
	ready := p("POST", "/api/tests", obj{"name": "Bound", "data": obj{"set": open},
		"steps": []any{obj{"id": "s1", "type": "navigate", "url": "https://shop.example.com/?u=${user}"}}}).want(t, 201).str("id")
	owner.do("PUT", "/api/tests/"+ready, obj{"status": "Ready"}).want(t, 200)
	runs := []any{obj{"testId": ready, "environmentId": prod}, obj{"testId": ready, "environmentId": prod, "dataSetId": open, "rows": []any{0}},
		obj{"testIds": []any{ready}, "environmentId": prod}}
	for _, rq := range bodyRequests(t, "/api/runs", runs, w.o.project) {
		hostileSend(t, owner, "POST", rq)
		n++
	}
	var queued int
	if err := h.store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM runs WHERE environment_id = $1`, prod).Scan(&queued); err != nil {
		t.Fatal(err)
	}
	if queued != 0 {
		t.Errorf("%d runs were queued on the protected environment with data that is not protected", queued)
	}
	t.Logf("%d hostile requests", n)
}
