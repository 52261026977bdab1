package api

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/authoring"
	"github.com/testautomation/ta/protocol"
)

// nextWhere waits for the view's next frame that ok accepts.
func (v *viewStream) nextWhere(t *testing.T, what string, ok func(authoring.FrameEvent) bool) authoring.FrameEvent {
	t.Helper()
	end := time.After(20 * time.Second)
	for {
		select {
		case f := <-v.frames:
			if ok(f) {
				return f
			}
		case <-v.ended:
			t.Fatalf("the view ended before a frame %s came", what)
		case <-end:
			t.Fatalf("no frame %s within 20 s", what)
		}
	}
}

// TestLiveViewAnswersDialogsOnHeadlessAgent: a headless agent's page opens
// a confirm, then a prompt. Nobody can see the browser's dialog, so the
// view's frames carry it; the person answers through the view (taking
// longer than the 3 s a dialog nobody watches waits), and the recording
// has what they answered, before the click that opened them.
func TestLiveViewAnswersDialogsOnHeadlessAgent(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.Tester]
	base := site(t)
	envID := o.owner.do("POST", "/api/environments", obj{"name": "Local", "variables": obj{"baseUrl": base}},
		ProjectHeader, o.project).want(t, 201).str("id")
	port := startDebugAgent(t, h, c)

	id := startRecording(t, c, o.project, obj{"url": "/dialogs.html", "environmentId": envID})
	page := recordingPage(t, port, "/dialogs.html")
	page.MustEval(`() => { const b = document.createElement("button"); b.id = "both"; b.textContent = "Delete all";
		b.onclick = () => { if (confirm("Delete 3 items?")) out("deleted by " + prompt("Your name?", "nobody")); };
		document.body.prepend(b); }`)

	v := openView(t, c, id)
	f := v.next(t)
	if f.Dialog != nil {
		t.Fatalf("a dialog before any opened: %+v", f.Dialog)
	}
	input := func(body obj) { c.do("POST", "/api/sessions/"+id+"/input", body).want(t, 204) }
	input(at(t, page, "#both", f))

	d := v.nextWhere(t, "with the confirm", func(f authoring.FrameEvent) bool { return f.Dialog != nil }).Dialog
	if *d != (protocol.ViewDialog{Type: "confirm", Message: "Delete 3 items?"}) {
		t.Fatalf("dialog %+v", d)
	}
	// A watched dialog waits for its answer (a dialog nobody watches is
	// dismissed after 3 s).
	time.Sleep(4 * time.Second)
	input(obj{"kind": "dialog", "accept": true})
	d = v.nextWhere(t, "with the prompt", func(f authoring.FrameEvent) bool { return f.Dialog != nil && f.Dialog.Type == "prompt" }).Dialog
	if *d != (protocol.ViewDialog{Type: "prompt", Message: "Your name?", DefaultPrompt: "nobody"}) {
		t.Fatalf("dialog %+v", d)
	}
	input(obj{"kind": "dialog", "accept": true, "text": "Ann"})
	v.nextWhere(t, "without a dialog", func(f authoring.FrameEvent) bool { return f.Dialog == nil })
	page.MustElementR("#out", "deleted by Ann")

	var steps []any
	waitFor(t, func() bool {
		steps = c.do("GET", "/api/record/"+id, nil).want(t, 200).json()["steps"].([]any)
		return len(steps) >= 4
	})
	got := []string{}
	for _, s := range steps {
		m := s.(map[string]any)
		got = append(got, fmt.Sprintf("%v:%v:%v:%v", m["type"], m["action"], m["text"], m["expected"]))
	}
	want := "navigate:<nil>:<nil>:<nil>,dialog:accept:<nil>:Delete 3 items?,dialog:accept:Ann:Your name?,click:<nil>:<nil>:<nil>"
	if strings.Join(got, ",") != want {
		t.Errorf("recorded %s\nwant     %s", strings.Join(got, ","), want)
	}
}

// TestSessionViewRelaysDialog: the dialog a frame carries reaches the
// watchers (one of an unknown type is dropped), and a dialog's answer needs
// no frame and reaches the agent with what was answered.
func TestSessionViewRelaysDialog(t *testing.T) {
	w := newAuthorWorld(t)
	owner := w.o.owner
	id := w.p(owner, "POST", "/api/record/start", obj{"url": "https://example.com/"}).want(t, 201).str("id")
	a := w.agent
	a.expect(protocol.MsgAuthorStart)
	a.status(id, protocol.SessionRecording, "https://example.com/", "")

	// Answering needs no picture: the coordinates are not used.
	owner.do("POST", "/api/sessions/"+id+"/input", obj{"kind": "dialog", "accept": true, "text": "Ann"}).want(t, 204)
	if in := a.expect(protocol.MsgAuthorInput); in.Input.Kind != "dialog" || !in.Input.Accept || in.Input.Text != "Ann" {
		t.Fatalf("answer relayed: %+v", in.Input)
	}
	owner.do("POST", "/api/sessions/"+id+"/input", obj{"kind": "dialog"}).want(t, 204)
	if in := a.expect(protocol.MsgAuthorInput); in.Input.Kind != "dialog" || in.Input.Accept || in.Input.Text != "" {
		t.Fatalf("cancel relayed: %+v", in.Input)
	}

	v := openView(t, owner, id)
	a.expect(protocol.MsgAuthorView)
	frame := func(d *protocol.ViewDialog) {
		a.send(protocol.Message{Type: protocol.MsgAuthorFrame, Session: id,
			Frame: &protocol.ViewFrame{Data: tinyJPEG, Width: 640, Height: 400, PageWidth: 1280, PageHeight: 800, Dialog: d}})
	}
	frame(&protocol.ViewDialog{Type: "popup", Message: "not a dialog type"})
	frame(&protocol.ViewDialog{Type: "prompt", Message: "Your name?", DefaultPrompt: "nobody"})
	f := v.next(t)
	if f.Dialog == nil || *f.Dialog != (protocol.ViewDialog{Type: "prompt", Message: "Your name?", DefaultPrompt: "nobody"}) || f.Seq != 1 {
		t.Fatalf("frame %d with dialog %+v", f.Seq, f.Dialog)
	}
	frame(nil)
	if f := v.next(t); f.Dialog != nil {
		t.Fatalf("a closed dialog still shown: %+v", f.Dialog)
	}
}
