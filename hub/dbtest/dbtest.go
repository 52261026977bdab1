// Package dbtest gives tests real, migrated PostgreSQL databases.
//
// Use it from a package's TestMain:
//
//	func TestMain(m *testing.M) { dbtest.Main(m) }
//
// and take a fresh database per test with New (a connection string) or Pool
// (a *pgxpool.Pool). Each database is a copy of a template migrated once per
// test binary with store.Migrate, and is dropped when the test finishes.
//
// With DATABASE_URL set, databases are created on that server (its user
// needs CREATEDB). Otherwise the first New starts a private throwaway
// cluster (pgcluster, Fast mode) in a temporary folder, which Main stops and
// removes at the end. If PostgreSQL cannot be started, New fails the test:
// a missing PostgreSQL must not silently skip database tests.
//
// Tests of package store itself must use an external test package
// (package store_test), since dbtest imports store.
package dbtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/testautomation/ta/hub/pgcluster"
	"github.com/testautomation/ta/hub/store"
)

var (
	mainCalled atomic.Bool

	once     sync.Once
	setupErr error

	cluster  *pgcluster.Cluster // nil with DATABASE_URL
	tmpDir   string             // private cluster's folder
	admin    *pgxpool.Pool      // maintenance connection for CREATE/DROP DATABASE
	dbURL    func(name string) string
	template string
)

// Main runs the package's tests and then stops the private cluster if one
// was started; use from TestMain: func TestMain(m *testing.M) { dbtest.Main(m) }
// (it calls os.Exit)
func Main(m *testing.M) {
	mainCalled.Store(true)
	code := m.Run()
	if err := teardown(); err != nil {
		fmt.Fprintln(os.Stderr, "dbtest:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// New returns the connection string of a fresh, migrated database that is
// dropped when t finishes.
func New(t testing.TB) string {
	t.Helper()
	if !mainCalled.Load() {
		t.Fatalf("dbtest: the package must run its tests through dbtest.Main: add func TestMain(m *testing.M) { dbtest.Main(m) }")
	}
	once.Do(func() { setupErr = setup() })
	if setupErr != nil {
		t.Fatalf("dbtest: %v", setupErr)
	}
	name := "t_" + randomHex()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+ident(name)+" TEMPLATE "+ident(template)); err != nil {
		t.Fatalf("dbtest: create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := dropDatabase(ctx, name); err != nil {
			t.Errorf("dbtest: %v", err)
		}
	})
	return dbURL(name)
}

// Pool is New plus a *pgxpool.Pool closed at cleanup.
func Pool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	u := New(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pool, err := pgxpool.New(ctx, u)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	t.Cleanup(pool.Close) // runs before New's cleanup drops the database
	return pool
}

func setup() (err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	var adminURL string
	if env := os.Getenv("DATABASE_URL"); env != "" {
		if _, err := pgx.ParseConfig(env); err != nil {
			return fmt.Errorf("DATABASE_URL: %w", err)
		}
		adminURL = env
		dbURL = func(name string) string { return withDatabase(env, name) }
		if cfg, err := pgx.ParseConfig(dbURL("t_check")); err != nil || cfg.Database != "t_check" {
			return fmt.Errorf("DATABASE_URL: cannot replace its database name (got %v)", err)
		}
	} else {
		if err := startCluster(ctx); err != nil {
			return err
		}
		adminURL = cluster.URL("postgres")
		dbURL = cluster.URL
	}

	admin, err = pgxpool.New(ctx, adminURL)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	if err := admin.Ping(ctx); err != nil {
		return fmt.Errorf("connect: %w", err)
	}

	name := "tmpl_" + randomHex()
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+ident(name)); err != nil {
		return fmt.Errorf("create template database (the user needs CREATEDB): %w", err)
	}
	template = name
	pool, err := pgxpool.New(ctx, dbURL(name))
	if err != nil {
		return fmt.Errorf("connect to template: %w", err)
	}
	err = store.Migrate(ctx, pool)
	// CREATE DATABASE ... TEMPLATE needs the template to have no sessions.
	pool.Close()
	if err != nil {
		return fmt.Errorf("migrate template: %w", err)
	}
	return nil
}

func startCluster(ctx context.Context) error {
	d, err := os.MkdirTemp("", "dbtest")
	if err != nil {
		return err
	}
	tmpDir = d
	// World-traversable, so the postgres account can reach the cluster when
	// tests run as root.
	if err := os.Chmod(d, 0o755); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: filepath.Join(d, "pg"), Logger: log, Fast: true})
	if err != nil {
		return fmt.Errorf("start a private PostgreSQL (or set DATABASE_URL): %w", err)
	}
	cluster = c
	return nil
}

func teardown() error {
	var errs []string
	if admin != nil {
		if template != "" {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			if err := dropDatabase(ctx, template); err != nil {
				errs = append(errs, err.Error())
			}
			cancel()
		}
		admin.Close()
	}
	if cluster != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		if err := cluster.Stop(ctx); err != nil {
			errs = append(errs, err.Error())
		}
		cancel()
	}
	if tmpDir != "" {
		if err := os.RemoveAll(tmpDir); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("teardown: %s", strings.Join(errs, "; "))
	}
	return nil
}

func dropDatabase(ctx context.Context, name string) error {
	if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+ident(name)+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("drop database %s: %w", name, err)
	}
	return nil
}

// withDatabase returns connection string base with its database replaced by
// name, keeping everything else (host, port, user, password, sslmode...).
func withDatabase(base, name string) string {
	if strings.HasPrefix(base, "postgres://") || strings.HasPrefix(base, "postgresql://") {
		if u, err := url.Parse(base); err == nil {
			u.Path = "/" + name
			u.RawPath = ""
			q := u.Query()
			if q.Has("dbname") {
				q.Del("dbname")
				u.RawQuery = q.Encode()
			}
			return u.String()
		}
	}
	// Keyword/value form: a later keyword overrides an earlier one.
	return strings.TrimSpace(base) + " dbname=" + name
}

func ident(name string) string { return pgx.Identifier{name}.Sanitize() }

func randomHex() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
