package store_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/dbtest"
	"github.com/testautomation/ta/hub/store"
)

// Parallel requests for one key never pass the limit together; other keys
// and kinds count apart; the wait says when the oldest leaves the window.
func TestTakeRequestUnderConcurrency(t *testing.T) {
	st := store.New(dbtest.Pool(t))
	lim := store.RequestLimit{Kind: "register-address", Max: 5, Window: time.Hour}
	now := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	var passed atomic.Int32
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wait, err := st.TakeRequest(t.Context(), lim, "10.0.0.1", now.Add(time.Duration(i)*time.Millisecond))
			if err != nil {
				t.Error(err)
			}
			if wait == 0 {
				passed.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := passed.Load(); n != 5 {
		t.Fatalf("%d of 20 parallel requests passed a limit of 5", n)
	}
	if wait, err := st.TakeRequest(t.Context(), lim, "10.0.0.2", now); err != nil || wait != 0 {
		t.Errorf("another address: wait %s, %v", wait, err)
	}
	if wait, err := st.TakeRequest(t.Context(), store.RequestLimit{Kind: "reset-address", Max: 1, Window: time.Minute}, "10.0.0.1", now); err != nil || wait != 0 {
		t.Errorf("another kind: wait %s, %v", wait, err)
	}
	later := now.Add(30 * time.Minute)
	if wait, err := st.TakeRequest(t.Context(), lim, "10.0.0.1", later); err != nil || wait < 29*time.Minute || wait > 31*time.Minute {
		t.Errorf("after 30 minutes: wait %s, %v; want about 30 minutes", wait, err)
	}
	if err := st.PruneAuth(t.Context(), now.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if wait, err := st.TakeRequest(t.Context(), lim, "10.0.0.1", later); err != nil || wait != 0 {
		t.Errorf("after pruning: wait %s, %v", wait, err)
	}
}
