// Package store keeps the hub's records in PostgreSQL through pgx with plain
// SQL. Migrations are embedded and applied at start (see Migrate). Methods
// take a context and return row types that never carry secrets to clients:
// the API layer maps them to its own response types.
package store

import (
	"context"
	"errors"
	"io"
	"net"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrNotFound is returned when a record does not exist.
var ErrNotFound = errors.New("not found")

// ErrConflict is returned when a write would break a uniqueness rule.
var ErrConflict = errors.New("conflict")

// Store is the hub's database.
type Store struct {
	pool *pgxpool.Pool
}

// New wraps a migrated pool.
func New(pool *pgxpool.Pool) *Store { return &Store{pool: pool} }

// Pool exposes the pool for health checks.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

func isNoRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }

// Transient reports whether an error may go away by itself: the database
// restarting or unreachable, a full disk, a lost connection. Errors in what
// was asked (a constraint, bad data, no such record) are not.
func Transient(err error) bool {
	var pg *pgconn.PgError
	switch {
	case err == nil, errors.Is(err, ErrNotFound), errors.Is(err, ErrConflict):
		return false
	case errors.As(err, &pg):
		switch pg.Code[:2] {
		case "08", "53", "57", "58", "40": // connection, resources, operator intervention, system, rollback
			return true
		}
		return false
	}
	return !errors.Is(err, context.Canceled)
}

// Unavailable reports whether an error says the database could not be
// reached or went away mid-request (restart, crash, network): asking again
// shortly may work. It is narrower than Transient.
func Unavailable(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		c := pg.Code[:2]
		return c == "08" || c == "53" || c == "57"
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) || pgconn.SafeToRetry(err)
}
