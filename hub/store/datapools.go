package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/jackc/pgx/v5"
)

// Pool record states and take modes.
const (
	PoolFree     = "free"
	PoolLeased   = "leased"   // held by a run until it ends (mode "lease")
	PoolConsumed = "consumed" // used up until the pool is reset (mode "consume")
	PoolLease    = "lease"
	PoolConsume  = "consume"
)

// ErrPoolEmpty matches (errors.Is) the *PoolEmptyError TakePoolRecord
// returns when a pool has no free record.
var ErrPoolEmpty = errors.New("data pool has no free record")

// ErrPoolInUse refuses to delete a pool, or to change its records, while a
// queued or running run holds a lease on one of them.
var ErrPoolInUse = errors.New("data pool in use")

// PoolEmptyError names the pool that had no free record.
type PoolEmptyError struct {
	PoolID string
	Name   string
}

func (e *PoolEmptyError) Error() string {
	return fmt.Sprintf("data pool %q has no free record", e.Name)
}

// Is makes errors.Is(err, ErrPoolEmpty) hold.
func (e *PoolEmptyError) Is(target error) bool { return target == ErrPoolEmpty }

// DataPool is a pool of records that runs take one at a time.
type DataPool struct {
	ID        string
	ProjectID string
	Name      string
	Columns   []string // never nil
	Free      int
	Leased    int
	Consumed  int
	Total     int
	Protected bool // as a data set's (DataSet.Protected)
	CreatedAt time.Time
	UpdatedAt time.Time
	Records   []PoolRecord // only from DataPoolDetail, by index
}

// PoolRecord is one record of a pool and who holds it.
type PoolRecord struct {
	PoolID string
	Index  int // 0-based
	Values map[string]string
	State  string // PoolFree, PoolLeased, PoolConsumed
	RunID  string // "" when free
	// The run's test, when the run still exists.
	TestID         string
	TestName       string
	TestVisibility string
	TestOwner      string
	TakenBy        string // user id; "" when unknown
	TakenByName    string
	TakenAt        time.Time // zero when free
}

// DataPoolSave creates or updates a pool.
type DataPoolSave struct {
	ID        string
	ProjectID string
	Create    bool
	Name      string
	// Columns and Records replace the content; both nil keep it. Records
	// equal to the stored ones keep their states; different records
	// replace them all as free, refused with ErrPoolInUse while a queued or
	// running run holds a lease.
	Columns   []string
	Records   []map[string]string
	Protected *bool // nil keeps the flag (an insert stores false)
	UserID    string
	Now       time.Time
}

// activeRun is SQL true when the record's run is queued or running.
const activeRun = `EXISTS (SELECT 1 FROM runs ru WHERE ru.id = r.run_id AND ru.status IN ('queued', 'running'))`

const dataPoolCols = `p.id, p.project_id, p.name, p.columns,
	(SELECT count(*) FILTER (WHERE state = 'free') FROM data_pool_records WHERE pool_id = p.id),
	(SELECT count(*) FILTER (WHERE state = 'leased') FROM data_pool_records WHERE pool_id = p.id),
	(SELECT count(*) FILTER (WHERE state = 'consumed') FROM data_pool_records WHERE pool_id = p.id),
	(SELECT count(*) FROM data_pool_records WHERE pool_id = p.id),
	p.protected, p.created_at, p.updated_at`

func scanDataPool(row pgx.Row) (DataPool, error) {
	var p DataPool
	err := row.Scan(&p.ID, &p.ProjectID, &p.Name, &p.Columns, &p.Free, &p.Leased, &p.Consumed, &p.Total, &p.Protected, &p.CreatedAt, &p.UpdatedAt)
	if isNoRows(err) {
		return DataPool{}, ErrNotFound
	}
	if p.Columns == nil {
		p.Columns = []string{}
	}
	return p, err
}

// DataPools lists a project's pools by name with their counts.
func (s *Store) DataPools(ctx context.Context, projectID string) ([]DataPool, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+dataPoolCols+` FROM data_pools p WHERE p.project_id = $1 ORDER BY lower(p.name), p.id`, projectID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (DataPool, error) { return scanDataPool(r) })
}

// FindDataPool returns a pool of any project without its records
// (ErrNotFound when there is none): the caller checks its ProjectID.
func (s *Store) FindDataPool(ctx context.Context, id string) (DataPool, error) {
	return scanDataPool(s.pool.QueryRow(ctx, `SELECT `+dataPoolCols+` FROM data_pools p WHERE p.id = $1`, id))
}

// DataPoolDetail returns the project's pool with its records and who holds
// them.
func (s *Store) DataPoolDetail(ctx context.Context, projectID, id string) (DataPool, error) {
	return dataPoolDetail(ctx, s.pool, projectID, id)
}

func dataPoolDetail(ctx context.Context, q querier, projectID, id string) (DataPool, error) {
	p, err := scanDataPool(q.QueryRow(ctx, `SELECT `+dataPoolCols+` FROM data_pools p WHERE p.id = $1 AND p.project_id = $2`, id, projectID))
	if err != nil {
		return p, err
	}
	rows, err := q.Query(ctx, `SELECT r.idx, r."values", r.state, coalesce(r.run_id, ''),
			coalesce(t.id, ''), coalesce(t.name, ''), coalesce(t.visibility, ''), coalesce(t.owner_id, ''),
			coalesce(r.taken_by, ''), coalesce(u.name, ''), r.taken_at
		FROM data_pool_records r
		LEFT JOIN runs ru ON ru.id = r.run_id
		LEFT JOIN tests t ON t.id = ru.test_id
		LEFT JOIN users u ON u.id = r.taken_by
		WHERE r.pool_id = $1 ORDER BY r.idx`, id)
	if err != nil {
		return p, err
	}
	p.Records, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (PoolRecord, error) {
		rec := PoolRecord{PoolID: id}
		var at *time.Time
		err := r.Scan(&rec.Index, &rec.Values, &rec.State, &rec.RunID, &rec.TestID, &rec.TestName, &rec.TestVisibility, &rec.TestOwner,
			&rec.TakenBy, &rec.TakenByName, &at)
		if at != nil {
			rec.TakenAt = *at
		}
		return rec, err
	})
	if p.Records == nil {
		p.Records = []PoolRecord{}
	}
	return p, err
}

// querier is what a pool and a transaction share.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// SaveDataPool applies ps in one transaction: ErrConflict when the name is
// taken in the project, ErrNotFound when an update finds no such pool in
// the project, ErrPoolInUse when changed records are leased by an active
// run. decide sees whether the pool is protected now (false for a new
// one), with the pool locked; its error is returned as is.
func (s *Store) SaveDataPool(ctx context.Context, ps DataPoolSave, decide func(protected bool) error) (DataPool, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return DataPool{}, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	content := ps.Create || ps.Columns != nil || ps.Records != nil
	cols, err := json.Marshal(emptyIfNil(ps.Columns))
	if err != nil {
		return DataPool{}, err
	}
	if ps.Create {
		if err := decideNew(decide); err != nil {
			return DataPool{}, err
		}
		_, err = tx.Exec(ctx, `INSERT INTO data_pools (id, project_id, name, columns, protected, created_by, created_at, updated_at)
			VALUES ($1, $2, $3, $4::jsonb, coalesce($7, false), nullif($5, ''), $6, $6)`, ps.ID, ps.ProjectID, ps.Name, string(cols), ps.UserID, ps.Now, ps.Protected)
	} else {
		// FOR UPDATE: two saves of one pool take turns.
		if err := lockProtected(ctx, tx, "data_pools", ps.ProjectID, ps.ID, decide); err != nil {
			return DataPool{}, err
		}
		_, err = tx.Exec(ctx, `UPDATE data_pools SET name = $2, protected = coalesce($4, protected), updated_at = $3 WHERE id = $1`,
			ps.ID, ps.Name, ps.Now, ps.Protected)
	}
	if isUniqueViolation(err) {
		return DataPool{}, ErrConflict
	}
	if err != nil {
		return DataPool{}, err
	}
	if content {
		if err := replaceRecords(ctx, tx, ps, string(cols)); err != nil {
			return DataPool{}, err
		}
	}
	p, err := dataPoolDetail(ctx, tx, ps.ProjectID, ps.ID)
	if err != nil {
		return DataPool{}, err
	}
	return p, tx.Commit(ctx)
}

// replaceRecords stores ps's columns and records unless they equal the
// stored ones (then every record keeps its state).
func replaceRecords(ctx context.Context, tx pgx.Tx, ps DataPoolSave, cols string) error {
	records := emptyIfNil(ps.Records)
	if !ps.Create {
		var oldCols []string
		var oldRecs []map[string]string
		err := tx.QueryRow(ctx, `SELECT columns, coalesce((SELECT jsonb_agg("values" ORDER BY idx) FROM data_pool_records WHERE pool_id = $1), '[]')
			FROM data_pools WHERE id = $1`, ps.ID).Scan(&oldCols, &oldRecs)
		if err != nil {
			return err
		}
		if reflect.DeepEqual(emptyIfNil(oldCols), emptyIfNil(ps.Columns)) && reflect.DeepEqual(emptyIfNil(oldRecs), records) {
			return nil
		}
		var busy bool
		err = tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM data_pool_records r WHERE r.pool_id = $1 AND r.state = 'leased' AND `+activeRun+`)`, ps.ID).Scan(&busy)
		if err != nil {
			return err
		}
		if busy {
			return ErrPoolInUse
		}
		if _, err := tx.Exec(ctx, `DELETE FROM data_pool_records WHERE pool_id = $1`, ps.ID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE data_pools SET columns = $2::jsonb WHERE id = $1`, ps.ID, cols); err != nil {
			return err
		}
	}
	data, err := json.Marshal(records)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO data_pool_records (pool_id, idx, "values")
		SELECT $1, (t.ord - 1)::int, t.elem FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS t(elem, ord)`, ps.ID, string(data))
	return err
}

// DeleteDataPool removes the project's pool and its records: ErrPoolInUse
// while a queued or running run holds a lease on one of them; decide as in
// SaveDataPool.
func (s *Store) DeleteDataPool(ctx context.Context, projectID, id string, decide func(protected bool) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if err := lockProtected(ctx, tx, "data_pools", projectID, id, decide); err != nil {
		return err
	}
	var busy bool
	err = tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM data_pool_records r WHERE r.pool_id = $1 AND r.state = 'leased' AND `+activeRun+`)`, id).Scan(&busy)
	switch {
	case err != nil:
		return err
	case busy:
		return ErrPoolInUse
	}
	if _, err := tx.Exec(ctx, `DELETE FROM data_pools WHERE id = $1`, id); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// ResetDataPool frees the pool's consumed records and the leases of runs
// that are no longer queued or running; leases of active runs stay. decide
// as in SaveDataPool.
func (s *Store) ResetDataPool(ctx context.Context, projectID, id string, now time.Time, decide func(protected bool) error) (DataPool, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return DataPool{}, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if err := lockProtected(ctx, tx, "data_pools", projectID, id, decide); err != nil {
		return DataPool{}, err
	}
	if _, err := tx.Exec(ctx, `UPDATE data_pools SET updated_at = $2 WHERE id = $1`, id, now); err != nil {
		return DataPool{}, err
	}
	_, err = tx.Exec(ctx, `UPDATE data_pool_records r SET state = 'free', run_id = NULL, taken_by = NULL, taken_at = NULL
		WHERE r.pool_id = $1 AND (r.state = 'consumed' OR r.state = 'leased' AND NOT `+activeRun+`)`, id)
	if err != nil {
		return DataPool{}, err
	}
	p, err := dataPoolDetail(ctx, tx, projectID, id)
	if err != nil {
		return DataPool{}, err
	}
	return p, tx.Commit(ctx)
}

// TakePoolRecord gives run runID one record of the project's pool: the
// first free one, locked with FOR UPDATE SKIP LOCKED so that concurrent
// takers (in this hub or another on the same database) never get the same
// record. mode PoolLease ("" too) leases it until ReleasePoolLeases;
// PoolConsume uses it up until the pool is reset. A run that already holds
// a record of the pool (dispatched again after its agent vanished) gets
// that record again. Errors: ErrNotFound when the pool is not in the
// project, a *PoolEmptyError (errors.Is ErrPoolEmpty) when nothing is free.
func (s *Store) TakePoolRecord(ctx context.Context, projectID, poolID, runID, mode string) (PoolRecord, error) {
	return s.takePoolRecord(ctx, projectID, poolID, runID, mode, false)
}

// PoolUnprotectedError: a run on a protected environment asked for a
// record of a pool that is not protected; nothing was taken.
type PoolUnprotectedError struct {
	PoolID string
	Name   string
}

func (e *PoolUnprotectedError) Error() string {
	return fmt.Sprintf("data pool %q is not protected", e.Name)
}

// TakeProtectedPoolRecord is TakePoolRecord for a run on a protected
// environment: it takes nothing and answers a *PoolUnprotectedError unless the
// pool is protected, checked under the same lock the take holds, so the
// record comes from a pool only Test Managers and Admins could change.
func (s *Store) TakeProtectedPoolRecord(ctx context.Context, projectID, poolID, runID, mode string) (PoolRecord, error) {
	return s.takePoolRecord(ctx, projectID, poolID, runID, mode, true)
}

func (s *Store) takePoolRecord(ctx context.Context, projectID, poolID, runID, mode string, protectedOnly bool) (PoolRecord, error) {
	state := PoolLeased
	switch mode {
	case PoolLease, "":
	case PoolConsume:
		state = PoolConsumed
	default:
		return PoolRecord{}, fmt.Errorf("data pool mode %q: want %q or %q", mode, PoolLease, PoolConsume)
	}
	if runID == "" {
		return PoolRecord{}, errors.New("take a pool record: no run id")
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return PoolRecord{}, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	// FOR SHARE: takers do not wait for each other, but a save replacing
	// the records or a delete waits for them (and they for it), so a lease
	// just taken is never deleted under its run.
	var name string
	var protected bool
	err = tx.QueryRow(ctx, `SELECT name, protected FROM data_pools WHERE id = $1 AND project_id = $2 FOR SHARE`, poolID, projectID).Scan(&name, &protected)
	if isNoRows(err) {
		return PoolRecord{}, ErrNotFound
	}
	if err != nil {
		return PoolRecord{}, err
	}
	if protectedOnly && !protected {
		return PoolRecord{}, &PoolUnprotectedError{PoolID: poolID, Name: name}
	}
	// A run that ended meanwhile takes nothing; one that ends after this
	// waits for the take (FOR SHARE), and its end frees the lease
	// (migration 0013's trigger).
	var status string
	err = tx.QueryRow(ctx, `SELECT status FROM runs WHERE id = $1 FOR SHARE`, runID).Scan(&status)
	if err != nil && !isNoRows(err) {
		return PoolRecord{}, err
	}
	if status != "" && status != "queued" && status != "running" {
		return PoolRecord{}, ErrRunEnded
	}
	rec := PoolRecord{PoolID: poolID, RunID: runID}
	err = tx.QueryRow(ctx, `SELECT idx, "values", state FROM data_pool_records
		WHERE pool_id = $1 AND run_id = $2 ORDER BY idx LIMIT 1`, poolID, runID).Scan(&rec.Index, &rec.Values, &rec.State)
	if err == nil {
		return rec, tx.Commit(ctx)
	}
	if !isNoRows(err) {
		return PoolRecord{}, err
	}
	err = tx.QueryRow(ctx, `SELECT idx, "values" FROM data_pool_records
		WHERE pool_id = $1 AND state = 'free' ORDER BY idx LIMIT 1 FOR UPDATE SKIP LOCKED`, poolID).Scan(&rec.Index, &rec.Values)
	if isNoRows(err) {
		return PoolRecord{}, &PoolEmptyError{PoolID: poolID, Name: name}
	}
	if err != nil {
		return PoolRecord{}, err
	}
	err = tx.QueryRow(ctx, `UPDATE data_pool_records SET state = $3, run_id = $4,
			taken_by = (SELECT ru.user_id FROM runs ru WHERE ru.id = $4), taken_at = now()
		WHERE pool_id = $1 AND idx = $2 RETURNING coalesce(taken_by, ''), taken_at`,
		poolID, rec.Index, state, runID).Scan(&rec.TakenBy, &rec.TakenAt)
	if err != nil {
		return PoolRecord{}, err
	}
	rec.State = state
	return rec, tx.Commit(ctx)
}

// ErrRunEnded: the run asking for a pool record has ended.
var ErrRunEnded = errors.New("the run has ended")

// ReleasePoolLeases frees every record leased by runID, in any pool;
// consumed records stay consumed. Releasing twice is harmless.
func (s *Store) ReleasePoolLeases(ctx context.Context, runID string) error {
	_, err := s.pool.Exec(ctx, `UPDATE data_pool_records SET state = 'free', run_id = NULL, taken_by = NULL, taken_at = NULL
		WHERE run_id = $1 AND state = 'leased'`, runID)
	return err
}
