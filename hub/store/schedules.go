package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Schedule starts a batch at the times of a cron in a time zone
// (docs/schedules.md). Target is "suite", "tag" or "tests".
type Schedule struct {
	ID            string
	ProjectID     string
	UserID        string // the owner; "" once the account is gone
	Name          string
	Cron          string
	Timezone      string
	Target        string
	Suite         string
	Tag           string
	TestIDs       []string
	EnvironmentID string
	Headed        bool
	Screenshots   bool
	Device        string
	Trace         string
	Retries       int
	AgentID       string
	Labels        []string
	Enabled       bool
	NextAt        time.Time
	CreatedAt     time.Time
	UpdatedAt     time.Time

	UserName string       // the owner's name, read with it
	Last     *ScheduleRun // the latest due time handled, in lists
}

// ScheduleRun is one due time of a schedule a hub handled: "started" (with
// its batch), "skipped" or "failed" (with the reason).
type ScheduleRun struct {
	ScheduleID string
	DueAt      time.Time
	Status     string
	BatchID    string
	Reason     string
	CreatedAt  time.Time
}

const scheduleCols = `s.id, s.project_id, coalesce(s.user_id, ''), s.name, s.cron, s.timezone, s.target, coalesce(s.suite, ''), coalesce(s.tag, ''),
	coalesce(s.test_ids, '{}'), coalesce(s.environment_id, ''), s.headed, s.screenshots, s.device, s.trace, s.retries, s.agent_id, s.labels,
	s.enabled, s.next_at, s.created_at, s.updated_at, coalesce(u.name, '')`

const scheduleFrom = ` FROM schedules s LEFT JOIN users u ON u.id = s.user_id `

func scanSchedule(row pgx.Row, extra ...any) (Schedule, error) {
	var c Schedule
	err := row.Scan(append([]any{&c.ID, &c.ProjectID, &c.UserID, &c.Name, &c.Cron, &c.Timezone, &c.Target, &c.Suite, &c.Tag,
		&c.TestIDs, &c.EnvironmentID, &c.Headed, &c.Screenshots, &c.Device, &c.Trace, &c.Retries, &c.AgentID, &c.Labels,
		&c.Enabled, &c.NextAt, &c.CreatedAt, &c.UpdatedAt, &c.UserName}, extra...)...)
	return c, err
}

// scheduleArgs are the columns a create or an update writes, $2..$18.
func scheduleArgs(c Schedule) []any {
	var suite, tag any
	var testIDs []string
	switch c.Target {
	case "suite":
		suite = c.Suite
	case "tag":
		tag = c.Tag
	default:
		testIDs = c.TestIDs
	}
	return []any{c.Name, c.Cron, c.Timezone, c.Target, suite, tag, testIDs, c.EnvironmentID, c.Headed, c.Screenshots,
		c.Device, c.Trace, c.Retries, c.AgentID, c.Labels, c.Enabled, c.NextAt}
}

// CreateSchedule stores a new schedule.
func (s *Store) CreateSchedule(ctx context.Context, c Schedule) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO schedules (id, name, cron, timezone, target, suite, tag, test_ids, environment_id, headed, screenshots,
		device, trace, retries, agent_id, labels, enabled, next_at, project_id, user_id, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, nullif($9, ''), $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $21)`,
		append(append([]any{c.ID}, scheduleArgs(c)...), c.ProjectID, c.UserID, c.CreatedAt)...)
	return err
}

// UpdateSchedule replaces what a schedule runs and when; its owner,
// project and creation time stay.
func (s *Store) UpdateSchedule(ctx context.Context, c Schedule) error {
	tag, err := s.pool.Exec(ctx, `UPDATE schedules SET name = $2, cron = $3, timezone = $4, target = $5, suite = $6, tag = $7, test_ids = $8,
		environment_id = nullif($9, ''), headed = $10, screenshots = $11, device = $12, trace = $13, retries = $14, agent_id = $15, labels = $16,
		enabled = $17, next_at = $18, updated_at = $19 WHERE id = $1`, append(append([]any{c.ID}, scheduleArgs(c)...), c.UpdatedAt)...)
	if err == nil && tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return err
}

// DeleteSchedule removes a schedule and its record of due times; its
// batches stay, no longer naming it.
func (s *Store) DeleteSchedule(ctx context.Context, id string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM schedules WHERE id = $1`, id)
	if err == nil && tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return err
}

// GetSchedule returns one schedule.
func (s *Store) GetSchedule(ctx context.Context, id string) (Schedule, error) {
	c, err := scanSchedule(s.pool.QueryRow(ctx, `SELECT `+scheduleCols+scheduleFrom+`WHERE s.id = $1`, id))
	if isNoRows(err) {
		return Schedule{}, ErrNotFound
	}
	return c, err
}

// ListSchedules lists a project's schedules by name, each with its latest
// handled due time.
func (s *Store) ListSchedules(ctx context.Context, projectID string) ([]Schedule, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+scheduleCols+`, l.due_at, l.status, coalesce(l.batch_id, ''), l.reason, l.created_at`+scheduleFrom+`
		LEFT JOIN LATERAL (SELECT * FROM schedule_runs x WHERE x.schedule_id = s.id ORDER BY x.due_at DESC LIMIT 1) l ON true
		WHERE s.project_id = $1 ORDER BY lower(s.name), s.id`, projectID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Schedule, error) {
		var due, created *time.Time
		var status, batch, reason *string
		c, err := scanSchedule(row, &due, &status, &batch, &reason, &created)
		if err == nil && due != nil {
			c.Last = &ScheduleRun{ScheduleID: c.ID, DueAt: *due, Status: *status, BatchID: *batch, Reason: *reason, CreatedAt: *created}
		}
		return c, err
	})
}

// ScheduleRuns lists a schedule's latest handled due times, newest first.
func (s *Store) ScheduleRuns(ctx context.Context, scheduleID string, limit int) ([]ScheduleRun, error) {
	rows, err := s.pool.Query(ctx, `SELECT schedule_id, due_at, status, coalesce(batch_id, ''), reason, created_at FROM schedule_runs
		WHERE schedule_id = $1 ORDER BY due_at DESC LIMIT $2`, scheduleID, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[ScheduleRun])
}

// Firing is what a hub decided for a claimed schedule's due time: the
// record of it, the batch to start (nil when skipped or failed) and the
// schedule's next time.
type Firing struct {
	Run    ScheduleRun
	Batch  *Batch
	Runs   []Run
	NextAt time.Time
}

// FireDueSchedules handles every enabled schedule due at now, one
// transaction each: the schedule's row is locked (FOR UPDATE SKIP LOCKED,
// so another hub ticking at the same time takes other rows or none),
// decide says what to do, and the batch with its runs, the record of the
// due time and the advanced next_at are written in that same transaction.
// A crash before the commit leaves the schedule due; after it, started.
// It answers what was fired, in order.
func (s *Store) FireDueSchedules(ctx context.Context, now time.Time, decide func(context.Context, Schedule) (Firing, error)) ([]Firing, error) {
	var fired []Firing
	for {
		f, ok, err := s.fireOne(ctx, now, decide)
		if err != nil || !ok {
			return fired, err
		}
		fired = append(fired, f)
	}
}

func (s *Store) fireOne(ctx context.Context, now time.Time, decide func(context.Context, Schedule) (Firing, error)) (Firing, bool, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return Firing{}, false, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	c, err := scanSchedule(tx.QueryRow(ctx, `SELECT `+scheduleCols+scheduleFrom+`WHERE s.enabled AND s.next_at <= $1
		ORDER BY s.next_at LIMIT 1 FOR UPDATE OF s SKIP LOCKED`, now))
	if isNoRows(err) {
		return Firing{}, false, nil
	}
	if err != nil {
		return Firing{}, false, err
	}
	f, err := decide(ctx, c)
	if err != nil {
		return Firing{}, false, err
	}
	if !f.NextAt.After(now) { // else the same schedule would be claimed again at once
		return Firing{}, false, fmt.Errorf("schedule %s: next time %s is not after %s", c.ID, f.NextAt, now)
	}
	if f.Batch != nil {
		f.Batch.ScheduleID = c.ID
		if err := createBatch(ctx, tx, *f.Batch, f.Runs); err != nil {
			return Firing{}, false, err
		}
		f.Run.BatchID = f.Batch.ID
	}
	f.Run.ScheduleID = c.ID
	if _, err := tx.Exec(ctx, `INSERT INTO schedule_runs (schedule_id, due_at, status, batch_id, reason, created_at)
		VALUES ($1, $2, $3, nullif($4, ''), $5, $6)`, c.ID, f.Run.DueAt, f.Run.Status, f.Run.BatchID, f.Run.Reason, f.Run.CreatedAt); err != nil {
		return Firing{}, false, err
	}
	if _, err := tx.Exec(ctx, `UPDATE schedules SET next_at = $2 WHERE id = $1`, c.ID, f.NextAt); err != nil {
		return Firing{}, false, err
	}
	return f, true, tx.Commit(ctx)
}

// VisibleTestProjects answers, for each of ids that names a test userID
// can see (shared, or their own private one), its project.
func (s *Store) VisibleTestProjects(ctx context.Context, ids []string, userID string) (map[string]string, error) {
	out := map[string]string{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT t.id, t.project_id FROM tests t WHERE t.id = ANY($1) AND `+visibleTo(2), ids, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id, project string
		if err := rows.Scan(&id, &project); err != nil {
			return nil, err
		}
		out[id] = project
	}
	return out, rows.Err()
}
