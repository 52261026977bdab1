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

// ErrNotEmpty refuses to delete a suite that still has tests the caller
// can see.
var ErrNotEmpty = errors.New("not empty")

// Suite is a suite name with the number of tests the caller can see in it.
type Suite struct {
	Name  string
	Tests int
}

// Suites lists the project's suites the user can see (suiteSeen) by name,
// each with the number of tests in it the user can see.
func (s *Store) Suites(ctx context.Context, projectID, userID string) ([]Suite, error) {
	rows, err := s.pool.Query(ctx, `SELECT s.name, count(t.id)
		FROM suites s LEFT JOIN tests t ON t.project_id = s.project_id AND t.suite = s.name
			AND `+visibleTo(2)+`
		WHERE s.project_id = $1 GROUP BY s.name, s.listed HAVING s.listed OR count(t.id) > 0
		ORDER BY lower(s.name), s.name`, projectID, userID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Suite, error) {
		var su Suite
		err := r.Scan(&su.Name, &su.Tests)
		return su, err
	})
}

// AddSuite adds a suite name to the list every member sees; one already
// listed gives ErrConflict. A suite that so far existed only for the
// owners of private tests in it is listed from now on, as if new: for the
// caller it did not exist.
func (s *Store) AddSuite(ctx context.Context, projectID, name string) error {
	tag, err := s.pool.Exec(ctx, `INSERT INTO suites AS s (project_id, name, listed) VALUES ($1, $2, true)
		ON CONFLICT (project_id, name) DO UPDATE SET listed = true WHERE NOT s.listed`, projectID, name)
	if err == nil && tag.RowsAffected() == 0 {
		return ErrConflict
	}
	return err
}

// A private test exists for its owner alone, suites included. So a
// suite's count and whether it is empty consider only the tests the caller
// can see (Suites, DeleteSuite, SetSuites). Renaming a suite moves all its
// tests, other people's private ones too, and deleting a suite that is
// empty for the caller moves the private tests of others it still holds to
// no suite (Unsorted): each moved test gets a new version with the same
// status and a note saying why. The version is authored by the caller only
// on a test the caller can see; on a test they cannot, it is authored by
// nobody (author NULL: the hub did it), so the owner's history never names
// someone who is not supposed to know the test exists.

// visibleTo is the condition on tests t the user $n can see.
func visibleTo(n int) string {
	return fmt.Sprintf("(t.visibility = 'Shared' OR t.owner_id = $%d)", n)
}

// suiteSeen is the condition on suites s the user $n can see: a listed
// one (migration 0019), or one holding a test they can see. A suite that
// holds only other people's private tests does not exist for them: they
// cannot list, rename, delete or collide with it.
func suiteSeen(n int) string {
	return `(s.listed OR EXISTS (SELECT 1 FROM tests t WHERE t.project_id = s.project_id AND t.suite = s.name AND ` + visibleTo(n) + `))`
}

// RenameSuite renames a suite the user can see and moves every test in it
// (see above): ErrNotFound when they cannot see it, ErrConflict when they
// can see one named to. A suite named to that they cannot see is merged
// with the renamed one, so that its existence shows in no answer. It
// returns how many of the moved tests the user can see.
func (s *Store) RenameSuite(ctx context.Context, projectID, from, to, userID string, now time.Time) (int, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	var listed, seen bool
	err = tx.QueryRow(ctx, `SELECT s.listed, `+suiteSeen(3)+` FROM suites s WHERE s.project_id = $1 AND s.name = $2 FOR UPDATE`,
		projectID, from, userID).Scan(&listed, &seen)
	switch {
	case isNoRows(err) || err == nil && !seen:
		return 0, ErrNotFound
	case err != nil:
		return 0, err
	}
	var toSeen bool
	err = tx.QueryRow(ctx, `SELECT `+suiteSeen(3)+` FROM suites s WHERE s.project_id = $1 AND s.name = $2 FOR UPDATE`,
		projectID, to, userID).Scan(&toSeen)
	switch {
	case err == nil && toSeen:
		return 0, ErrConflict
	case err == nil: // merge into the unseen suite
		_, err = tx.Exec(ctx, `DELETE FROM suites WHERE project_id = $1 AND name = $2`, projectID, from)
		if err == nil {
			_, err = tx.Exec(ctx, `UPDATE suites SET listed = listed OR $3 WHERE project_id = $1 AND name = $2`, projectID, to, listed)
		}
	case isNoRows(err):
		_, err = tx.Exec(ctx, `UPDATE suites SET name = $3 WHERE project_id = $1 AND name = $2`, projectID, from, to)
	}
	if isUniqueViolation(err) {
		return 0, ErrConflict
	}
	if err != nil {
		return 0, err
	}
	seenMoved, err := moveSuiteTests(ctx, tx, projectID, from, to, userID, now, fmt.Sprintf("suite renamed from %s to %s", from, to))
	if err != nil {
		return 0, err
	}
	return seenMoved, tx.Commit(ctx)
}

// moveSuiteTests gives every test of suite from the suite to ("" for none)
// as a new version noted note, authored by userID on the tests they can
// see and by nobody on the others. It returns how many they can see.
func moveSuiteTests(ctx context.Context, tx pgx.Tx, projectID, from, to, userID string, now time.Time, note string) (int, error) {
	rows, err := tx.Query(ctx, `WITH moved AS (
			SELECT t.id, t.version, t.status, `+visibleTo(4)+` AS seen
			FROM tests t WHERE t.project_id = $1 AND t.suite = $2 FOR UPDATE
		), added AS (
			INSERT INTO test_versions (test_id, version, status, content, step_count, author_id, created_at, saved_at, note)
			SELECT v.test_id, v.version + 1, m.status,
				CASE WHEN $3 = '' THEN v.content - 'suite' ELSE jsonb_set(v.content, '{suite}', to_jsonb($3::text)) END,
				v.step_count, CASE WHEN m.seen THEN $4 END, $5, $5, $6
			FROM moved m JOIN test_versions v ON v.test_id = m.id AND v.version = m.version
		)
		UPDATE tests t SET suite = $3, version = t.version + 1, revision = t.revision + 1, saved_at = $5,
			saved_by = CASE WHEN m.seen THEN $4 END
		FROM moved m WHERE t.id = m.id RETURNING m.seen`, projectID, from, to, userID, now, note)
	if err != nil {
		return 0, fmt.Errorf("move tests: %w", err)
	}
	seen, err := pgx.CollectRows(rows, pgx.RowTo[bool])
	if err != nil {
		return 0, fmt.Errorf("move tests: %w", err)
	}
	n := 0
	for _, s := range seen {
		if s {
			n++
		}
	}
	return n, nil
}

// DeleteSuite removes a suite that is empty for the user (ErrNotEmpty
// otherwise); the private tests of others still in it move to no suite.
func (s *Store) DeleteSuite(ctx context.Context, projectID, name, userID string, now time.Time) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if err := deleteEmptySuite(ctx, tx, projectID, name, userID, now); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

func deleteEmptySuite(ctx context.Context, tx pgx.Tx, projectID, name, userID string, now time.Time) error {
	var seen, used bool
	err := tx.QueryRow(ctx, `SELECT `+suiteSeen(3)+`,
		EXISTS (SELECT 1 FROM tests t WHERE t.project_id = $1 AND t.suite = $2 AND `+visibleTo(3)+`)
		FROM suites s WHERE s.project_id = $1 AND s.name = $2 FOR UPDATE`,
		projectID, name, userID).Scan(&seen, &used)
	switch {
	case isNoRows(err) || err == nil && !seen:
		return ErrNotFound
	case err != nil:
		return err
	case used:
		return ErrNotEmpty
	}
	if _, err := moveSuiteTests(ctx, tx, projectID, name, "", userID, now, fmt.Sprintf("suite %s was deleted", name)); err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `DELETE FROM suites WHERE project_id = $1 AND name = $2`, projectID, name)
	return err
}

// SetSuites makes the project's suite list, as the user sees it, exactly
// names: missing ones are added (listed), unlisted ones empty for the user
// removed (as DeleteSuite does); suites the user cannot see stay as they
// are. An unlisted suite that still has tests the user can see gives
// ErrNotEmpty and changes nothing; name says which.
func (s *Store) SetSuites(ctx context.Context, projectID string, names []string, userID string, now time.Time) (blocking string, err error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return "", err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if names == nil {
		names = []string{} // nil is SQL NULL: name = ANY(NULL) matches nothing, so nothing would go
	}
	rows, err := tx.Query(ctx, `SELECT s.name FROM suites s WHERE s.project_id = $1 AND NOT (s.name = ANY($2)) AND `+suiteSeen(3)+`
		FOR UPDATE`, projectID, names, userID)
	if err != nil {
		return "", err
	}
	gone, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return "", err
	}
	for _, name := range gone {
		if err := deleteEmptySuite(ctx, tx, projectID, name, userID, now); err != nil {
			return name, err
		}
	}
	for _, name := range names {
		if err := ensureSuite(ctx, tx, projectID, name, true); err != nil {
			return "", err
		}
	}
	return "", tx.Commit(ctx)
}
