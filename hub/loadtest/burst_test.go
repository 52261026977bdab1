package loadtest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// burstResult is how a burst of runs ended.
type burstResult struct {
	runs, accepted      int // started; answered 201
	passed, other, open int // final passed; final otherwise; still queued or running
	posted, wall        time.Duration
	assigns             int64 // assigns the burst's agents got, over all runs
}

// burst posts n runs at once as the burst user and waits (up to limit)
// until every one is final; wall is from the first POST to the last
// finish the database recorded.
func burst(b *testing.B, c *client, pool *pgxpool.Pool, userID, project, testID string, n int, limit time.Duration) burstResult {
	r := burstResult{runs: n}
	var wg sync.WaitGroup
	var mu sync.Mutex
	begin := time.Now()
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.startRun(project, testID); err != nil {
				b.Log(err)
				return
			}
			mu.Lock()
			r.accepted++
			mu.Unlock()
		}()
	}
	wg.Wait()
	r.posted = time.Since(begin)
	ctx := context.Background()
	for deadline := time.Now().Add(limit); ; time.Sleep(50 * time.Millisecond) {
		var last *time.Time
		err := pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE status = 'passed'),
				count(*) FILTER (WHERE status NOT IN ('passed', 'queued', 'running')),
				count(*) FILTER (WHERE status IN ('queued', 'running')), max(finished_at)
			FROM runs WHERE user_id = $1`, userID).Scan(&r.passed, &r.other, &r.open, &last)
		if err != nil {
			b.Fatal(err)
		}
		if r.open == 0 || time.Now().After(deadline) {
			if last != nil {
				r.wall = last.Sub(begin)
			}
			return r
		}
	}
}
