package author

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// fileSink is a sink whose hub takes chosen files as project files
// (client.AuthorFiles), or, with refuse, one whose person declines.
type fileSink struct {
	*sink
	refuse  bool
	fmu     sync.Mutex
	offered map[string]string // name: content
}

func (f *fileSink) OfferFile(_ context.Context, _, name string, data []byte) (string, error) {
	f.fmu.Lock()
	defer f.fmu.Unlock()
	if f.refuse {
		return "", errors.New("the person declined")
	}
	if f.offered == nil {
		f.offered = map[string]string{}
	}
	f.offered[name] = string(data)
	return fmt.Sprintf("fil_t%d", len(f.offered)), nil
}

// TestRecordUpload: files chosen in an <input type=file> are offered to
// the hub as project files, and the choice is one upload step of the ids
// it answered (no click on the input, which would open the file chooser
// on replay); when the files are declined, no step is recorded, and
// never an upload without files.
func TestRecordUpload(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"report.pdf": "%PDF-1.4 report", "notes.txt": "notes"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	srv := site(t, map[string]string{"/": `<!doctype html>
<label>Attachment <input type="file" id="att" multiple onchange="out.textContent = [...this.files].map(f => f.name).join(' + ')"></label>
<button id="send" onclick="out.textContent += ' sent'">Send</button><p id="out"></p>`})
	for _, refuse := range []bool{false, true} {
		out := &fileSink{sink: newSink(), refuse: refuse}
		sessionMu.Lock()
		sessionN++
		id := fmt.Sprintf("rec_up%d", sessionN)
		sessionMu.Unlock()
		if err := manager(t).Start(context.Background(), id, protocol.AuthorStart{Kind: protocol.AuthorRecord, URL: srv.URL + "/"}, out); err != nil {
			t.Fatal(err)
		}
		out.waitStatus(t, protocol.SessionRecording)
		s, err := testManager.session(id)
		if err != nil {
			t.Fatal(err)
		}
		p := s.page().Timeout(20 * time.Second)
		x, y := center(t, p, "#att")
		clickAt(t, p, x, y, 1) // the person opens the file chooser
		choose(t, p, "#att", filepath.Join(dir, "report.pdf"), filepath.Join(dir, "notes.txt"))
		p.MustElementR("#out", "report.pdf \\+ notes.txt")
		sx, sy := center(t, p, "#send")
		clickAt(t, p, sx, sy, 1)
		if refuse {
			out.waitSteps(t, "navigate,click")
			time.Sleep(300 * time.Millisecond)
			if got := types(out.recorded()); got != "navigate,click" {
				t.Errorf("declined files: recorded %s", got)
			}
		} else {
			steps := out.waitSteps(t, "navigate,upload,click")
			u := steps[1]
			if len(u.Files) != 2 || u.Files[0] != "fil_t1" || u.Files[1] != "fil_t2" || !containsLoc(u.Target, "att") {
				t.Errorf("upload %+v on %s", u.Files, qStepsText(steps[1:2]))
			}
			out.fmu.Lock()
			if out.offered["report.pdf"] != "%PDF-1.4 report" || out.offered["notes.txt"] != "notes" {
				t.Errorf("offered %v", out.offered)
			}
			out.fmu.Unlock()
			doc := protocol.Document{DSL: protocol.DSLVersion, Name: "recorded", Steps: steps}
			if issues := doc.Validate(); len(issues) > 0 {
				t.Errorf("the recording is no valid document: %+v", issues)
			}
		}
		if err := testManager.Stop(id); err != nil {
			t.Fatal(err)
		}
	}
}

// choose sets the files of the file input sel as the file chooser does
// when a person picks them (trusted input and change events).
func choose(t *testing.T, p *rod.Page, sel string, paths ...string) {
	t.Helper()
	el := p.MustElement(sel)
	if err := (proto.DOMSetFileInputFiles{Files: paths, ObjectID: el.Object.ObjectID}).Call(p); err != nil {
		t.Fatal(err)
	}
}
