package client

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSweepStaleFiles: at start an agent removes the run files folders
// (ta-files-*) of its user older than a day, which a crashed agent left,
// and nothing else: not younger ones (another agent of the same user may
// be running), not other users', not other names, not what a link points
// at.
func TestSweepStaleFiles(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	now := time.Now()
	old, young := now.Add(-25*time.Hour), now.Add(-time.Hour)
	mk := func(name string, at time.Time) string {
		t.Helper()
		p := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Join(p, "fil_x"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "fil_x", "report.pdf"), []byte("%PDF"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stale := mk("ta-files-111", old)
	stale2 := mk("ta-files-222", now.Add(-30*24*time.Hour))
	running := mk("ta-files-333", young)
	other := mk("other-old", old)
	target := mk("kept-target", old)
	if err := os.Symlink(target, filepath.Join(tmp, "ta-files-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "ta-files-file"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(filepath.Join(tmp, "ta-files-file"), old, old); err != nil {
		t.Fatal(err)
	}
	var theirs string
	if os.Getuid() == 0 { // only root can make a folder another user owns
		theirs = mk("ta-files-theirs", old)
		if err := os.Chown(theirs, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(theirs, old, old); err != nil {
			t.Fatal(err)
		}
	}

	// Through the agent's start: Run sweeps before it first connects.
	c := New(Config{HubURL: "http://127.0.0.1:1", ConfigDir: filepath.Join(t.TempDir(), "cfg"), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_ = c.Run(ctx)
	for _, p := range []string{stale, stale2} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s was left (%v)", filepath.Base(p), err)
		}
	}
	for _, p := range []string{running, other, target, filepath.Join(target, "fil_x", "report.pdf"), filepath.Join(tmp, "ta-files-link"),
		filepath.Join(tmp, "ta-files-file"), theirs} {
		if p == "" {
			continue
		}
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
	if n := sweepStaleFiles(tmp, now, c.log); n != 0 {
		t.Errorf("a second sweep removed %d", n)
	}
	if n := sweepStaleFiles(tmp, now.Add(24*time.Hour), c.log); n != 1 {
		t.Errorf("a day later the running agent's folder is stale: removed %d, want 1", n)
	}
}
