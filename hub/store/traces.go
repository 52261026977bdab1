package store

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Run traces (docs/trace.md): a run's trace artifacts are artifacts like
// any other (run_artifacts, same access, same retention), counted against
// a budget of their own so a long traced run loses the end of its trace
// rather than ending as error by the artifact limit.

// AddTraceArtifactWithin records a trace artifact of a run as
// AddArtifactWithin does, counting its bytes against lim.TraceBytes
// (runs.trace_bytes) instead. Over it, nothing is stored, the run's
// trace_dropped counts one more, and the answer is StoredOver.
func (s *Store) AddTraceArtifactWithin(ctx context.Context, runID string, a ArtifactRow, lim RunLimits) (Stored, error) {
	stored, err := s.addCounted(ctx, runID, a, "trace_bytes", lim.TraceBytes)
	if err != nil || stored != StoredOver {
		return stored, err
	}
	if _, err := s.pool.Exec(ctx, `UPDATE runs SET trace_dropped = trace_dropped + 1 WHERE id = $1`, runID); err != nil {
		return 0, err
	}
	return StoredOver, nil
}

// RunArtifacts lists a run's artifacts by name.
func (s *Store) RunArtifacts(ctx context.Context, runID string) ([]ArtifactRow, error) {
	rows, err := s.pool.Query(ctx, `SELECT name, content_type, size, step FROM run_artifacts WHERE run_id = $1 ORDER BY name`, runID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (ArtifactRow, error) {
		var a ArtifactRow
		err := r.Scan(&a.Name, &a.ContentType, &a.Size, &a.Step)
		return a, err
	})
}

// TraceDropped is how many trace artifacts of a run were refused over its
// trace budget.
func (s *Store) TraceDropped(ctx context.Context, runID string) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, `SELECT trace_dropped FROM runs WHERE id = $1`, runID).Scan(&n)
	if isNoRows(err) {
		return 0, ErrNotFound
	}
	return n, err
}

// RunIDsOf lists the ids of the runs that deleting a test, a project or
// an organization takes with it (by "test", "project" or "org"): their
// artifacts' bytes are deleted after them.
func (s *Store) RunIDsOf(ctx context.Context, kind, id string) ([]string, error) {
	sql := map[string]string{
		"test":    `SELECT id FROM runs WHERE test_id = $1`,
		"project": `SELECT id FROM runs WHERE project_id = $1`,
		"org":     `SELECT r.id FROM runs r JOIN projects p ON p.id = r.project_id WHERE p.org_id = $1`,
	}[kind]
	rows, err := s.pool.Query(ctx, sql, id)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}
