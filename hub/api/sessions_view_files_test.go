package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/authoring"
	"github.com/testautomation/ta/protocol"
)

// TestLiveViewChoosesFilesOnHeadlessAgent: on a headless agent's page a
// click on the "Attachment" file input opens a file chooser nobody can
// see. The view's frames carry it; the person answers with a project
// file, the page receives it and the recording has an upload of that
// file, with nothing offered (the project still holds one file). A
// cancelled choice records nothing.
func TestLiveViewChoosesFilesOnHeadlessAgent(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.Tester]
	base := site(t)
	envID := o.owner.do("POST", "/api/environments", obj{"name": "Local", "variables": obj{"baseUrl": base}},
		ProjectHeader, o.project).want(t, 201).str("id")
	fileID := c.upload(o.project, "report.txt", []byte("quarterly report")).want(t, 201).str("id")
	port := freePort(t)
	_, codes := startAgentProcess(t, h.srv.URL, t.TempDir(), "--remote-debugging-port", fmt.Sprint(port))
	select {
	case code := <-codes:
		c.do("POST", "/api/agent/pair/"+code, nil).want(t, 201)
	case <-time.After(30 * time.Second):
		t.Fatal("the agent printed no pairing code")
	}
	waitFor(t, func() bool { return c.do("GET", "/api/agent", nil).json()["needed"] == false })

	id := startRecording(t, c, o.project, obj{"url": "/upload.html", "environmentId": envID})
	page := recordingPage(t, port, "/upload.html")
	v := openView(t, c, id)
	f := v.next(t)
	if f.FileChooser != nil {
		t.Fatalf("a file choice before any was asked for: %+v", f.FileChooser)
	}
	input := func(body obj) { c.do("POST", "/api/sessions/"+id+"/input", body).want(t, 204) }

	// Cancelled: the page gets nothing, nothing is recorded.
	input(at(t, page, "label.button", f))
	fc := v.nextWhere(t, "with the file choice", func(f authoring.FrameEvent) bool { return f.FileChooser != nil }).FileChooser
	if fc.Multiple {
		t.Fatalf("a single file input's choice says multiple")
	}
	input(obj{"kind": "files", "files": []string{}})
	f = v.nextWhere(t, "without the file choice", func(f authoring.FrameEvent) bool { return f.FileChooser == nil })

	// Chosen: the page gets the project file.
	input(at(t, page, "label.button", f))
	v.nextWhere(t, "with the file choice again", func(f authoring.FrameEvent) bool { return f.FileChooser != nil })
	input(obj{"kind": "files", "files": []string{fileID}})
	v.nextWhere(t, "without the file choice", func(f authoring.FrameEvent) bool { return f.FileChooser == nil })
	page.Timeout(20*time.Second).MustElementR("#chosen", "report.txt:16")
	page.MustElementR("#content", "quarterly report")

	var uploads []protocol.Step
	waitFor(t, func() bool {
		raw, _ := json.Marshal(c.do("GET", "/api/record/"+id, nil).want(t, 200).json()["steps"])
		var steps []protocol.Step
		_ = json.Unmarshal(raw, &steps)
		uploads = uploads[:0]
		for _, st := range steps {
			if st.Type == "upload" {
				uploads = append(uploads, st)
			}
		}
		return len(uploads) > 0
	})
	time.Sleep(time.Second) // a second upload (the cancelled choice) would come by now
	if len(uploads) != 1 || strings.Join(uploads[0].Files, ",") != fileID || !hasLocator(uploads[0].Target, "Attachment") {
		t.Fatalf("uploads recorded: %+v", uploads)
	}
	if n := len(c.projectDo(o.project, "GET", "/api/files", nil).want(t, 200).json()["files"].([]any)); n != 1 {
		t.Errorf("the project holds %d files: the chosen file was offered again", n)
	}
}

// hasLocator reports whether a target has a locator whose value holds s.
func hasLocator(t *protocol.Target, s string) bool {
	if t == nil {
		return false
	}
	for _, l := range t.Locators {
		if strings.Contains(l.Value, s) {
			return true
		}
	}
	return false
}

// TestSessionViewFileChooser: the file choice a frame carries reaches the
// watchers; an answer needs one shown, names files of the session's
// project only (another project's is unknown, as a missing one, and
// nothing is relayed), and one file for a single choice. The files
// answered are then granted to the session: its agent may fetch them for
// it (no other file, and none once the session ended).
func TestSessionViewFileChooser(t *testing.T) {
	w := newAuthorWorld(t)
	owner := w.o.owner
	other := w.h.org(t)
	mine := owner.upload(w.o.project, "report.txt", []byte("mine")).want(t, 201).str("id")
	second := owner.upload(w.o.project, "second.txt", []byte("second")).want(t, 201).str("id")
	theirs := other.owner.upload(other.project, "secret.txt", []byte("theirs")).want(t, 201).str("id")
	id := w.p(owner, "POST", "/api/record/start", obj{"url": "https://example.com/"}).want(t, 201).str("id")
	a := w.agent
	a.expect(protocol.MsgAuthorStart)
	a.status(id, protocol.SessionRecording, "https://example.com/", "")
	fetch := func(file string) int {
		st, _ := agentGet(t, w.h, "/api/agent/files/"+file+"?session="+id, "Agent "+a.token)
		return st
	}
	send := func(body obj) response { return owner.do("POST", "/api/sessions/"+id+"/input", body) }

	// No choice shown yet.
	if r := send(obj{"kind": "files", "files": []string{mine}}).want(t, 422); !strings.Contains(string(r.body), "asks for no file") {
		t.Errorf("no choice shown: %s", r.body)
	}
	v := openView(t, owner, id)
	a.expect(protocol.MsgAuthorView)
	a.send(protocol.Message{Type: protocol.MsgAuthorFrame, Session: id, Frame: &protocol.ViewFrame{Data: tinyJPEG, Width: 640, Height: 400,
		PageWidth: 1280, PageHeight: 800, FileChooser: &protocol.ViewFileChooser{}}})
	if f := v.next(t); f.FileChooser == nil || f.FileChooser.Multiple {
		t.Fatalf("file choice relayed: %+v", f.FileChooser)
	}
	if fetch(mine) != 404 {
		t.Fatal("the agent read a file nobody chose")
	}
	for _, c := range []struct {
		files []string
		path  string
	}{
		{[]string{theirs}, "files[0]"},
		{[]string{mine, "fil_aaaaaaaaaaaaaaaaaaaa"}, "files[1]"},
		{[]string{mine, second}, "files"}, // a single choice
		{[]string{"../../etc/passwd"}, "files[0]"},
	} {
		r := send(obj{"kind": "files", "files": c.files}).want(t, 422)
		if !strings.Contains(string(r.body), `"path":"`+c.path+`"`) || strings.Contains(string(r.body), "secret.txt") {
			t.Errorf("%v: %s", c.files, r.body)
		}
	}
	if fetch(theirs) != 404 || fetch(mine) != 404 {
		t.Fatal("a refused choice granted a file")
	}
	send(obj{"kind": "files", "files": []string{mine}}).want(t, 204)
	// The refused answers were not relayed: this one comes first.
	if in := a.expect(protocol.MsgAuthorInput); in.Input.Kind != "files" || strings.Join(in.Input.Files, ",") != mine {
		t.Fatalf("answer relayed: %+v", in.Input)
	}
	st, body := agentGet(t, w.h, "/api/agent/files/"+mine+"?session="+id, "Agent "+a.token)
	if st != 200 || !bytes.Equal(body, []byte("mine")) {
		t.Fatalf("granted file: %d %q", st, body)
	}
	if fetch(second) != 404 || fetch(theirs) != 404 {
		t.Fatal("the grant reached files nobody chose")
	}
	send(obj{"kind": "files"}).want(t, 204) // a cancel
	if in := a.expect(protocol.MsgAuthorInput); in.Input.Kind != "files" || len(in.Input.Files) != 0 {
		t.Fatalf("cancel relayed: %+v", in.Input)
	}
	a.status(id, protocol.SessionStopped, "", "")
	waitFor(t, func() bool { return fetch(mine) == 404 })
}
