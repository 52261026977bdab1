package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// ErrNoApplication refuses an environment whose application is not one of
// its project's applications.
var ErrNoApplication = errors.New("no such application in the project")

// ErrTooManySecrets refuses a write that would give an environment more
// than MaxSecrets secrets.
var ErrTooManySecrets = errors.New("too many secrets")

// MaxSecrets bounds the secrets of one environment.
const MaxSecrets = 200

// Environment is an environment row with the names (never the values) of
// its secrets.
type Environment struct {
	ID            string
	ProjectID     string
	Name          string
	Variables     map[string]string // never nil
	ApplicationID string            // "" when the environment has none
	Protected     bool              // secrets only for runs access.MayUseProtected allows
	Secrets       []string          // names, sorted; never nil
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// SealedSecret is a secret value already encrypted by the caller
// (hub/secretbox, with the additional data naming environment and secret):
// the store only ever sees these bytes.
type SealedSecret struct {
	Name       string
	Ciphertext []byte
	Nonce      []byte
}

// EnvironmentSave creates or updates an environment and changes its
// secrets in one transaction.
type EnvironmentSave struct {
	ID        string
	ProjectID string
	Create    bool // insert ID; otherwise update the project's environment ID
	Name      string
	// Variables replaces the variables; nil keeps them (an insert stores {}).
	Variables map[string]string
	// ApplicationID: nil keeps the application, "" removes it, an id sets
	// it (it must belong to ProjectID, else ErrNoApplication).
	ApplicationID *string
	Protected     *bool          // nil keeps the flag (an insert stores false)
	SetSecrets    []SealedSecret // added or replaced
	DeleteSecrets []string       // removed when present
	UserID        string         // recorded as the secrets' updater
	Now           time.Time
}

const environmentCols = `e.id, e.project_id, e.name, e.variables, coalesce(e.application_id, ''), e.protected,
	ARRAY(SELECT s.name FROM secrets s WHERE s.environment_id = e.id ORDER BY s.name), e.created_at, e.updated_at`

func scanEnvironment(row pgx.Row) (Environment, error) {
	var e Environment
	err := row.Scan(&e.ID, &e.ProjectID, &e.Name, &e.Variables, &e.ApplicationID, &e.Protected, &e.Secrets, &e.CreatedAt, &e.UpdatedAt)
	if isNoRows(err) {
		return Environment{}, ErrNotFound
	}
	if e.Variables == nil {
		e.Variables = map[string]string{}
	}
	if e.Secrets == nil {
		e.Secrets = []string{}
	}
	return e, err
}

// Environments lists a project's environments by name.
func (s *Store) Environments(ctx context.Context, projectID string) ([]Environment, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+environmentCols+` FROM environments e
		WHERE e.project_id = $1 ORDER BY lower(e.name), e.id`, projectID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Environment, error) { return scanEnvironment(r) })
}

// Environment returns one environment of any project (ErrNotFound when
// there is none): the caller checks its ProjectID.
func (s *Store) Environment(ctx context.Context, id string) (Environment, error) {
	return scanEnvironment(s.pool.QueryRow(ctx, `SELECT `+environmentCols+` FROM environments e WHERE e.id = $1`, id))
}

// SaveEnvironment applies es: ErrConflict when the name is taken in the
// project (ignoring case), ErrNotFound when an update finds no such
// environment in the project, ErrNoApplication, ErrTooManySecrets.
func (s *Store) SaveEnvironment(ctx context.Context, es EnvironmentSave) (Environment, error) {
	var vars *string
	if es.Variables != nil || es.Create {
		if es.Variables == nil {
			es.Variables = map[string]string{}
		}
		data, err := json.Marshal(es.Variables)
		if err != nil {
			return Environment{}, err
		}
		v := string(data)
		vars = &v
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return Environment{}, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if es.ApplicationID != nil && *es.ApplicationID != "" {
		// FOR SHARE: the application cannot be deleted before we commit.
		var one int
		err := tx.QueryRow(ctx, `SELECT 1 FROM applications WHERE id = $1 AND project_id = $2 FOR SHARE`,
			*es.ApplicationID, es.ProjectID).Scan(&one)
		if isNoRows(err) {
			return Environment{}, ErrNoApplication
		}
		if err != nil {
			return Environment{}, err
		}
	}
	var app *string // SQL NULL: no application
	if es.ApplicationID != nil && *es.ApplicationID != "" {
		app = es.ApplicationID
	}
	if es.Create {
		_, err = tx.Exec(ctx, `INSERT INTO environments (id, project_id, name, variables, application_id, protected, created_at, updated_at)
			VALUES ($1, $2, $3, $4::jsonb, $5, coalesce($6, false), $7, $7)`, es.ID, es.ProjectID, es.Name, vars, app, es.Protected, es.Now)
	} else {
		var tag pgconn.CommandTag
		tag, err = tx.Exec(ctx, `UPDATE environments SET name = $3, variables = coalesce($4::jsonb, variables),
				application_id = CASE WHEN $5 THEN $6 ELSE application_id END, protected = coalesce($8, protected), updated_at = $7
			WHERE id = $1 AND project_id = $2`,
			es.ID, es.ProjectID, es.Name, vars, es.ApplicationID != nil, app, es.Now, es.Protected)
		if err == nil && tag.RowsAffected() == 0 {
			return Environment{}, ErrNotFound
		}
	}
	if isUniqueViolation(err) {
		return Environment{}, ErrConflict
	}
	if err != nil {
		return Environment{}, err
	}
	for _, sec := range es.SetSecrets {
		if _, err := upsertSecret(ctx, tx, es.ID, sec, es.UserID, es.Now); err != nil {
			return Environment{}, err
		}
	}
	if len(es.DeleteSecrets) > 0 {
		if _, err := tx.Exec(ctx, `DELETE FROM secrets WHERE environment_id = $1 AND name = ANY($2)`, es.ID, es.DeleteSecrets); err != nil {
			return Environment{}, fmt.Errorf("delete secrets: %w", err)
		}
	}
	if len(es.SetSecrets) > 0 {
		if err := checkSecretCount(ctx, tx, es.ID); err != nil {
			return Environment{}, err
		}
	}
	e, err := scanEnvironment(tx.QueryRow(ctx, `SELECT `+environmentCols+` FROM environments e WHERE e.id = $1`, es.ID))
	if err != nil {
		return Environment{}, err
	}
	return e, tx.Commit(ctx)
}

// DeleteEnvironment removes the project's environment and its secrets.
func (s *Store) DeleteEnvironment(ctx context.Context, projectID, id string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM environments WHERE id = $1 AND project_id = $2`, id, projectID)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}
