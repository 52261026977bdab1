package store_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/testautomation/ta/hub/dbtest"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

// test_counts (the test list's total without a search) always equals a
// count of the tests themselves, group by group, whatever changes them:
// creating, moving between suites, sharing, handing over, deleting a test,
// deleting its owner's account, deleting its project; concurrently too.
func TestTestCountsFollowTests(t *testing.T) {
	pool := dbtest.Pool(t)
	st := store.New(pool)
	ctx := t.Context()
	user := func(name string) string {
		u, err := st.CreateUser(ctx, store.NewUser{ID: ids.New(ids.User), Email: name + "@example.com", Name: name, PasswordHash: "x"})
		if err != nil {
			t.Fatal(err)
		}
		return u.ID
	}
	ann, bob := user("ann"), user("bob")
	org, err := st.CreateOrg(ctx, ids.New("org"), "Acme", ann)
	if err != nil {
		t.Fatal(err)
	}
	var projects []string
	for _, name := range []string{"Shop", "Admin"} {
		p, err := st.CreateProject(ctx, ids.New("prj"), org.ID, name)
		if err != nil {
			t.Fatal(err)
		}
		projects = append(projects, p.ID)
	}
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := pool.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	check := func(when string) {
		t.Helper()
		rows, err := pool.Query(ctx, `
			SELECT coalesce(a.project_id, b.project_id) || '/' || coalesce(a.suite, b.suite) || '/' || coalesce(a.visibility, b.visibility)
				|| '/' || coalesce(a.owner_id, b.owner_id), coalesce(a.n, 0), coalesce(b.n, 0)
			FROM (SELECT project_id, suite, visibility, coalesce(owner_id, '') AS owner_id, count(*) AS n FROM tests GROUP BY 1, 2, 3, 4) a
			FULL JOIN test_counts b USING (project_id, suite, visibility, owner_id)
			WHERE a.n IS DISTINCT FROM b.n`)
		if err != nil {
			t.Fatal(err)
		}
		type diff struct {
			group       string
			tests, kept int64
		}
		diffs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (diff, error) {
			var d diff
			return d, r.Scan(&d.group, &d.tests, &d.kept)
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range diffs {
			t.Errorf("%s: group %s has %d tests, test_counts says %d", when, d.group, d.tests, d.kept)
		}
	}
	now := time.Now()
	var created []string
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range 4 { // concurrent creators in the same groups
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 15 {
				owner, vis := ann, "Shared"
				if i%3 == 0 {
					owner, vis = bob, "Private"
				}
				id := ids.New("tc")
				_, err := st.CreateTests(context.Background(), store.NewTest{ID: id, ProjectID: projects[i%2], OwnerID: owner, Visibility: vis, Now: now,
					Content: store.TestContent{Name: fmt.Sprintf("T%d-%d", w, i), Suite: []string{"", "Cart", "Login"}[i%3], Document: []byte(`{"dsl":2,"steps":[]}`)}})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				created = append(created, id)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	check("after creating")
	// Tests come and go in one group at once: the group falls to none and
	// comes back while others wait on it.
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				id := ids.New("tc")
				_, err := st.CreateTests(context.Background(), store.NewTest{ID: id, ProjectID: projects[0], OwnerID: ann, Visibility: "Shared", Now: now,
					Content: store.TestContent{Name: fmt.Sprintf("Churn %d", i), Suite: "Churn", Document: []byte(`{"dsl":2,"steps":[]}`)}})
				if err == nil {
					err = st.DeleteTest(context.Background(), id, nil)
				}
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	check("after tests came and went in one group")
	// The last test of a group is deleted while another transaction adds
	// one to it: the adder waits on the group, then makes it anew.
	last := ids.New("tc")
	if _, err := st.CreateTests(ctx, store.NewTest{ID: last, ProjectID: projects[0], OwnerID: ann, Visibility: "Shared", Now: now,
		Content: store.TestContent{Name: "Last", Suite: "Lonely", Document: []byte(`{"dsl":2,"steps":[]}`)}}); err != nil {
		t.Fatal(err)
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM tests WHERE id = $1`, last); err != nil {
		t.Fatal(err)
	}
	added := make(chan error)
	go func() {
		_, err := st.CreateTests(context.Background(), store.NewTest{ID: ids.New("tc"), ProjectID: projects[0], OwnerID: ann, Visibility: "Shared",
			Now: now, Content: store.TestContent{Name: "Next", Suite: "Lonely", Document: []byte(`{"dsl":2,"steps":[]}`)}})
		added <- err
	}()
	time.Sleep(100 * time.Millisecond) // let it reach the group's lock (the result is the same if it has not)
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-added; err != nil {
		t.Fatal(err)
	}
	check("after a group's last test went while another came")
	exec(`UPDATE tests SET suite = 'Checkout' WHERE suite = 'Cart'`)
	check("after moving a suite's tests")
	exec(`UPDATE tests SET visibility = 'Shared' WHERE id = $1`, created[0])
	exec(`UPDATE tests SET owner_id = $2 WHERE id = $1`, created[1], bob)
	exec(`UPDATE tests SET last_run_status = 'passed', saved_at = now()`) // no group changes
	check("after sharing and handing over")
	if err := st.DeleteTest(ctx, created[2], nil); err != nil {
		t.Fatal(err)
	}
	check("after deleting a test")
	if err := st.DeleteUser(ctx, bob); err != nil {
		t.Fatal(err)
	}
	check("after deleting an owner's account")
	if _, err := st.DeleteProject(ctx, projects[0]); err != nil {
		t.Fatal(err)
	}
	check("after deleting a project")
	if _, err := st.DeleteOrg(ctx, org.ID); err != nil {
		t.Fatal(err)
	}
	check("after deleting the organization")
	var left int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM test_counts`).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d groups left with no tests (%v)", left, err)
	}
}
