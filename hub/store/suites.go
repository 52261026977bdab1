package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrBadCursor is returned for a cursor that does not fit the query.
var ErrBadCursor = errors.New("bad cursor")

// ErrNotEmpty refuses to delete a suite that still has tests.
var ErrNotEmpty = errors.New("not empty")

// Suite is a suite name with the number of tests the caller can see in it.
type Suite struct {
	Name  string
	Tests int
}

// Suites lists a project's suites by name.
func (s *Store) Suites(ctx context.Context, projectID, userID string) ([]Suite, error) {
	rows, err := s.pool.Query(ctx, `SELECT s.name, count(t.id)
		FROM suites s LEFT JOIN tests t ON t.project_id = s.project_id AND t.suite = s.name
			AND (t.visibility = 'Shared' OR t.owner_id = $2)
		WHERE s.project_id = $1 GROUP BY s.name ORDER BY lower(s.name), s.name`, projectID, userID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Suite, error) {
		var su Suite
		err := r.Scan(&su.Name, &su.Tests)
		return su, err
	})
}

// AddSuite adds a suite name; an existing one gives ErrConflict.
func (s *Store) AddSuite(ctx context.Context, projectID, name string) error {
	tag, err := s.pool.Exec(ctx, `INSERT INTO suites (project_id, name) VALUES ($1, $2) ON CONFLICT DO NOTHING`, projectID, name)
	if err == nil && tag.RowsAffected() == 0 {
		return ErrConflict
	}
	return err
}

// RenameSuite renames a suite and moves every test in it (private ones
// included). Each moved test gets a new version, with the same status as
// its current one, whose document names the new suite and whose note says
// so. It returns how many tests moved.
func (s *Store) RenameSuite(ctx context.Context, projectID, from, to, userID string, now time.Time) (int, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	tag, err := tx.Exec(ctx, `UPDATE suites SET name = $3 WHERE project_id = $1 AND name = $2`, projectID, from, to)
	if isUniqueViolation(err) {
		return 0, ErrConflict
	}
	if err != nil {
		return 0, err
	}
	if tag.RowsAffected() == 0 {
		return 0, ErrNotFound
	}
	note := fmt.Sprintf("suite renamed from %s to %s", from, to)
	tag, err = tx.Exec(ctx, `WITH moved AS (
			SELECT id, version, status FROM tests WHERE project_id = $1 AND suite = $2 FOR UPDATE
		), added AS (
			INSERT INTO test_versions (test_id, version, status, content, step_count, author_id, created_at, saved_at, note)
			SELECT v.test_id, v.version + 1, m.status, jsonb_set(v.content, '{suite}', to_jsonb($3::text)), v.step_count, $4, $5, $5, $6
			FROM moved m JOIN test_versions v ON v.test_id = m.id AND v.version = m.version
		)
		UPDATE tests t SET suite = $3, version = t.version + 1, revision = t.revision + 1, saved_at = $5, saved_by = $4
		FROM moved m WHERE t.id = m.id`, projectID, from, to, userID, now, note)
	if err != nil {
		return 0, fmt.Errorf("move tests: %w", err)
	}
	return int(tag.RowsAffected()), tx.Commit(ctx)
}

// DeleteSuite removes an empty suite (ErrNotEmpty otherwise).
func (s *Store) DeleteSuite(ctx context.Context, projectID, name string) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if err := deleteEmptySuite(ctx, tx, projectID, name); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

func deleteEmptySuite(ctx context.Context, tx pgx.Tx, projectID, name string) error {
	var exists, used bool
	err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM suites WHERE project_id = $1 AND name = $2 FOR UPDATE),
		EXISTS (SELECT 1 FROM tests WHERE project_id = $1 AND suite = $2)`, projectID, name).Scan(&exists, &used)
	switch {
	case err != nil:
		return err
	case !exists:
		return ErrNotFound
	case used:
		return ErrNotEmpty
	}
	_, err = tx.Exec(ctx, `DELETE FROM suites WHERE project_id = $1 AND name = $2`, projectID, name)
	return err
}

// SetSuites makes the project's suite list exactly names: missing ones are
// added, unlisted empty ones removed. An unlisted suite that still has tests
// gives ErrNotEmpty and changes nothing; name says which.
func (s *Store) SetSuites(ctx context.Context, projectID string, names []string) (blocking string, err error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return "", err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	rows, err := tx.Query(ctx, `SELECT name FROM suites WHERE project_id = $1 AND NOT (name = ANY($2)) FOR UPDATE`, projectID, names)
	if err != nil {
		return "", err
	}
	gone, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return "", err
	}
	for _, name := range gone {
		if err := deleteEmptySuite(ctx, tx, projectID, name); err != nil {
			return name, err
		}
	}
	for _, name := range names {
		if err := ensureSuite(ctx, tx, projectID, name); err != nil {
			return "", err
		}
	}
	return "", tx.Commit(ctx)
}
