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
	CreatedBy string              // "" once the account is deleted
	CreatedAt time.Time
	UpdatedAt time.Time
}

// DataSetSummary is a data set in a list: its rows only counted.
type DataSetSummary struct {
	ID        string
	Name      string
	Columns   []string
	RowCount  int
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
	Columns []string
	Rows    []map[string]string
	UserID  string
	Now     time.Time
}

const dataSetCols = `id, project_id, name, columns, rows, coalesce(created_by, ''), created_at, updated_at`

func scanDataSet(row pgx.Row) (DataSet, error) {
	var d DataSet
	err := row.Scan(&d.ID, &d.ProjectID, &d.Name, &d.Columns, &d.Rows, &d.CreatedBy, &d.CreatedAt, &d.UpdatedAt)
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
	rows, err := s.pool.Query(ctx, `SELECT id, name, columns, jsonb_array_length(rows), updated_at
		FROM test_data_sets WHERE project_id = $1 ORDER BY lower(name), id`, projectID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (DataSetSummary, error) {
		var d DataSetSummary
		err := r.Scan(&d.ID, &d.Name, &d.Columns, &d.RowCount, &d.UpdatedAt)
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
// set in the project.
func (s *Store) SaveDataSet(ctx context.Context, ds DataSetSave) (DataSet, error) {
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
	var row pgx.Row
	if ds.Create {
		row = s.pool.QueryRow(ctx, `INSERT INTO test_data_sets (id, project_id, name, columns, rows, created_by, created_at, updated_at)
			VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, nullif($6, ''), $7, $7) RETURNING `+dataSetCols,
			ds.ID, ds.ProjectID, ds.Name, cols, rows, ds.UserID, ds.Now)
	} else {
		row = s.pool.QueryRow(ctx, `UPDATE test_data_sets SET name = $3, columns = coalesce($4::jsonb, columns),
				rows = coalesce($5::jsonb, rows), updated_at = $6
			WHERE id = $1 AND project_id = $2 RETURNING `+dataSetCols,
			ds.ID, ds.ProjectID, ds.Name, cols, rows, ds.Now)
	}
	d, err := scanDataSet(row)
	if isUniqueViolation(err) {
		return DataSet{}, ErrConflict
	}
	return d, err
}

// DeleteDataSet removes the project's data set. Tests that bind it keep the
// id; a run of one ends with an error naming the missing set.
func (s *Store) DeleteDataSet(ctx context.Context, projectID, id string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM test_data_sets WHERE id = $1 AND project_id = $2`, id, projectID)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}

// emptyIfNil gives [] rather than null in JSON.
func emptyIfNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
