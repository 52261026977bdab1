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

// ConsumeReset uses a reset token once: it sets the new password hash and
// ends every session of the account, all in one transaction. An unknown,
// used or expired token gives ErrNotFound.
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
	// Other outstanding links for the account die with this use.
	if _, err := tx.Exec(ctx, `UPDATE password_resets SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL`, userID, now); err != nil {
		return "", err
	}
	return userID, tx.Commit(ctx)
}

// LoginFailureCounts is what the sign-in limit decides on.
type LoginFailureCounts struct {
	Email, Address             int
	EmailOldest, AddressOldest time.Time // oldest counted failure, zero if none
}

// LoginFailures counts failed sign-ins since a time, per email and address.
func (s *Store) LoginFailures(ctx context.Context, email, address string, since time.Time) (LoginFailureCounts, error) {
	var c LoginFailureCounts
	var eOld, aOld *time.Time
	err := s.pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM login_failures WHERE email = $1 AND at > $3 AND NOT cleared),
		(SELECT min(at) FROM login_failures WHERE email = $1 AND at > $3 AND NOT cleared),
		(SELECT count(*) FROM login_failures WHERE address = $2 AND at > $3),
		(SELECT min(at) FROM login_failures WHERE address = $2 AND at > $3)`,
		email, address, since).Scan(&c.Email, &eOld, &c.Address, &aOld)
	if eOld != nil {
		c.EmailOldest = *eOld
	}
	if aOld != nil {
		c.AddressOldest = *aOld
	}
	return c, err
}

// RecordLoginFailure counts one failed sign-in and prunes rows older than
// prune.
func (s *Store) RecordLoginFailure(ctx context.Context, email, address string, at, prune time.Time) error {
	if _, err := s.pool.Exec(ctx, `INSERT INTO login_failures (email, address, at) VALUES ($1, $2, $3)`, email, address, at); err != nil {
		return err
	}
	_, err := s.pool.Exec(ctx, `DELETE FROM login_failures WHERE at < $1`, prune)
	return err
}

// ClearLoginFailures forgets an email's failures after a successful sign-in.
// The address's failures stay counted.
func (s *Store) ClearLoginFailures(ctx context.Context, email string) error {
	_, err := s.pool.Exec(ctx, `UPDATE login_failures SET cleared = true WHERE email = $1 AND NOT cleared`, email)
	return err
}
