package language

import (
	"sync"
	"time"
)

// Limiter allows each key (a project) n requests per minute: a token
// bucket refilled evenly, full at the start.
type Limiter struct {
	mu      sync.Mutex
	n       float64
	buckets map[string]*bucket
	now     func() time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

// NewLimiter allows n requests per minute per key (DefaultPerMinute when n
// is not positive).
func NewLimiter(n int) *Limiter {
	if n <= 0 {
		n = DefaultPerMinute
	}
	return &Limiter{n: float64(n), buckets: map[string]*bucket{}, now: time.Now}
}

// Allow takes a token for key. When there is none it answers false and how
// long until there is.
func (l *Limiter) Allow(key string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) > 10000 { // forget idle projects rather than grow
			for k, o := range l.buckets {
				if now.Sub(o.at) > time.Minute {
					delete(l.buckets, k)
				}
			}
		}
		b = &bucket{tokens: l.n, at: now}
		l.buckets[key] = b
	}
	rate := l.n / 60 // tokens per second
	b.tokens = min(l.n, b.tokens+now.Sub(b.at).Seconds()*rate)
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / rate * float64(time.Second))
}
