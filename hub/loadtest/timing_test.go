package loadtest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// startTimer times run starts through a warm agent: from sending POST
// /api/runs to its answer, to the assign arriving at the agent, and to
// run.started arriving on the run's event stream (opened once the POST
// answered, as the web application does).
type startTimer struct {
	mu       sync.Mutex
	assigned map[string]time.Time // guarded by mu: run id → when its assign arrived
}

func newStartTimer(warm *fakeAgent) *startTimer {
	t := &startTimer{assigned: map[string]time.Time{}}
	warm.onAssign = func(runID string, at time.Time) {
		t.mu.Lock()
		t.assigned[runID] = at
		t.mu.Unlock()
	}
	return t
}

// latencies are samples of the three times, in order.
type latencies struct {
	post, assign, started []time.Duration
	at                    []time.Time // when each sample began
}

// measure starts n runs one after the other, one every interval (paced,
// so that the hub's periodic work falls inside the window as it would),
// after warm-up runs that are not counted.
func (t *startTimer) measure(b *testing.B, c *client, project, testID string, n, warmup int, interval time.Duration) latencies {
	var l latencies
	for i := range warmup + n {
		begin := time.Now()
		post, assign, started, err := t.one(c, project, testID)
		if err != nil {
			b.Fatalf("run %d: %v", i, err)
		}
		if i >= warmup {
			l.post, l.assign, l.started = append(l.post, post), append(l.assign, assign), append(l.started, started)
			l.at = append(l.at, begin)
		}
		time.Sleep(interval - time.Since(begin))
	}
	return l
}

func (t *startTimer) one(c *client, project, testID string) (post, assign, started time.Duration, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	begin := time.Now()
	runID, err := c.startRun(project, testID)
	if err != nil {
		return 0, 0, 0, err
	}
	post = time.Since(begin)
	resp, err := c.openEvents(ctx, runID)
	if err != nil {
		return 0, 0, 0, err
	}
	defer resp.Body.Close()
	var startedAt time.Time
	err = eachEvent(resp, func(kind string) bool {
		if kind == "run.started" {
			startedAt = time.Now()
		}
		return kind != "run.finished"
	})
	if err != nil {
		return 0, 0, 0, fmt.Errorf("run %s: %w", runID, err)
	}
	t.mu.Lock()
	at, ok := t.assigned[runID]
	t.mu.Unlock()
	if !ok || startedAt.IsZero() {
		return 0, 0, 0, fmt.Errorf("run %s finished without an assign at the warm agent or a run.started event", runID)
	}
	return post, at.Sub(begin), startedAt.Sub(begin), nil
}

// pct is the p-th percentile (nearest rank) in milliseconds.
func pct(d []time.Duration, p float64) float64 {
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.5) - 1
	i = max(0, min(i, len(s)-1))
	return float64(s[i]) / float64(time.Millisecond)
}
