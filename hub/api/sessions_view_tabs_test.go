package api

import (
	"strings"
	"testing"

	"github.com/testautomation/ta/protocol"
)

// TestSessionViewRelaysTabsAndDrags: a frame's tabs reach the watchers
// cleaned, masked and cut (a frame listing too many is dropped); a drag is
// relayed with both points; a tab input waits for the agent's answer: done
// is 204, an error (the tab closed meanwhile) a 409 with the agent's
// reason. Bad drag and tab inputs are 422 naming the field, and reach
// nothing.
func TestSessionViewRelaysTabsAndDrags(t *testing.T) {
	w := newAuthorWorld(t)
	owner := w.o.owner
	id := w.p(owner, "POST", "/api/record/start", obj{"url": "/", "environmentId": w.env}).want(t, 201).str("id")
	a := w.agent
	a.expect(protocol.MsgAuthorStart)
	a.status(id, protocol.SessionRecording, "https://shop.example.com/", "")
	v := openView(t, owner, id)
	a.expect(protocol.MsgAuthorView)
	frame := func(tabs []protocol.ViewTab) {
		a.send(protocol.Message{Type: protocol.MsgAuthorFrame, Session: id,
			Frame: &protocol.ViewFrame{Data: tinyJPEG, Width: 640, Height: 400, PageWidth: 1280, PageHeight: 800, Tabs: tabs}})
	}
	frame(make([]protocol.ViewTab, protocol.MaxViewTabs+1))
	frame([]protocol.ViewTab{{Title: "Shop", URL: "https://shop.example.com/"},
		{Title: "Token " + authorSecret + "\x00" + strings.Repeat("x", 300), URL: "https://shop.example.com/?t=" + authorSecret, Current: true}})
	f := v.next(t)
	if f.Seq != 1 || len(f.Tabs) != 2 || f.Tabs[0] != (protocol.ViewTab{Title: "Shop", URL: "https://shop.example.com/"}) || !f.Tabs[1].Current {
		t.Fatalf("frame %d with tabs %+v", f.Seq, f.Tabs)
	}
	if tb := f.Tabs[1]; strings.Contains(tb.Title+tb.URL, authorSecret) || strings.Contains(tb.Title, "\x00") ||
		len([]rune(tb.Title)) > protocol.MaxTabTitle || !strings.HasPrefix(tb.Title, "Token ***") {
		t.Errorf("second tab %+v", tb)
	}

	path := "/api/sessions/" + id + "/input"
	for _, c := range []struct {
		body  obj
		field string
	}{
		{obj{"kind": "drag", "x": 10, "y": 10}, "toX"},
		{obj{"kind": "drag", "x": 10, "y": 10, "toX": 641, "toY": 10}, "toX"},
		{obj{"kind": "drag", "x": 10, "y": 10, "toX": 10, "toY": -5}, "toY"},
		{obj{"kind": "drag", "x": 700, "y": 10, "toX": 10, "toY": 10}, "x"},
		{obj{"kind": "tab"}, "index"},
		{obj{"kind": "tab", "index": -1}, "index"},
		{obj{"kind": "closeTab", "index": protocol.MaxViewTabs}, "index"},
	} {
		r := owner.do("POST", path, c.body).want(t, 422)
		issues, _ := r.json()["issues"].([]any)
		if len(issues) == 0 || issues[0].(map[string]any)["path"] != c.field {
			t.Errorf("%v: %s", c.body, r.body)
		}
	}
	owner.do("POST", path, obj{"kind": "tab", "index": 1.5}).want(t, 422)
	owner.do("POST", path, obj{"kind": "drag", "x": 1, "y": 1, "toX": "1", "toY": 1}).want(t, 422)

	// The first input the agent gets is the valid drag: none of the above.
	owner.do("POST", path, obj{"kind": "drag", "x": 10, "y": 20, "toX": 320, "toY": 200}).want(t, 204)
	in := a.expect(protocol.MsgAuthorInput)
	if d := in.Input; d.Kind != "drag" || d.X != 10 || d.Y != 20 || d.ToX == nil || *d.ToX != 320 || d.ToY == nil || *d.ToY != 200 || d.FrameWidth != 640 || in.ReqID != "" {
		t.Fatalf("drag relayed: %+v", d)
	}

	answer := func(errText string) {
		req := a.expect(protocol.MsgAuthorInput)
		if req.ReqID == "" || req.Input.Kind != "closeTab" || req.Input.Index == nil || *req.Input.Index != 1 {
			t.Errorf("tab input relayed: %+v %+v", req, req.Input)
		}
		a.send(protocol.Message{Type: protocol.MsgAuthorInputDone, Session: id, ReqID: req.ReqID, Error: errText})
	}
	done := make(chan response, 1)
	go func() { done <- owner.do("POST", path, obj{"kind": "closeTab", "index": 1}) }()
	answer("")
	(<-done).want(t, 204)
	go func() { done <- owner.do("POST", path, obj{"kind": "closeTab", "index": 1}) }()
	answer("there is no tab 2 here any more: 1 tabs are open; token " + authorSecret)
	r := (<-done).want(t, 409)
	if r.str("code") != "tab_gone" || !strings.Contains(r.str("error"), "there is no tab 2") || strings.Contains(string(r.body), authorSecret) {
		t.Errorf("tab gone: %s", r.body)
	}
}
