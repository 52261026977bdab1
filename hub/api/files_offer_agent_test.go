package api

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/hub/access"
)

// TestRecordedUploadThroughAgent: a file a person chooses in a page the
// real agent records is offered to the person; accepted, it becomes a
// project file and the recording holds an upload step naming it;
// declined, no step and no file.
func TestRecordedUploadThroughAgent(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.Tester]
	base := site(t)
	dir := t.TempDir()
	for name, body := range map[string]string{"report.pdf": "%PDF-1.4 report", "notes.txt": "notes"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	port := startDebugAgent(t, h, c)

	id := startRecording(t, c, o.project, obj{"url": base + "/upload.html"})
	page := recordingPage(t, port, "/upload.html")
	choose := func(sel, path string) {
		el := page.MustElement(sel)
		if err := (proto.DOMSetFileInputFiles{Files: []string{path}, ObjectID: el.Object.ObjectID}).Call(page); err != nil {
			t.Fatal(err)
		}
	}
	uploads := func() []map[string]any {
		var out []map[string]any
		for _, s := range c.do("GET", "/api/record/"+id, nil).want(t, 200).json()["steps"].([]any) {
			if st := s.(map[string]any); st["type"] == "upload" {
				out = append(out, st)
			}
		}
		return out
	}

	choose("#single", filepath.Join(dir, "report.pdf"))
	page.MustElementR("#chosen", "report.pdf:15")
	off := waitOffer(t, c, id)
	if off["name"] != "report.pdf" || off["size"] != float64(15) {
		t.Fatalf("offered %v", off)
	}
	f := c.do("POST", "/api/sessions/"+id+"/files/"+off["offerId"].(string), obj{"accept": true}).want(t, 201).json()
	fileID := f["id"].(string)
	waitFor(t, func() bool { return len(uploads()) == 1 })
	if u := uploads()[0]; fmt.Sprint(u["files"]) != "["+fileID+"]" || !strings.Contains(fmt.Sprint(u["target"]), "single") {
		t.Errorf("recorded upload %v, want files [%s] on #single", u, fileID)
	}
	listed := c.do("GET", "/api/files", nil, ProjectHeader, o.project).want(t, 200).json()["files"].([]any)
	if len(listed) != 1 || listed[0].(map[string]any)["id"] != fileID {
		t.Errorf("files %v", listed)
	}

	choose("#many", filepath.Join(dir, "notes.txt"))
	page.MustElementR("#many-chosen", "notes.txt:5")
	off = waitOffer(t, c, id)
	c.do("POST", "/api/sessions/"+id+"/files/"+off["offerId"].(string), obj{"accept": false}).want(t, 204)
	page.MustElement("#title").MustClick().MustInput("after")
	waitFor(t, func() bool {
		for _, s := range c.do("GET", "/api/record/"+id, nil).want(t, 200).json()["steps"].([]any) {
			if s.(map[string]any)["type"] == "fill" {
				return true
			}
		}
		return false
	})
	if u := uploads(); len(u) != 1 {
		t.Errorf("a declined file was recorded: %v", u)
	}
	if n := len(c.do("GET", "/api/files", nil, ProjectHeader, o.project).want(t, 200).json()["files"].([]any)); n != 1 {
		t.Errorf("%d files after a declined one", n)
	}
	r := c.do("POST", "/api/record/"+id+"/stop", nil).want(t, 200)
	t.Logf("recorded: %s", r.body)
}
