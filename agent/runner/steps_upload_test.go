package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

// fetching is a recorder that also hands out project files, as the
// agent's client does: from a folder, by id.
type fetching struct {
	recorder
	dir     string
	mu      sync.Mutex
	fetched []string
}

func (f *fetching) FetchFile(_ context.Context, id string) (string, error) {
	f.mu.Lock()
	f.fetched = append(f.fetched, id)
	f.mu.Unlock()
	matches, _ := filepath.Glob(filepath.Join(f.dir, id, "*"))
	if len(matches) != 1 {
		return "", fmt.Errorf("the file %s is gone: it was deleted from the project's files", id)
	}
	return matches[0], nil
}

func newFetching(t *testing.T, files map[string][2]string) *fetching {
	dir := t.TempDir()
	for id, f := range files {
		if err := os.MkdirAll(filepath.Join(dir, id), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, id, f[0]), []byte(f[1]), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return &fetching{dir: dir}
}

func uploadStep(t *protocol.Target, files ...string) protocol.Step {
	return protocol.Step{Type: "upload", Target: t, Files: files}
}

func runFetching(t *testing.T, f *fetching, steps ...protocol.Step) protocol.RunResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	doc := protocol.Document{DSL: protocol.DSLVersion, Name: t.Name(), Steps: steps}
	for i := range doc.Steps {
		doc.Steps[i].ID = fmt.Sprintf("s%d", i+1)
	}
	return testBrowser.Run(ctx, protocol.Job{RunID: "run_upload", Version: 1, Document: doc}, f)
}

// TestUploadStep: the files reach the page's file input (hidden behind
// its label, or taking several) as a person choosing them would: the
// page's change handler sees their names, sizes and bytes.
func TestUploadStep(t *testing.T) {
	f := newFetching(t, map[string][2]string{"fil_report": {"report.txt", "hello world"},
		"fil_a": {"a.txt", "a"}, "fil_b": {"b.csv", "x,y"}})
	res := runFetching(t, f, nav("/upload.html"),
		uploadStep(tgt(loc("label", "Attachment")), "fil_report"),
		textIs(css("#chosen"), "equals", "report.txt:11"),
		textIs(css("#content"), "equals", "hello world"),
		uploadStep(tgt(loc("label", "Photos")), "fil_a", "fil_b"),
		textIs(css("#many-chosen"), "equals", "a.txt:1,b.csv:3"))
	mustPass(t, res)
	if res.Steps[1].Box == nil {
		t.Errorf("the upload step has no box to explain it")
	}
}

// TestUploadStepFails: a target that is not a file input, more files than
// the input takes, a file the hub no longer has, a disabled input, an
// agent that cannot fetch files and an id that is a path each fail the
// step saying why; a path is never fetched.
func TestUploadStepFails(t *testing.T) {
	files := map[string][2]string{"fil_a": {"a.txt", "a"}, "fil_b": {"b.txt", "b"}}
	for _, c := range []struct {
		name string
		step protocol.Step
		want string
	}{
		{"not a file input", uploadStep(css("#title"), "fil_a"), "the target is <input type=text>, not a file input"},
		{"not an input", uploadStep(css("#chosen"), "fil_a"), "the target is <p>, not a file input"},
		{"two files for one", uploadStep(css("#single"), "fil_a", "fil_b"), "takes one file"},
		{"a deleted file", uploadStep(css("#single"), "fil_gone"), "the file fil_gone is gone"},
		{"disabled", short(uploadStep(css("#locked"), "fil_a"), 500), "the element is not enabled"},
		{"a path", uploadStep(css("#single"), "/etc/passwd"), `"/etc/passwd" is not a project file id`},
		{"a relative path", uploadStep(css("#single"), "fil_a/../../etc"), "is not a project file id"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFetching(t, files)
			start := time.Now()
			res := runFetching(t, f, nav("/upload.html"), c.step)
			if res.Status != protocol.RunFailed || len(res.Steps) < 2 || !strings.Contains(res.Steps[1].Error, c.want) {
				t.Fatalf("status %s, steps %+v; want the upload to fail with %q", res.Status, res.Steps, c.want)
			}
			if took := time.Since(start); took > 4*time.Second {
				t.Errorf("took %s: a permanent failure should not wait", took)
			}
			for _, id := range f.fetched {
				if strings.ContainsAny(id, "/.") {
					t.Errorf("fetched %q", id)
				}
			}
		})
	}
	// A caller that cannot fetch files.
	res, _ := runSteps(t, nav("/upload.html"), uploadStep(css("#single"), "fil_a"))
	if res.Status != protocol.RunFailed || !strings.Contains(res.Steps[1].Error, "cannot fetch project files") {
		t.Errorf("without a fetcher: %s %+v", res.Status, res.Steps)
	}
}
