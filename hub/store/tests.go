package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Test statuses and visibilities as stored.
const (
	Draft      = "Draft"
	Ready      = "Ready"
	Deprecated = "Deprecated"
	Shared     = "Shared"
	Private    = "Private"
)

// Test is a test row: the test and its current version's summary.
type Test struct {
	ID          string
	ProjectID   string
	Name        string
	Suite       string // "" when none
	Tags        []string
	Visibility  string
	OwnerID     string // "" when the owner's account is gone
	OwnerName   string
	Status      string
	Version     int
	Revision    int
	StepCount   int
	CreatedAt   time.Time
	SavedAt     time.Time
	SavedByID   string
	SavedByName string
	LastRun     *LastRun
	Quarantine  *Quarantine  // nil when the test is not quarantined (history.go)
	History     *TestHistory // the list's summary of its last runs; nil elsewhere
}

// LastRun summarises a test's most recent run.
type LastRun struct {
	ID            string
	Status        string
	Passed, Total int
	At            time.Time
}

// TestContent is a version's document and the facts the list shows.
type TestContent struct {
	Name      string
	Suite     string
	Tags      []string
	StepCount int
	Document  []byte // JSON
}

// TestVersion is one stored version.
type TestVersion struct {
	TestID     string
	Version    int
	Status     string
	StepCount  int
	AuthorID   string
	AuthorName string
	CreatedAt  time.Time
	SavedAt    time.Time
	Note       string
	Document   []byte // nil in version lists
}

const testCols = `t.id, t.project_id, t.name, t.suite, t.tags, t.visibility, coalesce(t.owner_id, ''), coalesce(o.name, ''),
	t.status, t.version, t.revision, t.step_count, t.created_at, t.saved_at, coalesce(t.saved_by, ''), coalesce(sb.name, ''),
	t.last_run_id, t.last_run_status, t.last_run_passed, t.last_run_total, t.last_run_at,
	t.quarantined_at, coalesce(t.quarantined_by, ''), coalesce(qb.name, ''), t.quarantine_reason`

const testFrom = ` FROM tests t LEFT JOIN users o ON o.id = t.owner_id LEFT JOIN users sb ON sb.id = t.saved_by
	LEFT JOIN users qb ON qb.id = t.quarantined_by `

func scanTest(row pgx.Row) (Test, error) { return scanTestWith(row) }

// scanTestWith scans testCols and then extra columns into extra.
func scanTestWith(row pgx.Row, extra ...any) (Test, error) {
	var t Test
	var runID, runStatus *string
	var passed, total *int
	var at, quarantinedAt *time.Time
	var q Quarantine
	err := row.Scan(append([]any{&t.ID, &t.ProjectID, &t.Name, &t.Suite, &t.Tags, &t.Visibility, &t.OwnerID, &t.OwnerName,
		&t.Status, &t.Version, &t.Revision, &t.StepCount, &t.CreatedAt, &t.SavedAt, &t.SavedByID, &t.SavedByName,
		&runID, &runStatus, &passed, &total, &at, &quarantinedAt, &q.ByID, &q.ByName, &q.Reason}, extra...)...)
	if isNoRows(err) {
		return Test{}, ErrNotFound
	}
	if err != nil {
		return Test{}, err
	}
	if quarantinedAt != nil {
		q.At = *quarantinedAt
		t.Quarantine = &q
	}
	if runID != nil && runStatus != nil {
		t.LastRun = &LastRun{ID: *runID, Status: *runStatus}
		if passed != nil && total != nil {
			t.LastRun.Passed, t.LastRun.Total = *passed, *total
		}
		if at != nil {
			t.LastRun.At = *at
		}
	}
	return t, nil
}

// NewTest is what CreateTest needs.
type NewTest struct {
	ID, ProjectID, OwnerID, Visibility string
	Content                            TestContent
	Now                                time.Time
}

// CreateTests saves new tests as version 1, Draft, in one transaction, and
// adds their suites to the project's suite list.
func (s *Store) CreateTests(ctx context.Context, nts ...NewTest) ([]Test, error) {
	return s.CreateTestsWithComponents(ctx, nil, nts...)
}

// CreateTestsWithComponents is CreateTests creating components first, in
// the same transaction (a .side import's called tests): all or nothing. A
// component name the project has already is ErrConflict.
func (s *Store) CreateTestsWithComponents(ctx context.Context, ncs []NewComponent, nts ...NewTest) ([]Test, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	for _, nc := range ncs {
		if err := insertComponent(ctx, tx, nc); err != nil {
			return nil, err
		}
	}
	for _, nt := range nts {
		c := nt.Content
		if _, err := tx.Exec(ctx, `INSERT INTO tests (id, project_id, name, suite, tags, visibility, owner_id, status, version, step_count, created_at, saved_at, saved_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7, 'Draft', 1, $8, $9, $9, $7)`,
			nt.ID, nt.ProjectID, c.Name, c.Suite, nonNil(c.Tags), nt.Visibility, nt.OwnerID, c.StepCount, nt.Now); err != nil {
			return nil, fmt.Errorf("create test: %w", err)
		}
		if err := insertVersion(ctx, tx, nt.ID, 1, Draft, c, nt.OwnerID, nt.Now, ""); err != nil {
			return nil, err
		}
		if err := ensureSuite(ctx, tx, nt.ProjectID, c.Suite, nt.Visibility == Shared); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, err
	}
	out := make([]Test, 0, len(nts))
	for _, nt := range nts {
		t, err := s.Test(ctx, nt.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func insertVersion(ctx context.Context, tx pgx.Tx, testID string, version int, status string, c TestContent, author string, now time.Time, note string) error {
	_, err := tx.Exec(ctx, `INSERT INTO test_versions (test_id, version, status, content, step_count, author_id, created_at, saved_at, note)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8)`, testID, version, status, string(c.Document), c.StepCount, nullIfEmpty(author), now, note)
	if err != nil {
		return fmt.Errorf("insert version: %w", err)
	}
	return nil
}

func nullIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// ensureSuite adds a suite a test was put in to the project's suites;
// listed (a shared test's suite) makes it listed to every member, as
// migration 0019 says. A private test's suite stays unlisted unless it is
// listed already.
func ensureSuite(ctx context.Context, tx pgx.Tx, projectID, suite string, listed bool) error {
	if suite == "" {
		return nil
	}
	_, err := tx.Exec(ctx, `INSERT INTO suites AS s (project_id, name, listed) VALUES ($1, $2, $3)
		ON CONFLICT (project_id, name) DO UPDATE SET listed = true WHERE $3 AND NOT s.listed`, projectID, suite, listed)
	return err
}

// Test returns one test.
func (s *Store) Test(ctx context.Context, id string) (Test, error) {
	return scanTest(s.pool.QueryRow(ctx, `SELECT `+testCols+testFrom+`WHERE t.id = $1`, id))
}

const versionCols = `v.test_id, v.version, v.status, v.step_count, coalesce(v.author_id, ''), coalesce(a.name, ''), v.created_at, v.saved_at, v.note`

// TestVersion returns one version with its document.
func (s *Store) TestVersion(ctx context.Context, testID string, version int) (TestVersion, error) {
	var v TestVersion
	var doc string
	err := s.pool.QueryRow(ctx, `SELECT `+versionCols+`, v.content::text FROM test_versions v LEFT JOIN users a ON a.id = v.author_id
		WHERE v.test_id = $1 AND v.version = $2`, testID, version).
		Scan(&v.TestID, &v.Version, &v.Status, &v.StepCount, &v.AuthorID, &v.AuthorName, &v.CreatedAt, &v.SavedAt, &v.Note, &doc)
	if isNoRows(err) {
		return TestVersion{}, ErrNotFound
	}
	v.Document = []byte(doc)
	return v, err
}

// TestVersions lists a test's versions, newest first, without documents.
func (s *Store) TestVersions(ctx context.Context, testID string) ([]TestVersion, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+versionCols+` FROM test_versions v LEFT JOIN users a ON a.id = v.author_id
		WHERE v.test_id = $1 ORDER BY v.version DESC`, testID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (TestVersion, error) {
		var v TestVersion
		err := r.Scan(&v.TestID, &v.Version, &v.Status, &v.StepCount, &v.AuthorID, &v.AuthorName, &v.CreatedAt, &v.SavedAt, &v.Note)
		return v, err
	})
}

// DeleteTest removes a test and all its versions. It locks the test and
// hands it to decide first, in the same transaction, so a deprecation or a
// transfer that commits meanwhile is what decide sees: an error from decide
// is returned as is and nothing is deleted. A nil decide deletes.
func (s *Store) DeleteTest(ctx context.Context, id string, decide func(cur Test) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	var one int
	if err := tx.QueryRow(ctx, `SELECT 1 FROM tests WHERE id = $1 FOR UPDATE`, id).Scan(&one); isNoRows(err) {
		return ErrNotFound
	} else if err != nil {
		return err
	}
	if decide != nil {
		cur, err := scanTest(tx.QueryRow(ctx, `SELECT `+testCols+testFrom+`WHERE t.id = $1`, id))
		if err != nil {
			return err
		}
		if err := decide(cur); err != nil {
			return err
		}
	}
	if _, err := tx.Exec(ctx, `DELETE FROM tests WHERE id = $1`, id); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// VersionWrite is a version's new content and status.
type VersionWrite struct {
	Content TestContent
	Status  string
	Note    string
}

// TestChange is what a decision on a locked test wants written. At most
// one of Overwrite and Append; sharing fields apply when non-empty.
type TestChange struct {
	Overwrite  *VersionWrite // replace the current version (a Draft save or a status change); an empty Note keeps the note
	Append     *VersionWrite // add version n+1 (a revision, a restore, a suite rename)
	Visibility string
	OwnerID    string
}

// UpdateTest locks a test, hands it and its current document to decide,
// and writes the change decide returns, all in one transaction: concurrent
// updates of one test are applied one after the other. An error from
// decide is returned as is and nothing is written.
func (s *Store) UpdateTest(ctx context.Context, id, userID string, now time.Time, decide func(cur Test, doc []byte) (TestChange, error)) (Test, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return Test{}, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if _, err := tx.Exec(ctx, `SELECT 1 FROM tests WHERE id = $1 FOR UPDATE`, id); err != nil {
		return Test{}, err
	}
	cur, err := scanTest(tx.QueryRow(ctx, `SELECT `+testCols+testFrom+`WHERE t.id = $1`, id))
	if err != nil {
		return Test{}, err
	}
	var doc string
	if err := tx.QueryRow(ctx, `SELECT content::text FROM test_versions WHERE test_id = $1 AND version = $2`, id, cur.Version).Scan(&doc); err != nil {
		return Test{}, fmt.Errorf("current version: %w", err)
	}
	change, err := decide(cur, []byte(doc))
	if err != nil {
		return Test{}, err
	}
	if err := applyChange(ctx, tx, cur, change, userID, now); err != nil {
		return Test{}, err
	}
	if err := tx.Commit(ctx); err != nil {
		return Test{}, err
	}
	return s.Test(ctx, id)
}

func applyChange(ctx context.Context, tx pgx.Tx, cur Test, ch TestChange, userID string, now time.Time) error {
	w, version := ch.Overwrite, cur.Version
	if ch.Append != nil {
		w, version = ch.Append, cur.Version+1
		if err := insertVersion(ctx, tx, cur.ID, version, w.Status, w.Content, userID, now, w.Note); err != nil {
			return err
		}
	} else if w != nil {
		// An empty note keeps the version's note.
		if _, err := tx.Exec(ctx, `UPDATE test_versions SET content = $3, status = $4, step_count = $5, author_id = $6, saved_at = $7,
			note = coalesce(nullif($8, ''), note)
			WHERE test_id = $1 AND version = $2`, cur.ID, version, string(w.Content.Document), w.Status, w.Content.StepCount, userID, now, w.Note); err != nil {
			return fmt.Errorf("overwrite version: %w", err)
		}
	}
	if w != nil {
		c := w.Content
		if _, err := tx.Exec(ctx, `UPDATE tests SET name = $2, suite = $3, tags = $4, status = $5, version = $6, step_count = $7,
			saved_at = $8, saved_by = $9, revision = revision + 1 WHERE id = $1`,
			cur.ID, c.Name, c.Suite, nonNil(c.Tags), w.Status, version, c.StepCount, now, userID); err != nil {
			return fmt.Errorf("update test: %w", err)
		}
	}
	if ch.Visibility != "" || ch.OwnerID != "" {
		if _, err := tx.Exec(ctx, `UPDATE tests SET visibility = coalesce(nullif($2, ''), visibility),
			owner_id = coalesce(nullif($3, ''), owner_id), revision = revision + 1 WHERE id = $1`,
			cur.ID, ch.Visibility, ch.OwnerID); err != nil {
			return fmt.Errorf("update sharing: %w", err)
		}
	}
	if w == nil && ch.Visibility == "" {
		return nil
	}
	// The test's suite, listed once a shared test is in it.
	suite, vis := cur.Suite, cur.Visibility
	if w != nil {
		suite = w.Content.Suite
	}
	if ch.Visibility != "" {
		vis = ch.Visibility
	}
	return ensureSuite(ctx, tx, cur.ProjectID, suite, vis == Shared)
}

// ErrStale says the record changed since the caller read it.
var ErrStale = errors.New("stale")
