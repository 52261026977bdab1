// Package store keeps the hub's records in PostgreSQL through pgx with plain
// SQL. Migrations are embedded and applied at start (see Migrate). Methods
// take a context and return row types that never carry secrets to clients:
// the API layer maps them to its own response types.
package store

import (
	"errors"

	"github.com/jackc/pgx/v5"
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
