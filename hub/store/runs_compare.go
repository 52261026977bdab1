package store

import "context"

// Baseline finds what a run is compared with "since it last passed"
// (docs/trace.md): the most recent passed run of the same test on the
// same environment (no environment matching no environment), not
// data-driven, created before it (never the run itself). ErrNotFound when
// there is none. runs_test (test_id, created_at DESC) serves it.
func (s *Store) Baseline(ctx context.Context, r Run) (Run, error) {
	return scanRun(s.pool.QueryRow(ctx, `SELECT `+runCols+runFrom+`WHERE r.test_id = $1
		AND r.environment_id IS NOT DISTINCT FROM nullif($2, '') AND r.status = 'passed' AND r.data_set_id IS NULL
		AND (r.created_at, r.id) < ($3, $4) ORDER BY r.created_at DESC, r.id DESC LIMIT 1`,
		r.TestID, r.EnvironmentID, r.CreatedAt, r.ID))
}
