package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// Retention (issue 32, docs/retention.md): the questions and changes of
// the retention job (hub/retention). Only finished runs are ever chosen,
// by when they finished; the job deletes their bytes through the
// artifacts backend before it changes their rows.

// RetentionCutoffs says which finished runs retention takes: a nil cutoff
// takes none (the setting is unset: keep forever).
type RetentionCutoffs struct {
	Passed *time.Time // passed and cancelled runs finished before it lose their artifacts
	Failed *time.Time // failed and error runs finished before it lose their artifacts
	Rows   *time.Time // runs finished before it lose their rows (events and artifacts with them)
}

// finished is every status a run ends with; retention never looks at
// another (queued, running).
const finished = `('passed', 'failed', 'error', 'cancelled')`

// pinnedRun is true for the runs retention keeps whatever their age: the
// last passed run of a test on an environment, which "since it last
// passed" compares every new failure with (Baseline, runs_compare.go).
const pinnedRun = `(r.status = 'passed' AND r.data_set_id IS NULL AND NOT EXISTS (SELECT 1 FROM runs b
	WHERE b.test_id = r.test_id AND b.environment_id IS NOT DISTINCT FROM r.environment_id
	AND b.status = 'passed' AND b.data_set_id IS NULL AND (b.created_at, b.id) > (r.created_at, r.id)))`

// RunsToPrune lists up to limit runs whose artifacts the cutoffs take,
// the longest finished first.
func (s *Store) RunsToPrune(ctx context.Context, c RetentionCutoffs, limit int) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT r.id FROM runs r
		WHERE r.artifacts_pruned_at IS NULL AND r.status IN `+finished+`
		AND r.finished_at < greatest($1::timestamptz, $2::timestamptz) -- bounds the index scan (NULLs ignored)
		AND ((r.status IN ('passed', 'cancelled') AND r.finished_at < $1) OR (r.status IN ('failed', 'error') AND r.finished_at < $2))
		AND NOT `+pinnedRun+`
		ORDER BY r.finished_at, r.id LIMIT $3`, c.Passed, c.Failed, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// MarkArtifactsPruned notes that the bytes of these runs are gone: their
// artifact rows go (so nothing offers a file that is not there), their
// byte counts fall to zero (storage used), and artifacts_pruned_at says
// when. A run already marked keeps its first date. It answers how many
// runs it marked.
func (s *Store) MarkArtifactsPruned(ctx context.Context, runIDs []string, at time.Time) (int, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	tag, err := tx.Exec(ctx, `UPDATE runs SET artifacts_pruned_at = $2, artifact_bytes = 0, trace_bytes = 0
		WHERE id = ANY($1) AND artifacts_pruned_at IS NULL AND status IN `+finished, runIDs, at)
	if err != nil {
		return 0, err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM run_artifacts a USING runs r
		WHERE a.run_id = r.id AND r.id = ANY($1) AND r.artifacts_pruned_at IS NOT NULL`, runIDs); err != nil {
		return 0, err
	}
	return int(tag.RowsAffected()), tx.Commit(ctx)
}

// OldRun is a run whose row retention deletes; Pruned: its bytes are gone
// already.
type OldRun struct {
	ID     string
	Pruned bool
}

// RunRowsToDelete lists up to limit finished runs the cutoff takes, the
// longest finished first. Besides the pinned runs, it keeps each test's
// last run (the test list links to it).
func (s *Store) RunRowsToDelete(ctx context.Context, before time.Time, limit int) ([]OldRun, error) {
	rows, err := s.pool.Query(ctx, `SELECT r.id, r.artifacts_pruned_at IS NOT NULL FROM runs r
		WHERE r.status IN `+finished+` AND r.finished_at < $1 AND NOT `+pinnedRun+`
		AND NOT EXISTS (SELECT 1 FROM tests t WHERE t.id = r.test_id AND t.last_run_id = r.id)
		ORDER BY r.finished_at, r.id LIMIT $2`, before, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (OldRun, error) {
		var o OldRun
		return o, r.Scan(&o.ID, &o.Pruned)
	})
}

// DeleteRunRows deletes these runs (their events and artifact rows go
// with them, ON DELETE CASCADE) if they are still finished before the
// cutoff, then the batches they leave without a run: a schedule's history
// keeps its line (schedule_runs.batch_id falls to NULL). It answers how
// many runs it deleted.
func (s *Store) DeleteRunRows(ctx context.Context, runIDs []string, before time.Time) (int, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	rows, err := tx.Query(ctx, `DELETE FROM runs WHERE id = ANY($1) AND status IN `+finished+` AND finished_at < $2
		RETURNING coalesce(batch_id, '')`, runIDs, before)
	if err != nil {
		return 0, err
	}
	batches, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return 0, err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM batches b WHERE b.id = ANY($1)
		AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.batch_id = b.id)`, batches); err != nil {
		return 0, err
	}
	return len(batches), tx.Commit(ctx)
}

// ArtifactsPrunedAt is when retention removed a run's artifacts; nil
// while it keeps them. ErrNotFound for no such run.
func (s *Store) ArtifactsPrunedAt(ctx context.Context, runID string) (*time.Time, error) {
	var at *time.Time
	err := s.pool.QueryRow(ctx, `SELECT artifacts_pruned_at FROM runs WHERE id = $1`, runID).Scan(&at)
	if isNoRows(err) {
		return nil, ErrNotFound
	}
	return at, err
}

// ProjectStorage is what one project keeps: its runs, the bytes of their
// artifacts and traces (zero for a pruned run), its files.
type ProjectStorage struct {
	ProjectID, ProjectName string
	OrgID, OrgName         string
	Runs, PrunedRuns       int64
	ArtifactBytes          int64
	TraceBytes             int64
	Files, FileBytes       int64
}

// Storage lists every project's storage, the largest first.
func (s *Store) Storage(ctx context.Context) ([]ProjectStorage, error) {
	rows, err := s.pool.Query(ctx, `SELECT p.id, p.name, o.id, o.name,
			coalesce(r.runs, 0), coalesce(r.pruned, 0), coalesce(r.art, 0), coalesce(r.tr, 0), coalesce(f.n, 0), coalesce(f.bytes, 0)
		FROM projects p JOIN organizations o ON o.id = p.org_id
		LEFT JOIN (SELECT project_id, count(*) AS runs, count(*) FILTER (WHERE artifacts_pruned_at IS NOT NULL) AS pruned,
			sum(artifact_bytes)::bigint AS art, sum(trace_bytes)::bigint AS tr FROM runs GROUP BY project_id) r ON r.project_id = p.id
		LEFT JOIN (SELECT project_id, count(*) AS n, sum(size)::bigint AS bytes FROM files GROUP BY project_id) f ON f.project_id = p.id
		ORDER BY coalesce(r.art, 0) + coalesce(r.tr, 0) + coalesce(f.bytes, 0) DESC, lower(o.name), lower(p.name), p.id`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (ProjectStorage, error) {
		var p ProjectStorage
		return p, r.Scan(&p.ProjectID, &p.ProjectName, &p.OrgID, &p.OrgName, &p.Runs, &p.PrunedRuns,
			&p.ArtifactBytes, &p.TraceBytes, &p.Files, &p.FileBytes)
	})
}
