package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/testautomation/ta/hub/dbtest"
	"github.com/testautomation/ta/hub/store"
)

// A job runs in one place at a time: a second caller, here another
// connection as another hub would be, is told it did not run, and runs
// once the first has ended.
func TestOnceAcrossHubs(t *testing.T) {
	pool := dbtest.Pool(t)
	a, b := store.New(pool), store.New(pool)
	inside := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		ran, err := a.OnceAcrossHubs(t.Context(), "sweep", func(context.Context) error {
			close(inside)
			<-release
			return nil
		})
		if !ran && err == nil {
			err = errors.New("the first caller did not run")
		}
		done <- err
	}()
	<-inside
	ran, err := b.OnceAcrossHubs(t.Context(), "sweep", func(context.Context) error { t.Error("ran twice at once"); return nil })
	if err != nil || ran {
		t.Fatalf("second caller while the first runs: ran %v, err %v", ran, err)
	}
	other, err := b.OnceAcrossHubs(t.Context(), "retention", func(context.Context) error { return nil })
	if err != nil || !other {
		t.Fatalf("another job is not held by the first: ran %v, err %v", other, err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	ran, err = b.OnceAcrossHubs(t.Context(), "sweep", func(context.Context) error { return nil })
	if err != nil || !ran {
		t.Fatalf("after the first ended: ran %v, err %v", ran, err)
	}
	boom := errors.New("boom")
	if ran, err := a.OnceAcrossHubs(t.Context(), "sweep", func(context.Context) error { return boom }); !ran || !errors.Is(err, boom) {
		t.Fatalf("a failing job: ran %v, err %v", ran, err)
	}
}
