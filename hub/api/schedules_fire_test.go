package api

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// scheduleRuns reads a schedule's handled due times, oldest first.
func scheduleRuns(t *testing.T, h *harness, id string) []store.ScheduleRun {
	t.Helper()
	runs, err := h.store.ScheduleRuns(t.Context(), id, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for i, j := 0, len(runs)-1; i < j; i, j = i+1, j-1 {
		runs[i], runs[j] = runs[j], runs[i]
	}
	return runs
}

func scheduledBatches(t *testing.T, h *harness, id string) int {
	t.Helper()
	var n int
	if err := h.store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM batches WHERE schedule_id = $1`, id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func nextAtOf(t *testing.T, h *harness, id string) time.Time {
	t.Helper()
	c, err := h.store.GetSchedule(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return c.NextAt
}

// Two hubs on one database tick at the same due time, again and again, as
// two processes would: each due time starts exactly one batch and is
// recorded started once.
func TestScheduleOnceAcrossHubs(t *testing.T) {
	h1 := newHarness(t)
	h2 := newHarnessOn(t, h1.store.Pool())
	o := h1.org(t)
	mgr := o.members[access.TestManager]
	mgr.createTest(t, o.project, doc("Checkout", 1, "suite", "Shop"))
	id := mgr.createSchedule(t, o.project, obj{"name": "Every minute", "cron": "* * * * *", "timezone": "UTC", "suite": "Shop"})["id"].(string)
	const rounds = 25
	hubs := []*Server{h1.api, h2.api, h1.api, h2.api} // two goroutines per hub
	for i := range rounds {
		due := nextAtOf(t, h1, id)
		var wg sync.WaitGroup
		var mu sync.Mutex
		started := 0
		for _, s := range hubs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				fired, err := s.FireSchedules(t.Context(), due)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				started += len(fired)
				mu.Unlock()
			}()
		}
		wg.Wait()
		if started != 1 {
			t.Fatalf("round %d: %d firings of one due time", i, started)
		}
		if next := nextAtOf(t, h1, id); !next.Equal(due.Add(time.Minute)) {
			t.Fatalf("round %d: next time %s after %s", i, next, due)
		}
	}
	runs := scheduleRuns(t, h1, id)
	if len(runs) != rounds || scheduledBatches(t, h1, id) != rounds {
		t.Fatalf("%d schedule runs and %d batches for %d due times", len(runs), scheduledBatches(t, h1, id), rounds)
	}
	for i, r := range runs {
		if r.Status != "started" || r.BatchID == "" || i > 0 && !r.DueAt.Equal(runs[i-1].DueAt.Add(time.Minute)) {
			t.Errorf("schedule run %d: %+v", i, r)
		}
	}
}

// A due time passed while no hub ran: less than one period late it starts
// its batch once; later than that it is recorded skipped, saying so, and
// starts nothing. Either way the next time is after now. A paused schedule
// never fires.
func TestScheduleMissedWhileDown(t *testing.T) {
	h := newHarness(t) // Sunday 2026-11-01 09:00 UTC
	o := h.org(t)
	mgr := o.members[access.TestManager]
	tagged := doc("Checkout", 1)
	tagged["tags"] = []any{"smoke"}
	mgr.createTest(t, o.project, tagged)
	id := mgr.createSchedule(t, o.project, obj{"name": "Daily", "cron": "0 3 * * *", "timezone": "UTC", "tag": "smoke"})["id"].(string)
	paused := mgr.createSchedule(t, o.project, obj{"name": "Paused", "cron": "* * * * *", "timezone": "UTC", "tag": "smoke", "enabled": false})["id"].(string)
	day := func(d, hour int) time.Time { return time.Date(2026, 11, d, hour, 0, 0, 0, time.UTC) }

	// Before the due time: nothing.
	if fired, err := h.api.FireSchedules(t.Context(), day(2, 2)); err != nil || len(fired) != 0 {
		t.Fatalf("before the due time: %v %v", fired, err)
	}
	// 7 hours late, less than the day's period: it runs once.
	fired, err := h.api.FireSchedules(t.Context(), day(2, 10))
	if err != nil || len(fired) != 1 || fired[0].Run.Status != "started" || !fired[0].Run.DueAt.Equal(day(2, 3)) {
		t.Fatalf("7 hours late: %+v %v", fired, err)
	}
	if next := nextAtOf(t, h, id); !next.Equal(day(3, 3)) {
		t.Errorf("next time %s", next)
	}
	// Down from before Tuesday 03:00 until Thursday 04:00: three times
	// missed, the first more than a period late, so none runs.
	fired, err = h.api.FireSchedules(t.Context(), day(5, 4))
	if err != nil || len(fired) != 1 || fired[0].Batch != nil {
		t.Fatalf("more than a period late: %+v %v", fired, err)
	}
	runs := scheduleRuns(t, h, id)
	if len(runs) != 2 || runs[1].Status != "skipped" || !runs[1].DueAt.Equal(day(3, 3)) || !strings.Contains(runs[1].Reason, "3 time(s) missed") ||
		runs[1].BatchID != "" {
		t.Errorf("schedule runs %+v", runs)
	}
	if scheduledBatches(t, h, id) != 1 {
		t.Errorf("%d batches, want the one of Monday", scheduledBatches(t, h, id))
	}
	if next := nextAtOf(t, h, id); !next.Equal(day(6, 3)) {
		t.Errorf("next time after the skip %s", next)
	}
	if len(scheduleRuns(t, h, paused)) != 0 || scheduledBatches(t, h, paused) != 0 {
		t.Error("a paused schedule fired")
	}
	// The schedule's page says so.
	got := mgr.do("GET", "/api/schedules/"+id, nil).want(t, 200).json()
	if last := got["lastRun"].(map[string]any); last["status"] != "skipped" || len(got["runs"].([]any)) != 2 ||
		got["runs"].([]any)[1].(map[string]any)["batchId"] == nil {
		t.Errorf("schedule %v", got)
	}
}

// A schedule's batch is its owner's: the runs carry the schedule's options,
// wait queued while no agent of the owner is connected, then go to the
// owner's agent; the batch names the schedule, and so does batch.finished.
// A test that cannot run, or an owner who left, fails the due time saying
// why, and starts nothing.
func TestScheduleBatchRunsAsOwner(t *testing.T) {
	h := newHarness(t)
	h.startWebhooks(t, 5*time.Second)
	o := h.org(t)
	mgr, admin := o.members[access.TestManager], o.members[access.Admin]
	rc := newReceiver(t, nil)
	mgr.projectDo(o.project, "POST", "/api/webhooks", obj{"name": "CI", "url": rc.srv.URL + "/hook", "events": []any{"batch.finished"}}).want(t, 201)
	a := mgr.createTest(t, o.project, doc("A", 1, "suite", "Shop"))
	b := mgr.createTest(t, o.project, doc("B private", 1, "suite", "Shop", "visibility", "Private"))
	admin.createTest(t, o.project, map[string]any{"name": "Admin's private", "suite": "Shop", "visibility": "Private"})
	env := mgr.projectDo(o.project, "POST", "/api/environments", obj{"name": "Staging"}).want(t, 201).str("id")
	body := obj{"name": "Nightly", "cron": "0 3 * * *", "timezone": "UTC", "suite": "Shop", "environmentId": env,
		"options": obj{"retries": 1, "trace": "on", "screenshots": false}}
	id := mgr.createSchedule(t, o.project, body)["id"].(string)
	body["name"] = "Nightly shop"
	admin.do("PUT", "/api/schedules/"+id, body).want(t, 200) // the owner stays the Test Manager

	due := nextAtOf(t, h, id)
	h.advance(due.Sub(h.api.Now())) // the hub's clock reaches the due time
	fired, err := h.api.FireSchedules(t.Context(), due)
	if err != nil || len(fired) != 1 || fired[0].Batch == nil {
		t.Fatalf("fired %+v %v", fired, err)
	}
	batchID := fired[0].Batch.ID
	got := admin.do("GET", "/api/batches/"+batchID, nil).want(t, 200).json()
	sched, _ := got["schedule"].(map[string]any)
	if sched == nil || sched["id"] != id || sched["name"] != "Nightly shop" || got["startedBy"] != o.ids[access.TestManager] ||
		got["status"] != "queued" || got["source"] != "suite" || got["environmentId"] != env {
		t.Errorf("scheduled batch %v", got)
	}
	runs := mgr.do("GET", "/api/batches/"+batchID, nil).want(t, 200).json()["runs"].([]any)
	if len(runs) != 2 {
		t.Fatalf("the owner's batch has %d runs, want A and the owner's private B", len(runs))
	}
	for _, r := range runs {
		run := r.(map[string]any)
		opts := run["options"].(map[string]any)
		if run["startedBy"] != o.ids[access.TestManager] || run["status"] != "queued" || opts["retries"] != 1.0 || opts["trace"] != "on" || opts["screenshots"] != false {
			t.Errorf("run %v", run)
		}
	}
	if ids := []string{runs[0].(map[string]any)["testId"].(string), runs[1].(map[string]any)["testId"].(string)}; ids[0] != a || ids[1] != b {
		t.Errorf("ran %v", ids)
	}
	// A person's batch names no schedule.
	plain := mgr.startBatch(t, o.project, map[string]any{"testIds": []string{a}})
	if got := mgr.do("GET", "/api/batches/"+plain["batchId"].(string), nil).want(t, 200).json(); got["schedule"] != nil {
		t.Errorf("a person's batch names a schedule: %v", got["schedule"])
	}

	// The owner's agent connects and takes the runs (the person's batch first).
	agent := h.rawAgent(t, mgr, "")
	var seq int64
	jobs := []protocol.Job{agent.assigned(), agent.assigned(), agent.assigned()}
	for _, job := range jobs {
		if job.Retries != 0 && job.Retries != 1 {
			t.Errorf("job retries %d", job.Retries)
		}
		finishJob(t, agent, job, &seq, protocol.RunPassed)
	}
	for {
		call := rc.next(t)
		p := call.payload(t)
		if p.Batch == nil || p.Batch.BatchID != batchID {
			continue
		}
		if p.Batch.Schedule == nil || p.Batch.Schedule.ID != id || p.Batch.Schedule.Name != "Nightly shop" {
			t.Errorf("batch.finished schedule %+v: %s", p.Batch.Schedule, call.body)
		}
		break
	}

	// A Deprecated test in chosen tests fails the due time, naming it.
	mgr.do("PUT", "/api/tests/"+a, map[string]any{"status": "Ready"}).want(t, 200)
	mgr.do("PUT", "/api/tests/"+a, map[string]any{"status": "Deprecated"}).want(t, 200)
	chosen := mgr.createSchedule(t, o.project, obj{"name": "Chosen", "cron": "0 3 * * *", "timezone": "UTC", "testIds": []any{a, b}})["id"].(string)
	fired, err = h.api.FireSchedules(t.Context(), due.Add(24*time.Hour))
	if err != nil || len(fired) != 2 {
		t.Fatalf("second day %+v %v", fired, err)
	}
	for _, f := range fired {
		if f.Run.ScheduleID == chosen && (f.Run.Status != "failed" || f.Batch != nil || !strings.Contains(f.Run.Reason, `"A" is Deprecated`)) {
			t.Errorf("a schedule with a Deprecated test: %+v", f.Run)
		}
	}
	if scheduledBatches(t, h, chosen) != 0 {
		t.Error("a schedule with a test that cannot run started a batch")
	}

	// The owner leaves the organization: the schedule fails saying why.
	o.owner.do("DELETE", "/api/orgs/"+o.id+"/members/"+o.ids[access.TestManager], nil).want(t, 204)
	fired, err = h.api.FireSchedules(t.Context(), due.Add(48*time.Hour))
	if err != nil || len(fired) != 2 {
		t.Fatalf("third day %+v %v", fired, err)
	}
	for _, f := range fired {
		if f.Run.Status != "failed" || f.Batch != nil || !strings.Contains(f.Run.Reason, "no longer a member") {
			t.Errorf("the owner left: %+v", f.Run)
		}
	}
}

// A pipeline manages its schedule with a project API token: the schedule
// belongs to the token's user, whose agents take its runs; a token capped
// below Test Manager may read schedules but not make them.
func TestScheduleMadeWithAPIToken(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	mgr.createTest(t, o.project, doc("A", 1, "suite", "Shop"))
	_, token := mgr.newToken(t, map[string]any{"name": "pipeline", "projectId": o.project})
	_, capped := mgr.newToken(t, map[string]any{"name": "read only", "projectId": o.project, "role": "Tester"})
	body := obj{"name": "Nightly", "cron": "0 3 * * *", "timezone": "UTC", "suite": "Shop"}
	wantCode(t, h.bearer(capped).do("POST", "/api/schedules", body, ProjectHeader, o.project), 403, codeForbidden)
	h.bearer(capped).do("GET", "/api/schedules", nil, ProjectHeader, o.project).want(t, 200)
	made := h.bearer(token).do("POST", "/api/schedules", body, ProjectHeader, o.project).want(t, 201).json()
	if made["ownerId"] != o.ids[access.TestManager] {
		t.Fatalf("the token's schedule belongs to %v, want the token's user", made["ownerId"])
	}
	id := made["id"].(string)
	due := nextAtOf(t, h, id)
	h.advance(due.Sub(h.api.Now()))
	fired, err := h.api.FireSchedules(t.Context(), due)
	if err != nil || len(fired) != 1 || fired[0].Batch == nil {
		t.Fatalf("fired %+v %v", fired, err)
	}
	got := mgr.do("GET", "/api/batches/"+fired[0].Batch.ID, nil).want(t, 200).json()
	if got["startedBy"] != o.ids[access.TestManager] || len(got["runs"].([]any)) != 1 {
		t.Errorf("the scheduled batch %v", got)
	}
}
