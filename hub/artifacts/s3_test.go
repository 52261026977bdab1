package artifacts_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/objtest"
)

func newS3(t *testing.T, b objtest.Bucket, prefix string) *artifacts.S3 {
	t.Helper()
	s, err := artifacts.NewS3(artifacts.S3Config{Endpoint: b.Endpoint, Bucket: b.Bucket, AccessKey: b.AccessKey,
		SecretKey: b.SecretKey, Region: b.Region, Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(t.Context()); err != nil {
		t.Fatal(err)
	}
	return s
}

// The S3 backend is everything Dir is to the hub.
var (
	_ artifacts.Store      = (*artifacts.S3)(nil)
	_ artifacts.Files      = (*artifacts.S3)(nil)
	_ artifacts.RunRemover = (*artifacts.S3)(nil)
	_ artifacts.Presigner  = artifacts.Presigning{}
	_ artifacts.RunRemover = artifacts.Presigning{}
)

// TestS3 is TestDir and TestFiles on a bucket: put, read back with ranges,
// a missing object is os.ErrNotExist (the API's 404), a bad name never
// becomes a key, and deleting a run removes its objects and no other's.
func TestS3(t *testing.T) {
	b := objtest.Fake(t)
	s := newS3(t, b, "ta/")
	run, other := "run_aaaaaaaaaaaaaaaa", "run_bbbbbbbbbbbbbbbb"
	for _, r := range []string{run, other} {
		for _, name := range []string{"step-001-s1.png", "trace-001-s1.json"} {
			if err := s.Put(t.Context(), r, name, []byte("0123456789-"+r)); err != nil {
				t.Fatal(err)
			}
		}
	}
	f, err := s.Open(t.Context(), run, "step-001-s1.png")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := f.Seek(0, io.SeekEnd); err != nil || n != int64(len("0123456789-"+run)) {
		t.Errorf("size by seeking to the end = %d, %v", n, err)
	}
	if _, err := f.Seek(3, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	part := make([]byte, 4)
	if _, err := io.ReadFull(f, part); err != nil || string(part) != "3456" {
		t.Errorf("range read %q, %v", part, err)
	}
	f.Close()
	if _, err := s.Open(t.Context(), run, "missing.png"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing artifact: %v", err)
	}
	for _, bad := range [][2]string{{run, "../x"}, {run, ".hidden"}, {run, "a/b"}, {"../run", "x"}, {run, ""}, {"fil_aaaaaaaaaaaaaaaa", "x"}} {
		if err := s.Put(t.Context(), bad[0], bad[1], nil); !errors.Is(err, artifacts.ErrBadName) {
			t.Errorf("Put(%q, %q) = %v, want ErrBadName", bad[0], bad[1], err)
		}
		if _, err := s.Open(t.Context(), bad[0], bad[1]); !errors.Is(err, artifacts.ErrBadName) {
			t.Errorf("Open(%q, %q) = %v, want ErrBadName", bad[0], bad[1], err)
		}
	}
	if err := s.DeleteRun(t.Context(), "../"+run); !errors.Is(err, artifacts.ErrBadName) {
		t.Errorf("DeleteRun of a bad id = %v", err)
	}
	// The keys are where docs/object-storage.md says.
	if size, found, err := s.ObjectSize(t.Context(), "ta/runs/"+run+"/trace-001-s1.json"); err != nil || !found || size != int64(len("0123456789-"+run)) {
		t.Errorf("ta/runs/<run>/<name>: %d %v %v", size, found, err)
	}
	for range 2 { // again: a run without objects is no error
		if err := s.DeleteRun(t.Context(), run); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Open(t.Context(), run, "trace-001-s1.json"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a deleted run's artifact: %v", err)
	}
	if f, err := s.Open(t.Context(), other, "trace-001-s1.json"); err != nil {
		t.Errorf("another run's artifact went too: %v", err)
	} else {
		f.Close()
	}
}

// failing reads some bytes, then fails: an upload cut short.
type failing struct{ n int }

func (f *failing) Read(p []byte) (int, error) {
	if f.n > 0 {
		f.n = 0
		return copy(p, "partial"), nil
	}
	return 0, errors.New("the client went away")
}

// TestS3Files: a project file is kept whole or not at all, read back,
// deleted (twice is fine); a name that is not a file id never becomes a key.
func TestS3Files(t *testing.T) {
	s := newS3(t, objtest.Fake(t), "")
	id := "fil_aaaaaaaaaaaaaaaa"
	if err := s.PutFile(t.Context(), id, strings.NewReader("bytes")); err != nil {
		t.Fatal(err)
	}
	f, err := s.OpenFile(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(f)
	f.Close()
	if string(data) != "bytes" {
		t.Errorf("read %q", data)
	}
	if err := s.PutFile(t.Context(), "fil_bbbbbbbbbbbbbbbb", &failing{n: 1}); err == nil {
		t.Error("a failed upload was kept")
	}
	if _, err := s.OpenFile(t.Context(), "fil_bbbbbbbbbbbbbbbb"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed upload left an object: %v", err)
	}
	for range 2 {
		if err := s.DeleteFile(t.Context(), id); err != nil {
			t.Errorf("delete: %v", err)
		}
	}
	if _, err := s.OpenFile(t.Context(), id); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("deleted file: %v", err)
	}
	for _, bad := range []string{"../fil_aaaaaaaaaaaaaaaa", "fil_../../etc", "run_aaaaaaaaaaaaaaaa", ""} {
		if err := s.PutFile(t.Context(), bad, strings.NewReader("x")); !errors.Is(err, artifacts.ErrBadName) {
			t.Errorf("PutFile(%q) = %v", bad, err)
		}
		if _, err := s.OpenFile(t.Context(), bad); !errors.Is(err, artifacts.ErrBadName) {
			t.Errorf("OpenFile(%q) = %v", bad, err)
		}
	}
}

// pattern is size bytes of a repeating pattern, made as it is read, and
// it notes how far its reads ran ahead of what the server had received.
type pattern struct {
	off, size int64
	received  *atomic.Int64
	ahead     int64
}

func (p *pattern) Read(b []byte) (int, error) {
	if p.off >= p.size {
		return 0, io.EOF
	}
	b = b[:min(int64(len(b)), p.size-p.off)]
	for i := range b {
		b[i] = byte((p.off + int64(i)) % 251)
	}
	p.off += int64(len(b))
	p.ahead = max(p.ahead, p.off-p.received.Load())
	return len(b), nil
}

// TestS3PutFileStreams: a 64 MiB file goes up a part at a time, never read
// whole before the server has the first bytes, and comes back intact.
func TestS3PutFileStreams(t *testing.T) {
	b := objtest.Fake(t)
	s := newS3(t, b, "")
	const size = 64 << 20
	src := &pattern{size: size, received: b.Received}
	if err := s.PutFile(t.Context(), "fil_cccccccccccccccc", src); err != nil {
		t.Fatal(err)
	}
	// Two parts may be read ahead: the one being sent and the next.
	if src.ahead > 2*artifacts.PartSize+1<<20 {
		t.Errorf("the upload read %d MiB ahead of the server: it was held, not streamed", src.ahead>>20)
	}
	f, err := s.OpenFile(t.Context(), "fil_cccccccccccccccc")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := &pattern{size: size, received: new(atomic.Int64)}
	got, wantBuf := make([]byte, 1<<20), make([]byte, 1<<20)
	for off := 0; off < size; off += len(got) {
		if _, err := io.ReadFull(f, got); err != nil {
			t.Fatalf("at %d: %v", off, err)
		}
		io.ReadFull(want, wantBuf)
		if !bytes.Equal(got, wantBuf) {
			t.Fatalf("bytes differ at %d", off)
		}
	}
}

// TestS3Unreachable: Ping names a bucket that is not there, and a server
// that does not answer.
func TestS3Unreachable(t *testing.T) {
	b := objtest.Fake(t)
	s, _ := artifacts.NewS3(artifacts.S3Config{Endpoint: b.Endpoint, Bucket: "nope", AccessKey: "a", SecretKey: "b", Region: "us-east-1"})
	if err := s.Ping(t.Context()); err == nil || !strings.Contains(err.Error(), `bucket "nope" does not exist`) {
		t.Errorf("missing bucket: %v", err)
	}
	s, _ = artifacts.NewS3(artifacts.S3Config{Endpoint: "http://127.0.0.1:1", Bucket: "ta", AccessKey: "a", SecretKey: "b", Region: "us-east-1"})
	if err := s.Ping(t.Context()); err == nil || !strings.Contains(err.Error(), "does not answer") {
		t.Errorf("no server: %v", err)
	}
	for _, bad := range []string{"s3.example.com", "ftp://x", "https://", "https://host/path"} {
		if _, err := artifacts.NewS3(artifacts.S3Config{Endpoint: bad, Bucket: "ta"}); err == nil {
			t.Errorf("endpoint %q taken", bad)
		}
	}
}
