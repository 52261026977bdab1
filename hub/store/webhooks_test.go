package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
)

// Two runs of a batch ending in two open transactions at once: the second
// waits for the first's batch lock, then sees it, so the batch gets exactly
// one batch.finished (without the lock each would see the other running
// and neither would queue it). Runs of Private tests queue nothing.
func TestBatchFinishedQueuedOnceAcrossTransactions(t *testing.T) {
	w := newDataWorld(t)
	ctx := t.Context()
	hook, err := w.st.SaveWebhook(ctx, store.WebhookSave{ID: ids.New("whk"), ProjectID: w.project.ID, Create: true, Name: "CI",
		URL: "http://127.0.0.1:9/", Events: []string{"run.finished", "batch.finished"}, Format: "json", Enabled: true,
		SecretCiphertext: []byte{1}, SecretNonce: []byte{2}, Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	batch := ids.New("bat")
	runs := []store.Run{{ID: ids.New("run"), ProjectID: w.project.ID, TestID: w.testID, Version: 1, UserID: w.user.ID, CreatedAt: time.Now()},
		{ID: ids.New("run"), ProjectID: w.project.ID, TestID: w.testID, Version: 1, UserID: w.user.ID, CreatedAt: time.Now()}}
	if err := w.st.CreateBatch(ctx, store.Batch{ID: batch, ProjectID: w.project.ID, UserID: w.user.ID, Source: "tests", CreatedAt: time.Now()}, runs); err != nil {
		t.Fatal(err)
	}
	pool := w.st.Pool()
	end := `UPDATE runs SET status = 'passed', finished_at = now() WHERE id = $1`
	tx1, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx1.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck
	if _, err := tx1.Exec(ctx, end, runs[0].ID); err != nil {
		t.Fatal(err)
	}
	second := make(chan error, 1)
	go func() {
		tx2, err := pool.Begin(ctx)
		if err == nil {
			defer tx2.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck
			if _, err = tx2.Exec(ctx, end, runs[1].ID); err == nil {
				err = tx2.Commit(ctx)
			}
		}
		second <- err
	}()
	select {
	case err := <-second:
		t.Fatalf("the second run's end did not wait for the first's batch lock: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	if err := tx1.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-second; err != nil {
		t.Fatal(err)
	}
	ds, err := w.st.WebhookDeliveries(ctx, hook.ID, 100)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, d := range ds {
		count[d.Event+" "+d.Subject]++
	}
	if len(ds) != 3 || count["batch.finished "+batch] != 1 || count["run.finished "+runs[0].ID] != 1 || count["run.finished "+runs[1].ID] != 1 {
		t.Errorf("deliveries %v", count)
	}
	for _, d := range ds {
		if !ids.Valid("whd", d.ID) || d.Status != "pending" {
			t.Errorf("delivery %+v", d)
		}
	}
}

// A claim is a lease: a delivery whose hub stopped mid-attempt (nothing
// recorded) is due again once the lease passes, with the next attempt's
// number; a stale hub's late record of the old attempt changes nothing.
func TestDeliveryClaimIsALease(t *testing.T) {
	w := newDataWorld(t)
	ctx := t.Context()
	hook, err := w.st.SaveWebhook(ctx, store.WebhookSave{ID: ids.New("whk"), ProjectID: w.project.ID, Create: true, Name: "CI",
		URL: "http://127.0.0.1:9/", Events: []string{"run.finished"}, Format: "json", Enabled: true,
		SecretCiphertext: []byte{1}, SecretNonce: []byte{2}, Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.st.QueuePing(ctx, hook.ID, ids.New("whd")); err != nil {
		t.Fatal(err)
	}
	first, err := w.st.ClaimDeliveries(ctx, 10, 200*time.Millisecond)
	if err != nil || len(first) != 1 || first[0].Attempt != 1 {
		t.Fatalf("first claim %+v %v", first, err)
	}
	if again, err := w.st.ClaimDeliveries(ctx, 10, time.Second); err != nil || len(again) != 0 {
		t.Fatalf("claimed twice within the lease: %+v %v", again, err)
	}
	time.Sleep(300 * time.Millisecond)
	second, err := w.st.ClaimDeliveries(ctx, 10, time.Second)
	if err != nil || len(second) != 1 || second[0].ID != first[0].ID || second[0].Attempt != 2 {
		t.Fatalf("after the lease: %+v %v", second, err)
	}
	if err := w.st.RecordAttempt(ctx, first[0].ID, 1, store.Attempt{Succeeded: true, ResponseStatus: 200}); err != nil {
		t.Fatal(err)
	}
	if err := w.st.RecordAttempt(ctx, second[0].ID, 2, store.Attempt{Error: "the receiver answered 500", ResponseStatus: 500}); err != nil {
		t.Fatal(err)
	}
	d, err := w.st.Delivery(ctx, first[0].ID)
	if err != nil || d.Status != "failed" || d.Attempts != 2 || d.ResponseStatus == nil || *d.ResponseStatus != 500 || d.NextAttemptAt != nil {
		t.Errorf("delivery %+v %v", d, err)
	}
}
