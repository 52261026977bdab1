package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/objtest"
)

// cancelAfter is a progress writer that cancels the copy once it has
// printed n "copied" lines: an operator's Ctrl-C half way.
type cancelAfter struct {
	n      int
	cancel context.CancelFunc
	buf    bytes.Buffer
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	if bytes.HasPrefix(p, []byte("copied ")) {
		if c.n--; c.n == 0 {
			c.cancel()
		}
	}
	return c.buf.Write(p)
}

// TestMigrateArtifactsResumes: interrupted half way, then run again, every
// artifact and project file is in the bucket once with its bytes; the
// second run copies only what the first did not, and re-copies an object
// cut short; what is not an artifact is left and said.
func TestMigrateArtifactsResumes(t *testing.T) {
	data := t.TempDir()
	dir := artifacts.Dir{Root: filepath.Join(data, "artifacts")}
	want := map[string]string{}
	for r := range 3 {
		run := fmt.Sprintf("run_aaaaaaaaaaaaaaa%d", r+2)
		for i := range 3 {
			name := fmt.Sprintf("step-00%d-s%d.png", i, i)
			content := strings.Repeat(fmt.Sprintf("%d%d", r, i), 100*(i+1))
			if err := dir.Put(t.Context(), run, name, []byte(content)); err != nil {
				t.Fatal(err)
			}
			want["archive/runs/"+run+"/"+name] = content
		}
	}
	if err := dir.PutFile(t.Context(), "fil_aaaaaaaaaaaaaaaa", strings.NewReader("a,b\n1,2\n")); err != nil {
		t.Fatal(err)
	}
	want["archive/files/fil_aaaaaaaaaaaaaaaa"] = "a,b\n1,2\n"
	os.WriteFile(filepath.Join(data, "artifacts", "run_aaaaaaaaaaaaaaa2", "x.png.part"), []byte("half"), 0o600)
	os.WriteFile(filepath.Join(data, "artifacts", "notes.txt"), []byte("mine"), 0o600)

	b := objtest.Fake(t)
	s, err := artifacts.NewS3(artifacts.S3Config{Endpoint: b.Endpoint, Bucket: b.Bucket, AccessKey: b.AccessKey, SecretKey: b.SecretKey,
		Region: b.Region, Prefix: "archive/"})
	if err != nil {
		t.Fatal(err)
	}
	// An earlier copy of one object, cut short: copied again.
	cut := "archive/runs/run_aaaaaaaaaaaaaaa4/step-002-s2.png"
	if err := s.PutObject(t.Context(), cut, strings.NewReader("22"), 2); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(t.Context())
	out := &cancelAfter{n: 4, cancel: cancel}
	sum, err := migrateArtifacts(ctx, dir.Root, s, out)
	if err == nil || !strings.Contains(err.Error(), "run it again") || sum.copied != 4 || sum.failed != 0 {
		t.Fatalf("interrupted: %+v, %v\n%s", sum, err, out.buf.String())
	}
	for _, ignored := range []string{"x.png.part", "notes.txt"} {
		if !strings.Contains(out.buf.String(), "ignored "+filepath.Join(data, "artifacts")) || !strings.Contains(out.buf.String(), ignored+": not an artifact") {
			t.Errorf("%s not reported as ignored:\n%s", ignored, out.buf.String())
		}
	}

	var again bytes.Buffer
	sum, err = migrateArtifacts(t.Context(), dir.Root, s, &again)
	if err != nil || sum.copied != len(want)-4 || sum.skipped != 4 || sum.failed != 0 {
		t.Fatalf("again: %+v, %v\n%s", sum, err, again.String())
	}
	if !strings.Contains(again.String(), "copied "+cut) {
		t.Errorf("the object cut short was not copied again:\n%s", again.String())
	}
	for key, content := range want {
		size, found, err := s.ObjectSize(t.Context(), key)
		if err != nil || !found || size != int64(len(content)) {
			t.Errorf("%s: %d %v %v", key, size, found, err)
		}
	}
	f, err := s.Open(t.Context(), "run_aaaaaaaaaaaaaaa3", "step-001-s1.png")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(f)
	f.Close()
	if string(got) != want["archive/runs/run_aaaaaaaaaaaaaaa3/step-001-s1.png"] {
		t.Errorf("copied bytes differ: %q", got)
	}
	if _, found, _ := s.ObjectSize(t.Context(), "archive/runs/run_aaaaaaaaaaaaaaa2/x.png.part"); found {
		t.Error("a temporary file was copied")
	}
	// A third run has nothing left to do.
	if sum, err := migrateArtifacts(t.Context(), dir.Root, s, io.Discard); err != nil || sum.copied != 0 || sum.skipped != len(want) {
		t.Errorf("third run: %+v, %v", sum, err)
	}
}

// TestMigrateArtifactsCommand: the subcommand reads HUB_S3_*, prints a
// summary, and exits non-zero when a file could not be copied or no bucket
// is named.
func TestMigrateArtifactsCommand(t *testing.T) {
	data := t.TempDir()
	dir := artifacts.Dir{Root: filepath.Join(data, "artifacts")}
	if err := dir.Put(t.Context(), "run_aaaaaaaaaaaaaaaa", "step-001-s1.png", []byte("png")); err != nil {
		t.Fatal(err)
	}
	b := objtest.Fake(t)
	env := map[string]string{"HUB_S3_ENDPOINT": b.Endpoint, "HUB_S3_BUCKET": b.Bucket, "HUB_S3_ACCESS_KEY": b.AccessKey,
		"HUB_S3_SECRET_KEY": b.SecretKey, "HUB_S3_REGION": b.Region}
	getenv := func(k string) string { return env[k] }
	var stdout, stderr bytes.Buffer
	if code := migrateArtifactsMain(t.Context(), []string{"--data", data}, getenv, &stdout, &stderr); code != 0 ||
		!strings.Contains(stdout.String(), "copied 1, skipped 0 (already there), failed 0") {
		t.Errorf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	// A file that cannot be read: the others go on, the exit code says so.
	os.Symlink(filepath.Join(data, "gone"), filepath.Join(dir.Root, "run_aaaaaaaaaaaaaaaa", "broken.png"))
	stdout.Reset()
	if code := migrateArtifactsMain(t.Context(), []string{"--data", data}, getenv, &stdout, &stderr); code != 1 ||
		!strings.Contains(stdout.String(), "failed runs/run_aaaaaaaaaaaaaaaa/broken.png") || !strings.Contains(stdout.String(), "copied 0, skipped 1 (already there), failed 1") {
		t.Errorf("exit %d\n%s", code, stdout.String())
	}
	stderr.Reset()
	if code := migrateArtifactsMain(t.Context(), []string{"--data", data}, func(string) string { return "" }, &stdout, &stderr); code != 2 ||
		!strings.Contains(stderr.String(), "HUB_S3_ENDPOINT") {
		t.Errorf("no bucket: exit %d: %s", code, stderr.String())
	}
}
