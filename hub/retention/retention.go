// Package retention prunes what finished runs keep, by the hub's settings
// (issue 32, docs/retention.md): the artifacts and traces of passed and
// cancelled runs after HUB_RETAIN_RUNS_DAYS, of failed and error runs
// after HUB_RETAIN_FAILED_DAYS, and the run rows themselves after
// HUB_RETAIN_RUN_ROWS_DAYS. It works in small batches with a pause
// between them, in one hub at a time (store.OnceAcrossHubs), and deletes
// the bytes before it changes the rows, so a crash in the middle loses
// nothing still wanted and leaves no bytes behind for good.
package retention

import (
	"context"
	"log/slog"
	"time"

	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/store"
)

// Policy is the retention settings, in days; 0 keeps forever.
type Policy struct {
	PassedDays int // HUB_RETAIN_RUNS_DAYS: passed and cancelled runs' artifacts and traces
	FailedDays int // HUB_RETAIN_FAILED_DAYS: failed and error runs' artifacts and traces
	RowsDays   int // HUB_RETAIN_RUN_ROWS_DAYS: the runs themselves, with their events
}

// On reports whether any setting asks to prune.
func (p Policy) On() bool { return p.PassedDays > 0 || p.FailedDays > 0 || p.RowsDays > 0 }

// Cutoffs turns the days into the finish times before which runs go.
func (p Policy) Cutoffs(now time.Time) store.RetentionCutoffs {
	before := func(days int) *time.Time {
		if days <= 0 {
			return nil
		}
		t := now.Add(-time.Duration(days) * 24 * time.Hour)
		return &t
	}
	return store.RetentionCutoffs{Passed: before(p.PassedDays), Failed: before(p.FailedDays), Rows: before(p.RowsDays)}
}

// Defaults of a Pruner's pacing.
const (
	Interval   = 5 * time.Minute // between passes
	Batch      = 100             // runs per batch
	Pause      = time.Second     // between batches
	MaxBatches = 50              // per kind and pass: a pass ends, the next goes on
)

// Pruner prunes by a Policy. Zero pacing fields take the defaults above.
type Pruner struct {
	Policy    Policy
	Store     *store.Store
	Artifacts artifacts.RunRemover
	Logger    *slog.Logger
	Now       func() time.Time // time.Now when nil

	Interval   time.Duration
	Batch      int
	Pause      time.Duration
	MaxBatches int
}

// New makes a Pruner with the default pacing over the hub's artifacts
// backend. A backend that cannot delete a run's artifacts prunes nothing:
// deleting rows without their bytes would leave bytes no row names.
func New(p Policy, st *store.Store, arts artifacts.Store, logger *slog.Logger) *Pruner {
	rm, _ := arts.(artifacts.RunRemover)
	return &Pruner{Policy: p, Store: st, Artifacts: rm, Logger: logger}
}

// Result counts what a pass did.
type Result struct {
	Pruned  int // runs whose artifacts and traces went
	Deleted int // runs whose rows went
}

// Run prunes now, then every Interval, until ctx ends. It does nothing
// when the Policy keeps everything.
func (p *Pruner) Run(ctx context.Context) {
	if !p.Policy.On() {
		return
	}
	if p.Artifacts == nil {
		p.Logger.Error("retention is set but this artifacts backend cannot delete a run's artifacts: nothing is pruned")
		return
	}
	t := time.NewTicker(or(p.Interval, Interval))
	defer t.Stop()
	for {
		res, ran, err := p.Pass(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			p.Logger.Warn("retention pass", "err", err, "pruned", res.Pruned, "deleted", res.Deleted)
		case ran && (res.Pruned > 0 || res.Deleted > 0):
			p.Logger.Info("retention", "artifactsPruned", res.Pruned, "runsDeleted", res.Deleted)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Pass prunes once, unless another hub (or goroutine) is pruning now: ran
// is false then.
func (p *Pruner) Pass(ctx context.Context) (Result, bool, error) {
	var res Result
	ran, err := p.Store.OnceAcrossHubs(ctx, "retention", func(ctx context.Context) error {
		now := time.Now
		if p.Now != nil {
			now = p.Now
		}
		c := p.Policy.Cutoffs(now())
		var err error
		if c.Rows != nil {
			res.Deleted, err = p.batches(ctx, func(ctx context.Context, n int) (int, int, error) { return p.deleteRows(ctx, *c.Rows, n) })
			if err != nil {
				return err
			}
		}
		if c.Passed != nil || c.Failed != nil {
			res.Pruned, err = p.batches(ctx, func(ctx context.Context, n int) (int, int, error) { return p.pruneArtifacts(ctx, c, now(), n) })
		}
		return err
	})
	return res, ran, err
}

// batches runs one kind of batch until a batch comes back short, fails,
// or MaxBatches ran, pausing between batches. step answers how many runs
// it found and how many it handled.
func (p *Pruner) batches(ctx context.Context, step func(ctx context.Context, n int) (found, done int, err error)) (int, error) {
	size := or(p.Batch, Batch)
	total := 0
	for i := range or(p.MaxBatches, MaxBatches) {
		if i > 0 {
			select {
			case <-ctx.Done():
				return total, ctx.Err()
			case <-time.After(or(p.Pause, Pause)):
			}
		}
		found, done, err := step(ctx, size)
		total += done
		// A run whose bytes could not go stays as it was; the next pass
		// tries again rather than this one finding it again and again.
		if err != nil || found < size || done < found {
			return total, err
		}
	}
	return total, nil
}

// pruneArtifacts deletes the bytes of a batch of runs, then marks those
// whose bytes went.
func (p *Pruner) pruneArtifacts(ctx context.Context, c store.RetentionCutoffs, now time.Time, n int) (int, int, error) {
	ids, err := p.Store.RunsToPrune(ctx, c, n)
	if err != nil || len(ids) == 0 {
		return 0, 0, err
	}
	gone := p.deleteBytes(ctx, ids)
	if len(gone) == 0 {
		return len(ids), 0, nil
	}
	marked, err := p.Store.MarkArtifactsPruned(ctx, gone, now)
	return len(ids), marked, err
}

// deleteRows deletes a batch of old runs: the bytes of those not pruned
// yet, then the rows whose bytes are gone.
func (p *Pruner) deleteRows(ctx context.Context, before time.Time, n int) (int, int, error) {
	old, err := p.Store.RunRowsToDelete(ctx, before, n)
	if err != nil || len(old) == 0 {
		return 0, 0, err
	}
	var ids, withBytes []string
	for _, o := range old {
		if o.Pruned {
			ids = append(ids, o.ID)
		} else {
			withBytes = append(withBytes, o.ID)
		}
	}
	ids = append(ids, p.deleteBytes(ctx, withBytes)...)
	if len(ids) == 0 {
		return len(old), 0, nil
	}
	deleted, err := p.Store.DeleteRunRows(ctx, ids, before)
	return len(old), deleted, err
}

// deleteBytes deletes each run's artifacts and answers the runs whose
// bytes are gone; a failure is logged and its run left for the next pass.
func (p *Pruner) deleteBytes(ctx context.Context, runIDs []string) []string {
	gone := make([]string, 0, len(runIDs))
	for _, id := range runIDs {
		if err := p.Artifacts.DeleteRun(ctx, id); err != nil {
			p.Logger.Warn("retention: delete a run's artifacts", "run", id, "err", err)
			continue
		}
		gone = append(gone, id)
	}
	return gone
}

func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}
