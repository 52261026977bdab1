package api

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
)

func (c *client) createSchedule(t *testing.T, project string, body obj) map[string]any {
	t.Helper()
	r := c.projectDo(project, "POST", "/api/schedules", body).want(t, 201).json()
	if !strings.HasPrefix(r["id"].(string), "sch_") {
		t.Fatalf("create answered %v", r)
	}
	return r
}

// auditLines are the audit log's lines holding every one of words.
func auditLines(t *testing.T, h *harness, words ...string) int {
	t.Helper()
	data, _ := os.ReadFile(filepath.Join(h.dataDir, "audit.log"))
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		all := line != ""
		for _, w := range words {
			all = all && strings.Contains(line, w)
		}
		if all {
			n++
		}
	}
	return n
}

// A Test Manager creates a schedule and sees its next five times in its
// zone; pausing clears them, enabling counts from now; the preview answers
// the same times as one types.
func TestScheduleCreateAndNextTimes(t *testing.T) {
	h := newHarness(t) // now is Sunday 2026-11-01 09:00 UTC
	o := h.org(t)
	mgr := o.members[access.TestManager]
	test := mgr.createTest(t, o.project, doc("Checkout", 1))
	c := mgr.createSchedule(t, o.project, obj{"name": " Nightly ", "cron": "30 2 * * 1-5", "timezone": "Europe/Paris", "testIds": []any{test},
		"options": obj{"retries": 2, "trace": "on"}})
	want := []string{"2026-11-02T02:30:00+01:00", "2026-11-03T02:30:00+01:00", "2026-11-04T02:30:00+01:00", "2026-11-05T02:30:00+01:00", "2026-11-06T02:30:00+01:00"}
	if got := strs(c["next"]); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("next %v, want %v", got, want)
	}
	if c["nextAt"] != "2026-11-02T01:30:00.000Z" || c["name"] != "Nightly" || c["enabled"] != true || c["ownerId"] != o.ids[access.TestManager] ||
		c["options"].(map[string]any)["retries"] != 2.0 || c["options"].(map[string]any)["trace"] != "on" || strs(c["testIds"])[0] != test {
		t.Errorf("schedule %v", c)
	}
	p := mgr.projectDo(o.project, "POST", "/api/schedules/preview", obj{"cron": "30 2 * * 1-5", "timezone": "Europe/Paris"}).want(t, 200).json()
	if strings.Join(strs(p["next"]), ",") != strings.Join(want, ",") {
		t.Errorf("preview %v", p)
	}
	bad := mgr.projectDo(o.project, "POST", "/api/schedules/preview", obj{"cron": "61 2 * * *", "timezone": "Europe/Paris"}).want(t, 422)
	if is := bad.json()["issues"].([]any); is[0].(map[string]any)["path"] != "cron" {
		t.Errorf("preview of a bad cron: %s", bad.body)
	}

	// Paused: no next time. Enabled three days later: counted from then.
	id := c["id"].(string)
	body := obj{"name": "Nightly", "cron": "30 2 * * 1-5", "timezone": "Europe/Paris", "testIds": []any{test}, "enabled": false}
	paused := mgr.do("PUT", "/api/schedules/"+id, body).want(t, 200).json()
	if paused["enabled"] != false || paused["nextAt"] != nil || len(paused["next"].([]any)) != 0 {
		t.Errorf("paused %v", paused)
	}
	h.advance(72 * time.Hour) // Wednesday 09:00 UTC
	body["enabled"] = true
	if got := mgr.do("PUT", "/api/schedules/"+id, body).want(t, 200).json(); got["nextAt"] != "2026-11-05T01:30:00.000Z" {
		t.Errorf("enabled again: nextAt %v", got["nextAt"])
	}
	list := o.members[access.Tester].projectDo(o.project, "GET", "/api/schedules", nil).want(t, 200).json()["schedules"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["id"] != id || list[0].(map[string]any)["lastRun"] != nil {
		t.Errorf("list %v", list)
	}
}

// Bad bodies answer 422 with the path of each problem and store nothing.
func TestScheduleValidation(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	other := h.org(t)
	mgr := o.members[access.TestManager]
	test := mgr.createTest(t, o.project, doc("Checkout", 1))
	private := o.members[access.Tester].createTest(t, o.project, map[string]any{"name": "Mine", "visibility": "Private"})
	foreignTest := other.owner.createTest(t, other.project, doc("Theirs", 1))
	foreignEnv := other.owner.projectDo(other.project, "POST", "/api/environments", obj{"name": "Prod"}).want(t, 201).str("id")
	base := func(change obj) obj {
		b := obj{"name": "Nightly", "cron": "0 3 * * *", "timezone": "UTC", "testIds": []any{test}}
		for k, v := range change {
			if v == nil {
				delete(b, k)
			} else {
				b[k] = v
			}
		}
		return b
	}
	for _, tc := range []struct {
		body obj
		path string
	}{
		{base(obj{"cron": "0 3 * *"}), "cron"},
		{base(obj{"cron": "0 0 3 * * *"}), "cron"}, // 6 fields (seconds)
		{base(obj{"cron": "@daily"}), "cron"},
		{base(obj{"cron": "CRON_TZ=Asia/Tokyo 0 3 * * *"}), "cron"},
		{base(obj{"cron": "0 3 31 2 *"}), "cron"}, // never
		{base(obj{"timezone": "Mars/Olympus"}), "timezone"},
		{base(obj{"timezone": "Local"}), "timezone"},
		{base(obj{"timezone": nil}), "timezone"},
		{base(obj{"name": " "}), "name"},
		{base(obj{"name": strings.Repeat("n", 101)}), "name"},
		{base(obj{"tag": "smoke"}), "testIds"}, // two targets
		{base(obj{"testIds": nil}), "suite"},   // none
		{base(obj{"testIds": []any{}}), "testIds"},
		{base(obj{"testIds": []any{foreignTest}}), "testIds[0]"},
		{base(obj{"testIds": []any{private}}), "testIds[0]"},
		{base(obj{"environmentId": foreignEnv}), "environmentId"},
		{base(obj{"options": obj{"retries": 4}}), "options.retries"},
		{base(obj{"options": obj{"trace": "always"}}), "options.trace"},
		{base(obj{"options": obj{"device": "Nokia 3310"}}), "options.device"},
		{base(obj{"options": obj{"agentId": "agt_aaaaaaaaaaaaaaaa"}}), "options.agentId"},
		{base(obj{"options": obj{"labels": []any{"Bad Label"}}}), "options.labels[0]"},
	} {
		r := mgr.projectDo(o.project, "POST", "/api/schedules", tc.body).want(t, 422).json()
		found := false
		for _, is := range r["issues"].([]any) {
			found = found || is.(map[string]any)["path"] == tc.path
		}
		if !found {
			t.Errorf("%v: issues %v, want one at %s", tc.body, r["issues"], tc.path)
		}
	}
	if list := mgr.projectDo(o.project, "GET", "/api/schedules", nil).want(t, 200).json()["schedules"].([]any); len(list) != 0 {
		t.Errorf("refused bodies stored %v", list)
	}
	// The other project's records named in the body were audited.
	if auditLines(t, h, "cross_project_refused", other.project) < 2 {
		t.Error("naming another project's test or environment left no audit line")
	}
}

// Members read schedules; only Test Managers and Admins change them, each
// change leaving an audit line; another project's schedule is 404 and
// audited.
func TestScheduleRolesAndAudit(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	mgr.createTest(t, o.project, doc("Checkout", 1, "suite", "Shop"))
	body := obj{"name": "Nightly", "cron": "0 3 * * *", "timezone": "UTC", "suite": "Shop"}
	for _, role := range []access.Role{access.Tester, access.TestDeveloper} {
		o.members[role].projectDo(o.project, "POST", "/api/schedules", body).wantCode(t, 403, codeForbidden)
	}
	id := mgr.createSchedule(t, o.project, body)["id"].(string)
	admin := o.members[access.Admin]
	body["name"] = "Nightly shop"
	if got := admin.do("PUT", "/api/schedules/"+id, body).want(t, 200).json(); got["name"] != "Nightly shop" || got["ownerId"] != o.ids[access.TestManager] {
		t.Errorf("an Admin's change: %v (the owner stays)", got)
	}
	for _, role := range []access.Role{access.Tester, access.TestDeveloper} {
		c := o.members[role]
		if got := c.do("GET", "/api/schedules/"+id, nil).want(t, 200).json(); got["suite"] != "Shop" {
			t.Errorf("%s reads %v", role, got)
		}
		c.do("PUT", "/api/schedules/"+id, body).wantCode(t, 403, codeForbidden)
		c.do("DELETE", "/api/schedules/"+id, nil).wantCode(t, 403, codeForbidden)
	}
	stranger := h.org(t)
	for _, m := range []string{"GET", "PUT", "DELETE"} {
		stranger.owner.do(m, "/api/schedules/"+id, body).wantCode(t, 404, codeNotFound)
		// Through the header of the caller's own project, too.
		stranger.owner.do(m, "/api/schedules/"+id, body, ProjectHeader, stranger.project).wantCode(t, 404, codeNotFound)
	}
	if n := auditLines(t, h, "cross_project_refused", o.project, "/api/schedules/"+id); n != 6 {
		t.Errorf("%d audit lines for another project's schedule, want 6", n)
	}
	mgr.do("DELETE", "/api/schedules/"+id, nil).want(t, 204)
	mgr.do("GET", "/api/schedules/"+id, nil).want(t, 404)
	for _, ev := range []string{"schedule_created", "schedule_updated", "schedule_deleted"} {
		if auditLines(t, h, `"event":"`+ev+`"`, `"record":"`+id+`"`) != 1 {
			t.Errorf("no audit line %s for %s", ev, id)
		}
	}
}

// A NUL in a test id or a tag is refused with a 422 at its path, never a
// 500 (found by TestHostileInputNever500).
func TestScheduleNULRefused(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	for _, tc := range []struct {
		body obj
		path string
	}{
		{obj{"name": "N", "cron": "0 3 * * *", "timezone": "UTC", "testIds": []any{"tc_\x00aaaaaaaaaaaaaaaa"}}, "testIds[0]"},
		{obj{"name": "N", "cron": "0 3 * * *", "timezone": "UTC", "tag": "smo\x00ke"}, "tag"},
	} {
		r := mgr.projectDo(o.project, "POST", "/api/schedules", tc.body).want(t, 422).json()
		if is := r["issues"].([]any); is[0].(map[string]any)["path"] != tc.path {
			t.Errorf("issues %v, want %s", is, tc.path)
		}
	}
}

// Deleting the environment a schedule runs on pauses the schedule rather
// than letting it run without one (docs/schedules.md).
func TestScheduleEnvironmentDeletedPauses(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	mgr.createTest(t, o.project, doc("Checkout", 1, "suite", "Shop"))
	env := mgr.projectDo(o.project, "POST", "/api/environments", obj{"name": "Staging"}).want(t, 201).str("id")
	id := mgr.createSchedule(t, o.project, obj{"name": "Nightly", "cron": "0 3 * * *", "timezone": "UTC", "suite": "Shop", "environmentId": env})["id"].(string)
	mgr.do("DELETE", "/api/environments/"+env, nil).want(t, 204)
	got := mgr.do("GET", "/api/schedules/"+id, nil).want(t, 200).json()
	if got["enabled"] != false || got["environmentId"] != nil || got["nextAt"] != nil {
		t.Errorf("after its environment was deleted: %v", got)
	}
	if fired, err := h.api.FireSchedules(t.Context(), time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil || len(fired) != 0 {
		t.Errorf("the paused schedule fired: %+v %v", fired, err)
	}
}
