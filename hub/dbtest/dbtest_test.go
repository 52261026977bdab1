package dbtest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/testautomation/ta/hub/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

func TestIsolatedMigratedDatabases(t *testing.T) {
	ctx := context.Background()
	urlA := dbtest.New(t)
	poolB := dbtest.Pool(t)

	a, err := pgx.Connect(ctx, urlA)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(ctx)

	var dbA, dbB string
	if err := a.QueryRow(ctx, "SELECT current_database()").Scan(&dbA); err != nil {
		t.Fatal(err)
	}
	if err := poolB.QueryRow(ctx, "SELECT current_database()").Scan(&dbB); err != nil {
		t.Fatal(err)
	}
	if dbA == dbB {
		t.Fatalf("both databases are %q", dbA)
	}

	// Migrated: schema_migrations exists in both, with at least one row.
	for name, q := range map[string]interface {
		QueryRow(context.Context, string, ...any) pgx.Row
	}{dbA: a, dbB: poolB} {
		var n int
		if err := q.QueryRow(ctx, "SELECT count(*) FROM schema_migrations").Scan(&n); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n < 1 {
			t.Errorf("%s: schema_migrations has %d rows, want >= 1", name, n)
		}
	}

	// Isolated: a table made in A does not exist in B.
	if _, err := a.Exec(ctx, "CREATE TABLE only_in_a (x int)"); err != nil {
		t.Fatal(err)
	}
	_, err = poolB.Exec(ctx, "SELECT * FROM only_in_a")
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "42P01" { // undefined_table
		t.Errorf("only_in_a visible in the other database? err = %v", err)
	}
}

func TestParallelDatabases(t *testing.T) {
	for _, name := range []string{"a", "b", "c", "d"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			pool := dbtest.Pool(t)
			if _, err := pool.Exec(context.Background(), "CREATE TABLE t (x int)"); err != nil {
				t.Fatal(err)
			}
		})
	}
}
