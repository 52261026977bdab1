package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// Batch is one start of many runs; its runs carry its id.
type Batch struct {
	ID            string
	ProjectID     string
	UserID        string
	EnvironmentID string
	Headed        bool
	Screenshots   bool
	Device        string // the runs' device profile; "" for none
	Trace         string // the runs' option trace
	Retries       int    // the runs' option retries
	Source        string // "tests", "suite", "tag" or "rerun"
	Suite         string // the suite's name when Source is "suite" ("" is Unsorted)
	Tag           string // the tag when Source is "tag"
	RerunOf       string // the batch run again when Source is "rerun"
	ScheduleID    string // the schedule that started it, if one did
	CreatedAt     time.Time

	ScheduleName string // the schedule's name, read with it

	UserName string // who started it; "" once the account is gone
}

// CreateBatch stores a batch and queues its runs, all or nothing.
func (s *Store) CreateBatch(ctx context.Context, b Batch, runs []Run) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if err := createBatch(ctx, tx, b, runs); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// createBatch writes a batch and its runs in tx (a schedule's firing
// writes them in the transaction that claims it).
func createBatch(ctx context.Context, tx pgx.Tx, b Batch, runs []Run) error {
	if _, err := tx.Exec(ctx, `INSERT INTO batches (id, project_id, user_id, environment_id, headed, screenshots, source, suite, rerun_of, created_at, tag, device, trace, retries, schedule_id)
		VALUES ($1, $2, $3, nullif($4, ''), $5, $6, $7, CASE WHEN $7 = 'suite' THEN $8 END, nullif($9, ''), $10, nullif($11, ''), $12,
			coalesce(nullif($13, ''), 'failures'), $14, nullif($15, ''))`,
		b.ID, b.ProjectID, b.UserID, b.EnvironmentID, b.Headed, b.Screenshots, b.Source, b.Suite, b.RerunOf, b.CreatedAt, b.Tag, b.Device, b.Trace, b.Retries, b.ScheduleID); err != nil {
		return err
	}
	for _, r := range runs {
		r.BatchID = b.ID
		if err := createRun(ctx, tx, r); err != nil {
			return err
		}
	}
	return nil
}

// GetBatch returns one batch.
func (s *Store) GetBatch(ctx context.Context, id string) (Batch, error) {
	var b Batch
	err := s.pool.QueryRow(ctx, `SELECT b.id, b.project_id, coalesce(b.user_id, ''), coalesce(b.environment_id, ''), b.headed, b.screenshots,
		b.source, coalesce(b.suite, ''), coalesce(b.rerun_of, ''), b.created_at, coalesce(u.name, ''), coalesce(b.tag, ''), b.device, b.trace, b.retries,
		coalesce(b.schedule_id, ''), coalesce(sc.name, '')
		FROM batches b LEFT JOIN users u ON u.id = b.user_id LEFT JOIN schedules sc ON sc.id = b.schedule_id WHERE b.id = $1`, id).
		Scan(&b.ID, &b.ProjectID, &b.UserID, &b.EnvironmentID, &b.Headed, &b.Screenshots, &b.Source, &b.Suite, &b.RerunOf, &b.CreatedAt, &b.UserName, &b.Tag, &b.Device, &b.Trace, &b.Retries,
			&b.ScheduleID, &b.ScheduleName)
	if isNoRows(err) {
		return Batch{}, ErrNotFound
	}
	return b, err
}

// BatchRuns lists a batch's runs the user can see (never those of other
// people's private tests), in the order they were queued.
func (s *Store) BatchRuns(ctx context.Context, batchID, userID string) ([]Run, error) {
	return collectRuns(s.pool.Query(ctx, `SELECT `+runCols+runFrom+`WHERE r.batch_id = $1 AND (t.visibility = 'Shared' OR t.owner_id = $2)
		ORDER BY r.created_at, r.id`, batchID, userID))
}

// SuiteTestIDs lists the ids of the tests in a suite ("" is Unsorted) the
// user can see and that are not Deprecated, by name; at most limit.
func (s *Store) SuiteTestIDs(ctx context.Context, projectID, userID, suite string, limit int) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT t.id FROM tests t WHERE t.project_id = $1 AND t.suite = $3 AND `+visibleTo(2)+`
		AND t.status <> 'Deprecated' ORDER BY lower(t.name), t.id LIMIT $4`, projectID, userID, suite, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// TagTestIDs lists the ids of the tests with a tag (case-insensitively)
// the user can see and run (not Deprecated), by name.
func (s *Store) TagTestIDs(ctx context.Context, projectID, userID, tag string, limit int) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT t.id FROM tests t WHERE t.project_id = $1 AND `+visibleTo(2)+`
		AND EXISTS (SELECT 1 FROM unnest(t.tags) x WHERE lower(x) = lower($3))
		AND t.status <> 'Deprecated' ORDER BY lower(t.name), t.id LIMIT $4`, projectID, userID, tag, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}
