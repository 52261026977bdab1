package store_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/testautomation/ta/hub/dbtest"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// emptyDatabase is a fresh database with every migrated table dropped.
func emptyDatabase(t *testing.T) string {
	url := dbtest.New(t)
	pool, err := pgxpool.New(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(t.Context(), `DROP SCHEMA public CASCADE; CREATE SCHEMA public`); err != nil {
		t.Fatal(err)
	}
	return url
}

// Several hubs starting at once against one database take turns: every
// migration is applied exactly once.
func TestConcurrentMigrate(t *testing.T) {
	url := emptyDatabase(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pool, err := pgxpool.New(context.Background(), url)
			if err != nil {
				errs[i] = err
				return
			}
			defer pool.Close()
			errs[i] = store.Migrate(context.Background(), pool)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("concurrent Migrate: %v", err)
		}
	}
	pool, _ := pgxpool.New(t.Context(), url)
	defer pool.Close()
	var rows, distinct int
	if err := pool.QueryRow(t.Context(), `SELECT count(*), count(DISTINCT version) FROM schema_migrations`).Scan(&rows, &distinct); err != nil {
		t.Fatal(err)
	}
	if rows == 0 || rows != distinct {
		t.Fatalf("schema_migrations has %d rows, %d distinct versions", rows, distinct)
	}
	// Migrating again changes nothing.
	if err := store.Migrate(t.Context(), pool); err != nil {
		t.Fatal(err)
	}
}

func TestMigrateRefusesNewerDatabase(t *testing.T) {
	pool := dbtest.Pool(t)
	if _, err := pool.Exec(t.Context(), `INSERT INTO schema_migrations (version, name) VALUES (9999, '9999_future.sql')`); err != nil {
		t.Fatal(err)
	}
	err := store.Migrate(t.Context(), pool)
	if err == nil || !strings.Contains(err.Error(), "newer hub") {
		t.Fatalf("Migrate on a newer database: %v", err)
	}
}

// Of accounts registered at the same moment on an empty hub, exactly one
// becomes platform administrator.
func TestFirstAccountBecomesAdminOnce(t *testing.T) {
	st := store.New(dbtest.Pool(t))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := st.CreateUser(context.Background(), store.NewUser{
				ID: ids.New(ids.User), Email: "u" + string(rune('a'+i)) + "@example.com", Name: "U", PasswordHash: "x", AdminIfFirst: true,
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	users, err := st.ListUsers(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	admins := 0
	for _, u := range users {
		if u.PlatformAdmin {
			admins++
		}
	}
	if len(users) != 8 || admins != 1 {
		t.Fatalf("%d users, %d platform administrators; want 8 and 1", len(users), admins)
	}
	if _, err := st.CreateUser(t.Context(), store.NewUser{ID: ids.New(ids.User), Email: "UA@example.com", Name: "dup", PasswordHash: "x"}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("duplicate email (other case): %v", err)
	}
}

// The last Admin of an organization cannot be demoted or removed, even by
// concurrent requests demoting the two Admins at once.
func TestLastOrgAdminUnderConcurrency(t *testing.T) {
	st := store.New(dbtest.Pool(t))
	ctx := t.Context()
	a, _ := st.CreateUser(ctx, store.NewUser{ID: ids.New(ids.User), Email: "a@example.com", Name: "A", PasswordHash: "x"})
	b, _ := st.CreateUser(ctx, store.NewUser{ID: ids.New(ids.User), Email: "b@example.com", Name: "B", PasswordHash: "x"})
	org, err := st.CreateOrg(ctx, ids.New(ids.Organization), "O", a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.AddOrgMember(ctx, org.ID, b.ID, "Admin"); err != nil {
		t.Fatal(err)
	}
	// Race the two demotions many times: each round must leave one Admin.
	for round := range 30 {
		for _, id := range []string{a.ID, b.ID} {
			if err := st.SetOrgMemberRole(ctx, org.ID, id, "Admin"); err != nil {
				t.Fatal(err)
			}
		}
		start := make(chan struct{})
		var wg sync.WaitGroup
		results := make([]error, 2)
		for i, id := range []string{a.ID, b.ID} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				results[i] = st.SetOrgMemberRole(context.Background(), org.ID, id, "Tester")
			}()
		}
		close(start)
		wg.Wait()
		refused := 0
		for _, err := range results {
			if errors.Is(err, store.ErrLastAdmin) {
				refused++
			} else if err != nil {
				t.Fatal(err)
			}
		}
		members, _ := st.OrgMembers(ctx, org.ID)
		admins := 0
		for _, m := range members {
			if m.Role == "Admin" {
				admins++
			}
		}
		if refused != 1 || admins != 1 {
			t.Fatalf("round %d: refused %d, admins left %d; want 1 and 1", round, refused, admins)
		}
	}
}

// A member removed from the organization has no role in its projects, even
// when a project role is being set for them at the same moment.
func TestRemovedMemberLosesProjectRoles(t *testing.T) {
	st := store.New(dbtest.Pool(t))
	ctx := t.Context()
	admin, _ := st.CreateUser(ctx, store.NewUser{ID: ids.New(ids.User), Email: "admin@example.com", Name: "A", PasswordHash: "x"})
	bob, _ := st.CreateUser(ctx, store.NewUser{ID: ids.New(ids.User), Email: "bob@example.com", Name: "B", PasswordHash: "x"})
	org, _ := st.CreateOrg(ctx, ids.New(ids.Organization), "O", admin.ID)
	p, err := st.CreateProject(ctx, ids.New(ids.Project), org.ID, "P")
	if err != nil {
		t.Fatal(err)
	}
	for round := range 40 {
		if err := st.AddOrgMember(ctx, org.ID, bob.ID, "Tester"); err != nil {
			t.Fatal(err)
		}
		start := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-start
			err := st.SetProjectRole(context.Background(), p.ID, bob.ID, "Admin")
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			<-start
			if err := st.RemoveOrgMember(context.Background(), org.ID, bob.ID); err != nil {
				t.Error(err)
			}
		}()
		close(start)
		wg.Wait()
		if _, role, err := st.ProjectRole(ctx, p.ID, bob.ID); err != nil || role != "" {
			t.Fatalf("round %d: removed member's role in the project is %q (%v)", round, role, err)
		}
		var left int
		if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM project_members WHERE user_id = $1`, bob.ID).Scan(&left); err != nil || left != 0 {
			t.Fatalf("round %d: %d project roles left behind (%v)", round, left, err)
		}
	}
}
