package api

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/store"
)

// TestDecideDelete is DELETE /api/tests/:id's rule on the locked test.
func TestDecideDelete(t *testing.T) {
	const me, other = "usr_me", "usr_other"
	rows := []struct {
		name string
		role access.Role
		cur  store.Test
		want int // 0: deleted
	}{
		{"own Draft, Tester", access.Tester, store.Test{Status: store.Draft, Visibility: store.Shared, OwnerID: me}, 0},
		{"own Ready, Tester", access.Tester, store.Test{Status: store.Ready, Visibility: store.Shared, OwnerID: me}, 0},
		{"own private", access.Tester, store.Test{Status: store.Draft, Visibility: store.Private, OwnerID: me}, 0},
		{"own Deprecated", access.Admin, store.Test{Status: store.Deprecated, Visibility: store.Shared, OwnerID: me}, 409},
		{"others' shared, Test Developer", access.TestDeveloper, store.Test{Status: store.Draft, Visibility: store.Shared, OwnerID: other}, 403},
		{"others' shared, Test Manager", access.TestManager, store.Test{Status: store.Ready, Visibility: store.Shared, OwnerID: other}, 0},
		{"others' shared Deprecated, Test Manager", access.TestManager, store.Test{Status: store.Deprecated, Visibility: store.Shared, OwnerID: other}, 409},
		{"transferred away from a Tester", access.Tester, store.Test{Status: store.Draft, Visibility: store.Shared, OwnerID: other}, 403},
		{"others' private, Admin", access.Admin, store.Test{Status: store.Draft, Visibility: store.Private, OwnerID: other}, 404},
		{"others' private Deprecated, Admin", access.Admin, store.Test{Status: store.Deprecated, Visibility: store.Private, OwnerID: other}, 404},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			err := decideDelete(scope{Role: r.role}, me, r.cur)
			status := 0
			var ae *apiError
			switch {
			case errors.As(err, &ae):
				status = ae.status
			case errors.Is(err, store.ErrNotFound):
				status = 404
			case err != nil:
				t.Fatal(err)
			}
			if status != r.want {
				t.Errorf("status %d, want %d (%v)", status, r.want, err)
			}
		})
	}
}

// deleteDuring sends DELETE /api/tests/:id while another writer holds the
// test locked inside store.UpdateTest (as a deprecation or a transfer
// does), and lets that writer commit change only once the delete waits
// for the lock: the delete must decide on what the writer committed.
func deleteDuring(t *testing.T, h *harness, c *client, id, by string, change func(cur store.Test) store.TestChange) response {
	t.Helper()
	locked, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		_, err := h.store.UpdateTest(t.Context(), id, by, time.Now(), func(cur store.Test, _ []byte) (store.TestChange, error) {
			close(locked)
			<-release
			return change(cur), nil
		})
		done <- err
	}()
	<-locked
	answer := make(chan response, 1)
	go func() { answer <- c.do("DELETE", "/api/tests/"+id, nil) }()
	// Wait until the delete is blocked on the test's row lock.
	for waited := 0; ; waited++ {
		var n int
		if err := h.store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			break
		}
		if waited > 500 {
			t.Fatal("the delete never waited for the test's lock")
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return <-answer
}

// A delete racing a deprecation or a transfer decides on the committed
// test: a test deprecated meanwhile is kept (409), and a Tester whose test
// was handed to someone else meanwhile may no longer delete it (403).
func TestDeleteTestSeesConcurrentChange(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr, tester := o.members[access.TestManager], o.members[access.Tester]
	steps := []map[string]any{{"id": "s1", "type": "navigate", "url": "https://example.com/"}}

	ready := mgr.createTest(t, o.project, map[string]any{"name": "Checkout", "steps": steps})
	mgr.do("PUT", "/api/tests/"+ready, map[string]any{"status": "Ready"}).want(t, 200)
	r := deleteDuring(t, h, mgr, ready, o.ids[access.TestManager], func(cur store.Test) store.TestChange {
		return store.TestChange{Overwrite: &store.VersionWrite{Content: store.TestContent{Name: cur.Name, StepCount: cur.StepCount,
			Document: []byte(`{"dsl":2,"name":"Checkout","steps":[{"id":"s1","type":"navigate","url":"https://example.com/"}]}`)}, Status: store.Deprecated}}
	})
	if r.status != http.StatusConflict || r.str("code") != "deprecated" {
		t.Errorf("delete during a deprecation: %d %s", r.status, r.body)
	}
	if got := mgr.test(t, ready); got["status"] != "Deprecated" {
		t.Errorf("the deprecated test: %v", got["status"])
	}

	mine := tester.createTest(t, o.project, map[string]any{"name": "Search", "steps": steps})
	r = deleteDuring(t, h, tester, mine, o.ids[access.TestManager], func(store.Test) store.TestChange {
		return store.TestChange{OwnerID: o.ids[access.TestDeveloper]}
	})
	if r.status != http.StatusForbidden {
		t.Errorf("delete during a transfer: %d %s", r.status, r.body)
	}
	mgr.do("GET", "/api/tests/"+mine, nil).want(t, 200)

	// Without a concurrent change the delete goes through as before.
	tester.do("DELETE", "/api/tests/"+tester.createTest(t, o.project, map[string]any{"name": "Gone", "steps": steps}), nil).want(t, 204)
}
