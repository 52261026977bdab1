package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// Application is an application under test: a name and the base URL that
// environments using it run against.
type Application struct {
	ID          string
	ProjectID   string
	Name        string
	BaseURL     string
	Description string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

const applicationCols = `id, project_id, name, base_url, description, created_at, updated_at`

func scanApplication(row pgx.Row) (Application, error) {
	var a Application
	err := row.Scan(&a.ID, &a.ProjectID, &a.Name, &a.BaseURL, &a.Description, &a.CreatedAt, &a.UpdatedAt)
	if isNoRows(err) {
		return Application{}, ErrNotFound
	}
	return a, err
}

// Applications lists a project's applications by name.
func (s *Store) Applications(ctx context.Context, projectID string) ([]Application, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+applicationCols+` FROM applications
		WHERE project_id = $1 ORDER BY lower(name), id`, projectID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Application, error) { return scanApplication(r) })
}

// Application returns one application of any project (ErrNotFound when
// there is none): the caller checks its ProjectID.
func (s *Store) Application(ctx context.Context, id string) (Application, error) {
	return scanApplication(s.pool.QueryRow(ctx, `SELECT `+applicationCols+` FROM applications WHERE id = $1`, id))
}

// CreateApplication inserts a.ID, ProjectID, Name, BaseURL and Description;
// a name taken in the project (ignoring case) gives ErrConflict.
func (s *Store) CreateApplication(ctx context.Context, a Application, now time.Time) (Application, error) {
	out, err := scanApplication(s.pool.QueryRow(ctx, `INSERT INTO applications
		(id, project_id, name, base_url, description, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)
		RETURNING `+applicationCols, a.ID, a.ProjectID, a.Name, a.BaseURL, a.Description, now))
	if isUniqueViolation(err) {
		return Application{}, ErrConflict
	}
	return out, err
}

// UpdateApplication changes the name, base URL and description of the
// project's application a.ID: ErrNotFound when the project has no such
// application, ErrConflict when the name is taken.
func (s *Store) UpdateApplication(ctx context.Context, a Application, now time.Time) (Application, error) {
	out, err := scanApplication(s.pool.QueryRow(ctx, `UPDATE applications
		SET name = $3, base_url = $4, description = $5, updated_at = $6
		WHERE id = $1 AND project_id = $2 RETURNING `+applicationCols,
		a.ID, a.ProjectID, a.Name, a.BaseURL, a.Description, now))
	if isUniqueViolation(err) {
		return Application{}, ErrConflict
	}
	return out, err
}

// DeleteApplication removes the project's application; environments using
// it keep existing without one.
func (s *Store) DeleteApplication(ctx context.Context, projectID, id string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM applications WHERE id = $1 AND project_id = $2`, id, projectID)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}
