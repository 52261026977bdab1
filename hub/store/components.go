package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrInUse refuses to delete a record something current still uses.
var ErrInUse = errors.New("in use")

// ComponentInput is one input a component declares: ${name} inside its
// steps reads the call's value, or Default when the call gives none. An
// input without a default is required.
type ComponentInput struct {
	Name        string  `json:"name"`
	Default     *string `json:"default,omitempty"`
	Description string  `json:"description,omitempty"`
}

// Component is a component row with its latest version's inputs.
type Component struct {
	ID            string
	ProjectID     string
	Name          string
	Description   string
	LatestVersion int
	CreatedByID   string
	CreatedByName string
	CreatedAt     time.Time
	UpdatedAt     time.Time
	Inputs        []ComponentInput // of the latest version
	Usages        int              // tests whose current version calls it (in lists)
}

// ComponentVersion is one immutable version of a component.
type ComponentVersion struct {
	ComponentID string
	Name        string // the component's name
	Version     int
	Steps       []byte // JSON array of steps
	Inputs      []ComponentInput
	Note        string
	AuthorID    string
	AuthorName  string
	CreatedAt   time.Time
}

// ComponentUsage is one test version calling one component version.
type ComponentUsage struct {
	TestID           string
	TestName         string
	TestVersion      int
	ComponentVersion int
	Current          bool // the test's current version
	Status           string
}

const componentCols = `c.id, c.project_id, c.name, c.description, c.latest_version, coalesce(c.created_by, ''), coalesce(u.name, ''),
	c.created_at, c.updated_at, v.inputs`

const componentFrom = ` FROM components c LEFT JOIN users u ON u.id = c.created_by
	JOIN component_versions v ON v.component_id = c.id AND v.version = c.latest_version `

func scanComponent(row pgx.Row, extra ...any) (Component, error) {
	var c Component
	var inputs []byte
	err := row.Scan(append([]any{&c.ID, &c.ProjectID, &c.Name, &c.Description, &c.LatestVersion, &c.CreatedByID, &c.CreatedByName,
		&c.CreatedAt, &c.UpdatedAt, &inputs}, extra...)...)
	if isNoRows(err) {
		return Component{}, ErrNotFound
	}
	if err != nil {
		return Component{}, err
	}
	c.Inputs, err = readInputs(inputs)
	return c, err
}

func readInputs(b []byte) ([]ComponentInput, error) {
	in := []ComponentInput{}
	if len(b) > 0 {
		if err := json.Unmarshal(b, &in); err != nil {
			return nil, fmt.Errorf("component inputs: %w", err)
		}
	}
	return in, nil
}

// callsOf is the test "content's steps call component (the SQL
// expression) component", at any depth: a call inside a block (if,
// repeat, forEach: docs/flow.md) counts as much as a top-level one, or a
// component in use could be deleted from under it. The GIN index does not
// serve a recursive path; the queries are bound by project or current
// versions.
func callsOf(col, component string) string {
	return fmt.Sprintf(`jsonb_path_exists(%s, '$.steps.** ? (@.type == "callComponent" && @.component == $c)', jsonb_build_object('c', %s))`, col, component)
}

// stepsCall is callsOf for a column holding a list of steps (a
// component version's).
func stepsCall(col, component string) string {
	return fmt.Sprintf(`jsonb_path_exists(%s, '$.** ? (@.type == "callComponent" && @.component == $c)', jsonb_build_object('c', %s))`, col, component)
}

// Components lists a project's components by name, each with how many
// tests userID can see call it in their current version.
func (s *Store) Components(ctx context.Context, projectID, userID string) ([]Component, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+componentCols+`,
		(SELECT count(*) FROM tests t JOIN test_versions tv ON tv.test_id = t.id AND tv.version = t.version
			WHERE t.project_id = c.project_id AND `+visibleTo(2)+` AND
			`+callsOf("tv.content", "c.id")+`)
		`+componentFrom+` WHERE c.project_id = $1 ORDER BY lower(c.name), c.id`, projectID, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Component{}
	for rows.Next() {
		var n int
		c, err := scanComponent(rows, &n)
		if err != nil {
			return nil, err
		}
		c.Usages = n
		out = append(out, c)
	}
	return out, rows.Err()
}

// Component returns one component.
func (s *Store) Component(ctx context.Context, id string) (Component, error) {
	return scanComponent(s.pool.QueryRow(ctx, `SELECT `+componentCols+componentFrom+` WHERE c.id = $1`, id))
}

// ComponentByName finds a component of a project by name, ignoring case.
func (s *Store) ComponentByName(ctx context.Context, projectID, name string) (Component, error) {
	return scanComponent(s.pool.QueryRow(ctx, `SELECT `+componentCols+componentFrom+` WHERE c.project_id = $1 AND lower(c.name) = lower($2)`, projectID, name))
}

const componentVersionCols = `v.component_id, c.name, v.version, v.steps::text, v.inputs, v.note, coalesce(v.author_id, ''), coalesce(a.name, ''), v.created_at`

func scanComponentVersion(row pgx.Row) (ComponentVersion, error) {
	var v ComponentVersion
	var steps string
	var inputs []byte
	err := row.Scan(&v.ComponentID, &v.Name, &v.Version, &steps, &inputs, &v.Note, &v.AuthorID, &v.AuthorName, &v.CreatedAt)
	if isNoRows(err) {
		return ComponentVersion{}, ErrNotFound
	}
	if err != nil {
		return ComponentVersion{}, err
	}
	v.Steps = []byte(steps)
	v.Inputs, err = readInputs(inputs)
	return v, err
}

// ComponentVersion returns version n of a component of the project (the
// latest when n is 0). A component of another project is ErrNotFound.
func (s *Store) ComponentVersion(ctx context.Context, projectID, componentID string, version int) (ComponentVersion, error) {
	return scanComponentVersion(s.pool.QueryRow(ctx, `SELECT `+componentVersionCols+`
		FROM component_versions v JOIN components c ON c.id = v.component_id LEFT JOIN users a ON a.id = v.author_id
		WHERE c.id = $2 AND c.project_id = $1 AND v.version = CASE WHEN $3 = 0 THEN c.latest_version ELSE $3 END`,
		projectID, componentID, version))
}

// ComponentVersions lists every version of a component, newest first.
func (s *Store) ComponentVersions(ctx context.Context, componentID string) ([]ComponentVersion, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+componentVersionCols+`
		FROM component_versions v JOIN components c ON c.id = v.component_id LEFT JOIN users a ON a.id = v.author_id
		WHERE v.component_id = $1 ORDER BY v.version DESC`, componentID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (ComponentVersion, error) { return scanComponentVersion(r) })
}

// ComponentUsages lists which versions of which tests (those userID can
// see) call which version of the component; onlyCurrent keeps the tests'
// current versions. Ordered by test name, newest version first.
func (s *Store) ComponentUsages(ctx context.Context, projectID, componentID, userID string, onlyCurrent bool) ([]ComponentUsage, error) {
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT t.id, t.name, tv.version, coalesce((st->>'version')::int, 0), tv.version = t.version, tv.status, lower(t.name)
		FROM tests t JOIN test_versions tv ON tv.test_id = t.id
		CROSS JOIN LATERAL jsonb_path_query(tv.content, '$.steps.** ? (@.type == "callComponent" && @.component == $c)', jsonb_build_object('c', $2::text)) st
		WHERE t.project_id = $1 AND `+visibleTo(3)+` AND (NOT $4 OR tv.version = t.version)
		ORDER BY lower(t.name), t.id, tv.version DESC`, projectID, componentID, userID, onlyCurrent)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (ComponentUsage, error) {
		var u ComponentUsage
		var sortKey string
		err := r.Scan(&u.TestID, &u.TestName, &u.TestVersion, &u.ComponentVersion, &u.Current, &u.Status, &sortKey)
		return u, err
	})
}

// NewComponent is what CreateComponent needs: version 1's steps and inputs.
type NewComponent struct {
	ID, ProjectID, Name, Description string
	Steps                            []byte
	Inputs                           []ComponentInput
	UserID                           string
	Now                              time.Time
}

// ReplaceSteps is how CreateComponent changes the source test: it gets the
// locked test and its current document and returns the version to append,
// or nil to leave the test alone.
type ReplaceSteps struct {
	TestID string
	Decide func(cur Test, doc []byte) (*VersionWrite, error)
}

// CreateComponent saves a component at version 1 and, when replace is
// given and decides so, appends the source test's new version in the same
// transaction. A name taken in the project is ErrConflict.
func (s *Store) CreateComponent(ctx context.Context, nc NewComponent, replace *ReplaceSteps) (Component, *Test, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return Component{}, nil, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if err := insertComponent(ctx, tx, nc); err != nil {
		return Component{}, nil, err
	}
	var changed *Test
	if replace != nil {
		if _, err := tx.Exec(ctx, `SELECT 1 FROM tests WHERE id = $1 FOR UPDATE`, replace.TestID); err != nil {
			return Component{}, nil, err
		}
		cur, err := scanTest(tx.QueryRow(ctx, `SELECT `+testCols+testFrom+`WHERE t.id = $1`, replace.TestID))
		if err != nil {
			return Component{}, nil, err
		}
		var doc string
		if err := tx.QueryRow(ctx, `SELECT content::text FROM test_versions WHERE test_id = $1 AND version = $2`, cur.ID, cur.Version).Scan(&doc); err != nil {
			return Component{}, nil, fmt.Errorf("current version: %w", err)
		}
		w, err := replace.Decide(cur, []byte(doc))
		if err != nil {
			return Component{}, nil, err
		}
		if w != nil {
			if err := applyChange(ctx, tx, cur, TestChange{Append: w}, nc.UserID, nc.Now); err != nil {
				return Component{}, nil, err
			}
			changed = &cur
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return Component{}, nil, err
	}
	c, err := s.Component(ctx, nc.ID)
	if err != nil {
		return Component{}, nil, err
	}
	if changed != nil {
		t, err := s.Test(ctx, changed.ID)
		if err != nil {
			return Component{}, nil, err
		}
		changed = &t
	}
	return c, changed, nil
}

// insertComponent adds a component and its version 1; a name the
// project has already is ErrConflict.
func insertComponent(ctx context.Context, tx pgx.Tx, nc NewComponent) error {
	inputs, _ := json.Marshal(nonNilInputs(nc.Inputs))
	_, err := tx.Exec(ctx, `INSERT INTO components (id, project_id, name, description, latest_version, created_by, created_at, updated_at)
		VALUES ($1, $2, $3, $4, 1, $5, $6, $6)`, nc.ID, nc.ProjectID, nc.Name, nc.Description, nullIfEmpty(nc.UserID), nc.Now)
	if isUniqueViolation(err) {
		return ErrConflict
	}
	if err != nil {
		return fmt.Errorf("create component: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO component_versions (component_id, version, steps, inputs, note, author_id, created_at)
		VALUES ($1, 1, $2, $3, '', $4, $5)`, nc.ID, string(nc.Steps), string(inputs), nullIfEmpty(nc.UserID), nc.Now); err != nil {
		return fmt.Errorf("create component version: %w", err)
	}
	return nil
}

func nonNilInputs(in []ComponentInput) []ComponentInput {
	if in == nil {
		return []ComponentInput{}
	}
	return in
}

// UpdateComponent renames a component or changes its description (an
// empty name keeps the name; a nil description keeps it).
func (s *Store) UpdateComponent(ctx context.Context, id, name string, description *string, now time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE components SET name = coalesce(nullif($2, ''), name),
		description = coalesce($3, description), updated_at = $4 WHERE id = $1`, id, name, description, now)
	if isUniqueViolation(err) {
		return ErrConflict
	}
	if err == nil && tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return err
}

// PublishComponentVersion adds the next version of a component and
// returns its number.
func (s *Store) PublishComponentVersion(ctx context.Context, id string, steps []byte, inputs []ComponentInput, note, userID string, now time.Time) (int, error) {
	in, _ := json.Marshal(nonNilInputs(inputs))
	var n int
	err := s.pool.QueryRow(ctx, `WITH c AS (
			UPDATE components SET latest_version = latest_version + 1, updated_at = $6 WHERE id = $1 RETURNING latest_version
		)
		INSERT INTO component_versions (component_id, version, steps, inputs, note, author_id, created_at)
		SELECT $1, c.latest_version, $2, $3, $4, $5, $6 FROM c RETURNING version`,
		id, string(steps), string(in), note, nullIfEmpty(userID), now).Scan(&n)
	if isNoRows(err) {
		return 0, ErrNotFound
	}
	return n, err
}

// ComponentCallers names what still calls a component: tests whose current
// version calls it (all of them, private ones too) and other components
// whose latest version does.
func (s *Store) ComponentCallers(ctx context.Context, componentID string) (tests, components []string, err error) {
	rows, err := s.pool.Query(ctx, `SELECT 'test', t.name FROM tests t JOIN test_versions tv ON tv.test_id = t.id AND tv.version = t.version
			WHERE `+callsOf("tv.content", "$1::text")+`
		UNION ALL
		SELECT 'component', c.name FROM components c JOIN component_versions v ON v.component_id = c.id AND v.version = c.latest_version
			WHERE c.id <> $1 AND `+stepsCall("v.steps", "$1::text")+`
		ORDER BY 1, 2`, componentID)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var kind, name string
		if err := rows.Scan(&kind, &name); err != nil {
			return nil, nil, err
		}
		if kind == "test" {
			tests = append(tests, name)
		} else {
			components = append(components, name)
		}
	}
	return tests, components, rows.Err()
}

// DeleteComponent removes a component and its versions unless a test's
// current version or another component's latest version calls it
// (ErrInUse). The check and the delete hold the component's row lock.
func (s *Store) DeleteComponent(ctx context.Context, id string) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	var one int
	if err := tx.QueryRow(ctx, `SELECT 1 FROM components WHERE id = $1 FOR UPDATE`, id).Scan(&one); isNoRows(err) {
		return ErrNotFound
	} else if err != nil {
		return err
	}
	var used bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM tests t JOIN test_versions tv ON tv.test_id = t.id AND tv.version = t.version
			WHERE `+callsOf("tv.content", "$1::text")+`)
		OR EXISTS (SELECT 1 FROM components c JOIN component_versions v ON v.component_id = c.id AND v.version = c.latest_version
			WHERE c.id <> $1 AND `+stepsCall("v.steps", "$1::text")+`)`,
		id).Scan(&used); err != nil {
		return err
	}
	if used {
		return ErrInUse
	}
	if _, err := tx.Exec(ctx, `DELETE FROM components WHERE id = $1`, id); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
