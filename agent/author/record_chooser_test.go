package author

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

// chooserSink is a hub that fetches project files for a session
// (client.AuthorFileFetcher) from dir, and takes chosen files as an
// offer too (fileSink) so that an offer made would show.
type chooserSink struct {
	*fileSink
	dir string
}

func (c *chooserSink) FetchFile(_ context.Context, _, id string) (string, error) {
	p := filepath.Join(c.dir, id, id+".txt")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return "", err
	}
	return p, os.WriteFile(p, []byte("content of "+id), 0o600)
}

// chooserFrames keeps the file choice of the last frame a view sent.
type chooserFrames struct {
	mu   sync.Mutex
	n    int
	last *protocol.ViewFileChooser
}

func (f *chooserFrames) Frame(_ string, fr protocol.ViewFrame) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	f.last = fr.FileChooser
}

func (f *chooserFrames) shown() (int, *protocol.ViewFileChooser) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n, f.last
}

// TestViewChoosesFiles: through the live view a click on a file input
// shows the page's file choice in the frames (the browser's chooser is
// intercepted); project files answered are fetched for the session, the
// page gets them and the recording has their upload with nothing
// offered. A cancelled choice records nothing. With the view off, a file
// the person chooses in the page is offered as before.
func TestViewChoosesFiles(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html>
<label>Attachment <input type="file" id="att" multiple onchange="out.textContent = [...this.files].map(f => f.name).join(' + ')"></label>
<p id="out"></p>`})
	out := &chooserSink{fileSink: &fileSink{sink: newSink()}, dir: t.TempDir()}
	sessionMu.Lock()
	sessionN++
	id := fmt.Sprintf("rec_ch%d", sessionN)
	sessionMu.Unlock()
	m := manager(t)
	if err := m.Start(context.Background(), id, protocol.AuthorStart{Kind: protocol.AuthorRecord, URL: srv.URL + "/"}, out); err != nil {
		t.Fatal(err)
	}
	defer m.Stop(id) //nolint:errcheck
	out.waitStatus(t, protocol.SessionRecording)
	s, err := m.session(id)
	if err != nil {
		t.Fatal(err)
	}
	p := s.page().Timeout(20 * time.Second)
	frames := &chooserFrames{}
	if err := m.View(id, true, frames); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the first frame", func() bool { n, _ := frames.shown(); return n > 0 })
	input := func(in protocol.ViewInput) {
		t.Helper()
		if err := m.Input(context.Background(), id, in); err != nil {
			t.Fatal(err)
		}
	}
	x, y := center(t, p, "#att")
	asked := func() {
		t.Helper()
		input(protocol.ViewInput{Kind: protocol.InputClick, X: x, Y: y})
		waitFor(t, "a frame with the file choice", func() bool { _, c := frames.shown(); return c != nil && c.Multiple })
	}

	asked()
	input(protocol.ViewInput{Kind: protocol.InputFiles}) // cancel
	waitFor(t, "a frame without the file choice", func() bool { _, c := frames.shown(); return c == nil })

	asked()
	input(protocol.ViewInput{Kind: protocol.InputFiles, Files: []string{"fil_a", "fil_b"}})
	p.MustElementR("#out", `fil_a\.txt \+ fil_b\.txt`)
	steps := out.waitSteps(t, "navigate,upload")
	if u := steps[1]; strings.Join(u.Files, ",") != "fil_a,fil_b" || !containsLoc(u.Target, "Attachment") {
		t.Errorf("upload of %v on %s", u.Files, qStepsText(steps[1:2]))
	}
	if _, c := frames.shown(); c != nil {
		t.Errorf("the answered choice is still shown: %+v", c)
	}

	// The view off: nothing intercepted, a chosen file is offered.
	if err := m.View(id, false, nil); err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(local, []byte("notes"), 0o600); err != nil {
		t.Fatal(err)
	}
	clickAt(t, p, x, y, 1)
	choose(t, p, "#att", local)
	steps = out.waitSteps(t, "navigate,upload,upload")
	if u := steps[2]; strings.Join(u.Files, ",") != "fil_t1" {
		t.Errorf("offered upload of %v", u.Files)
	}
	out.fmu.Lock()
	defer out.fmu.Unlock()
	if len(out.offered) != 1 || out.offered["notes.txt"] != "notes" {
		t.Errorf("offered %v: only notes.txt was to be", out.offered)
	}
}
