package retention_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/dbtest"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// world is one project on a real database with runs whose artifacts live
// in a real artifacts folder, at ages counted back from now.
type world struct {
	t       *testing.T
	url     string
	pool    *pgxpool.Pool
	st      *store.Store
	dir     artifacts.Dir
	project string
	user    string
	now     time.Time
}

func newWorld(t *testing.T) *world {
	url := dbtest.New(t)
	pool, err := pgxpool.New(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	w := &world{t: t, url: url, pool: pool, st: store.New(pool), dir: artifacts.Dir{Root: t.TempDir()},
		now: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)}
	ctx := t.Context()
	u, err := w.st.CreateUser(ctx, store.NewUser{ID: ids.New(ids.User), Email: "ann@example.com", Name: "Ann", PasswordHash: "x"})
	if err != nil {
		t.Fatal(err)
	}
	org, err := w.st.CreateOrg(ctx, ids.New(ids.Organization), "Acme", u.ID)
	if err != nil {
		t.Fatal(err)
	}
	p, err := w.st.CreateProject(ctx, ids.New(ids.Project), org.ID, "Shop")
	if err != nil {
		t.Fatal(err)
	}
	w.project, w.user = p.ID, u.ID
	return w
}

func (w *world) exec(sql string, args ...any) {
	w.t.Helper()
	if _, err := w.pool.Exec(context.Background(), sql, args...); err != nil {
		w.t.Fatalf("%s: %v", sql, err)
	}
}

// test makes a test of the project.
func (w *world) test(name string) string {
	w.t.Helper()
	id := ids.New(ids.Test)
	if _, err := w.st.CreateTests(w.t.Context(), store.NewTest{ID: id, ProjectID: w.project, OwnerID: w.user, Visibility: "Shared", Now: w.now,
		Content: store.TestContent{Name: name, Document: []byte(`{"dsl":2,"steps":[]}`)}}); err != nil {
		w.t.Fatal(err)
	}
	return id
}

// run makes a run of test with status that finished (or, queued and
// running, was created) daysAgo, with a screenshot, a trace file, their
// rows and byte counts, and an event.
func (w *world) run(test, status string, daysAgo float64) string {
	w.t.Helper()
	id := ids.New("run")
	at := w.now.Add(-time.Duration(daysAgo * float64(24*time.Hour)))
	var started, finished *time.Time
	switch status {
	case "queued":
	case "running":
		started = &at
	default:
		started, finished = &at, &at
	}
	w.exec(`INSERT INTO runs (id, project_id, test_id, version, status, headed, screenshots, created_at, started_at, finished_at,
		artifact_bytes, trace_bytes) VALUES ($1, $2, $3, 1, $4, false, true, $5, $6, $7, 5, 7)`,
		id, w.project, test, status, at.Add(-time.Minute), started, finished)
	w.exec(`INSERT INTO run_events (run_id, seq, kind, data) VALUES ($1, 1, 'run.started', '{}')`, id)
	for name, size := range map[string]int{"step-0.png": 5, "trace-0.json": 7} {
		if err := w.dir.Put(w.t.Context(), id, name, make([]byte, size)); err != nil {
			w.t.Fatal(err)
		}
		w.exec(`INSERT INTO run_artifacts (run_id, name, content_type, size, step) VALUES ($1, $2, 'application/octet-stream', $3, 0)`, id, name, size)
	}
	return id
}

// state is what retention may change of a run.
type state struct {
	row       string // the whole row as JSON; "" once deleted
	artifacts int    // its artifact rows
	events    int    // its event rows
	files     bool   // its folder of artifacts is there
}

func (w *world) state(id string) state {
	w.t.Helper()
	var s state
	err := w.pool.QueryRow(context.Background(), `SELECT coalesce((SELECT to_jsonb(r)::text FROM runs r WHERE r.id = $1), ''),
		(SELECT count(*) FROM run_artifacts WHERE run_id = $1), (SELECT count(*) FROM run_events WHERE run_id = $1)`, id).
		Scan(&s.row, &s.artifacts, &s.events)
	if err != nil {
		w.t.Fatal(err)
	}
	_, err = os.Stat(filepath.Join(w.dir.Root, id))
	s.files = err == nil
	return s
}

func (w *world) states(ids []string) map[string]state {
	out := map[string]state{}
	for _, id := range ids {
		out[id] = w.state(id)
	}
	return out
}

// prunedAt is when the run's artifacts were pruned; nil if not.
func (w *world) prunedAt(id string) *time.Time {
	w.t.Helper()
	var at *time.Time
	if err := w.pool.QueryRow(context.Background(), `SELECT artifacts_pruned_at FROM runs WHERE id = $1`, id).Scan(&at); err != nil {
		w.t.Fatal(err)
	}
	return at
}

// counting is the artifacts folder, counting each run's deletions and
// failing those of the runs in fail; started is closed on the first.
type counting struct {
	artifacts.Dir
	mu      sync.Mutex
	deletes map[string]int  // guarded by mu
	fail    map[string]bool // guarded by mu
	started chan struct{}
	once    sync.Once
}

func newCounting(d artifacts.Dir) *counting {
	return &counting{Dir: d, deletes: map[string]int{}, fail: map[string]bool{}, started: make(chan struct{})}
}

func (c *counting) DeleteRun(ctx context.Context, runID string) error {
	c.once.Do(func() { close(c.started) })
	c.mu.Lock()
	c.deletes[runID]++
	fail := c.fail[runID]
	c.mu.Unlock()
	if fail {
		return errors.New("the storage is away")
	}
	return c.Dir.DeleteRun(ctx, runID)
}

// pgxpoolNew opens another pool on the database, as another hub would.
func pgxpoolNew(t *testing.T, url string) (*pgxpool.Pool, error) {
	p, err := pgxpool.New(t.Context(), url)
	if err == nil {
		t.Cleanup(p.Close)
	}
	return p, err
}
