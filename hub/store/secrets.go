package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/testautomation/ta/hub/ids"
)

// secretKind is the id prefix of secrets.
const secretKind = "sec"

// SecretInfo describes a stored secret without its value.
type SecretInfo struct {
	EnvironmentID   string
	EnvironmentName string
	Name            string
	UpdatedAt       time.Time
	UpdatedByID     string // "" once the account is deleted
	UpdatedByName   string
}

// SecretRow is a secret's encrypted value.
type SecretRow struct {
	Name       string
	Ciphertext []byte
	Nonce      []byte
}

// upsertSecret adds or replaces one secret; inserted is false for a
// replacement.
func upsertSecret(ctx context.Context, tx pgx.Tx, envID string, sec SealedSecret, userID string, now time.Time) (inserted bool, err error) {
	var updatedBy *string
	if userID != "" {
		updatedBy = &userID
	}
	err = tx.QueryRow(ctx, `INSERT INTO secrets (id, environment_id, name, ciphertext, nonce, created_at, updated_at, updated_by)
		VALUES ($1, $2, $3, $4, $5, $6, $6, $7)
		ON CONFLICT (environment_id, name) DO UPDATE
			SET ciphertext = EXCLUDED.ciphertext, nonce = EXCLUDED.nonce, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by
		RETURNING xmax = 0`, ids.New(secretKind), envID, sec.Name, sec.Ciphertext, sec.Nonce, now, updatedBy).Scan(&inserted)
	return inserted, err
}

func checkSecretCount(ctx context.Context, tx pgx.Tx, envID string) error {
	var n int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM secrets WHERE environment_id = $1`, envID).Scan(&n); err != nil {
		return err
	}
	if n > MaxSecrets {
		return ErrTooManySecrets
	}
	return nil
}

// SetSecret adds or replaces one secret of the project's environment envID
// (ErrNotFound when the project has no such environment) and marks the
// environment updated. created is true when the secret is new.
func (s *Store) SetSecret(ctx context.Context, projectID, envID string, sec SealedSecret, userID string, now time.Time) (info SecretInfo, created bool, err error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return SecretInfo{}, false, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	// Updating the environment row also serialises concurrent secret writes
	// to it, so the count check below sees them all.
	err = tx.QueryRow(ctx, `UPDATE environments SET updated_at = $3 WHERE id = $1 AND project_id = $2 RETURNING name`,
		envID, projectID, now).Scan(&info.EnvironmentName)
	if isNoRows(err) {
		return SecretInfo{}, false, ErrNotFound
	}
	if err != nil {
		return SecretInfo{}, false, err
	}
	if created, err = upsertSecret(ctx, tx, envID, sec, userID, now); err != nil {
		return SecretInfo{}, false, err
	}
	if err := checkSecretCount(ctx, tx, envID); err != nil {
		return SecretInfo{}, false, err
	}
	err = tx.QueryRow(ctx, `SELECT s.updated_at, coalesce(u.id, ''), coalesce(u.name, '')
		FROM secrets s LEFT JOIN users u ON u.id = s.updated_by
		WHERE s.environment_id = $1 AND s.name = $2`, envID, sec.Name).Scan(&info.UpdatedAt, &info.UpdatedByID, &info.UpdatedByName)
	if err != nil {
		return SecretInfo{}, false, err
	}
	info.EnvironmentID, info.Name = envID, sec.Name
	return info, created, tx.Commit(ctx)
}

// DeleteSecret removes one secret (ErrNotFound when there is none).
func (s *Store) DeleteSecret(ctx context.Context, envID, name string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM secrets WHERE environment_id = $1 AND name = $2`, envID, name)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}

// ProjectSecrets is the project's secret inventory: every secret of every
// environment, without values, by environment name then secret name.
func (s *Store) ProjectSecrets(ctx context.Context, projectID string) ([]SecretInfo, error) {
	rows, err := s.pool.Query(ctx, `SELECT e.id, e.name, s.name, s.updated_at, coalesce(u.id, ''), coalesce(u.name, '')
		FROM secrets s JOIN environments e ON e.id = s.environment_id
		LEFT JOIN users u ON u.id = s.updated_by
		WHERE e.project_id = $1 ORDER BY lower(e.name), e.id, s.name`, projectID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (SecretInfo, error) {
		var si SecretInfo
		err := r.Scan(&si.EnvironmentID, &si.EnvironmentName, &si.Name, &si.UpdatedAt, &si.UpdatedByID, &si.UpdatedByName)
		return si, err
	})
}

// EnvironmentSecrets returns the encrypted values of an environment's
// secrets, by name.
//
// Only for the run dispatcher, to decrypt (secretbox.SecretAAD) and send
// them to the agent inside the run that uses this environment: no API
// response, log line or event may carry what it returns.
func (s *Store) EnvironmentSecrets(ctx context.Context, envID string) ([]SecretRow, error) {
	rows, err := s.pool.Query(ctx, `SELECT name, ciphertext, nonce FROM secrets WHERE environment_id = $1 ORDER BY name`, envID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (SecretRow, error) {
		var sr SecretRow
		err := r.Scan(&sr.Name, &sr.Ciphertext, &sr.Nonce)
		return sr, err
	})
}
