package artifacts

import (
	"errors"
	"io"
	"os"
	"testing"
)

func TestDir(t *testing.T) {
	d := Dir{Root: t.TempDir()}
	run := "run_aaaaaaaaaaaaaaaa"
	if err := d.Put(t.Context(), run, "step-001-s1.png", []byte("png")); err != nil {
		t.Fatal(err)
	}
	f, err := d.Open(t.Context(), run, "step-001-s1.png")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(f)
	f.Close()
	if string(data) != "png" {
		t.Fatalf("read %q", data)
	}
	if _, err := d.Open(t.Context(), run, "missing.png"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing artifact: %v", err)
	}
	for _, bad := range [][2]string{{run, "../x"}, {run, ".hidden"}, {run, "a/b"}, {"../run", "x"}, {run, ""}} {
		if err := d.Put(t.Context(), bad[0], bad[1], nil); !errors.Is(err, ErrBadName) {
			t.Errorf("Put(%q, %q) = %v, want ErrBadName", bad[0], bad[1], err)
		}
	}
}
