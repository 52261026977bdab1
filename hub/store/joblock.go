package store

import (
	"context"
	"fmt"
)

// jobLockClass is the first key of the advisory locks that keep a
// background job to one hub at a time (the others: 1 and 2 sign-in
// limits, 3 rate limits).
const jobLockClass = 4

// OnceAcrossHubs runs fn if no other hub (nor another goroutine of this
// one) runs the job of that name now, and reports whether it ran. The
// lock is a transaction's advisory lock: it ends with fn, or with this
// hub's connection if the hub dies, so a killed hub never keeps a job
// from running. fn does its work through the pool as usual; the
// transaction only holds the lock. docs/several-hubs.md.
func (s *Store) OnceAcrossHubs(ctx context.Context, job string, fn func(ctx context.Context) error) (bool, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck
	var got bool
	if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1, hashtext($2))`, int32(jobLockClass), job).Scan(&got); err != nil {
		return false, fmt.Errorf("job lock %s: %w", job, err)
	}
	if !got {
		return false, nil
	}
	if err := fn(ctx); err != nil {
		return true, err
	}
	return true, tx.Commit(ctx)
}
