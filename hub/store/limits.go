package store

import (
	"context"
	"time"
)

// RequestLimit is at most Max requests of one kind (a limit's name, such
// as "register-address") for one key (a client address or an email)
// within Window.
type RequestLimit struct {
	Kind   string
	Max    int
	Window time.Duration
}

// TakeRequest counts one request for key under lim, unless lim.Max were
// already counted within the window: then it counts nothing and returns how
// long until the oldest of them leaves the window. Parallel requests for
// one key take turns (an advisory lock), so none slips past the limit.
func (s *Store) TakeRequest(ctx context.Context, lim RequestLimit, key string, now time.Time) (retryAfter time.Duration, err error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(3, hashtext($1 || ' ' || $2))`, lim.Kind, key); err != nil {
		return 0, err
	}
	since := now.Add(-lim.Window)
	var n int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM request_counts WHERE kind = $1 AND key = $2 AND at > $3`,
		lim.Kind, key, since).Scan(&n); err != nil {
		return 0, err
	}
	if n >= lim.Max {
		// Wait until enough requests leave the window to fall under it.
		var at time.Time
		if err := tx.QueryRow(ctx, `SELECT at FROM request_counts WHERE kind = $1 AND key = $2 AND at > $3 ORDER BY at OFFSET $4 LIMIT 1`,
			lim.Kind, key, since, n-lim.Max).Scan(&at); err != nil {
			return 0, err
		}
		return max(at.Add(lim.Window).Sub(now), time.Second), nil
	}
	if _, err := tx.Exec(ctx, `INSERT INTO request_counts (kind, key, at) VALUES ($1, $2, $3)`, lim.Kind, key, now); err != nil {
		return 0, err
	}
	return 0, tx.Commit(ctx)
}
