package store

import (
	"context"
	"time"
)

// CreateSession stores a session under its token digest.
func (s *Store) CreateSession(ctx context.Context, digest []byte, userID string, now, expires time.Time) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, expires_at)
		VALUES ($1, $2, $3, $3, $4)`, digest, userID, now, expires)
	return err
}

// touchEvery limits how often a session's last use is written.
const touchEvery = time.Minute

// SessionUser returns the account of a live session: not past its absolute
// expiry and used within idle. It records the use (at most once a minute).
func (s *Store) SessionUser(ctx context.Context, digest []byte, now time.Time, idle time.Duration) (User, error) {
	var lastSeen time.Time
	var u User
	err := s.pool.QueryRow(ctx, `
		SELECT s.last_seen_at, u.id, u.email, u.name, u.password_hash, u.platform_admin, u.created_at
		FROM sessions s JOIN users u ON u.id = s.user_id
		WHERE s.token_hash = $1 AND s.expires_at > $2 AND s.last_seen_at > $3`,
		digest, now, now.Add(-idle)).Scan(&lastSeen, &u.ID, &u.Email, &u.Name, &u.PasswordHash, &u.PlatformAdmin, &u.CreatedAt)
	if err != nil {
		if isNoRows(err) {
			return User{}, ErrNotFound
		}
		return User{}, err
	}
	if now.Sub(lastSeen) >= touchEvery {
		if _, err := s.pool.Exec(ctx, `UPDATE sessions SET last_seen_at = $2 WHERE token_hash = $1`, digest, now); err != nil {
			return User{}, err
		}
	}
	return u, nil
}

// DeleteSession ends one session.
func (s *Store) DeleteSession(ctx context.Context, digest []byte) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE token_hash = $1`, digest)
	return err
}

// DeleteOtherSessions ends every session of the user except keep (nil: all).
func (s *Store) DeleteOtherSessions(ctx context.Context, userID string, keep []byte) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE user_id = $1 AND ($2::bytea IS NULL OR token_hash <> $2)`, userID, keep)
	return err
}

// DeleteExpiredSessions removes sessions that can no longer be used.
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time, idle time.Duration) (int64, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2`, now, now.Add(-idle))
	return tag.RowsAffected(), err
}

// CreateReset stores a password reset token digest.
func (s *Store) CreateReset(ctx context.Context, digest []byte, userID string, now, expires time.Time) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO password_resets (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
		digest, userID, now, expires)
	return err
}

// ConsumeReset uses a reset token once: it sets the new password hash,
// ends every session of the account and revokes its API tokens (a reset is
// account recovery: whoever had the account may have made some), all in
// one transaction. An unknown, used or expired token gives ErrNotFound.
func (s *Store) ConsumeReset(ctx context.Context, digest []byte, now time.Time, hash string) (userID string, err error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return "", err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	err = tx.QueryRow(ctx, `UPDATE password_resets SET used_at = $2
		WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id`, digest, now).Scan(&userID)
	if isNoRows(err) {
		return "", ErrNotFound
	}
	if err != nil {
		return "", err
	}
	if _, err := tx.Exec(ctx, `UPDATE users SET password_hash = $2 WHERE id = $1`, userID, hash); err != nil {
		return "", err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM sessions WHERE user_id = $1`, userID); err != nil {
		return "", err
	}
	if _, err := tx.Exec(ctx, revokeTokensSQL, userID, now); err != nil {
		return "", err
	}
	// Other outstanding links for the account die with this use.
	if _, err := tx.Exec(ctx, `UPDATE password_resets SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL`, userID, now); err != nil {
		return "", err
	}
	return userID, tx.Commit(ctx)
}

// LoginLimit is the sign-in limit: at most PerEmail failures for one email
// and PerAddress from one client address within Window.
type LoginLimit struct {
	Window     time.Duration
	PerEmail   int
	PerAddress int
}

// BeginLogin decides whether a sign-in attempt may go ahead and, if so,
// counts it as a failure at once, before the password is checked, so that
// parallel attempts cannot slip past the limit. LoginSucceeded takes the
// count back. When the limit is reached it returns how long to wait and
// records nothing.
func (s *Store) BeginLogin(ctx context.Context, email, address string, now time.Time, lim LoginLimit) (attempt int64, retryAfter time.Duration, err error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	// Address first, then email: every attempt takes them in this order.
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(1, hashtext($1)), pg_advisory_xact_lock(2, hashtext($2))`, address, email); err != nil {
		return 0, 0, err
	}
	since := now.Add(-lim.Window)
	for _, c := range []struct {
		cond  string
		value string
		limit int
	}{{"email = $1 AND NOT cleared", email, lim.PerEmail}, {"address = $1", address, lim.PerAddress}} {
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM login_failures WHERE `+c.cond+` AND at > $2`, c.value, since).Scan(&n); err != nil {
			return 0, 0, err
		}
		if n < c.limit {
			continue
		}
		// Wait until enough failures leave the window to fall under the limit.
		var at time.Time
		if err := tx.QueryRow(ctx, `SELECT at FROM login_failures WHERE `+c.cond+` AND at > $2 ORDER BY at OFFSET $3 LIMIT 1`,
			c.value, since, n-c.limit).Scan(&at); err != nil {
			return 0, 0, err
		}
		retryAfter = max(retryAfter, at.Add(lim.Window).Sub(now))
	}
	if retryAfter > 0 {
		return 0, retryAfter, nil
	}
	if err := tx.QueryRow(ctx, `INSERT INTO login_failures (email, address, at) VALUES ($1, $2, $3) RETURNING id`, email, address, now).Scan(&attempt); err != nil {
		return 0, 0, err
	}
	return attempt, 0, tx.Commit(ctx)
}

// LoginSucceeded takes back a successful attempt's count and forgets the
// email's earlier failures; the address's failures stay counted.
func (s *Store) LoginSucceeded(ctx context.Context, attempt int64, email string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM login_failures WHERE id = $1`, attempt); err != nil {
		return err
	}
	_, err := s.pool.Exec(ctx, `UPDATE login_failures SET cleared = true WHERE email = $1 AND NOT cleared`, email)
	return err
}

// PruneAuth deletes sign-in failures and counted requests (limits.go)
// older than since, and reset links used or expired before it.
func (s *Store) PruneAuth(ctx context.Context, since time.Time) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM login_failures WHERE at < $1`, since); err != nil {
		return err
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM request_counts WHERE at < $1`, since); err != nil {
		return err
	}
	_, err := s.pool.Exec(ctx, `DELETE FROM password_resets WHERE expires_at < $1 OR used_at < $1`, since)
	return err
}

// ResetUser returns the account a usable reset token belongs to.
func (s *Store) ResetUser(ctx context.Context, digest []byte, now time.Time) (string, error) {
	var userID string
	err := s.pool.QueryRow(ctx, `SELECT user_id FROM password_resets WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2`, digest, now).Scan(&userID)
	if isNoRows(err) {
		return "", ErrNotFound
	}
	return userID, err
}

// revokeTokensSQL revokes every API token of user $1 at $2.
const revokeTokensSQL = `UPDATE api_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL`

// ChangePassword stores a new hash, ends the account's other sessions and
// voids its outstanding reset links, and with revokeTokens revokes its API
// tokens too, in one transaction.
func (s *Store) ChangePassword(ctx context.Context, userID, hash string, keepSession []byte, now time.Time, revokeTokens bool) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`UPDATE users SET password_hash = $2 WHERE id = $1`, []any{userID, hash}},
		{`DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2`, []any{userID, keepSession}},
		{`UPDATE password_resets SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL`, []any{userID, now}},
	} {
		if _, err := tx.Exec(ctx, q.sql, q.args...); err != nil {
			return err
		}
	}
	if revokeTokens {
		if _, err := tx.Exec(ctx, revokeTokensSQL, userID, now); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}
