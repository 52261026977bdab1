package store

import (
	"context"
	"errors"
	"time"

	"github.com/testautomation/ta/hub/access"
)

// APIToken is an API token row. The token text is never stored, only its
// digest, which this type does not carry.
type APIToken struct {
	ID          string
	UserID      string
	Name        string
	ProjectID   string // "": every project of the user
	ProjectName string
	Role        access.Role // "": the user's own role, uncapped
	CreatedAt   time.Time
	ExpiresAt   *time.Time
	RevokedAt   *time.Time
	LastUsedAt  *time.Time
	// LastUsedFrom is the client address of the last recorded use.
	LastUsedFrom string
}

// Expired reports whether the token's expiry has passed at now.
func (t APIToken) Expired(now time.Time) bool { return t.ExpiresAt != nil && !now.Before(*t.ExpiresAt) }

// EffectiveRole is what a request made with the token may do in a
// project where its user holds userRole: nothing outside the token's
// project, and never more than the token's role.
func (t APIToken) EffectiveRole(projectID string, userRole access.Role) access.Role {
	if t.ProjectID != "" && t.ProjectID != projectID {
		return ""
	}
	return access.Cap(userRole, t.Role)
}

// PlatformAdmin reports whether requests with the token act as a platform
// administrator: only when the user is one and the token is neither tied
// to a project nor capped below Admin.
func (t APIToken) PlatformAdmin(u User) bool {
	return u.PlatformAdmin && t.ProjectID == "" && (t.Role == "" || t.Role == access.Admin)
}

// Refusals of API tokens (TokenUser).
var (
	ErrTokenExpired = errors.New("api token expired")
	ErrTokenRevoked = errors.New("api token revoked")
)

const tokenCols = `t.id, t.user_id, t.name, coalesce(t.project_id, ''), coalesce(p.name, ''), coalesce(t.role, ''),
	t.created_at, t.expires_at, t.revoked_at, t.last_used_at, coalesce(t.last_used_from, '')`

type scanner interface{ Scan(...any) error }

func scanToken(row scanner, extra ...any) (APIToken, error) {
	var t APIToken
	var role string
	err := row.Scan(append([]any{&t.ID, &t.UserID, &t.Name, &t.ProjectID, &t.ProjectName, &role,
		&t.CreatedAt, &t.ExpiresAt, &t.RevokedAt, &t.LastUsedAt, &t.LastUsedFrom}, extra...)...)
	t.Role = access.Role(role)
	return t, err
}

// CreateAPIToken stores a token under its digest.
func (s *Store) CreateAPIToken(ctx context.Context, t APIToken, digest []byte) (APIToken, error) {
	var project, role *string
	if t.ProjectID != "" {
		project = &t.ProjectID
	}
	if t.Role != "" {
		r := string(t.Role)
		role = &r
	}
	row := s.pool.QueryRow(ctx, `WITH t AS (
		INSERT INTO api_tokens (id, user_id, name, project_id, role, digest, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *)
		SELECT `+tokenCols+` FROM t LEFT JOIN projects p ON p.id = t.project_id`,
		t.ID, t.UserID, t.Name, project, role, digest, t.CreatedAt, t.ExpiresAt)
	return scanToken(row)
}

// APITokens lists a user's tokens, newest first.
func (s *Store) APITokens(ctx context.Context, userID string) ([]APIToken, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+tokenCols+` FROM api_tokens t LEFT JOIN projects p ON p.id = t.project_id
		WHERE t.user_id = $1 ORDER BY t.created_at DESC, t.id`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []APIToken{}
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// RevokeAPIToken revokes one of the user's tokens from now on; revoking a
// revoked token changes nothing. Another user's token gives ErrNotFound.
func (s *Store) RevokeAPIToken(ctx context.Context, id, userID string, now time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE api_tokens SET revoked_at = coalesce(revoked_at, $3) WHERE id = $1 AND user_id = $2`, id, userID, now)
	if err == nil && tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return err
}

// TokenUser returns the account and the token a token digest belongs to,
// and records the use (at most once a minute per token, with the client
// address from). An unknown digest gives ErrNotFound, a revoked token
// ErrTokenRevoked, an expired one ErrTokenExpired.
func (s *Store) TokenUser(ctx context.Context, digest []byte, now time.Time, from string) (User, APIToken, error) {
	var u User
	t, err := scanToken(s.pool.QueryRow(ctx, `SELECT `+tokenCols+`, u.id, u.email, u.name, u.password_hash, u.platform_admin, u.created_at
		FROM api_tokens t JOIN users u ON u.id = t.user_id LEFT JOIN projects p ON p.id = t.project_id
		WHERE t.digest = $1`, digest), &u.ID, &u.Email, &u.Name, &u.PasswordHash, &u.PlatformAdmin, &u.CreatedAt)
	switch {
	case isNoRows(err):
		return User{}, APIToken{}, ErrNotFound
	case err != nil:
		return User{}, APIToken{}, err
	case t.RevokedAt != nil:
		return User{}, t, ErrTokenRevoked
	case t.Expired(now):
		return User{}, t, ErrTokenExpired
	}
	if now.Sub(derefTime(t.LastUsedAt)) >= touchEvery {
		if _, err := s.pool.Exec(ctx, `UPDATE api_tokens SET last_used_at = $2, last_used_from = $3 WHERE id = $1`, t.ID, now, from); err != nil {
			return User{}, APIToken{}, err
		}
		t.LastUsedAt, t.LastUsedFrom = &now, from
	}
	return u, t, nil
}

func derefTime(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}

// tokenRefusalKey keeps refused API tokens apart from failed sign-ins in
// login_failures: the two limits count separately.
const tokenRefusalKey = "api-token "

// RefuseToken counts a refused API token from a client address against
// limit refusals within window. When the address is over the limit it
// returns how long to wait and counts nothing more.
func (s *Store) RefuseToken(ctx context.Context, address string, now time.Time, window time.Duration, limit int) (retryAfter time.Duration, err error) {
	key := tokenRefusalKey + address
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(1, hashtext($1))`, key); err != nil {
		return 0, err
	}
	since := now.Add(-window)
	var n int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM login_failures WHERE address = $1 AND at > $2`, key, since).Scan(&n); err != nil {
		return 0, err
	}
	if n >= limit {
		var at time.Time
		if err := tx.QueryRow(ctx, `SELECT at FROM login_failures WHERE address = $1 AND at > $2 ORDER BY at OFFSET $3 LIMIT 1`,
			key, since, n-limit).Scan(&at); err != nil {
			return 0, err
		}
		return max(time.Second, at.Add(window).Sub(now)), nil
	}
	if _, err := tx.Exec(ctx, `INSERT INTO login_failures (email, address, at, cleared) VALUES ('', $1, $2, true)`, key, now); err != nil {
		return 0, err
	}
	return 0, tx.Commit(ctx)
}
