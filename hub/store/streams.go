package store

import (
	"context"
	"time"
)

// StreamHolder is who holds a long-lived answer (an event stream) open,
// and the project of the record it streams.
type StreamHolder struct {
	UserID    string
	Session   []byte // the session's token digest; nil for an API token
	TokenID   string // the API token's id; "" for a session
	ProjectID string
}

// StreamsAllowed reports, for each holder, whether it may still watch:
// its session is still live (not signed out, not ended by a password
// change or reset, not expired at now or idle for longer than idle), or
// its API token is neither revoked nor expired and reaches the project;
// and the user is still a member of the project's organization (the
// membership every project role needs). A deleted account loses all of
// these. One query for them all, against the database, so it holds for
// changes made on any hub.
func (s *Store) StreamsAllowed(ctx context.Context, holders []StreamHolder, now time.Time, idle time.Duration) ([]bool, error) {
	users := make([]string, len(holders))
	sessions := make([][]byte, len(holders))
	tokens := make([]string, len(holders))
	projects := make([]string, len(holders))
	for i, h := range holders {
		users[i], sessions[i], tokens[i], projects[i] = h.UserID, h.Session, h.TokenID, h.ProjectID
		if sessions[i] == nil {
			sessions[i] = []byte{}
		}
	}
	rows, err := s.pool.Query(ctx, `SELECT k.i FROM unnest($1::text[], $2::bytea[], $3::text[], $4::text[])
			WITH ORDINALITY AS k(user_id, session, token_id, project_id, i)
		JOIN projects p ON p.id = k.project_id
		JOIN org_members m ON m.org_id = p.org_id AND m.user_id = k.user_id
		WHERE (length(k.session) > 0 OR k.token_id <> '')
		AND (length(k.session) = 0 OR EXISTS (SELECT 1 FROM sessions s WHERE s.token_hash = k.session AND s.user_id = k.user_id
			AND s.expires_at > $5 AND s.last_seen_at > $6))
		AND (k.token_id = '' OR EXISTS (SELECT 1 FROM api_tokens t WHERE t.id = k.token_id AND t.user_id = k.user_id
			AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > $5)
			AND (t.project_id IS NULL OR t.project_id = k.project_id)))`,
		users, sessions, tokens, projects, now, now.Add(-idle))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ok := make([]bool, len(holders))
	for rows.Next() {
		var i int64
		if err := rows.Scan(&i); err != nil {
			return nil, err
		}
		ok[i-1] = true
	}
	return ok, rows.Err()
}
