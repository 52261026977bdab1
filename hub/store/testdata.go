package store

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"
)

// DataSet is a test data set: a data-driven run runs its test once per row,
// ${column} reading the row's value.
type DataSet struct {
	ID        string
	ProjectID string
	Name      string
	Columns   []string            // never nil; the grid's and the CSV's order
	Rows      []map[string]string // never nil; every row has every column
	// Protected: only a Test Manager or Admin may change it, and only
	// protected data goes to runs on a protected environment (0020).
	Protected bool
	CreatedBy string // "" once the account is deleted
	CreatedAt time.Time
	UpdatedAt time.Time
}

// DataSetSummary is a data set in a list: its rows only counted.
type DataSetSummary struct {
	ID        string
	Name      string
	Columns   []string
	RowCount  int
	Protected bool
	UpdatedAt time.Time
}

// DataSetSave creates or replaces a data set.
type DataSetSave struct {
	ID        string
	ProjectID string
	Create    bool // insert ID; otherwise update the project's data set ID
	Name      string
	// Columns and Rows replace the content; both nil keep it (an update of
	// the name alone). An insert stores [] for nil.
	Columns   []string
	Rows      []map[string]string
	Protected *bool // nil keeps the flag (an insert stores false)
	UserID    string
	Now       time.Time
}

const dataSetCols = `id, project_id, name, columns, rows, protected, coalesce(created_by, ''), created_at, updated_at`

func scanDataSet(row pgx.Row) (DataSet, error) {
	var d DataSet
	err := row.Scan(&d.ID, &d.ProjectID, &d.Name, &d.Columns, &d.Rows, &d.Protected, &d.CreatedBy, &d.CreatedAt, &d.UpdatedAt)
	if isNoRows(err) {
		return DataSet{}, ErrNotFound
	}
	if d.Columns == nil {
		d.Columns = []string{}
	}
	if d.Rows == nil {
		d.Rows = []map[string]string{}
	}
	return d, err
}

// DataSets lists a project's data sets by name.
func (s *Store) DataSets(ctx context.Context, projectID string) ([]DataSetSummary, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, name, columns, jsonb_array_length(rows), protected, updated_at
		FROM test_data_sets WHERE project_id = $1 ORDER BY lower(name), id`, projectID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (DataSetSummary, error) {
		var d DataSetSummary
		err := r.Scan(&d.ID, &d.Name, &d.Columns, &d.RowCount, &d.Protected, &d.UpdatedAt)
		if d.Columns == nil {
			d.Columns = []string{}
		}
		return d, err
	})
}

// DataSet returns the project's data set: ErrNotFound when there is none
// or it belongs to another project.
func (s *Store) DataSet(ctx context.Context, projectID, id string) (DataSet, error) {
	return scanDataSet(s.pool.QueryRow(ctx, `SELECT `+dataSetCols+` FROM test_data_sets WHERE id = $1 AND project_id = $2`, id, projectID))
}

// FindDataSet returns a data set of any project (ErrNotFound when there is
// none): the caller checks its ProjectID.
func (s *Store) FindDataSet(ctx context.Context, id string) (DataSet, error) {
	return scanDataSet(s.pool.QueryRow(ctx, `SELECT `+dataSetCols+` FROM test_data_sets WHERE id = $1`, id))
}

// SaveDataSet applies ds: ErrConflict when the name is taken in the
// project (ignoring case), ErrNotFound when an update finds no such data
// set in the project. decide sees whether the set is protected now (false
// for a new one), with the set locked: an error from it is returned as is
// and nothing is written.
func (s *Store) SaveDataSet(ctx context.Context, ds DataSetSave, decide func(protected bool) error) (DataSet, error) {
	var cols, rows *string
	if ds.Columns != nil || ds.Rows != nil || ds.Create {
		c, err := json.Marshal(emptyIfNil(ds.Columns))
		if err != nil {
			return DataSet{}, err
		}
		r, err := json.Marshal(emptyIfNil(ds.Rows))
		if err != nil {
			return DataSet{}, err
		}
		cs, rs := string(c), string(r)
		cols, rows = &cs, &rs
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return DataSet{}, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	var row pgx.Row
	if ds.Create {
		if err := decideNew(decide); err != nil {
			return DataSet{}, err
		}
		row = tx.QueryRow(ctx, `INSERT INTO test_data_sets (id, project_id, name, columns, rows, protected, created_by, created_at, updated_at)
			VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, coalesce($6, false), nullif($7, ''), $8, $8) RETURNING `+dataSetCols,
			ds.ID, ds.ProjectID, ds.Name, cols, rows, ds.Protected, ds.UserID, ds.Now)
	} else {
		if err := lockProtected(ctx, tx, "test_data_sets", ds.ProjectID, ds.ID, decide); err != nil {
			return DataSet{}, err
		}
		row = tx.QueryRow(ctx, `UPDATE test_data_sets SET name = $3, columns = coalesce($4::jsonb, columns),
				rows = coalesce($5::jsonb, rows), protected = coalesce($7, protected), updated_at = $6
			WHERE id = $1 AND project_id = $2 RETURNING `+dataSetCols,
			ds.ID, ds.ProjectID, ds.Name, cols, rows, ds.Now, ds.Protected)
	}
	d, err := scanDataSet(row)
	if isUniqueViolation(err) {
		return DataSet{}, ErrConflict
	}
	if err != nil {
		return DataSet{}, err
	}
	return d, tx.Commit(ctx)
}

// lockProtected locks the project's row id of table (a data set or a
// pool) and hands decide whether it is protected: ErrNotFound when there
// is no such row in the project, decide's error as is.
func lockProtected(ctx context.Context, tx pgx.Tx, table, projectID, id string, decide func(protected bool) error) error {
	var protected bool
	err := tx.QueryRow(ctx, `SELECT protected FROM `+table+` WHERE id = $1 AND project_id = $2 FOR UPDATE`, id, projectID).Scan(&protected)
	switch {
	case isNoRows(err):
		return ErrNotFound
	case err != nil:
		return err
	case decide != nil:
		return decide(protected)
	}
	return nil
}

// decideNew applies decide to a record being created: not protected yet.
func decideNew(decide func(protected bool) error) error {
	if decide == nil {
		return nil
	}
	return decide(false)
}

// DeleteDataSet removes the project's data set, after decide (as in
// SaveDataSet). Tests that bind it keep the id; a run of one ends with an
// error naming the missing set.
func (s *Store) DeleteDataSet(ctx context.Context, projectID, id string, decide func(protected bool) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if err := lockProtected(ctx, tx, "test_data_sets", projectID, id, decide); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM test_data_sets WHERE id = $1`, id); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// emptyIfNil gives [] rather than null in JSON.
func emptyIfNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
