// Package store keeps the hub's records in PostgreSQL through pgx with plain
// SQL. Migrations are embedded and applied at start (see Migrate). Methods
// take a context and return row types that never carry secrets to clients:
// the API layer maps them to its own response types.
package store

import (
	"errors"
	"io"
	"net"
	"syscall"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/puddle/v2"
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

// Transient reports whether an error may go away by itself, so the same
// work is worth trying again: the database restarting, unreachable or
// closing, a serialization conflict, a full disk. Anything else (a
// constraint, bad data, no such record, a rule that refuses) is not.
func Transient(err error) bool {
	var pg *pgconn.PgError
	switch {
	case err == nil:
		return false
	case Unavailable(err):
		return true
	case errors.As(err, &pg):
		c := pg.Code[:2]
		return c == "40" || c == "58" // rollback (serialization, deadlock), system error
	}
	return errors.Is(err, puddle.ErrClosedPool) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// Unavailable reports whether an error says the database could not be
// reached or went away mid-request (restart, crash, network): asking again
// shortly may work. It is narrower than Transient.
func Unavailable(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		switch c := pg.Code[:2]; {
		case pg.Code == "57014", pg.Code == "57P04": // a statement timeout, a dropped database: asking again will not help
			return false
		default:
			return c == "08" || c == "53" || c == "57"
		}
	}
	var ce *pgconn.ConnectError
	var op *net.OpError
	return errors.As(err, &ce) || errors.As(err, &op) || errors.Is(err, io.ErrUnexpectedEOF) || pgconn.SafeToRetry(err)
}
