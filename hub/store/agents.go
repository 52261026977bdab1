package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// Agent is a paired computer. Its token is stored only as a digest.
type Agent struct {
	ID         string
	UserID     string
	Name       string
	OS         string
	CreatedAt  time.Time
	LastSeenAt time.Time
	// Headless: the agent said it has no display, so headed runs run
	// without a window.
	Headless bool
	// Ephemeral: a CI command's agent (agent ci): it takes only the runs
	// pinned to it and goes when the command ends.
	Ephemeral bool
	// RefusedAt and RefusedFrom: the last connection refused because the
	// agent was connected and answering with the same token (nil, "":
	// none since the token was last rotated).
	RefusedAt   *time.Time
	RefusedFrom string
	// Labels its owner gave it (PUT /api/agent/:id); runs may ask for them.
	Labels []string
	// BrowserVersion is its Chromium's, as its last hello said ("" from an
	// agent that did not say).
	BrowserVersion string
}

const agentCols = `id, user_id, name, os, created_at, last_seen_at, headless, ephemeral, refused_at, coalesce(refused_from, ''), labels, browser_version`

func scanAgent(row pgx.Row) (Agent, error) {
	var a Agent
	err := row.Scan(&a.ID, &a.UserID, &a.Name, &a.OS, &a.CreatedAt, &a.LastSeenAt, &a.Headless, &a.Ephemeral, &a.RefusedAt, &a.RefusedFrom, &a.Labels, &a.BrowserVersion)
	if isNoRows(err) {
		return Agent{}, ErrNotFound
	}
	return a, err
}

// Pairing is a code a computer waits on until a user approves it.
type Pairing struct {
	Code      string
	Hostname  string
	OS        string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// CreatePairing stores a new pairing code; a taken code gives ErrConflict.
func (s *Store) CreatePairing(ctx context.Context, p Pairing) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO agent_pairings (code, hostname, os, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
		p.Code, p.Hostname, p.OS, p.CreatedAt, p.ExpiresAt)
	if isUniqueViolation(err) {
		return ErrConflict
	}
	return err
}

// OpenPairing returns a pairing code that is neither used nor expired.
func (s *Store) OpenPairing(ctx context.Context, code string, now time.Time) (Pairing, error) {
	var p Pairing
	err := s.pool.QueryRow(ctx, `SELECT code, hostname, os, created_at, expires_at FROM agent_pairings
		WHERE code = $1 AND approved_at IS NULL AND expires_at > $2`, code, now).
		Scan(&p.Code, &p.Hostname, &p.OS, &p.CreatedAt, &p.ExpiresAt)
	if isNoRows(err) {
		return Pairing{}, ErrNotFound
	}
	return p, err
}

// ApprovePairing uses a code once: it creates the agent for the user with
// the token digest. An unknown, used or expired code gives ErrNotFound.
func (s *Store) ApprovePairing(ctx context.Context, code, agentID, userID string, tokenDigest []byte, now time.Time) (Agent, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return Agent{}, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	var host, os string
	err = tx.QueryRow(ctx, `UPDATE agent_pairings SET approved_at = $2, agent_id = $3
		WHERE code = $1 AND approved_at IS NULL AND expires_at > $2 RETURNING hostname, os`, code, now, agentID).Scan(&host, &os)
	if isNoRows(err) {
		return Agent{}, ErrNotFound
	}
	if err != nil {
		return Agent{}, err
	}
	a, err := scanAgent(tx.QueryRow(ctx, `INSERT INTO agents (id, user_id, name, os, token_hash, created_at, last_seen_at)
		VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING `+agentCols, agentID, userID, host, os, tokenDigest, now))
	if err != nil {
		return Agent{}, err
	}
	return a, tx.Commit(ctx)
}

// DeleteEphemeralAgents removes CI agents last seen before a time (their
// command ended without saying so), except those still connected (keep),
// and returns their ids.
func (s *Store) DeleteEphemeralAgents(ctx context.Context, before time.Time, keep []string) ([]string, error) {
	rows, err := s.pool.Query(ctx, `DELETE FROM agents WHERE ephemeral AND last_seen_at < $1 AND NOT (id = ANY($2)) RETURNING id`, before, keep)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// DeletePairings removes codes that expired before a time.
func (s *Store) DeletePairings(ctx context.Context, before time.Time) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM agent_pairings WHERE expires_at < $1`, before)
	return err
}

// AgentByToken finds the agent a token belongs to and records it was seen.
// A rotated token the agent has not confirmed yet (next_token_hash)
// counts, and is confirmed by this use: the old one stops working. A CI
// agent whose API token was revoked or expired is not found.
func (s *Store) AgentByToken(ctx context.Context, digest []byte, now time.Time) (Agent, error) {
	return scanAgent(s.pool.QueryRow(ctx, `UPDATE agents a SET last_seen_at = $2, token_hash = $1,
		next_token_hash = CASE WHEN next_token_hash = $1 THEN NULL ELSE next_token_hash END,
		refused_at = CASE WHEN next_token_hash = $1 THEN NULL ELSE refused_at END,
		refused_from = CASE WHEN next_token_hash = $1 THEN NULL ELSE refused_from END
		WHERE (a.token_hash = $1 OR a.next_token_hash = $1) AND `+validTokenSQL+`
		RETURNING `+agentCols, digest, now))
}

// RefuseAgentConnection records a connection refused because the agent
// was already connected with the same token.
func (s *Store) RefuseAgentConnection(ctx context.Context, id string, at time.Time, from string) error {
	_, err := s.pool.Exec(ctx, `UPDATE agents SET refused_at = $2, refused_from = $3 WHERE id = $1`, id, at, from)
	return err
}

// OfferAgentToken keeps a rotated token's digest until the agent confirms
// it (ConfirmAgentToken); the current token works meanwhile.
func (s *Store) OfferAgentToken(ctx context.Context, id string, digest []byte) error {
	tag, err := s.pool.Exec(ctx, `UPDATE agents SET next_token_hash = $2 WHERE id = $1`, id, digest)
	if err == nil && tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return err
}

// ConfirmAgentToken makes the offered token the agent's only one and
// forgets the refused connections it answered. false: another token was
// offered since, or this one was confirmed already.
func (s *Store) ConfirmAgentToken(ctx context.Context, id string, digest []byte) (bool, error) {
	tag, err := s.pool.Exec(ctx, `UPDATE agents SET token_hash = next_token_hash, next_token_hash = NULL, refused_at = NULL, refused_from = NULL
		WHERE id = $1 AND next_token_hash = $2`, id, digest)
	return err == nil && tag.RowsAffected() == 1, err
}

// TouchAgent records that an agent was seen.
func (s *Store) TouchAgent(ctx context.Context, id string, now time.Time) error {
	_, err := s.pool.Exec(ctx, `UPDATE agents SET last_seen_at = $2 WHERE id = $1`, id, now)
	return err
}

// TouchAgents records that agents were seen, in one statement: a hub with
// a thousand connected agents would otherwise commit a thousand times a
// minute.
func (s *Store) TouchAgents(ctx context.Context, ids []string, now time.Time) error {
	_, err := s.pool.Exec(ctx, `UPDATE agents SET last_seen_at = $2 WHERE id = ANY($1)`, ids, now)
	return err
}

// SetAgentHello records what an agent's hello says on every connection:
// whether it has a display, its OS ("" keeps the one stored) and its
// browser's version.
func (s *Store) SetAgentHello(ctx context.Context, id string, headless bool, os, browser string) error {
	_, err := s.pool.Exec(ctx, `UPDATE agents SET headless = $2, os = coalesce(nullif($3, ''), os), browser_version = $4 WHERE id = $1`,
		id, headless, os, browser)
	return err
}

// RenameAgent sets the name and labels of one of a user's agents; another
// user's (or no) agent gives ErrNotFound.
func (s *Store) RenameAgent(ctx context.Context, id, userID, name string, labels []string) (Agent, error) {
	return scanAgent(s.pool.QueryRow(ctx, `UPDATE agents SET name = $3, labels = $4 WHERE id = $1 AND user_id = $2 RETURNING `+agentCols,
		id, userID, name, labels))
}

// UserAgents lists a user's agents, newest first.
func (s *Store) UserAgents(ctx context.Context, userID string) ([]Agent, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+agentCols+` FROM agents WHERE user_id = $1 ORDER BY created_at DESC, id`, userID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Agent, error) { return scanAgent(r) })
}

// DeleteAgent revokes a user's agent: its token stops working.
func (s *Store) DeleteAgent(ctx context.Context, id, userID string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM agents WHERE id = $1 AND user_id = $2`, id, userID)
	if err == nil && tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return err
}

// OrphanedPinnedRuns lists queued runs pinned to an agent that is gone, or
// to a CI agent last seen before a time: a CI command that ended or lost
// its hub for good before its runs started. A run pinned to a computer
// that is only offline waits for it (up to the queue time-out).
func (s *Store) OrphanedPinnedRuns(ctx context.Context, seenBefore time.Time) ([]Run, error) {
	return collectRuns(s.pool.Query(ctx, `SELECT `+runCols+runFrom+`LEFT JOIN agents a ON a.id = r.agent_pin
		WHERE r.status = 'queued' AND r.agent_pin IS NOT NULL AND (a.id IS NULL OR a.ephemeral AND a.last_seen_at < $1)
		ORDER BY r.created_at, r.id`, seenBefore))
}

// UserAgent returns one of a user's agents.
func (s *Store) UserAgent(ctx context.Context, id, userID string) (Agent, error) {
	return scanAgent(s.pool.QueryRow(ctx, `SELECT `+agentCols+` FROM agents WHERE id = $1 AND user_id = $2`, id, userID))
}
