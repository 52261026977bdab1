package store_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/testautomation/ta/hub/dbtest"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

// dataWorld is a user, a project and a test in a fresh database.
type dataWorld struct {
	st      *store.Store
	url     string
	user    store.User
	project store.Project
	testID  string
}

func newDataWorld(t *testing.T) dataWorld {
	t.Helper()
	url := dbtest.New(t)
	pool, err := pgxpool.New(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	st := store.New(pool)
	ctx := t.Context()
	u, err := st.CreateUser(ctx, store.NewUser{ID: ids.New(ids.User), Email: "dev@example.com", Name: "Dev", PasswordHash: "x"})
	if err != nil {
		t.Fatal(err)
	}
	org, err := st.CreateOrg(ctx, ids.New(ids.Organization), "O", u.ID)
	if err != nil {
		t.Fatal(err)
	}
	p, err := st.CreateProject(ctx, ids.New(ids.Project), org.ID, "P")
	if err != nil {
		t.Fatal(err)
	}
	tests, err := st.CreateTests(ctx, store.NewTest{ID: ids.New(ids.Test), ProjectID: p.ID, OwnerID: u.ID, Visibility: store.Shared,
		Content: store.TestContent{Name: "Sign in", Document: []byte(`{"dsl":2,"name":"Sign in","steps":[]}`)}, Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	return dataWorld{st: st, url: url, user: u, project: p, testID: tests[0].ID}
}

// run makes a queued run of the world's test.
func (w dataWorld) run(t *testing.T) string {
	t.Helper()
	id := ids.New("run")
	if err := w.st.CreateRun(t.Context(), store.Run{ID: id, ProjectID: w.project.ID, TestID: w.testID, Version: 1, UserID: w.user.ID, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	return id
}

func (w dataWorld) pool(t *testing.T, name string, n int) store.DataPool {
	t.Helper()
	recs := make([]map[string]string, n)
	for i := range recs {
		recs[i] = map[string]string{"user": fmt.Sprintf("user%d", i)}
	}
	p, err := w.st.SaveDataPool(t.Context(), store.DataPoolSave{ID: ids.New("dpl"), ProjectID: w.project.ID, Create: true, Name: name,
		Columns: []string{"user"}, Records: recs, UserID: w.user.ID, Now: time.Now()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func (w dataWorld) counts(t *testing.T, id string) string {
	t.Helper()
	p, err := w.st.DataPoolDetail(t.Context(), w.project.ID, id)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("free %d leased %d consumed %d total %d", p.Free, p.Leased, p.Consumed, p.Total)
}

// Fifty takers on two hubs' worth of connection pools share a 20-record
// pool: exactly 20 get a record, no record twice, the rest hear which pool
// is empty; releasing gives every lease back.
func TestTakePoolRecordConcurrently(t *testing.T) {
	w := newDataWorld(t)
	p := w.pool(t, "Users", 20)
	second, err := pgxpool.New(t.Context(), w.url) // a second hub on the same database
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	hubs := []*store.Store{w.st, store.New(second)}

	const takers = 50
	runIDs := make([]string, takers)
	for i := range runIDs {
		runIDs[i] = w.run(t)
	}
	var (
		wg    sync.WaitGroup
		start = make(chan struct{})
		recs  = make([]store.PoolRecord, takers)
		errs  = make([]error, takers)
	)
	for i := range takers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			recs[i], errs[i] = hubs[i%2].TakePoolRecord(context.Background(), w.project.ID, p.ID, runIDs[i], store.PoolLease)
		}()
	}
	close(start)
	wg.Wait()
	seen := map[int]string{}
	taken, empty := 0, 0
	for i, err := range errs {
		switch {
		case err == nil:
			taken++
			if other, dup := seen[recs[i].Index]; dup {
				t.Fatalf("record %d given to %s and %s", recs[i].Index, other, runIDs[i])
			}
			seen[recs[i].Index] = runIDs[i]
			if recs[i].Values["user"] != fmt.Sprintf("user%d", recs[i].Index) || recs[i].State != store.PoolLeased || recs[i].TakenBy != w.user.ID {
				t.Errorf("record %+v", recs[i])
			}
		case errors.Is(err, store.ErrPoolEmpty):
			empty++
			if !strings.Contains(err.Error(), `"Users"`) {
				t.Errorf("empty pool error %q does not name the pool", err)
			}
		default:
			t.Fatalf("taker %d: %v", i, err)
		}
	}
	if taken != 20 || empty != 30 {
		t.Fatalf("%d took a record, %d found the pool empty; want 20 and 30", taken, empty)
	}
	if got := w.counts(t, p.ID); got != "free 0 leased 20 consumed 0 total 20" {
		t.Fatalf("after taking: %s", got)
	}
	d, _ := w.st.DataPoolDetail(t.Context(), w.project.ID, p.ID)
	for _, r := range d.Records {
		if r.RunID != seen[r.Index] || r.TestID != w.testID || r.TestName != "Sign in" || r.TakenByName != "Dev" || r.TakenAt.IsZero() {
			t.Fatalf("record %d holder %+v, want run %s", r.Index, r, seen[r.Index])
		}
	}
	for _, id := range runIDs {
		if err := hubs[1].ReleasePoolLeases(t.Context(), id); err != nil {
			t.Fatal(err)
		}
	}
	if got := w.counts(t, p.ID); got != "free 20 leased 0 consumed 0 total 20" {
		t.Fatalf("after release: %s", got)
	}
}

func TestPoolConsumeResetAndRules(t *testing.T) {
	w := newDataWorld(t)
	ctx := t.Context()
	p := w.pool(t, "Cards", 3)

	// A run taking again (dispatched again after its agent vanished) keeps its record.
	r1 := w.run(t)
	a, err := w.st.TakePoolRecord(ctx, w.project.ID, p.ID, r1, store.PoolConsume)
	if err != nil || a.Index != 0 || a.State != store.PoolConsumed {
		t.Fatalf("consume: %+v %v", a, err)
	}
	again, err := w.st.TakePoolRecord(ctx, w.project.ID, p.ID, r1, store.PoolConsume)
	if err != nil || again.Index != 0 {
		t.Fatalf("second take by the same run: %+v %v", again, err)
	}
	// Release leaves consumed records consumed.
	if err := w.st.ReleasePoolLeases(ctx, r1); err != nil {
		t.Fatal(err)
	}
	r2, r3 := w.run(t), w.run(t)
	if _, err := w.st.TakePoolRecord(ctx, w.project.ID, p.ID, r2, store.PoolLease); err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.TakePoolRecord(ctx, w.project.ID, p.ID, r3, ""); err != nil {
		t.Fatal(err)
	}
	if got := w.counts(t, p.ID); got != "free 0 leased 2 consumed 1 total 3" {
		t.Fatalf("after takes: %s", got)
	}
	var empty *store.PoolEmptyError
	if _, err := w.st.TakePoolRecord(ctx, w.project.ID, p.ID, w.run(t), store.PoolLease); !errors.As(err, &empty) || empty.Name != "Cards" ||
		err.Error() != `data pool "Cards" has no free record` {
		t.Fatalf("empty pool: %v", err)
	}
	if _, err := w.st.TakePoolRecord(ctx, "prj_aaaaaaaaaaaaaaaa", p.ID, w.run(t), store.PoolLease); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("pool of another project: %v", err)
	}
	if _, err := w.st.TakePoolRecord(ctx, w.project.ID, p.ID, w.run(t), "borrow"); err == nil {
		t.Fatal("an unknown mode is refused")
	}

	// r2's run ends by any path (here a bare status change, as when its agent
	// vanishes): its lease comes back with it; r3 still runs.
	if _, err := w.st.Pool().Exec(ctx, `UPDATE runs SET status = 'running' WHERE id = $1`, r2); err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.Pool().Exec(ctx, `UPDATE runs SET status = 'error' WHERE id = $1`, r2); err != nil {
		t.Fatal(err)
	}
	if got := w.counts(t, p.ID); got != "free 1 leased 1 consumed 1 total 3" {
		t.Fatalf("after r2 ended: %s", got)
	}
	// A run that has ended takes nothing more.
	if _, err := w.st.TakePoolRecord(ctx, w.project.ID, p.ID, r2, store.PoolLease); !errors.Is(err, store.ErrRunEnded) {
		t.Fatalf("an ended run took a record: %v", err)
	}
	// Changing records and deleting are refused while r3 holds a lease.
	save := store.DataPoolSave{ID: p.ID, ProjectID: w.project.ID, Name: "Cards", Columns: []string{"user"},
		Records: []map[string]string{{"user": "x"}}, Now: time.Now()}
	if _, err := w.st.SaveDataPool(ctx, save, nil); !errors.Is(err, store.ErrPoolInUse) {
		t.Fatalf("records changed under a lease: %v", err)
	}
	if err := w.st.DeleteDataPool(ctx, w.project.ID, p.ID, nil); !errors.Is(err, store.ErrPoolInUse) {
		t.Fatalf("delete under a lease: %v", err)
	}
	// A rename (and the same records sent again) keeps every state.
	same := store.DataPoolSave{ID: p.ID, ProjectID: w.project.ID, Name: "Cards 2", Columns: []string{"user"},
		Records: []map[string]string{{"user": "user0"}, {"user": "user1"}, {"user": "user2"}}, Now: time.Now()}
	if got, err := w.st.SaveDataPool(ctx, same, nil); err != nil || got.Name != "Cards 2" || got.Leased != 1 || got.Consumed != 1 {
		t.Fatalf("rename: %+v %v", got, err)
	}

	// Reset frees the consumed record; r3's lease stays.
	got, err := w.st.ResetDataPool(ctx, w.project.ID, p.ID, time.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Free != 2 || got.Leased != 1 || got.Consumed != 0 || got.Records[2].RunID != r3 || got.Records[1].RunID != "" {
		t.Fatalf("after reset: %+v", got)
	}
	if _, err := w.st.ResetDataPool(ctx, "prj_aaaaaaaaaaaaaaaa", p.ID, time.Now(), nil); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("reset in another project: %v", err)
	}
	// r3 ends and gives its lease back; now records may change and the pool may go.
	if err := w.st.ReleasePoolLeases(ctx, r3); err != nil {
		t.Fatal(err)
	}
	if got, err := w.st.SaveDataPool(ctx, save, nil); err != nil || got.Total != 1 || got.Free != 1 || got.Records[0].Values["user"] != "x" {
		t.Fatalf("records replaced: %+v %v", got, err)
	}
	if err := w.st.DeleteDataPool(ctx, w.project.ID, p.ID, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.DataPoolDetail(ctx, w.project.ID, p.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted pool: %v", err)
	}
}

func TestDataSetStore(t *testing.T) {
	w := newDataWorld(t)
	ctx := t.Context()
	save := store.DataSetSave{ID: ids.New("tds"), ProjectID: w.project.ID, Create: true, Name: "Logins",
		Columns: []string{"user", "pw"}, Rows: []map[string]string{{"user": "a", "pw": "1"}, {"user": "b", "pw": ""}}, UserID: w.user.ID, Now: time.Now()}
	d, err := w.st.SaveDataSet(ctx, save, nil)
	if err != nil || len(d.Rows) != 2 || d.Rows[1]["user"] != "b" || d.CreatedBy != w.user.ID {
		t.Fatalf("create: %+v %v", d, err)
	}
	dup := save
	dup.ID, dup.Name = ids.New("tds"), "LOGINS"
	if _, err := w.st.SaveDataSet(ctx, dup, nil); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("same name: %v", err)
	}
	rename := store.DataSetSave{ID: d.ID, ProjectID: w.project.ID, Name: "Logins 2", Now: time.Now()}
	if d, err = w.st.SaveDataSet(ctx, rename, nil); err != nil || d.Name != "Logins 2" || len(d.Rows) != 2 {
		t.Fatalf("rename keeps rows: %+v %v", d, err)
	}
	if _, err := w.st.DataSet(ctx, "prj_aaaaaaaaaaaaaaaa", d.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another project's set: %v", err)
	}
	list, err := w.st.DataSets(ctx, w.project.ID)
	if err != nil || len(list) != 1 || list[0].RowCount != 2 || len(list[0].Columns) != 2 {
		t.Fatalf("list: %+v %v", list, err)
	}
	if err := w.st.DeleteDataSet(ctx, w.project.ID, d.ID, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.DataSet(ctx, w.project.ID, d.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted set: %v", err)
	}
}

// A save replacing the records while runs take from the pool either waits
// for the takers and is refused, or goes first: a run never loses the
// record it was given.
func TestPoolSaveRacingTakers(t *testing.T) {
	w := newDataWorld(t)
	for round := range 5 {
		p := w.pool(t, fmt.Sprintf("Race %d", round), 10)
		runs := make([]string, 10)
		for i := range runs {
			runs[i] = w.run(t)
		}
		var wg sync.WaitGroup
		taken := make([]error, len(runs))
		var saveErr error
		for i := range runs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, taken[i] = w.st.TakePoolRecord(context.Background(), w.project.ID, p.ID, runs[i], store.PoolLease)
			}()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, saveErr = w.st.SaveDataPool(context.Background(), store.DataPoolSave{ID: p.ID, ProjectID: w.project.ID, Name: p.Name,
				Columns: []string{"user"}, Records: []map[string]string{{"user": "new"}}, Now: time.Now()}, nil)
		}()
		wg.Wait()
		if saveErr != nil && !errors.Is(saveErr, store.ErrPoolInUse) {
			t.Fatal(saveErr)
		}
		d, err := w.st.DataPoolDetail(t.Context(), w.project.ID, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		holders := map[string]bool{}
		for _, r := range d.Records {
			if r.State == store.PoolLeased {
				holders[r.RunID] = true
			}
		}
		for i, err := range taken {
			switch {
			case err == nil && !holders[runs[i]]:
				t.Fatalf("round %d: run %d was given a record it no longer holds (save: %v)", round, i, saveErr)
			case err != nil && !errors.Is(err, store.ErrPoolEmpty):
				t.Fatal(err)
			}
		}
	}
}
