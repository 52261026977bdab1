package api

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/dbtest"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/retention"
)

// storedRun writes a finished run of test straight into the database, as
// an agent would have left it, with a screenshot in the artifacts folder;
// artifact and trace bytes as counted.
func storedRun(t *testing.T, h poolHarness, project, test, status string, finished time.Time, artBytes, traceBytes int64) string {
	t.Helper()
	ctx := context.Background()
	id := ids.New("run")
	if _, err := h.pool.Exec(ctx, `INSERT INTO runs (id, project_id, test_id, version, status, headed, screenshots, created_at,
		started_at, finished_at, artifact_bytes, trace_bytes) VALUES ($1, $2, $3, 1, $4, false, true, $5, $5, $5, $6, $7)`,
		id, project, test, status, finished, artBytes, traceBytes); err != nil {
		t.Fatal(err)
	}
	dir := artifacts.Dir{Root: filepath.Join(h.dataDir, "artifacts")}
	if err := dir.Put(ctx, id, "step-0.png", pngBytes); err != nil {
		t.Fatal(err)
	}
	if _, err := h.pool.Exec(ctx, `INSERT INTO run_artifacts (run_id, name, content_type, size, step)
		VALUES ($1, 'step-0.png', 'image/png', $2, 0)`, id, len(pngBytes)); err != nil {
		t.Fatal(err)
	}
	return id
}

// pngBytes is the start of a PNG: enough for a screenshot's place.
var pngBytes = []byte("\x89PNG\r\n\x1a\n")

// A run whose screenshots retention removed says so: GET /api/runs/:id
// answers when (absent before), and its screenshot answers 410
// artifacts_pruned instead of a bare 404.
func TestRunSaysArtifactsPruned(t *testing.T) {
	h := newHarnessWithPool(t)
	o := h.org(t)
	test := o.owner.createTest(t, o.project, map[string]any{"name": "Flow"})
	now := time.Unix(0, h.clock.Load()).UTC()
	old := storedRun(t, h, o.project, test, "failed", now.AddDate(0, 0, -40), 5, 0)
	young := storedRun(t, h, o.project, test, "failed", now.AddDate(0, 0, -20), 5, 0)
	tester := o.members["Tester"]
	for _, id := range []string{old, young} {
		if r := tester.do("GET", "/api/runs/"+id, nil).want(t, 200); r.json()["artifactsPrunedAt"] != nil {
			t.Fatalf("before pruning: %s", r.body)
		}
		tester.do("GET", "/api/runs/"+id+"/artifacts/step-0.png", nil).want(t, 200)
	}
	pr := retention.New(retention.Policy{FailedDays: 30}, h.store, artifacts.Dir{Root: filepath.Join(h.dataDir, "artifacts")},
		slog.New(slog.DiscardHandler))
	pr.Now = func() time.Time { return now }
	if res, _, err := pr.Pass(t.Context()); err != nil || res.Pruned != 1 {
		t.Fatalf("pass: %+v, %v", res, err)
	}
	r := tester.do("GET", "/api/runs/"+old, nil).want(t, 200)
	if got := r.str("artifactsPrunedAt"); got != now.Format(timeFormat) {
		t.Errorf("artifactsPrunedAt %q, want %q", got, now.Format(timeFormat))
	}
	if r := tester.do("GET", "/api/runs/"+old+"/artifacts/step-0.png", nil).want(t, 410); r.str("code") != codeArtifactsPruned {
		t.Errorf("a pruned screenshot: %s", r.body)
	}
	tester.do("GET", "/api/runs/"+old+"/artifacts/other.png", nil).want(t, 410)
	// The trace download has the run and says why it holds no pictures.
	files := readZip(t, tester.do("GET", "/api/runs/"+old+"/trace.zip", nil).want(t, 200).body)
	var zipped runJSON
	if err := json.Unmarshal([]byte(files["run.json"]), &zipped); err != nil || zipped.ArtifactsPrunedAt == nil {
		t.Errorf("trace.zip of a pruned run: %v %v", names(files), files["run.json"])
	}
	if _, ok := files["step-0.png"]; ok {
		t.Errorf("trace.zip of a pruned run holds a screenshot: %v", names(files))
	}
	if r := tester.do("GET", "/api/runs/"+young, nil).want(t, 200); r.json()["artifactsPrunedAt"] != nil {
		t.Errorf("a run kept: %s", r.body)
	}
	tester.do("GET", "/api/runs/"+young+"/artifacts/step-0.png", nil).want(t, 200)
	tester.do("GET", "/api/runs/"+young+"/artifacts/other.png", nil).want(t, 404)
}

// poolHarness is a harness with its database pool, for tests that write
// rows the API then reads.
type poolHarness struct {
	*harness
	pool *pgxpool.Pool
}

func newHarnessWithPool(t *testing.T) poolHarness {
	pool := dbtest.Pool(t)
	return poolHarness{newHarnessOn(t, pool), pool}
}

// A comparison with a run whose screenshots retention removed says so and
// offers no screenshot of it, while this run's own still shows.
func TestCompareSaysBaselinePruned(t *testing.T) {
	h := newHarnessWithPool(t)
	o := h.org(t)
	test := o.owner.createTest(t, o.project, map[string]any{"name": "Flow"})
	now := time.Unix(0, h.clock.Load()).UTC()
	result := func(id, status string) {
		t.Helper()
		if _, err := h.pool.Exec(context.Background(), `UPDATE runs SET result = $2 WHERE id = $1`, id,
			`[{"index":0,"id":"s1","type":"navigate","status":"`+status+`","durationMs":1,"screenshot":"step-0.png"}]`); err != nil {
			t.Fatal(err)
		}
	}
	base := storedRun(t, h, o.project, test, "passed", now.AddDate(0, 0, -50), 5, 0)
	failed := storedRun(t, h, o.project, test, "failed", now.AddDate(0, 0, -45), 5, 0)
	later := storedRun(t, h, o.project, test, "passed", now.AddDate(0, 0, -10), 5, 0) // the baseline of failures to come
	result(base, "passed")
	result(failed, "failed")
	result(later, "passed")
	tester := o.members["Tester"]
	c := tester.do("GET", "/api/runs/"+failed+"/compare", nil).want(t, 200).json()
	if b := c["baseline"].(map[string]any); b["runId"] != base || b["artifactsPrunedAt"] != nil {
		t.Fatalf("before pruning: %v", c)
	}
	if d := c["diverged"].(map[string]any); d["baselineScreenshot"] != "step-0.png" {
		t.Fatalf("before pruning: %v", d)
	}
	pr := retention.New(retention.Policy{PassedDays: 30}, h.store, artifacts.Dir{Root: filepath.Join(h.dataDir, "artifacts")},
		slog.New(slog.DiscardHandler))
	pr.Now = func() time.Time { return now }
	if res, _, err := pr.Pass(t.Context()); err != nil || res.Pruned != 1 {
		t.Fatalf("pass: %+v, %v", res, err)
	}
	c = tester.do("GET", "/api/runs/"+failed+"/compare", nil).want(t, 200).json()
	if b := c["baseline"].(map[string]any); b["runId"] != base || b["artifactsPrunedAt"] != now.Format(timeFormat) {
		t.Errorf("baseline after pruning: %v", b)
	}
	if d := c["diverged"].(map[string]any); d["baselineScreenshot"] != "" || d["screenshot"] != "step-0.png" || d["pixels"] != nil {
		t.Errorf("diverged after pruning: %v", d)
	}
	if _, ok := c["artifactsPrunedAt"]; ok {
		t.Errorf("this run's artifacts were kept: %v", c)
	}
	tester.do("GET", "/api/runs/"+failed+"/artifacts/step-0.png", nil).want(t, 200)
}
