package store

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Webhook is a webhook row. Its signing secret is kept only sealed (the
// API seals and hub/webhooks opens it with the hub's secret box).
type Webhook struct {
	ID, ProjectID, Name, URL string
	Events                   []string // run.finished, batch.finished
	Format                   string   // json or slack
	Enabled                  bool
	SecretCiphertext         []byte
	SecretNonce              []byte
	CreatedAt, UpdatedAt     time.Time
	Last                     *Delivery // the newest delivery; nil when none (lists only)
}

// Delivery is one delivery of an event to a webhook, with its attempts.
type Delivery struct {
	ID, WebhookID, Event, Subject string
	Status                        string // pending, succeeded, failed
	Attempts                      int
	ResponseStatus                *int
	Error                         string
	DurationMs                    *int64
	AttemptLog                    []byte // JSON array of attempts
	CreatedAt                     time.Time
	LastAttemptAt, NextAttemptAt  *time.Time
}

// WebhookSave creates (Create) or updates the project's webhook ID. Secret
// is required on create; an update keeps the secret.
type WebhookSave struct {
	ID, ProjectID, Name, URL string
	Create                   bool
	Events                   []string
	Format                   string
	Enabled                  bool
	SecretCiphertext         []byte
	SecretNonce              []byte
	UserID                   string
	Now                      time.Time
}

const webhookCols = `w.id, w.project_id, w.name, w.url, w.events, w.format, w.enabled, w.secret_ciphertext, w.secret_nonce, w.created_at, w.updated_at`

func scanWebhook(row pgx.Row, extra ...any) (Webhook, error) {
	var w Webhook
	err := row.Scan(append([]any{&w.ID, &w.ProjectID, &w.Name, &w.URL, &w.Events, &w.Format, &w.Enabled, &w.SecretCiphertext, &w.SecretNonce,
		&w.CreatedAt, &w.UpdatedAt}, extra...)...)
	if isNoRows(err) {
		return Webhook{}, ErrNotFound
	}
	return w, err
}

// Webhooks lists a project's webhooks by name, each with its newest delivery.
func (s *Store) Webhooks(ctx context.Context, projectID string) ([]Webhook, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+webhookCols+`, d.status, d.response_status, coalesce(d.last_attempt_at, d.created_at)
		FROM webhooks w LEFT JOIN LATERAL (SELECT status, response_status, last_attempt_at, created_at FROM webhook_deliveries
			WHERE webhook_id = w.id ORDER BY created_at DESC, id DESC LIMIT 1) d ON true
		WHERE w.project_id = $1 ORDER BY lower(w.name), w.id`, projectID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Webhook, error) {
		var status *string
		var code *int
		var at *time.Time
		w, err := scanWebhook(r, &status, &code, &at)
		if err == nil && status != nil && at != nil {
			w.Last = &Delivery{Status: *status, ResponseStatus: code, LastAttemptAt: at}
		}
		return w, err
	})
}

// Webhook returns one webhook of any project: the caller checks ProjectID.
func (s *Store) Webhook(ctx context.Context, id string) (Webhook, error) {
	return scanWebhook(s.pool.QueryRow(ctx, `SELECT `+webhookCols+` FROM webhooks w WHERE w.id = $1`, id))
}

// SaveWebhook applies ws: ErrConflict when the name is taken in the project
// (ignoring case), ErrNotFound when an update finds no such webhook there.
func (s *Store) SaveWebhook(ctx context.Context, ws WebhookSave) (Webhook, error) {
	var row pgx.Row
	if ws.Create {
		row = s.pool.QueryRow(ctx, `INSERT INTO webhooks AS w (id, project_id, name, url, events, format, enabled, secret_ciphertext, secret_nonce,
			created_by, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, nullif($10, ''), $11, $11) RETURNING `+webhookCols,
			ws.ID, ws.ProjectID, ws.Name, ws.URL, ws.Events, ws.Format, ws.Enabled, ws.SecretCiphertext, ws.SecretNonce, ws.UserID, ws.Now)
	} else {
		row = s.pool.QueryRow(ctx, `UPDATE webhooks AS w SET name = $3, url = $4, events = $5, format = $6, enabled = $7, updated_at = $8
			WHERE w.id = $1 AND w.project_id = $2 RETURNING `+webhookCols,
			ws.ID, ws.ProjectID, ws.Name, ws.URL, ws.Events, ws.Format, ws.Enabled, ws.Now)
	}
	w, err := scanWebhook(row)
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.Code == "23505" {
		return Webhook{}, ErrConflict
	}
	return w, err
}

// SetWebhookSecret replaces the project's webhook's sealed secret.
func (s *Store) SetWebhookSecret(ctx context.Context, projectID, id string, ciphertext, nonce []byte, now time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE webhooks SET secret_ciphertext = $3, secret_nonce = $4, updated_at = $5 WHERE id = $1 AND project_id = $2`,
		id, projectID, ciphertext, nonce, now)
	if err == nil && tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return err
}

// DeleteWebhook removes the project's webhook and its deliveries.
func (s *Store) DeleteWebhook(ctx context.Context, projectID, id string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM webhooks WHERE id = $1 AND project_id = $2`, id, projectID)
	if err == nil && tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return err
}

const deliveryCols = `id, webhook_id, event, subject, status, attempts, response_status, error, duration_ms, attempt_log,
	created_at, last_attempt_at, next_attempt_at`

func scanDelivery(row pgx.Row) (Delivery, error) {
	var d Delivery
	err := row.Scan(&d.ID, &d.WebhookID, &d.Event, &d.Subject, &d.Status, &d.Attempts, &d.ResponseStatus, &d.Error, &d.DurationMs, &d.AttemptLog,
		&d.CreatedAt, &d.LastAttemptAt, &d.NextAttemptAt)
	if isNoRows(err) {
		return Delivery{}, ErrNotFound
	}
	return d, err
}

// WebhookDeliveries lists a webhook's newest deliveries, newest first.
func (s *Store) WebhookDeliveries(ctx context.Context, webhookID string, limit int) ([]Delivery, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+deliveryCols+` FROM webhook_deliveries WHERE webhook_id = $1
		ORDER BY created_at DESC, id DESC LIMIT $2`, webhookID, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Delivery, error) { return scanDelivery(r) })
}

// Delivery returns one delivery.
func (s *Store) Delivery(ctx context.Context, id string) (Delivery, error) {
	return scanDelivery(s.pool.QueryRow(ctx, `SELECT `+deliveryCols+` FROM webhook_deliveries WHERE id = $1`, id))
}

// QueuePing queues a ping delivery to the webhook now and wakes the senders.
func (s *Store) QueuePing(ctx context.Context, webhookID, deliveryID string) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if _, err := tx.Exec(ctx, `INSERT INTO webhook_deliveries (id, webhook_id, event, subject) VALUES ($1, $2, 'ping', $2)`,
		deliveryID, webhookID); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `SELECT pg_notify($1, '')`, WebhookChannel); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// WebhookChannel is the LISTEN/NOTIFY channel that says deliveries are due.
const WebhookChannel = "ta_webhooks"

// ClaimedDelivery is a due delivery taken for one attempt, with what
// sending it needs.
type ClaimedDelivery struct {
	ID, WebhookID, Event, Subject string
	Attempt                       int // this attempt's number, 1 first
	ProjectID, ProjectName        string
	URL, Format                   string
	Enabled                       bool
	SecretCiphertext, SecretNonce []byte
}

// ClaimDeliveries takes up to limit due deliveries for an attempt each:
// their attempt count goes up and they stay pending but are not due again
// until lease has passed, so a hub that stops mid-attempt leaves them to
// the next one. Concurrent claimers skip each other's rows. Times are the
// database's clock.
func (s *Store) ClaimDeliveries(ctx context.Context, limit int, lease time.Duration) ([]ClaimedDelivery, error) {
	rows, err := s.pool.Query(ctx, `UPDATE webhook_deliveries d SET attempts = d.attempts + 1,
			next_attempt_at = clock_timestamp() + make_interval(secs => $2)
		FROM webhooks w JOIN projects p ON p.id = w.project_id
		WHERE w.id = d.webhook_id AND d.id IN (SELECT id FROM webhook_deliveries
			WHERE status = 'pending' AND next_attempt_at <= clock_timestamp() ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
		RETURNING d.id, d.webhook_id, d.event, d.subject, d.attempts, w.project_id, p.name, w.url, w.format, w.enabled,
			w.secret_ciphertext, w.secret_nonce`, limit, lease.Seconds())
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (ClaimedDelivery, error) {
		var c ClaimedDelivery
		err := r.Scan(&c.ID, &c.WebhookID, &c.Event, &c.Subject, &c.Attempt, &c.ProjectID, &c.ProjectName, &c.URL, &c.Format, &c.Enabled,
			&c.SecretCiphertext, &c.SecretNonce)
		return c, err
	})
}

// Attempt is the outcome of one attempt to deliver.
type Attempt struct {
	ResponseStatus int    // 0 when no answer came
	Error          string // "" on success
	DurationMs     int64
	Succeeded      bool
	// RetryIn is when to try again; 0 gives up (the delivery fails) unless
	// Succeeded.
	RetryIn time.Duration
}

// RecordAttempt stores the outcome of attempt number n of a delivery; an
// attempt whose claim another hub has since taken over changes nothing.
func (s *Store) RecordAttempt(ctx context.Context, id string, n int, a Attempt) error {
	entry := map[string]any{"durationMs": a.DurationMs}
	if a.ResponseStatus != 0 {
		entry["responseStatus"] = a.ResponseStatus
	}
	if a.Error != "" {
		entry["error"] = a.Error
	}
	status := "failed"
	switch {
	case a.Succeeded:
		status = "succeeded"
	case a.RetryIn > 0:
		status = "pending"
	}
	var code *int
	if a.ResponseStatus != 0 {
		code = &a.ResponseStatus
	}
	data, err := json.Marshal(entry)
	if err != nil {
		return err
	}
	_, err = s.pool.Exec(ctx, `UPDATE webhook_deliveries SET status = $3, response_status = $4, error = $5, duration_ms = $6,
		last_attempt_at = clock_timestamp(),
		attempt_log = attempt_log || jsonb_build_array($7::jsonb || jsonb_build_object('at', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))),
		next_attempt_at = CASE WHEN $3 = 'pending' THEN clock_timestamp() + make_interval(secs => $8) END
		WHERE id = $1 AND attempts = $2 AND status = 'pending'`,
		id, n, status, code, a.Error, a.DurationMs, string(data), a.RetryIn.Seconds())
	return err
}

// NextDeliveryIn is how long until the next pending delivery is due; ok is
// false when none is pending.
func (s *Store) NextDeliveryIn(ctx context.Context) (time.Duration, bool, error) {
	var ms *float64
	err := s.pool.QueryRow(ctx, `SELECT extract(epoch FROM min(next_attempt_at) - clock_timestamp()) * 1000
		FROM webhook_deliveries WHERE status = 'pending'`).Scan(&ms)
	if err != nil || ms == nil {
		return 0, false, err
	}
	return max(0, time.Duration(*ms*float64(time.Millisecond))), true, nil
}

// PruneDeliveries deletes finished deliveries older than age.
func (s *Store) PruneDeliveries(ctx context.Context, age time.Duration) (int64, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM webhook_deliveries WHERE status <> 'pending'
		AND created_at < clock_timestamp() - make_interval(secs => $1)`, age.Seconds())
	return tag.RowsAffected(), err
}

// BatchWebhookRuns lists the runs of a batch that webhooks may report:
// those of Shared tests, in the order they were queued.
func (s *Store) BatchWebhookRuns(ctx context.Context, batchID string) ([]Run, error) {
	return collectRuns(s.pool.Query(ctx, `SELECT `+runCols+runFrom+`WHERE r.batch_id = $1 AND t.visibility = 'Shared'
		ORDER BY r.created_at, r.id`, batchID))
}
