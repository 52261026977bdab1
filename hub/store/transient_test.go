package store_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/puddle/v2"
	"github.com/testautomation/ta/hub/store"
)

// What dispatch tries again (Transient) and what the API answers 503 for
// (Unavailable) instead of giving up or answering 500.
func TestTransientAndUnavailable(t *testing.T) {
	for _, c := range []struct {
		name                   string
		err                    error
		transient, unavailable bool
	}{
		{"nil", nil, false, false},
		{"admin shutdown (restart)", &pgconn.PgError{Code: "57P01"}, true, true},
		{"cannot connect now (starting)", &pgconn.PgError{Code: "57P03"}, true, true},
		{"connection failure", &pgconn.PgError{Code: "08006"}, true, true},
		{"too many connections", &pgconn.PgError{Code: "53300"}, true, true},
		{"serialization failure", &pgconn.PgError{Code: "40001"}, true, false},
		{"statement timeout: would time out again", &pgconn.PgError{Code: "57014"}, false, false},
		{"unique violation", &pgconn.PgError{Code: "23505"}, false, false},
		{"invalid text (NUL)", &pgconn.PgError{Code: "22021"}, false, false},
		{"dial refused", fmt.Errorf("query: %w", &pgconn.ConnectError{}), true, true},
		{"network reset", fmt.Errorf("read: %w", &net.OpError{Op: "read", Err: syscall.ECONNRESET}), true, true},
		{"pool closed at shutdown", fmt.Errorf("acquire: %w", puddle.ErrClosedPool), true, false},
		{"disk full", fmt.Errorf("write artifact: %w", syscall.ENOSPC), true, false},
		{"not found", fmt.Errorf("run: %w", store.ErrNotFound), false, false},
		{"a rule refuses", errors.New("environment \"Prod\" is protected"), false, false},
		{"cancelled", context.Canceled, false, false},
	} {
		if got := store.Transient(c.err); got != c.transient {
			t.Errorf("%s: Transient = %v", c.name, got)
		}
		if got := store.Unavailable(c.err); got != c.unavailable {
			t.Errorf("%s: Unavailable = %v", c.name, got)
		}
	}
}
