package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// User is a sign-in account row. PasswordHash never leaves the hub.
type User struct {
	ID            string
	Email         string
	Name          string
	PasswordHash  string
	PlatformAdmin bool
	CreatedAt     time.Time
}

// NewUser is what CreateUser needs.
type NewUser struct {
	ID           string
	Email        string
	Name         string
	PasswordHash string
	// PlatformAdmin makes the account a platform administrator.
	PlatformAdmin bool
	// AdminIfFirst makes the account a platform administrator when no
	// platform administrator exists yet (the first registration).
	AdminIfFirst bool
}

const userCols = `id, email, name, password_hash, platform_admin, created_at`

func scanUser(row pgx.Row) (User, error) {
	var u User
	err := row.Scan(&u.ID, &u.Email, &u.Name, &u.PasswordHash, &u.PlatformAdmin, &u.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return User{}, ErrNotFound
	}
	return u, err
}

func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}

// adminLockID serialises "first account becomes administrator" decisions.
const adminLockID = 0x7461_6875_6202

// CreateUser inserts an account. A taken email gives ErrConflict.
func (s *Store) CreateUser(ctx context.Context, nu NewUser) (User, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return User{}, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if nu.AdminIfFirst {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(adminLockID)); err != nil {
			return User{}, err
		}
	}
	u, err := scanUser(tx.QueryRow(ctx, `
		INSERT INTO users (id, email, name, password_hash, platform_admin)
		VALUES ($1, $2, $3, $4, $5 OR ($6 AND NOT EXISTS (SELECT 1 FROM users WHERE platform_admin)))
		RETURNING `+userCols,
		nu.ID, nu.Email, nu.Name, nu.PasswordHash, nu.PlatformAdmin, nu.AdminIfFirst))
	if isUniqueViolation(err) {
		return User{}, ErrConflict
	}
	if err != nil {
		return User{}, fmt.Errorf("create user: %w", err)
	}
	return u, tx.Commit(ctx)
}

// UserByEmail finds an account by email, ignoring case.
func (s *Store) UserByEmail(ctx context.Context, email string) (User, error) {
	return scanUser(s.pool.QueryRow(ctx, `SELECT `+userCols+` FROM users WHERE lower(email) = lower($1)`, email))
}

// UserByID finds an account by id.
func (s *Store) UserByID(ctx context.Context, id string) (User, error) {
	return scanUser(s.pool.QueryRow(ctx, `SELECT `+userCols+` FROM users WHERE id = $1`, id))
}

// ListUsers returns every account, oldest first.
func (s *Store) ListUsers(ctx context.Context) ([]User, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+userCols+` FROM users ORDER BY created_at, id`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (User, error) { return scanUser(r) })
}

// ErrLastAdmin refuses a change that would leave nobody to administer.
var ErrLastAdmin = errors.New("last administrator")

// SoleAdminError refuses to delete the only Admin of an organization.
type SoleAdminError struct{ Org string }

func (e *SoleAdminError) Error() string { return "sole Admin of organization " + e.Org }

// DeleteUser removes an account with its sessions and memberships. The last
// platform administrator cannot be deleted (ErrLastAdmin).
func (s *Store) DeleteUser(ctx context.Context, id string) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(adminLockID)); err != nil {
		return err
	}
	var admin bool
	var others int
	err = tx.QueryRow(ctx, `SELECT platform_admin, (SELECT count(*) FROM users WHERE platform_admin AND id <> $1) FROM users WHERE id = $1`, id).Scan(&admin, &others)
	if errors.Is(err, pgx.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	if admin && others == 0 {
		return ErrLastAdmin
	}
	// Lock the account's organizations (as SetOrgMemberRole does) and refuse
	// to leave any of them without an Admin.
	if _, err := tx.Exec(ctx, `SELECT 1 FROM organizations o JOIN org_members m ON m.org_id = o.id
		WHERE m.user_id = $1 ORDER BY o.id FOR UPDATE OF o`, id); err != nil {
		return err
	}
	var org string
	err = tx.QueryRow(ctx, `SELECT o.name FROM org_members m JOIN organizations o ON o.id = m.org_id
		WHERE m.user_id = $1 AND m.role = 'Admin' AND NOT EXISTS (
			SELECT 1 FROM org_members m2 WHERE m2.org_id = m.org_id AND m2.role = 'Admin' AND m2.user_id <> $1)
		ORDER BY o.name LIMIT 1`, id).Scan(&org)
	if err == nil {
		return &SoleAdminError{Org: org}
	}
	if !isNoRows(err) {
		return err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM users WHERE id = $1`, id); err != nil {
		return fmt.Errorf("delete user: %w", err)
	}
	return tx.Commit(ctx)
}

// SetPassword stores a new password hash for the account.
func (s *Store) SetPassword(ctx context.Context, userID, hash string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE users SET password_hash = $2 WHERE id = $1`, userID, hash)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}

// SetUserName changes the account's display name and returns the account.
func (s *Store) SetUserName(ctx context.Context, userID, name string) (User, error) {
	tag, err := s.pool.Exec(ctx, `UPDATE users SET name = $2 WHERE id = $1`, userID, name)
	if err != nil {
		return User{}, err
	}
	if tag.RowsAffected() == 0 {
		return User{}, ErrNotFound
	}
	return s.UserByID(ctx, userID)
}

// SetPlatformAdmin grants platform administration to an account.
func (s *Store) SetPlatformAdmin(ctx context.Context, userID string) error {
	_, err := s.pool.Exec(ctx, `UPDATE users SET platform_admin = true WHERE id = $1`, userID)
	return err
}
