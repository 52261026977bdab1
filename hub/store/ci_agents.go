package store

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
)

// CI agents (`agent ci`) are agents made by an API token: they live no
// longer than the token (agents.api_token_id) and a token has only so
// many of them at once.

// ErrTooManyCIAgents refuses a CI agent beyond its token's limit.
var ErrTooManyCIAgents = errors.New("too many CI agents for this API token")

// NewCIAgent is a CI agent to create.
type NewCIAgent struct {
	ID, UserID, TokenID, Name, OS string
	Digest                        []byte // of the agent's own token
	Now                           time.Time
	// Max is how many CI agents the token may have, this one included.
	Max int
}

// validTokenSQL holds for an agent a whose API token, if it has one, is
// neither revoked nor expired at $2.
const validTokenSQL = `(a.api_token_id IS NULL OR EXISTS (SELECT 1 FROM api_tokens t WHERE t.id = a.api_token_id
	AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > $2)))`

// CIAgentActive is how recently a CI agent must have been seen to count
// against its token's limit: a connected one is seen every minute, and one
// whose command was killed (a cancelled pipeline never says goodbye) stops
// taking a place after this long, though it is kept for an hour.
const CIAgentActive = 5 * time.Minute

// CreateCIAgent creates a CI command's agent for a user, tied to the API
// token that authorized it: the token stands in for a pairing. With the
// token's row locked, so tokens revoked meanwhile (ErrTokenRevoked) and
// parallel joins past the limit (ErrTooManyCIAgents) are refused, on any
// hub.
func (s *Store) CreateCIAgent(ctx context.Context, n NewCIAgent) (Agent, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return Agent{}, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	var usable bool
	err = tx.QueryRow(ctx, `SELECT revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2) FROM api_tokens
		WHERE id = $1 AND user_id = $3 FOR UPDATE`, n.TokenID, n.Now, n.UserID).Scan(&usable)
	if isNoRows(err) || err == nil && !usable {
		return Agent{}, ErrTokenRevoked
	}
	if err != nil {
		return Agent{}, err
	}
	var have int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM agents WHERE api_token_id = $1 AND last_seen_at > $2`,
		n.TokenID, n.Now.Add(-CIAgentActive)).Scan(&have); err != nil {
		return Agent{}, err
	}
	if have >= n.Max {
		return Agent{}, ErrTooManyCIAgents
	}
	a, err := scanAgent(tx.QueryRow(ctx, `INSERT INTO agents (id, user_id, name, os, token_hash, created_at, last_seen_at, headless, ephemeral, api_token_id)
		VALUES ($1, $2, $3, $4, $5, $6, $6, true, true, $7) RETURNING `+agentCols, n.ID, n.UserID, n.Name, n.OS, n.Digest, n.Now, n.TokenID))
	if err != nil {
		return Agent{}, err
	}
	return a, tx.Commit(ctx)
}

// EndedCIAgents returns which of these CI agents must go now: their API
// token was revoked or expired, or the agent itself was deleted.
func (s *Store) EndedCIAgents(ctx context.Context, ids []string, now time.Time) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT k.id FROM unnest($1::text[]) AS k(id) LEFT JOIN agents a ON a.id = k.id
		WHERE a.id IS NULL OR NOT `+validTokenSQL, ids, now)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// IdleCIAgents returns which of these CI agents hold no queued or running
// run, assigned or pinned to them.
func (s *Store) IdleCIAgents(ctx context.Context, ids []string) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT k.id FROM unnest($1::text[]) AS k(id) WHERE NOT EXISTS (
		SELECT 1 FROM runs r WHERE (r.agent_id = k.id OR r.agent_pin = k.id) AND r.status IN ('queued', 'running'))`, ids)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// CIAgentRuns lists the queued and running runs assigned or pinned to an
// agent.
func (s *Store) CIAgentRuns(ctx context.Context, agentID string) ([]Run, error) {
	return collectRuns(s.pool.Query(ctx, `SELECT `+runCols+runFrom+`WHERE (r.agent_id = $1 OR r.agent_pin = $1)
		AND r.status IN ('queued', 'running') ORDER BY r.created_at, r.id`, agentID))
}

// DeleteCIAgent removes a CI agent; its token stops working.
func (s *Store) DeleteCIAgent(ctx context.Context, id string) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM agents WHERE id = $1 AND ephemeral`, id)
	return err
}
