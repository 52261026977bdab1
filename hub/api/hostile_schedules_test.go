package api

import (
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
)

// TestHostileSchedules sends the schedule routes' hostile bodies where they
// must be refused: as roles below Test Manager (403, the schedule
// unchanged), as a member of another project (404, audited, its test and
// environment never taken), and at a Tester's private test, which the
// Admin may not put in a schedule nor see in another's. Bad crons in the
// preview answer 422, never 500.
func TestHostileSchedules(t *testing.T) {
	h := newHarness(t)
	w := newHostileWorld(t, h)
	samples := w.samples()
	path := "/api/schedules/" + w.schedule
	before := w.o.owner.do("GET", path, nil).want(t, 200).json()["updatedAt"]
	for _, role := range []access.Role{access.Tester, access.TestDeveloper} {
		c := w.o.members[role]
		for _, rq := range bodyRequests(t, "/api/schedules", samples["POST /api/schedules"], w.o.project) {
			hostileSend(t, c, "POST", refusedAny(rq, string(role)+" created a schedule"))
		}
		for _, rq := range bodyRequests(t, path, samples["PUT /api/schedules/{id}"], w.o.project) {
			hostileSend(t, c, "PUT", refusedAny(rq, string(role)+" changed a schedule"))
		}
		c.do("DELETE", path, nil).wantCode(t, 403, codeForbidden)
	}
	stranger := h.org(t)
	for _, rq := range bodyRequests(t, path, samples["PUT /api/schedules/{id}"], stranger.project) {
		hostileSend(t, stranger.owner, "PUT", refusedAny(rq, "another project's member changed the schedule"))
	}
	stranger.owner.do("DELETE", path, nil).wantCode(t, 404, codeNotFound)
	// The world's test and environment in the stranger's own project.
	stranger.owner.projectDo(stranger.project, "POST", "/api/schedules", w.scheduleBody()).want(t, 422)
	if got := w.o.owner.do("GET", path, nil).want(t, 200).json(); got["updatedAt"] != before || got["name"] != "Nightly" {
		t.Errorf("the schedule after the hostile requests: %v", got)
	}
	if auditLines(t, h, "cross_project_refused", w.o.project, stranger.project) < 3 {
		t.Error("the stranger's attempts were not audited")
	}

	// A Tester's private test: not the Admin's to schedule; the Admin's own
	// private test in a schedule is not shown to the Tester.
	carol := w.o.members[access.Tester]
	secret := carol.createTest(t, w.o.project, map[string]any{"name": "Carol's", "visibility": "Private"})
	body := obj{"name": "Sneaky", "cron": "0 3 * * *", "timezone": "UTC", "testIds": []any{secret}}
	w.o.owner.projectDo(w.o.project, "POST", "/api/schedules", body).want(t, 422)
	mine := w.o.owner.createTest(t, w.o.project, map[string]any{"name": "Owner's", "visibility": "Private"})
	body["testIds"] = []any{w.test, mine}
	id := w.o.owner.createSchedule(t, w.o.project, body)["id"].(string)
	if got := carol.do("GET", "/api/schedules/"+id, nil).want(t, 200); strings.Contains(string(got.body), mine) {
		t.Errorf("a Tester sees another's private test in a schedule: %s", got.body)
	}

	for _, cron := range []string{"\x00", strings.Repeat("* ", 5000), "0 0 3 * * *", "@every 1s", "TZ=UTC 0 3 * * *", "99 * * * *", "*/0 * * * *", "0 3 * * 8"} {
		r := w.o.owner.projectDo(w.o.project, "POST", "/api/schedules/preview", obj{"cron": cron, "timezone": "Europe/Paris"})
		if r.status != 422 {
			t.Errorf("preview of %.30q: %d %s", cron, r.status, r.body)
		}
	}
	w.o.owner.projectDo(w.o.project, "POST", "/api/schedules/preview", obj{"cron": "0 3 * * *", "timezone": "../../etc/passwd"}).want(t, 422)
}

// refusedAny wants rq refused, whatever the body: the caller may not reach
// the route at all, so the refusal may come before the body is read.
func refusedAny(rq hostileRequest, why string) hostileRequest {
	rq.want = func(status int, _ []byte) string {
		if status < 400 {
			return why
		}
		return ""
	}
	return rq
}
