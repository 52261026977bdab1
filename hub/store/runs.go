package store

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Run is a run row with the facts of its test that decide who sees it.
type Run struct {
	ID            string
	ProjectID     string
	TestID        string
	BatchID       string // "" for a run started alone
	Version       int
	EnvironmentID string
	UserID        string
	Status        string
	Headed        bool
	Screenshots   bool
	Device        string // the device profile the run emulates; "" for none
	Trace         string // the run option trace: protocol.TraceOn, TraceFailures or TraceOff
	Retries       int    // the run option retries: how often a failed test runs again (0 to 3)
	Flaky         bool   // it failed, then passed on a retry
	Quarantined   bool   // its test was quarantined when it ended (0028_retries_quarantine.sql)
	Passed, Total int
	DurationMs    int64
	Error         string
	Result        []byte // JSON of the steps, nil until finished
	Document      []byte // JSON of the document it runs, set by CreateRun; not read by lists (see RunDocument)
	DataSetID     string // a data-driven run's data set, set by CreateRun
	Rows          []byte // JSON of its rows ([]protocol.DataRow), set by CreateRun; see RunDetail
	AgentID       string
	// AgentPin: only this agent may take the run (a CI command's runs
	// go to its own agent); "" for any of the user's agents.
	AgentPin string
	// AgentLabels: only an agent having all these labels may take the run.
	AgentLabels     []string
	Attempts        int
	Assignments     int
	CancelRequested bool
	CreatedAt       time.Time
	StartedAt       *time.Time
	FinishedAt      *time.Time

	TestName       string
	TestVisibility string
	TestOwnerID    string
	UserName       string // who started it; "" once the account is gone
}

const runCols = `r.id, r.project_id, r.test_id, r.version, coalesce(r.environment_id, ''), coalesce(r.user_id, ''), r.status,
	r.headed, r.screenshots, r.passed, r.total, r.duration_ms, r.error, r.result, coalesce(r.agent_id, ''), r.attempts, r.assignments,
	r.cancel_requested, r.created_at, r.started_at, r.finished_at, t.name, t.visibility, coalesce(t.owner_id, ''), coalesce(u.name, ''),
	coalesce(r.batch_id, ''), coalesce(r.agent_pin, ''), coalesce(r.data_set_id, ''), r.agent_labels, r.device, r.trace,
	r.retries, r.flaky, r.quarantined`

const runFrom = ` FROM runs r JOIN tests t ON t.id = r.test_id LEFT JOIN users u ON u.id = r.user_id `

func scanRun(row pgx.Row) (Run, error) {
	var r Run
	err := row.Scan(&r.ID, &r.ProjectID, &r.TestID, &r.Version, &r.EnvironmentID, &r.UserID, &r.Status,
		&r.Headed, &r.Screenshots, &r.Passed, &r.Total, &r.DurationMs, &r.Error, &r.Result, &r.AgentID, &r.Attempts, &r.Assignments,
		&r.CancelRequested, &r.CreatedAt, &r.StartedAt, &r.FinishedAt, &r.TestName, &r.TestVisibility, &r.TestOwnerID, &r.UserName,
		&r.BatchID, &r.AgentPin, &r.DataSetID, &r.AgentLabels, &r.Device, &r.Trace,
		&r.Retries, &r.Flaky, &r.Quarantined)
	if isNoRows(err) {
		return Run{}, ErrNotFound
	}
	return r, err
}

func collectRuns(rows pgx.Rows, err error) ([]Run, error) {
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Run, error) { return scanRun(r) })
}

// CreateRun queues a run.
func (s *Store) CreateRun(ctx context.Context, r Run) error {
	return createRun(ctx, s.pool, r)
}

func createRun(ctx context.Context, db interface {
	Exec(context.Context, string, ...any) (pgconn.CommandTag, error)
}, r Run) error {
	var doc *string
	if r.Document != nil {
		d := string(r.Document)
		doc = &d
	}
	labels := r.AgentLabels
	if labels == nil {
		labels = []string{}
	}
	var rows *string
	if r.Rows != nil {
		v := string(r.Rows)
		rows = &v
	}
	_, err := db.Exec(ctx, `INSERT INTO runs (id, project_id, test_id, version, environment_id, user_id, status, headed, screenshots, created_at, batch_id, document,
			data_set_id, rows, agent_pin, agent_labels, device, trace, retries)
		VALUES ($1, $2, $3, $4, nullif($5, ''), $6, 'queued', $7, $8, $9, nullif($10, ''), $11, nullif($12, ''), $13, nullif($14, ''), $15, $16,
			coalesce(nullif($17, ''), 'failures'), $18)`,
		r.ID, r.ProjectID, r.TestID, r.Version, r.EnvironmentID, r.UserID, r.Headed, r.Screenshots, r.CreatedAt, r.BatchID, doc,
		r.DataSetID, rows, r.AgentPin, labels, r.Device, r.Trace, r.Retries)
	return err
}

// RunDetail is what only one run's page needs: the document it runs, and
// for a data-driven run its rows and their results, for a run binding a
// data pool the record it took. JSON fields are nil when absent.
type RunDetail struct {
	Document   []byte
	DataSetID  string
	Rows       []byte // [{"row", "values"}]
	RowResults []byte // []protocol.RowResult, once finished
	Pool       []byte // {"id", "mode", "record", "values"}, once taken
}

// RunDetail returns a run's detail (see RunDetail).
func (s *Store) RunDetail(ctx context.Context, runID string) (RunDetail, error) {
	var d RunDetail
	var doc string
	var rows, results, pool *string
	err := s.pool.QueryRow(ctx, `SELECT coalesce(r.document, v.content)::text, coalesce(r.data_set_id, ''), r.rows::text, r.row_results::text, r.pool::text
		FROM runs r JOIN test_versions v ON v.test_id = r.test_id AND v.version = r.version WHERE r.id = $1`, runID).
		Scan(&doc, &d.DataSetID, &rows, &results, &pool)
	if isNoRows(err) {
		return d, ErrNotFound
	}
	d.Document = []byte(doc)
	for _, f := range []struct {
		src *string
		dst *[]byte
	}{{rows, &d.Rows}, {results, &d.RowResults}, {pool, &d.Pool}} {
		if f.src != nil {
			*f.dst = []byte(*f.src)
		}
	}
	return d, err
}

// SetRunPool notes the pool record a run took.
func (s *Store) SetRunPool(ctx context.Context, runID string, pool []byte) error {
	_, err := s.pool.Exec(ctx, `UPDATE runs SET pool = $2 WHERE id = $1`, runID, string(pool))
	return err
}

// Run returns one run.
func (s *Store) Run(ctx context.Context, id string) (Run, error) {
	return scanRun(s.pool.QueryRow(ctx, `SELECT `+runCols+runFrom+`WHERE r.id = $1`, id))
}

// RunQuery selects a page of a project's runs as one caller sees them.
type RunQuery struct {
	ProjectID, UserID string
	TestID, Status    string
	BatchID           string
	After             *Cursor // Key: created_at RFC 3339 nano
	Limit             int
}

// ListRuns returns runs newest first; runs of other people's private
// tests are never listed.
func (s *Store) ListRuns(ctx context.Context, q RunQuery) ([]Run, *Cursor, error) {
	args := []any{q.ProjectID, q.UserID, q.TestID, q.Status, q.Limit + 1, q.BatchID}
	cond := `r.project_id = $1 AND (t.visibility = 'Shared' OR t.owner_id = $2)
		AND ($3 = '' OR r.test_id = $3) AND ($4 = '' OR r.status = $4) AND ($6 = '' OR r.batch_id = $6)`
	if q.After != nil {
		at, err := time.Parse(time.RFC3339Nano, q.After.Key)
		if err != nil {
			return nil, nil, ErrBadCursor
		}
		args = append(args, at, q.After.ID)
		cond += ` AND (r.created_at, r.id) < ($7, $8)`
	}
	runs, err := collectRuns(s.pool.Query(ctx, `SELECT `+runCols+runFrom+`WHERE `+cond+` ORDER BY r.created_at DESC, r.id DESC LIMIT $5`, args...))
	if err != nil || len(runs) <= q.Limit {
		return runs, nil, err
	}
	runs = runs[:q.Limit]
	last := runs[q.Limit-1]
	return runs, &Cursor{Key: last.CreatedAt.UTC().Format(time.RFC3339Nano), ID: last.ID}, nil
}

// UserRuns lists the newest runs a user started, across the projects they
// are still in, without runs of private tests they no longer own.
func (s *Store) UserRuns(ctx context.Context, userID string, limit int) ([]Run, error) {
	return collectRuns(s.pool.Query(ctx, `SELECT `+runCols+runFrom+`WHERE r.user_id = $1 AND (t.visibility = 'Shared' OR t.owner_id = $1)
		AND EXISTS (SELECT 1 FROM projects p JOIN org_members m ON m.org_id = p.org_id AND m.user_id = $1 WHERE p.id = r.project_id)
		ORDER BY r.created_at DESC, r.id DESC LIMIT $2`, userID, limit))
}

// QueuedRuns lists a user's runs waiting for an agent, oldest first.
func (s *Store) QueuedRuns(ctx context.Context, userID string) ([]Run, error) {
	return collectRuns(s.pool.Query(ctx, `SELECT `+runCols+runFrom+`WHERE r.user_id = $1 AND r.status = 'queued' AND r.agent_id IS NULL
		ORDER BY r.created_at, r.id`, userID))
}

// UsersWithQueuedRuns lists the users who have runs waiting.
func (s *Store) UsersWithQueuedRuns(ctx context.Context) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT user_id FROM runs WHERE status = 'queued' AND agent_id IS NULL AND user_id IS NOT NULL`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// AssignRun hands a queued run to an agent with a lease; false when
// someone else took it or it was cancelled meanwhile.
func (s *Store) AssignRun(ctx context.Context, runID, agentID string, leaseUntil time.Time) (bool, error) {
	ok, _, err := s.AssignRunSeq(ctx, runID, agentID, leaseUntil)
	return ok, err
}

// AssignRunSeq is AssignRun that also returns the run's last event
// sequence number (LastSeq) in the same round trip: a new run's first
// event follows it.
func (s *Store) AssignRunSeq(ctx context.Context, runID, agentID string, leaseUntil time.Time) (bool, int64, error) {
	var last int64
	err := s.pool.QueryRow(ctx, `UPDATE runs SET agent_id = $2, lease_until = $3, assignments = assignments + 1
		WHERE id = $1 AND status = 'queued' AND agent_id IS NULL AND NOT cancel_requested
		RETURNING (SELECT coalesce(max(seq), 0) FROM run_events WHERE run_id = $1)`, runID, agentID, leaseUntil).Scan(&last)
	if isNoRows(err) {
		return false, 0, nil
	}
	return err == nil, last, err
}

// StartRun marks a run its agent accepted as running; each start counts as
// an attempt.
func (s *Store) StartRun(ctx context.Context, runID, agentID string, now time.Time) error {
	_, err := s.pool.Exec(ctx, `UPDATE runs SET status = 'running', started_at = coalesce(started_at, $3),
		attempts = attempts + CASE WHEN status = 'queued' THEN 1 ELSE 0 END
		WHERE id = $1 AND agent_id = $2 AND status IN ('queued', 'running')`, runID, agentID, now)
	return err
}

// ResumeRun marks running again a started run its agent took back after
// it had been queued again: not a new attempt.
func (s *Store) ResumeRun(ctx context.Context, runID, agentID string) error {
	_, err := s.pool.Exec(ctx, `UPDATE runs SET status = 'running' WHERE id = $1 AND agent_id = $2 AND status = 'queued'`, runID, agentID)
	return err
}

// RenewLease extends the lease of a run its agent still holds.
func (s *Store) RenewLease(ctx context.Context, runID, agentID string, until time.Time) (bool, error) {
	tag, err := s.pool.Exec(ctx, `UPDATE runs SET lease_until = $3 WHERE id = $1 AND agent_id = $2 AND status IN ('queued', 'running')`,
		runID, agentID, until)
	return err == nil && tag.RowsAffected() == 1, err
}

// RunOutcome is how a run ended.
type RunOutcome struct {
	Status        string
	Passed, Total int
	DurationMs    int64
	Error         string
	Steps         any // marshalled as the result's steps
	Rows          any // a data-driven run's row results; nil for others
	Flaky         bool
	Attempts      any // a retried run's attempts (runs.attempt_results); nil for others
}

// FinishRun records a run's end, once, and the test's last run. agentID ""
// finishes it only while no agent holds it (the hub itself: a cancel before
// assignment, an expired queue).
//
// In the same transaction it appends the run's last event, made by final
// from its seq, so whoever sees the run final finds its run.finished too.
func (s *Store) FinishRun(ctx context.Context, runID, agentID string, o RunOutcome, now time.Time, final func(seq int64) []byte) (bool, error) {
	steps, err := json.Marshal(o.Steps)
	if err != nil {
		return false, err
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	var testID string
	var rowResults *string
	if o.Rows != nil {
		b, err := json.Marshal(o.Rows)
		if err != nil {
			return false, err
		}
		v := string(b)
		rowResults = &v
	}
	err = tx.QueryRow(ctx, `UPDATE runs SET status = $3, passed = $4, total = $5, duration_ms = $6, error = $7, result = $8,
		finished_at = $9, lease_until = NULL, row_results = coalesce($10::jsonb, row_results), flaky = $11, attempt_results = $12::jsonb
		WHERE id = $1 AND (agent_id = $2 OR $2 = '' AND agent_id IS NULL) AND status IN ('queued', 'running') RETURNING test_id`,
		runID, agentID, o.Status, o.Passed, o.Total, o.DurationMs, o.Error, steps, now, rowResults, o.Flaky, attemptsJSON(o.Attempts)).Scan(&testID)
	if isNoRows(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if _, err := tx.Exec(ctx, `UPDATE tests SET last_run_id = $2, last_run_status = $3, last_run_passed = $4, last_run_total = $5, last_run_at = $6
		WHERE id = $1`, testID, runID, o.Status, o.Passed, o.Total, now); err != nil {
		return false, err
	}
	if final != nil {
		var seq int64
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(seq), 0) + 1 FROM run_events WHERE run_id = $1`, runID).Scan(&seq); err != nil {
			return false, err
		}
		for ; ; seq++ { // an agent's event may take a seq meanwhile
			tag, err := tx.Exec(ctx, `INSERT INTO run_events (run_id, seq, kind, data) VALUES ($1, $2, 'run.finished', $3) ON CONFLICT DO NOTHING`,
				runID, seq, final(seq))
			if err != nil {
				return false, err
			}
			if tag.RowsAffected() == 1 {
				break
			}
		}
	}
	return true, tx.Commit(ctx)
}

// RequestCancel flags a run to stop; it returns the run as it is now.
func (s *Store) RequestCancel(ctx context.Context, runID string) error {
	_, err := s.pool.Exec(ctx, `UPDATE runs SET cancel_requested = true WHERE id = $1 AND status IN ('queued', 'running')`, runID)
	return err
}

// AgentRuns lists the unfinished runs assigned to an agent.
func (s *Store) AgentRuns(ctx context.Context, agentID string) ([]Run, error) {
	return collectRuns(s.pool.Query(ctx, `SELECT `+runCols+runFrom+`WHERE r.agent_id = $1 AND r.status IN ('queued', 'running')`, agentID))
}

// LapsedRuns lists runs held by an agent whose lease ran out.
func (s *Store) LapsedRuns(ctx context.Context, now time.Time) ([]Run, error) {
	return collectRuns(s.pool.Query(ctx, `SELECT `+runCols+runFrom+`WHERE r.agent_id IS NOT NULL AND r.status IN ('queued', 'running')
		AND r.lease_until < $1`, now))
}

// Requeue gives a lapsed run back to the queue for another attempt.
func (s *Store) Requeue(ctx context.Context, runID, agentID string) (bool, error) {
	tag, err := s.pool.Exec(ctx, `UPDATE runs SET agent_id = NULL, lease_until = NULL, status = 'queued'
		WHERE id = $1 AND agent_id = $2 AND status IN ('queued', 'running')`, runID, agentID)
	return err == nil && tag.RowsAffected() == 1, err
}

// EventRow is a stored run event.
type EventRow struct {
	Seq  int64
	Kind string
	Data []byte
}

// AddEvent stores a run event once; a repeated seq is dropped (false).
// The hub's own events use it: they are not held to a run's limits.
func (s *Store) AddEvent(ctx context.Context, runID string, seq int64, kind string, data []byte) (bool, error) {
	tag, err := s.pool.Exec(ctx, `INSERT INTO run_events (run_id, seq, kind, data) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
		runID, seq, kind, data)
	return err == nil && tag.RowsAffected() == 1, err
}

// RunLimits bound what one run may store.
type RunLimits struct {
	Events        int   // events
	EventBytes    int64 // bytes of event data
	ArtifactBytes int64 // bytes of artifacts
	TraceBytes    int64 // bytes of trace artifacts, a budget of their own (traces.go)
}

// Stored says what became of an agent's event or artifact.
type Stored int

// The outcomes of AddEventWithin and AddArtifactWithin.
const (
	StoredNew  Stored = iota // stored
	StoredDup                // already there: a repeat after a reconnect
	StoredOver               // refused: the run would go over its limits
)

// AddEventWithin stores an agent's event once, counting it against the
// run's limits in the same statement.
func (s *Store) AddEventWithin(ctx context.Context, runID string, seq int64, kind string, data []byte, lim RunLimits) (Stored, error) {
	var one int
	err := s.pool.QueryRow(ctx, `WITH cur AS (
			SELECT event_count, event_bytes FROM runs WHERE id = $1),
		ins AS (
			INSERT INTO run_events (run_id, seq, kind, data)
			SELECT $1, $2, $3, $4 FROM cur WHERE cur.event_count < $5 AND cur.event_bytes + $6 <= $7
			ON CONFLICT DO NOTHING RETURNING seq)
		UPDATE runs SET event_count = event_count + 1, event_bytes = event_bytes + $6 FROM ins WHERE runs.id = $1 RETURNING 1`,
		runID, seq, kind, data, lim.Events, int64(len(data)), lim.EventBytes).Scan(&one)
	if err == nil {
		return StoredNew, nil
	}
	if !isNoRows(err) {
		return 0, err
	}
	var dup bool
	if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM run_events WHERE run_id = $1 AND seq = $2)`, runID, seq).Scan(&dup); err != nil {
		return 0, err
	}
	if dup {
		return StoredDup, nil
	}
	return StoredOver, nil
}

// Events returns at most limit of a run's events after a seq, in order:
// callers page through a long history instead of holding all of it.
func (s *Store) Events(ctx context.Context, runID string, after int64, limit int) ([]EventRow, error) {
	return s.events(ctx, `SELECT seq, kind, data FROM run_events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, runID, after, limit)
}

// StepEvents returns at most limit of a run's run.started, run.retry and step.finished
// events after a seq, in order: what a running run's steps so far are
// folded from.
func (s *Store) StepEvents(ctx context.Context, runID string, after int64, limit int) ([]EventRow, error) {
	return s.events(ctx, `SELECT seq, kind, data FROM run_events WHERE run_id = $1 AND seq > $2
		AND kind IN ('run.started', 'run.retry', 'step.finished') ORDER BY seq LIMIT $3`, runID, after, limit)
}

// RowEvents returns a data-driven run's row.started and row.finished
// events (and run.started, where an attempt begins) after seq.
func (s *Store) RowEvents(ctx context.Context, runID string, after int64, limit int) ([]EventRow, error) {
	return s.events(ctx, `SELECT seq, kind, data FROM run_events WHERE run_id = $1 AND seq > $2
		AND kind IN ('run.started', 'row.started', 'row.finished') ORDER BY seq LIMIT $3`, runID, after, limit)
}

func (s *Store) events(ctx context.Context, sql string, args ...any) ([]EventRow, error) {
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (EventRow, error) {
		var e EventRow
		err := r.Scan(&e.Seq, &e.Kind, &e.Data)
		return e, err
	})
}

// LastSeq is the highest event seq of a run (0 when none).
func (s *Store) LastSeq(ctx context.Context, runID string) (int64, error) {
	var n int64
	err := s.pool.QueryRow(ctx, `SELECT coalesce(max(seq), 0) FROM run_events WHERE run_id = $1`, runID).Scan(&n)
	return n, err
}

// ArtifactRow describes a stored artifact.
type ArtifactRow struct {
	Name, ContentType string
	Size              int64
	Step              *int
}

// AddArtifactWithin records an artifact of a run before its content is
// written, counting its bytes against the run's limit in the same
// statement. A repeat of the same name (a replaced screenshot, or the same
// message again after a failed write) counts only the difference, so
// trying again never counts twice.
func (s *Store) AddArtifactWithin(ctx context.Context, runID string, a ArtifactRow, lim RunLimits) (Stored, error) {
	return s.addCounted(ctx, runID, a, "artifact_bytes", lim.ArtifactBytes)
}

// addCounted records an artifact row, counting its bytes against the
// run's column (artifact_bytes or trace_bytes, never from input) up to
// limit in the same statement: StoredOver, and nothing stored, past it.
func (s *Store) addCounted(ctx context.Context, runID string, a ArtifactRow, column string, limit int64) (Stored, error) {
	if column != "artifact_bytes" && column != "trace_bytes" {
		panic("store: no artifact budget " + column)
	}
	var one int
	err := s.pool.QueryRow(ctx, `WITH old AS (
			SELECT coalesce((SELECT size FROM run_artifacts WHERE run_id = $1 AND name = $2), 0) AS size),
		counted AS (
			UPDATE runs SET `+column+` = `+column+` - old.size + $3 FROM old
			WHERE id = $1 AND `+column+` - old.size + $3 <= $6 RETURNING 1)
		INSERT INTO run_artifacts (run_id, name, content_type, size, step) SELECT $1, $2, $4, $3, $5 FROM counted
		ON CONFLICT (run_id, name) DO UPDATE SET content_type = EXCLUDED.content_type, size = EXCLUDED.size, step = EXCLUDED.step
		RETURNING 1`, runID, a.Name, a.Size, a.ContentType, a.Step, limit).Scan(&one)
	if isNoRows(err) {
		return StoredOver, nil
	}
	if err != nil {
		return 0, err
	}
	return StoredNew, nil
}

// Artifact returns one artifact's description.
func (s *Store) Artifact(ctx context.Context, runID, name string) (ArtifactRow, error) {
	var a ArtifactRow
	err := s.pool.QueryRow(ctx, `SELECT name, content_type, size, step FROM run_artifacts WHERE run_id = $1 AND name = $2`, runID, name).
		Scan(&a.Name, &a.ContentType, &a.Size, &a.Step)
	if isNoRows(err) {
		return a, ErrNotFound
	}
	return a, err
}

// StaleQueuedRuns lists runs still queued (assigned or not) that were
// created before a time.
func (s *Store) StaleQueuedRuns(ctx context.Context, before time.Time) ([]Run, error) {
	return collectRuns(s.pool.Query(ctx, `SELECT `+runCols+runFrom+`WHERE r.status = 'queued' AND r.created_at < $1`, before))
}

// OverdueRuns lists runs running since before a time.
func (s *Store) OverdueRuns(ctx context.Context, before time.Time) ([]Run, error) {
	return collectRuns(s.pool.Query(ctx, `SELECT `+runCols+runFrom+`WHERE r.status = 'running' AND r.started_at < $1`, before))
}

// CountQueuedRuns counts the runs waiting for an agent (queued, not yet
// assigned), across all users.
func (s *Store) CountQueuedRuns(ctx context.Context) (int64, error) {
	var n int64
	err := s.pool.QueryRow(ctx, `SELECT count(*) FROM runs WHERE status = 'queued' AND agent_id IS NULL`).Scan(&n)
	return n, err
}
