// Package webhooks sends a project's webhooks: a signed POST to each
// subscribed address when a run or a batch finishes.
//
// The database decides what to send: when a run reaches a final status, a
// trigger (migration 0017) adds a delivery row per subscribed webhook in
// the same transaction, and a batch.finished row when that run was the
// batch's last, then NOTIFYs ta_webhooks. Nothing on the run's path waits
// for a webhook. The Worker LISTENs, claims due rows (FOR UPDATE SKIP
// LOCKED, so several hubs share the work), POSTs each with a time-out and
// records the attempt; a failure (no answer, a time-out, a status other
// than 2xx, including redirects, which are not followed) is tried again
// after Backoff, at most len(Backoff)+1 attempts, then the delivery fails.
// The delivery log keeps each attempt's status or error, except that of a
// receiver on a loopback or private address: only success or failure, in
// the same time (deliver.go).
// A claim is a lease: a hub that stops mid-attempt leaves the row due
// again after Timeout plus a margin, so a restart loses nothing. All times
// of deliveries are the database's clock.
package webhooks

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"time"

	"github.com/testautomation/ta/hub/secretbox"
	"github.com/testautomation/ta/hub/store"
)

// Config holds the worker's dependencies and policies.
type Config struct {
	Store   *store.Store
	Secrets *secretbox.Box // opens the webhooks' signing secrets
	Logger  *slog.Logger
	BaseURL string // the hub's public address, for links to runs and batches

	Timeout time.Duration // one attempt; default 10 s
	// Backoff is the wait after each failed attempt; a delivery gets
	// len(Backoff)+1 attempts. Default 10 s, 1 min, 5 min, 30 min.
	Backoff  []time.Duration
	Poll     time.Duration // look for due deliveries at least this often; default 30 s
	Parallel int           // attempts at once; default 8
	Keep     time.Duration // finished deliveries are deleted after this; default 30 days
}

// DefaultBackoff is the wait after each failed attempt.
var DefaultBackoff = []time.Duration{10 * time.Second, time.Minute, 5 * time.Minute, 30 * time.Minute}

// Worker sends due deliveries until its context ends.
type Worker struct {
	Config
	client *http.Client
	wake   chan struct{}
}

// New fills in defaults.
func New(cfg Config) *Worker {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.Backoff == nil {
		cfg.Backoff = DefaultBackoff
	}
	if cfg.Poll <= 0 {
		cfg.Poll = 30 * time.Second
	}
	if cfg.Parallel <= 0 {
		cfg.Parallel = 8
	}
	if cfg.Keep <= 0 {
		cfg.Keep = 30 * 24 * time.Hour
	}
	transport := &http.Transport{
		Proxy:               nil, // the guarded dialer must see the receiver's address
		DialContext:         newDialer().DialContext,
		TLSHandshakeTimeout: cfg.Timeout,
		MaxIdleConns:        16,
		IdleConnTimeout:     90 * time.Second,
	}
	client := &http.Client{Transport: transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &Worker{Config: cfg, client: client, wake: make(chan struct{}, 1)}
}

// NewSecret makes a signing secret: whsec_ and 48 hex digits.
func NewSecret() string {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on Linux
	}
	return "whsec_" + hex.EncodeToString(b[:])
}

// SecretAAD binds a sealed signing secret to its webhook.
func SecretAAD(webhookID string) []byte { return []byte("ta-webhook-secret/v1\x00" + webhookID) }

// Wake makes the worker look for due deliveries now.
func (w *Worker) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Run sends deliveries until ctx ends, then waits for attempts under way.
func (w *Worker) Run(ctx context.Context) {
	go w.listen(ctx)
	done := make(chan struct{})
	inflight := 0
	lastPrune := time.Time{}
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		if free := w.Parallel - inflight; free > 0 && ctx.Err() == nil {
			claimed, err := w.Store.ClaimDeliveries(ctx, free, w.Timeout+30*time.Second)
			if err != nil && ctx.Err() == nil {
				w.Logger.Warn("webhooks: claim deliveries", "err", err)
			}
			for _, d := range claimed {
				inflight++
				go func() {
					defer func() { done <- struct{}{} }()
					w.deliver(ctx, d)
				}()
			}
		}
		if time.Since(lastPrune) > time.Hour {
			lastPrune = time.Now()
			if n, err := w.Store.PruneDeliveries(ctx, w.Keep); err != nil && ctx.Err() == nil {
				w.Logger.Warn("webhooks: prune deliveries", "err", err)
			} else if n > 0 {
				w.Logger.Info("webhooks: old deliveries removed", "count", n)
			}
		}
		wait := w.Poll
		if next, ok, err := w.Store.NextDeliveryIn(ctx); err == nil && ok && next < wait {
			wait = next + 10*time.Millisecond
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			for ; inflight > 0; inflight-- {
				<-done
			}
			return
		case <-done:
			inflight--
		case <-w.wake:
		case <-timer.C:
		}
	}
}

// listen wakes the worker on each NOTIFY ta_webhooks, reconnecting after
// an error; the poll covers the gaps.
func (w *Worker) listen(ctx context.Context) {
	for ctx.Err() == nil {
		err := w.listenOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		w.Logger.Warn("webhooks: listening for deliveries failed; polling until it works again", "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(5 * time.Second):
		}
	}
}

func (w *Worker) listenOnce(ctx context.Context) error {
	pc, err := w.Store.Pool().Acquire(ctx)
	if err != nil {
		return err
	}
	conn := pc.Hijack() // LISTEN state must not go back to the pool
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+store.WebhookChannel); err != nil {
		return err
	}
	w.Wake() // anything queued while not listening
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return err
		}
		w.Wake()
	}
}
