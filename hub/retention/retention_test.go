package retention_test

import (
	"context"
	"log/slog"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/retention"
	"github.com/testautomation/ta/hub/store"
)

func (w *world) pruner(p retention.Policy, rm artifacts.RunRemover) *retention.Pruner {
	pr := retention.New(p, w.st, w.dir, slog.New(slog.DiscardHandler))
	pr.Now = func() time.Time { return w.now }
	pr.Pause = time.Millisecond
	if rm != nil {
		pr.Artifacts = rm
	}
	return pr
}

// What retention does to a run.
type fate int

const (
	kept    fate = iota // untouched: row, events, artifact rows, bytes
	pruned              // bytes and artifact rows gone, marked, byte counts zero; row and events kept
	deleted             // row, events, artifact rows and bytes gone
)

// Retention prunes exactly what its settings name, by finish time: passed
// and cancelled runs by HUB_RETAIN_RUNS_DAYS, failed and error runs by
// HUB_RETAIN_FAILED_DAYS, rows by HUB_RETAIN_RUN_ROWS_DAYS; never a run
// still queued or running, however old; never what a test's comparison
// or its last run needs. A second pass changes nothing.
func TestRetentionPrunesExactly(t *testing.T) {
	w := newWorld(t)
	ctx := t.Context()
	a, lone, last := w.test("A"), w.test("Lone"), w.test("Last")
	want := map[string]fate{}
	names := map[string]string{}
	add := func(name string, f fate, id string) string { want[id], names[id] = f, name; return id }
	add("passed, the latest (the comparison's baseline)", kept, w.run(a, "passed", 0.5))
	add("passed 29 days ago", kept, w.run(a, "passed", 29))
	add("passed 31 days ago", pruned, w.run(a, "passed", 31))
	add("cancelled 29 days ago", kept, w.run(a, "cancelled", 29))
	add("cancelled 31 days ago", pruned, w.run(a, "cancelled", 31))
	add("failed 31 days ago", kept, w.run(a, "failed", 31))
	add("failed 89 days ago", kept, w.run(a, "failed", 89))
	add("failed 91 days ago", pruned, w.run(a, "failed", 91))
	add("error 91 days ago", pruned, w.run(a, "error", 91))
	add("passed 364 days ago", pruned, w.run(a, "passed", 364))
	add("passed 366 days ago", deleted, w.run(a, "passed", 366))
	add("failed 400 days ago", deleted, w.run(a, "failed", 400))
	add("queued 400 days ago", kept, w.run(a, "queued", 400))
	add("running since 400 days", kept, w.run(a, "running", 400))
	// A run going again (re-queued) that had a finish time: its status rules.
	odd := add("running again, finished 400 days ago", kept, w.run(a, "running", 400))
	w.exec(`UPDATE runs SET finished_at = started_at WHERE id = $1`, odd)
	add("the only passed run of a test, 400 days ago (its baseline)", kept, w.run(lone, "passed", 400))
	lastRun := add("a test's last run, failed 400 days ago", pruned, w.run(last, "failed", 400))
	w.exec(`UPDATE tests SET last_run_id = $1, last_run_status = 'failed' WHERE id = $2`, lastRun, last)
	// A batch whose runs all go goes; one keeping a run stays.
	gone, stays := "bat_"+lastRun[4:], "bat_"+odd[4:]
	for _, b := range []string{gone, stays} {
		w.exec(`INSERT INTO batches (id, project_id, headed, screenshots, source, created_at) VALUES ($1, $2, false, true, 'tests', $3)`,
			b, w.project, w.now.AddDate(-2, 0, 0))
	}
	for _, r := range []string{add("failed 500 days ago, in a batch", deleted, w.run(a, "failed", 500)),
		add("passed 500 days ago, in a batch", deleted, w.run(a, "passed", 500))} {
		w.exec(`UPDATE runs SET batch_id = $1 WHERE id = $2`, gone, r)
	}
	w.exec(`UPDATE runs SET batch_id = $1 WHERE id = $2`, stays, add("failed 500 days ago, beside a kept run", deleted, w.run(a, "failed", 500)))
	w.exec(`UPDATE runs SET batch_id = $1 WHERE id = $2`, stays, odd)

	all := slices.Collect(maps.Keys(want))
	before := w.states(all)
	pr := w.pruner(retention.Policy{PassedDays: 30, FailedDays: 90, RowsDays: 365}, nil)
	res, ran, err := pr.Pass(ctx)
	if err != nil || !ran {
		t.Fatalf("pass: ran %v, err %v", ran, err)
	}
	counts := map[fate]int{}
	for id, f := range want {
		counts[f]++
		got, was := w.state(id), before[id]
		switch f {
		case kept:
			if got != was {
				t.Errorf("%s: changed\nwas %+v\nnow %+v", names[id], was, got)
			}
		case pruned:
			at := w.prunedAt(id)
			if got.files || got.artifacts != 0 || got.events != 1 || at == nil || !at.Equal(w.now) {
				t.Errorf("%s: want its bytes and artifact rows gone, its events kept, marked at %v; got %+v, marked %v", names[id], w.now, got, at)
			}
			var bytes int64
			if err := w.pool.QueryRow(ctx, `SELECT artifact_bytes + trace_bytes FROM runs WHERE id = $1`, id).Scan(&bytes); err != nil || bytes != 0 {
				t.Errorf("%s: bytes counted %d (%v), want 0", names[id], bytes, err)
			}
		case deleted:
			if got != (state{}) {
				t.Errorf("%s: want it all gone, got %+v", names[id], got)
			}
		}
	}
	if res.Pruned != counts[pruned] || res.Deleted != counts[deleted] {
		t.Errorf("pass said %+v, want %d pruned and %d deleted", res, counts[pruned], counts[deleted])
	}
	var batches []string
	rows, _ := w.pool.Query(ctx, `SELECT id FROM batches ORDER BY id`)
	for rows.Next() {
		var id string
		_ = rows.Scan(&id)
		batches = append(batches, id)
	}
	if !slices.Equal(batches, []string{stays}) {
		t.Errorf("batches left %v, want only the one keeping a run %s", batches, stays)
	}

	after := w.states(all)
	res, ran, err = pr.Pass(ctx)
	if err != nil || !ran || res != (retention.Result{}) {
		t.Fatalf("second pass: %+v, ran %v, err %v", res, ran, err)
	}
	if again := w.states(all); !maps.Equal(again, after) {
		t.Error("the second pass changed something")
	}
}

// Unset settings keep everything, however old.
func TestRetentionUnsetKeepsForever(t *testing.T) {
	w := newWorld(t)
	a := w.test("A")
	ids := []string{w.run(a, "passed", 3000), w.run(a, "failed", 3000), w.run(a, "passed", 2999), w.run(a, "cancelled", 3000)}
	before := w.states(ids)
	pr := w.pruner(retention.Policy{}, nil)
	if res, _, err := pr.Pass(t.Context()); err != nil || res != (retention.Result{}) {
		t.Fatalf("pass: %+v, %v", res, err)
	}
	// Only failed runs have a limit: passed ones stay whole.
	pr = w.pruner(retention.Policy{FailedDays: 1}, nil)
	if res, _, err := pr.Pass(t.Context()); err != nil || res != (retention.Result{Pruned: 1}) {
		t.Fatalf("failed only: %+v, %v", res, err)
	}
	for i, id := range ids {
		if got := w.state(id); (got != before[id]) != (i == 1) {
			t.Errorf("run %d: was %+v, now %+v", i, before[id], got)
		}
	}
}

// Two hubs pruning at once on one database prune each run once: the
// second finds the job taken while the first works.
func TestRetentionOnceAcrossHubs(t *testing.T) {
	w := newWorld(t)
	a := w.test("A")
	var runs []string
	for range 6 {
		runs = append(runs, w.run(a, "failed", 40))
	}
	other, err := pgxpoolNew(t, w.url)
	if err != nil {
		t.Fatal(err)
	}
	policy := retention.Policy{FailedDays: 30}
	first := newCounting(w.dir)
	hubA := w.pruner(policy, first)
	hubA.Batch, hubA.Pause = 2, 100*time.Millisecond
	second := newCounting(w.dir)
	hubB := retention.New(policy, store.New(other), w.dir, hubA.Logger)
	hubB.Artifacts, hubB.Now = second, hubA.Now
	done := make(chan error, 1)
	go func() {
		res, ran, err := hubA.Pass(context.Background())
		if err == nil && (!ran || res.Pruned != len(runs)) {
			t.Errorf("the first hub: ran %v, %+v", ran, res)
		}
		done <- err
	}()
	<-first.started
	if res, ran, err := hubB.Pass(t.Context()); err != nil || ran || res != (retention.Result{}) {
		t.Errorf("the second hub while the first prunes: ran %v, %+v, %v", ran, res, err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if res, ran, err := hubB.Pass(t.Context()); err != nil || !ran || res != (retention.Result{}) {
		t.Errorf("the second hub afterwards: ran %v, %+v, %v", ran, res, err)
	}
	for _, id := range runs {
		if first.deletes[id] != 1 || second.deletes[id] != 0 || w.prunedAt(id) == nil {
			t.Errorf("run %s: deleted %d+%d times, marked %v", id, first.deletes[id], second.deletes[id], w.prunedAt(id))
		}
	}
}

// More runs than a batch: a pass goes on batch after batch (up to its
// cap), and passes capped at one batch get through them all in turn.
func TestRetentionBatches(t *testing.T) {
	w := newWorld(t)
	a := w.test("A")
	for range 7 {
		w.run(a, "cancelled", 10)
	}
	pr := w.pruner(retention.Policy{PassedDays: 5}, nil)
	pr.Batch, pr.MaxBatches = 3, 1
	for i, want := range []int{3, 3, 1, 0} {
		if res, _, err := pr.Pass(t.Context()); err != nil || res.Pruned != want {
			t.Fatalf("pass %d: %+v, %v; want %d pruned", i+1, res, err, want)
		}
	}
	for range 7 {
		w.run(a, "failed", 10)
	}
	pr = w.pruner(retention.Policy{FailedDays: 5}, nil)
	pr.Batch = 3
	if res, _, err := pr.Pass(t.Context()); err != nil || res.Pruned != 7 {
		t.Fatalf("an uncapped pass: %+v, %v; want all 7", res, err)
	}
}

// Bytes go before the rows say so: a run whose bytes could not be
// deleted is neither marked nor deleted (its bytes would stay with no row
// naming them), and the next pass takes it; a run whose bytes went but
// whose pass ended before marking it is marked by the next.
func TestRetentionCrashSafety(t *testing.T) {
	w := newWorld(t)
	a := w.test("A")
	stuck, stuckRow, half, other := w.run(a, "failed", 40), w.run(a, "failed", 400), w.run(a, "failed", 40), w.run(a, "failed", 40)
	if err := w.dir.DeleteRun(t.Context(), half); err != nil { // the pass that deleted them died here
		t.Fatal(err)
	}
	rm := newCounting(w.dir)
	rm.fail[stuck], rm.fail[stuckRow] = true, true
	pr := w.pruner(retention.Policy{FailedDays: 30, RowsDays: 365}, rm)
	if _, _, err := pr.Pass(t.Context()); err != nil {
		t.Fatal(err)
	}
	if s := w.state(stuck); !s.files || s.artifacts != 2 || w.prunedAt(stuck) != nil {
		t.Errorf("a run whose bytes could not go: %+v, marked %v", s, w.prunedAt(stuck))
	}
	if s := w.state(stuckRow); s.row == "" || !s.files {
		t.Errorf("an old run whose bytes could not go lost its row: %+v", s)
	}
	for _, id := range []string{half, other} {
		if s := w.state(id); s.files || s.artifacts != 0 || w.prunedAt(id) == nil {
			t.Errorf("run %s: %+v, marked %v", id, s, w.prunedAt(id))
		}
	}
	rm.fail = map[string]bool{} // the storage is back
	if res, _, err := pr.Pass(t.Context()); err != nil || res != (retention.Result{Pruned: 1, Deleted: 1}) {
		t.Fatalf("the next pass: %+v, %v", res, err)
	}
	if s := w.state(stuck); s.files || w.prunedAt(stuck) == nil {
		t.Errorf("the stuck run after the storage came back: %+v", s)
	}
	if s := w.state(stuckRow); s != (state{}) {
		t.Errorf("the old stuck run after the storage came back: %+v", s)
	}
}

// The hub's loop prunes at start and again every interval until the hub
// stops; with nothing set, or a backend that cannot delete a run's
// artifacts, it prunes nothing and returns at once.
func TestRetentionRunLoop(t *testing.T) {
	w := newWorld(t)
	a := w.test("A")
	first := w.run(a, "failed", 40)
	pr := w.pruner(retention.Policy{FailedDays: 30}, nil)
	pr.Interval = 20 * time.Millisecond
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { pr.Run(ctx); close(done) }()
	waitPruned := func(id string) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); w.prunedAt(id) == nil; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("run %s was not pruned", id)
			}
		}
	}
	waitPruned(first)
	waitPruned(w.run(a, "error", 40)) // a later pass
	stop()
	<-done

	for _, pr := range []*retention.Pruner{
		retention.New(retention.Policy{}, w.st, w.dir, pr.Logger),
		retention.New(retention.Policy{FailedDays: 30}, w.st, openOnly{w.dir}, pr.Logger),
	} {
		old := w.run(a, "failed", 40)
		pr.Interval = time.Millisecond
		pr.Run(t.Context()) // returns: nothing to do
		if s := w.state(old); !s.files || w.prunedAt(old) != nil {
			t.Errorf("pruned without a way to: %+v", s)
		}
	}
}

// openOnly is an artifacts backend that cannot delete a run's artifacts.
type openOnly struct{ artifacts.Store }
