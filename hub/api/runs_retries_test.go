package api

import (
	"testing"
)

// The run option retries reaches the agent's job and is kept on the run
// and its batch (for reruns); outside 0..3 it is refused and nothing
// starts.
func TestRunRetriesOption(t *testing.T) {
	f := newTraceFixture(t, newTraceRunner())
	test := f.user.createTest(t, f.o.project, traceDoc("Retried"))
	for _, bad := range []any{-1, 4, "two", 1.5} {
		for _, body := range []map[string]any{{"testId": test, "retries": bad}, {"testIds": []string{test}, "retries": bad}} {
			r := f.user.do("POST", "/api/runs", body, ProjectHeader, f.o.project)
			if r.status != 422 && r.status != 400 {
				t.Errorf("retries %v: %d %s", bad, r.status, r.body)
			}
		}
	}
	if n := len(f.user.do("GET", "/api/runs", nil, ProjectHeader, f.o.project).want(t, 200).json()["runs"].([]any)); n != 0 {
		t.Fatalf("refused requests made %d runs", n)
	}
	runID, job := f.run(t, traceDoc("Twice"), map[string]any{"retries": 2})
	if job.Retries != 2 {
		t.Errorf("the agent's job has retries %d, want 2", job.Retries)
	}
	run := f.user.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
	if got := run["options"].(map[string]any)["retries"]; got != float64(2) {
		t.Errorf("options.retries %v", got)
	}
	b := f.user.do("POST", "/api/runs", map[string]any{"testIds": []string{test}, "retries": 3}, ProjectHeader, f.o.project).want(t, 201).str("batchId")
	batch := f.user.do("GET", "/api/batches/"+b, nil).want(t, 200).json()
	if got := batch["options"].(map[string]any)["retries"]; got != float64(3) {
		t.Errorf("batch options.retries %v", got)
	}
	again := f.user.do("POST", "/api/batches/"+b+"/rerun", map[string]any{}).want(t, 201).str("batchId")
	if got := f.user.do("GET", "/api/batches/"+again, nil).want(t, 200).json()["options"].(map[string]any)["retries"]; got != float64(3) {
		t.Errorf("the rerun's options.retries %v", got)
	}
}
