package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

func (c *client) startBatch(t *testing.T, project string, body map[string]any) map[string]any {
	t.Helper()
	r := c.do("POST", "/api/runs", body, ProjectHeader, project).want(t, 201).json()
	if !strings.HasPrefix(r["batchId"].(string), "bat_") {
		t.Fatalf("batch answered %v", r)
	}
	return r
}

func batchTestIDs(t *testing.T, c *client, batchID string) []string {
	t.Helper()
	b := c.do("GET", "/api/batches/"+batchID, nil).want(t, 200).json()
	var out []string
	for _, run := range b["runs"].([]any) {
		out = append(out, run.(map[string]any)["testId"].(string))
	}
	return out
}

// A batch from chosen tests or from a suite queues one run per test, in
// order, under one batch id that GET /api/batches and ?batchId= show.
func TestBatchFromTestIDsAndSuite(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev := o.members[access.TestDeveloper]
	b := dev.createTest(t, o.project, doc("B checkout", 1, "suite", "Checkout"))
	a := dev.createTest(t, o.project, doc("A checkout", 1, "suite", "Checkout"))
	loose := dev.createTest(t, o.project, doc("Loose", 1))
	o.members[access.Tester].createTest(t, o.project, map[string]any{"name": "Hidden", "suite": "Checkout", "visibility": "Private"})
	gone := dev.createTest(t, o.project, doc("Gone", 1, "suite", "Checkout"))
	mgr := o.members[access.TestManager]
	mgr.do("PUT", "/api/tests/"+gone, map[string]any{"status": "Ready"}).want(t, 200)
	mgr.do("PUT", "/api/tests/"+gone, map[string]any{"status": "Deprecated"}).want(t, 200)

	r := dev.startBatch(t, o.project, map[string]any{"testIds": []string{b, loose, b}, "headed": true, "screenshots": false})
	if ids := r["runIds"].([]any); len(ids) != 2 || r["runs"].([]any)[1].(map[string]any)["testId"] != loose {
		t.Fatalf("testIds batch: %v", r)
	}
	got := dev.do("GET", "/api/batches/"+r["batchId"].(string), nil).want(t, 200).json()
	if got["status"] != "queued" || num(got["total"]) != 2 || num(got["counts"].(map[string]any)["queued"]) != 2 || got["source"] != "tests" ||
		got["options"].(map[string]any)["headed"] != true || got["options"].(map[string]any)["screenshots"] != false {
		t.Errorf("batch: %v", got)
	}
	listed := dev.do("GET", "/api/runs?batchId="+r["batchId"].(string), nil, ProjectHeader, o.project).want(t, 200).json()["runs"].([]any)
	if len(listed) != 2 || listed[0].(map[string]any)["batchId"] != r["batchId"] {
		t.Errorf("runs of the batch: %v", listed)
	}
	dev.do("GET", "/api/runs?batchId=nope", nil, ProjectHeader, o.project).want(t, 422)

	// A suite runs its tests the caller sees, by name, without Deprecated ones.
	r = dev.startBatch(t, o.project, map[string]any{"suite": "Checkout"})
	if got := batchTestIDs(t, dev, r["batchId"].(string)); strings.Join(got, ",") != a+","+b {
		t.Errorf("suite batch ran %v, want %s,%s", got, a, b)
	}
	if got := dev.do("GET", "/api/batches/"+r["batchId"].(string), nil).want(t, 200).json(); got["suite"] != "Checkout" {
		t.Errorf("suite batch: %v", got)
	}
	// "" is Unsorted: the tests in no suite.
	r = dev.startBatch(t, o.project, map[string]any{"suite": ""})
	if got := batchTestIDs(t, dev, r["batchId"].(string)); len(got) != 1 || got[0] != loose {
		t.Errorf("unsorted batch ran %v", got)
	}
	// A single testId answers as before, with no batch.
	single := dev.do("POST", "/api/runs", map[string]any{"testId": a}, ProjectHeader, o.project).want(t, 201).json()
	if single["status"] != "queued" || single["batchId"] != nil {
		t.Errorf("single run: %v", single)
	}
	if run := dev.do("GET", "/api/runs/"+single["runId"].(string), nil).want(t, 202).json(); run["batchId"] != nil {
		t.Errorf("single run has a batch: %v", run)
	}
}

// One test that may not run refuses the whole batch, with an issue for
// each, and nothing is queued.
func TestBatchRefusals(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev, mgr, tester := o.members[access.TestDeveloper], o.members[access.TestManager], o.members[access.Tester]
	ok := dev.createTest(t, o.project, doc("Fine", 1))
	private := tester.createTest(t, o.project, map[string]any{"name": "Mine", "visibility": "Private"})
	old := dev.createTest(t, o.project, doc("Old", 1))
	mgr.do("PUT", "/api/tests/"+old, map[string]any{"status": "Ready"}).want(t, 200)
	mgr.do("PUT", "/api/tests/"+old, map[string]any{"status": "Deprecated"}).want(t, 200)
	// Saved documents are valid; one can turn invalid when the rules change.
	broken := dev.createTest(t, o.project, doc("Broken", 1))
	if _, err := h.store.Pool().Exec(t.Context(), `UPDATE test_versions SET content = jsonb_set(content, '{steps,0}', '{"id": "s1", "type": "click"}')
		WHERE test_id = $1`, broken); err != nil {
		t.Fatal(err)
	}
	other := o.owner.do("POST", "/api/orgs/"+o.id+"/projects", map[string]string{"name": "Other"}).want(t, 201).str("id")
	elsewhere := o.owner.createTest(t, other, doc("Elsewhere", 1))

	r := dev.do("POST", "/api/runs", map[string]any{"testIds": []string{ok, "tc_aaaaaaaaaaaaaaaa", private, old, broken, "junk", elsewhere}},
		ProjectHeader, o.project).want(t, 422)
	var body struct{ Issues []Issue }
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatal(err)
	}
	want := "testIds[1]:unknown testIds[2]:unknown testIds[3]:deprecated testIds[4]:invalid_document testIds[5]:unknown testIds[6]:unknown"
	var got []string
	for _, is := range body.Issues {
		got = append(got, is.Path+":"+is.Code)
	}
	if strings.Join(got, " ") != want {
		t.Errorf("issues %v\nwant %s", got, want)
	}
	if strings.Contains(string(r.body), "Mine") || strings.Contains(string(r.body), "Elsewhere") {
		t.Errorf("a refusal names a test the caller cannot see: %s", r.body)
	}
	if n := len(readAudit(t, h)); n != 1 {
		t.Errorf("audit lines %d, want 1 (the other project's test)", n)
	}
	for _, body := range []map[string]any{
		{"testIds": []string{}},
		{"suite": "Nope"},
		{"suite": ""}, // Unsorted holds Broken: the whole suite is refused
		{"testId": ok, "testIds": []string{ok}},
		{"testIds": []string{ok}, "suite": "X"},
		{"testIds": []string{ok}, "environmentId": "env_aaaaaaaaaaaaaaaa"},
		{"testIds": strings.Split(strings.Repeat(ok+",", maxBatchTests+1), ",")[:maxBatchTests+1]},
	} {
		dev.do("POST", "/api/runs", body, ProjectHeader, o.project).want(t, 422)
	}
	// A protected environment: a Draft test may not use it.
	env := protectedEnv(t, mgr, o.project, "Prod", true)
	r = mgr.do("POST", "/api/runs", map[string]any{"testIds": []string{ok}, "environmentId": env}, ProjectHeader, o.project).want(t, 403)
	if r.str("code") != codeEnvironmentProtected || !strings.Contains(string(r.body), "testIds[0]") {
		t.Errorf("protected: %s", r.body)
	}
	if n := countRuns(t, h); n != 0 {
		t.Errorf("%d runs queued by refused batches", n)
	}
	// A Tester may run tests; the route needs the project header.
	tester.do("POST", "/api/runs", map[string]any{"testIds": []string{ok}}).want(t, 400)
}

// A batch's runs spread over the caller's agents (least busy first); every
// member of the project sees the batch, counted over the runs they can see;
// "Run the failed ones again" starts a new batch of the tests that did not
// pass, with the same options.
func TestBatchAgentsVisibilityAndRerun(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	tester, admin := o.members[access.Tester], o.members[access.Admin]
	a1 := h.rawAgent(t, tester, "")
	a2 := h.rawAgent(t, tester, "")
	s1 := tester.createTest(t, o.project, doc("One", 1))
	s2 := tester.createTest(t, o.project, doc("Two", 1))
	s3 := tester.createTest(t, o.project, doc("Three", 1))
	priv := tester.createTest(t, o.project, map[string]any{"name": "Private one", "visibility": "Private"})
	batch := tester.startBatch(t, o.project, map[string]any{"testIds": []string{s1, s2, priv, s3}, "headed": true})["batchId"].(string)

	// Four runs, two agents with four slots each: two runs each.
	var seq int64
	for _, a := range []*rawAgent{a1, a2} {
		jobs := []protocol.Job{a.assigned(), a.assigned()}
		for _, job := range jobs {
			a.send(protocol.Message{Type: protocol.MsgAccept, RunID: job.RunID})
			status := protocol.RunPassed
			if job.TestID == s2 {
				status = protocol.RunFailed
			}
			seq++
			a.send(protocol.Message{Type: protocol.MsgFinish, ID: seq, RunID: job.RunID, Result: report(job, status)})
			a.acked(seq)
		}
	}
	got := tester.do("GET", "/api/batches/"+batch, nil).want(t, 200).json()
	if got["status"] != "failed" || num(got["total"]) != 4 || num(got["passed"]) != 3 || num(got["failed"]) != 1 || got["finishedAt"] == nil {
		t.Errorf("owner's batch: %v", got)
	}
	// Another member sees the batch without the private test's run.
	seen := admin.do("GET", "/api/batches/"+batch, nil).want(t, 200)
	if got := seen.json(); num(got["total"]) != 3 || num(got["passed"]) != 2 || strings.Contains(string(seen.body), priv) {
		t.Errorf("admin's batch: %s", seen.body)
	}
	if runs := admin.do("GET", "/api/runs?batchId="+batch, nil, ProjectHeader, o.project).want(t, 200).json()["runs"].([]any); len(runs) != 3 {
		t.Errorf("admin lists %d runs of the batch", len(runs))
	}

	// Run the failed ones again: only Two, same options, a new batch.
	again := admin.do("POST", "/api/batches/"+batch+"/rerun", map[string]any{"failedOnly": true}).want(t, 201).json()
	if runs := again["runs"].([]any); len(runs) != 1 || runs[0].(map[string]any)["testId"] != s2 {
		t.Errorf("rerun of the failed: %v", again)
	}
	rb := admin.do("GET", "/api/batches/"+again["batchId"].(string), nil).want(t, 200).json()
	if rb["source"] != "rerun" || rb["rerunOf"] != batch || rb["options"].(map[string]any)["headed"] != true {
		t.Errorf("rerun batch: %v", rb)
	}
	all := tester.do("POST", "/api/batches/"+batch+"/rerun", map[string]any{"failedOnly": false}).want(t, 201).json()
	if len(all["runIds"].([]any)) != 4 {
		t.Errorf("rerun of all: %v", all)
	}
	// A batch where nothing failed has nothing to run again.
	sole := tester.startBatch(t, o.project, map[string]any{"testIds": []string{s1}})["batchId"].(string)
	tester.do("POST", "/api/batches/"+sole+"/rerun", map[string]any{"failedOnly": true}).want(t, 422) // still queued: not failed

	// Outsiders: another project's header, another organization's user.
	other := o.owner.do("POST", "/api/orgs/"+o.id+"/projects", map[string]string{"name": "Other"}).want(t, 201).str("id")
	before := len(readAudit(t, h))
	tester.do("GET", "/api/batches/"+batch, nil, ProjectHeader, other).want(t, 404)
	tester.do("POST", "/api/batches/"+batch+"/rerun", map[string]any{}, ProjectHeader, other).want(t, 404)
	if n := len(readAudit(t, h)); n != before+2 {
		t.Errorf("audit lines %d, want %d", n, before+2)
	}
	stranger, _ := h.register("Stranger")
	stranger.do("GET", "/api/batches/"+batch, nil).want(t, 404)
	stranger.do("POST", "/api/batches/"+batch+"/rerun", map[string]any{}).want(t, 404)
	tester.do("GET", "/api/batches/bat_aaaaaaaaaaaaaaaa", nil).want(t, 404)
	tester.do("POST", "/api/batches/"+batch+"/rerun", "[1]").want(t, 400)
}
