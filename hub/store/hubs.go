package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// HubStale is how long a hub may go without moving its seen_at before
// the others count it dead (killed, or cut off from the database) and
// ignore what it listed: its agents, its waiting pairing codes. Hubs move
// it every HubBeat. docs/several-hubs.md.
const (
	HubBeat  = 3 * time.Second
	HubStale = 12 * time.Second
)

// liveHub is the SQL condition for a hub row h that is alive now: it beat
// lately, by the database's clock so that hubs on machines whose clocks
// differ agree, and its listening connection is open. A killed hub's
// connections close with its process, so it is dead at once, not after
// HubStale; HubStale covers a hub cut off without its connections closing.
const liveHub = `h.seen_at > now() - make_interval(secs => ` + hubStaleSecs + `)
	AND EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.application_name = '` + ListenerPrefix + `' || h.id)`

// ListenerPrefix and a hub's id name its listening connection
// (application_name), which tells the others it is alive.
const ListenerPrefix = "ta-hub "

const hubStaleSecs = "12"

// HubRow is a running hub.
type HubRow struct {
	ID       string
	URL      string
	Draining bool
	Agents   int
}

// BeatHub records that a hub runs, adding its row if it is not there (a
// hub that was counted dead, and removed, comes back with its next beat).
func (s *Store) BeatHub(ctx context.Context, id, url string, draining bool) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO hubs (id, url, draining) VALUES ($1, $2, $3)
		ON CONFLICT (id) DO UPDATE SET seen_at = now(), url = $2, draining = hubs.draining OR $3`, id, url, draining)
	return err
}

// RemoveHub deletes a hub that stops, and with it what it listed.
func (s *Store) RemoveHub(ctx context.Context, id string) error {
	if _, err := s.pool.Exec(ctx, `UPDATE agent_pairings SET hub_id = NULL WHERE hub_id = $1`, id); err != nil {
		return err
	}
	_, err := s.pool.Exec(ctx, `DELETE FROM hubs WHERE id = $1`, id)
	return err
}

// PruneDeadHubs removes the hubs that stopped without saying so, long
// enough ago that a slow one is not taken for dead, and returns their ids.
func (s *Store) PruneDeadHubs(ctx context.Context) ([]string, error) {
	rows, err := s.pool.Query(ctx, `DELETE FROM hubs WHERE seen_at < now() - make_interval(secs => 3 * `+hubStaleSecs+`) RETURNING id`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// LiveHubs lists the hubs alive now with how many agents each holds.
func (s *Store) LiveHubs(ctx context.Context) ([]HubRow, error) {
	rows, err := s.pool.Query(ctx, `SELECT h.id, h.url, h.draining, (SELECT count(*) FROM hub_agents a WHERE a.hub_id = h.id)
		FROM hubs h WHERE `+liveHub+` ORDER BY h.started_at, h.id`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (HubRow, error) {
		var h HubRow
		err := r.Scan(&h.ID, &h.URL, &h.Draining, &h.Agents)
		return h, err
	})
}

// Presence is an agent connected to a hub, as the other hubs see it.
type Presence struct {
	AgentID   string
	HubID     string
	HubURL    string
	UserID    string
	Name      string
	Labels    []string
	Headless  bool
	Paused    bool
	Ephemeral bool
	Busy      int
	Parallel  int
	Addr      string
}

// PutPresence records that a hub holds an agent's connection now (taking
// it over from another hub's row, which a reconnection makes stale).
func (s *Store) PutPresence(ctx context.Context, p Presence) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO hub_agents (agent_id, hub_id, user_id, headless, paused, ephemeral, busy, parallel, addr)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (agent_id) DO UPDATE SET hub_id = $2, user_id = $3, headless = $4, paused = $5, ephemeral = $6,
			busy = $7, parallel = $8, addr = $9, since = now()`,
		p.AgentID, p.HubID, p.UserID, p.Headless, p.Paused, p.Ephemeral, p.Busy, p.Parallel, p.Addr)
	return err
}

// SetPresenceLoad updates how busy an agent is and whether it is paused,
// if the hub still holds it.
func (s *Store) SetPresenceLoad(ctx context.Context, agentID, hubID string, busy int, paused bool) error {
	_, err := s.pool.Exec(ctx, `UPDATE hub_agents SET busy = $3, paused = $4 WHERE agent_id = $1 AND hub_id = $2`, agentID, hubID, busy, paused)
	return err
}

// DropPresence forgets that a hub holds an agent (its connection ended);
// a newer hub's row is left alone.
func (s *Store) DropPresence(ctx context.Context, agentID, hubID string) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM hub_agents WHERE agent_id = $1 AND hub_id = $2`, agentID, hubID)
	return err
}

// RemotePresence lists the agents other live hubs hold.
func (s *Store) RemotePresence(ctx context.Context, selfID string) ([]Presence, error) {
	rows, err := s.pool.Query(ctx, `SELECT p.agent_id, p.hub_id, h.url, p.user_id, a.name, a.labels, p.headless, p.paused, p.ephemeral,
			p.busy, p.parallel, p.addr
		FROM hub_agents p JOIN hubs h ON h.id = p.hub_id JOIN agents a ON a.id = p.agent_id
		WHERE p.hub_id <> $1 AND `+liveHub, selfID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Presence, error) {
		var p Presence
		err := r.Scan(&p.AgentID, &p.HubID, &p.HubURL, &p.UserID, &p.Name, &p.Labels, &p.Headless, &p.Paused, &p.Ephemeral,
			&p.Busy, &p.Parallel, &p.Addr)
		return p, err
	})
}

// WaitOnPairing records which hub's connection waits on a pairing code.
func (s *Store) WaitOnPairing(ctx context.Context, code, hubID, addr, pendingID string) error {
	_, err := s.pool.Exec(ctx, `UPDATE agent_pairings SET hub_id = $2, addr = $3, pending_id = $4 WHERE code = $1`, code, hubID, addr, pendingID)
	return err
}

// StopWaitingOnPairing records that no connection waits on a code now.
func (s *Store) StopWaitingOnPairing(ctx context.Context, code, hubID string) error {
	_, err := s.pool.Exec(ctx, `UPDATE agent_pairings SET hub_id = NULL WHERE code = $1 AND hub_id = $2`, code, hubID)
	return err
}

// PairingWaiter is a computer waiting on a code at another hub.
type PairingWaiter struct {
	Pairing
	HubID     string
	PendingID string
}

// RemoteWaiters lists the computers waiting on a code at other live
// hubs: all of them, or those connected from addr.
func (s *Store) RemoteWaiters(ctx context.Context, selfID, addr, code string, now time.Time) ([]PairingWaiter, error) {
	rows, err := s.pool.Query(ctx, `SELECT p.code, p.hostname, p.os, p.created_at, p.expires_at, p.hub_id, p.pending_id
		FROM agent_pairings p JOIN hubs h ON h.id = p.hub_id
		WHERE p.hub_id <> $1 AND ($2 = '' OR p.addr = $2) AND ($3 = '' OR p.code = $3)
			AND p.approved_at IS NULL AND p.expires_at > $4 AND `+liveHub, selfID, addr, code, now)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (PairingWaiter, error) {
		var w PairingWaiter
		err := r.Scan(&w.Code, &w.Hostname, &w.OS, &w.CreatedAt, &w.ExpiresAt, &w.HubID, &w.PendingID)
		return w, err
	})
}

// KeyCheck returns the value sealed with the first hub's secret key, or
// stores the one given when there is none yet (ok: it was stored now).
func (s *Store) KeyCheck(ctx context.Context, sealed, nonce []byte) (storedSealed, storedNonce []byte, err error) {
	if _, err := s.pool.Exec(ctx, `INSERT INTO hub_key_check (id, sealed, nonce) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING`, sealed, nonce); err != nil {
		return nil, nil, err
	}
	err = s.pool.QueryRow(ctx, `SELECT sealed, nonce FROM hub_key_check WHERE id = 1`).Scan(&storedSealed, &storedNonce)
	return storedSealed, storedNonce, err
}

// PutSessionRoute records that an authoring session lives on a hub.
func (s *Store) PutSessionRoute(ctx context.Context, sessionID, hubID string) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO hub_sessions (id, hub_id) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET hub_id = $2`, sessionID, hubID)
	return err
}

// SessionHub is the address of the live hub, other than selfID, that an
// authoring session lives on; ok is false when it is this one or none.
func (s *Store) SessionHub(ctx context.Context, sessionID, selfID string) (url string, ok bool, err error) {
	err = s.pool.QueryRow(ctx, `SELECT h.url FROM hub_sessions x JOIN hubs h ON h.id = x.hub_id
		WHERE x.id = $1 AND x.hub_id <> $2 AND `+liveHub, sessionID, selfID).Scan(&url)
	if isNoRows(err) {
		return "", false, nil
	}
	return url, err == nil, err
}

// PruneSessionRoutes forgets the routes of sessions begun longer ago than
// age (sessions end within hours; their hubs forget them sooner).
func (s *Store) PruneSessionRoutes(ctx context.Context, age time.Duration) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM hub_sessions WHERE created_at < now() - make_interval(secs => $1)`, age.Seconds())
	return err
}

// KeepPresence deletes a hub's presence rows of agents it no longer holds
// (a leaving agent's row that could not be deleted then, say). Rows of the
// last 10 s are left: an agent connecting while the list was taken.
func (s *Store) KeepPresence(ctx context.Context, hubID string, agentIDs []string) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM hub_agents WHERE hub_id = $1 AND NOT (agent_id = ANY($2)) AND since < now() - interval '10 seconds'`,
		hubID, agentIDs)
	return err
}
