package api

import (
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// TestHostileFileChooser sends hostile answers to a live view's file
// choice: another project's file, ids that are paths or junk, too many,
// the wrong types, another project's member; none is relayed to the
// agent or grants a file. The agent then reads no file for a recording
// but those chosen for it: not another recording's, not with junk or
// foreign session ids. No answer is a 5xx (the harness checks) and errors
// have the standard body.
func TestHostileFileChooser(t *testing.T) {
	w := newAuthorWorld(t)
	owner := w.o.owner
	other := w.h.org(t)
	mine := owner.upload(w.o.project, "report.txt", []byte("mine")).want(t, 201).str("id")
	theirs := other.owner.upload(other.project, "secret.txt", []byte("theirs")).want(t, 201).str("id")
	id := w.p(owner, "POST", "/api/record/start", obj{"url": "https://example.com/"}).want(t, 201).str("id")
	a := w.agent
	a.expect(protocol.MsgAuthorStart)
	a.status(id, protocol.SessionRecording, "https://example.com/", "")
	v := openView(t, owner, id)
	a.expect(protocol.MsgAuthorView)
	a.send(protocol.Message{Type: protocol.MsgAuthorFrame, Session: id, Frame: &protocol.ViewFrame{Data: tinyJPEG, Width: 640, Height: 400,
		PageWidth: 1280, PageHeight: 800, FileChooser: &protocol.ViewFileChooser{Multiple: true}}})
	v.next(t)

	many := make([]any, protocol.MaxInputFiles+1)
	for i := range many {
		many[i] = mine
	}
	for _, body := range []any{
		obj{"kind": "files", "files": []any{theirs}},
		obj{"kind": "files", "files": []any{mine, theirs}},
		obj{"kind": "files", "files": []any{"../../../etc/passwd"}},
		obj{"kind": "files", "files": []any{"/etc/passwd"}},
		obj{"kind": "files", "files": []any{"fil_" + strings.Repeat("a", 5000)}},
		obj{"kind": "files", "files": []any{"fil_aaaa\x00aaaaaaaaaaaaa"}},
		obj{"kind": "files", "files": []any{strings.ToUpper(mine)}},
		obj{"kind": "files", "files": many},
		obj{"kind": "dialog", "files": []any{mine}},
	} {
		if r := owner.do("POST", "/api/sessions/"+id+"/input", body); r.status != 422 || strings.Contains(string(r.body), "secret.txt") {
			t.Errorf("%.80v: %d %s", body, r.status, r.body)
		}
	}
	for _, body := range []string{`{"kind":"files","files":"fil_x"}`, `{"kind":"files","files":[5]}`, `{"kind":"files","files":{"0":"x"}}`} {
		if r := owner.do("POST", "/api/sessions/"+id+"/input", body); r.status != 400 && r.status != 422 {
			t.Errorf("%s: %d %s", body, r.status, r.body)
		}
	}
	// Another project's members do not find the session at all.
	other.owner.do("POST", "/api/sessions/"+id+"/input", obj{"kind": "files", "files": []any{theirs}}).want(t, 404)
	other.owner.do("POST", "/api/sessions/"+id+"/input", obj{"kind": "files", "files": []any{theirs}}, ProjectHeader, other.project).want(t, 404)
	// Nothing of that was relayed, nor granted.
	for _, f := range []string{mine, theirs} {
		if st, _ := agentGet(t, w.h, "/api/agent/files/"+f+"?session="+id, "Agent "+a.token); st != 404 {
			t.Errorf("agent read %s for the recording unchosen: %d", f, st)
		}
	}
	owner.do("POST", "/api/sessions/"+id+"/input", obj{"kind": "files", "files": []any{mine}}).want(t, 204)
	if in := a.expect(protocol.MsgAuthorInput); strings.Join(in.Input.Files, ",") != mine {
		t.Fatalf("relayed first: %+v", in.Input)
	}
	// The grant is the recording's, for its own agent only.
	_, token := pairAgent(t, w.h, w.o.ids[access.Tester], "HST-CHS")
	if st, _ := agentGet(t, w.h, "/api/agent/files/"+mine+"?session="+id, "Agent "+token); st != 404 {
		t.Errorf("another agent read the recording's file: %d", st)
	}
	for _, q := range []string{"?session=rec_aaaaaaaaaaaaaaaa", "?session=pck_aaaaaaaaaaaaaaaa", "?session=" + strings.ToUpper(id),
		"?session=" + id + "%00", "?session=" + id + "&run=run_aaaaaaaaaaaaaaaa", "?run=" + id} {
		if st, _ := agentGet(t, w.h, "/api/agent/files/"+mine+q, "Agent "+a.token); st != 404 {
			t.Errorf("%.60q: %d", q, st)
		}
	}
	if st, _ := agentGet(t, w.h, "/api/agent/files/"+theirs+"?session="+id, "Agent "+a.token); st != 404 {
		t.Errorf("agent read another project's file: %d", st)
	}
}
