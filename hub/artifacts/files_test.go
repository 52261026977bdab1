package artifacts

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// failing reads some bytes, then fails: an upload cut short.
type failing struct{ n int }

func (f *failing) Read(p []byte) (int, error) {
	if f.n > 0 {
		f.n = 0
		return copy(p, "partial"), nil
	}
	return 0, errors.New("the client went away")
}

// TestFiles: a file is kept whole or not at all, read back, deleted (twice
// is fine), and a name that is not a file id never becomes a path.
func TestFiles(t *testing.T) {
	d := Dir{Root: t.TempDir()}
	id := "fil_aaaaaaaaaaaaaaaa"
	if err := d.PutFile(t.Context(), id, strings.NewReader("bytes")); err != nil {
		t.Fatal(err)
	}
	f, err := d.OpenFile(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(f)
	f.Close()
	if string(data) != "bytes" {
		t.Errorf("read %q", data)
	}
	if err := d.PutFile(t.Context(), "fil_bbbbbbbbbbbbbbbb", &failing{n: 1}); err == nil {
		t.Error("a failed upload was kept")
	}
	left, _ := os.ReadDir(filepath.Join(d.Root, "files"))
	if len(left) != 1 {
		t.Errorf("files folder holds %d entries, want only the whole file", len(left))
	}
	for range 2 {
		if err := d.DeleteFile(t.Context(), id); err != nil {
			t.Errorf("delete: %v", err)
		}
	}
	if _, err := d.OpenFile(t.Context(), id); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("deleted file: %v", err)
	}
	for _, bad := range []string{"../fil_aaaaaaaaaaaaaaaa", "fil_../../etc", "run_aaaaaaaaaaaaaaaa", ""} {
		if err := d.PutFile(t.Context(), bad, strings.NewReader("x")); !errors.Is(err, ErrBadName) {
			t.Errorf("PutFile(%q) = %v", bad, err)
		}
		if _, err := d.OpenFile(t.Context(), bad); !errors.Is(err, ErrBadName) {
			t.Errorf("OpenFile(%q) = %v", bad, err)
		}
	}
}
