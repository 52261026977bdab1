package api

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/authoring"
	"github.com/testautomation/ta/protocol"
)

// viewStream is an open GET /api/sessions/{id}/view read in the
// background: its frames and whether it ended.
type viewStream struct {
	frames chan authoring.FrameEvent
	ended  chan struct{}
	close  context.CancelFunc
}

func openView(t *testing.T, c *client, id string) *viewStream {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(ctx, "GET", c.h.srv.URL+"/api/sessions/"+id+"/view", nil)
	resp, err := c.http.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		resp.Body.Close()
		cancel()
		t.Fatalf("view of %s: %d", id, resp.StatusCode)
	}
	v := &viewStream{frames: make(chan authoring.FrameEvent, 100), ended: make(chan struct{}), close: cancel}
	go func() {
		defer close(v.ended)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 4<<20)
		event := ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				event = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: ") && event == "frame":
				var f authoring.FrameEvent
				if json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &f) == nil {
					select {
					case v.frames <- f:
					default:
					}
				}
			}
		}
	}()
	t.Cleanup(cancel)
	return v
}

// next waits for the view's next frame.
func (v *viewStream) next(t *testing.T) authoring.FrameEvent {
	t.Helper()
	select {
	case f := <-v.frames:
		return f
	case <-v.ended:
		t.Fatal("the view ended before a frame came")
	case <-time.After(20 * time.Second):
		t.Fatal("no frame within 20 s")
	}
	return authoring.FrameEvent{}
}

// tinyJPEG starts as a JPEG does: the hub checks no more.
var tinyJPEG = []byte("\xff\xd8\xff\xe0 not really the rest of a JPEG")

func (a *rawAgent) frame(session string, w, h int) {
	a.send(protocol.Message{Type: protocol.MsgAuthorFrame, Session: session,
		Frame: &protocol.ViewFrame{Data: tinyJPEG, Width: w, Height: h, PageWidth: float64(w) * 2, PageHeight: float64(h) * 2}})
}

// TestSessionViewOnlyWhileWatched: the agent is asked for frames when the
// first watcher comes and told to stop when the last leaves; a second
// watcher gets the last frame at once; inputs are checked against the
// frame and relayed with what maps them to the page.
func TestSessionViewOnlyWhileWatched(t *testing.T) {
	w := newAuthorWorld(t)
	owner := w.o.owner
	id := w.p(owner, "POST", "/api/record/start", obj{"url": "https://example.com/"}).want(t, 201).str("id")
	a := w.agent
	a.expect(protocol.MsgAuthorStart)
	a.status(id, protocol.SessionRecording, "https://example.com/", "")

	// No frame yet: an input at a point cannot be checked.
	owner.do("POST", "/api/sessions/"+id+"/input", obj{"kind": "click", "x": 1, "y": 1}).want(t, 422)

	one := openView(t, owner, id)
	if on := a.expect(protocol.MsgAuthorView); on.Session != id || on.View == nil || !on.View.On {
		t.Fatalf("view on: %+v", on)
	}
	a.frame(id, 640, 400)
	if f := one.next(t); f.Width != 640 || f.Height != 400 || f.PageWidth != 1280 || string(f.Data) != string(tinyJPEG) || f.Seq != 1 {
		t.Fatalf("frame: %+v", f)
	}
	two := openView(t, owner, id)
	if f := two.next(t); f.Seq != 1 {
		t.Fatalf("the second watcher's first frame: %+v", f)
	}

	owner.do("POST", "/api/sessions/"+id+"/input", obj{"kind": "click", "x": 320, "y": 200, "clicks": 2}).want(t, 204)
	in := a.expect(protocol.MsgAuthorInput)
	if in.Session != id || in.Input.Kind != "click" || in.Input.X != 320 || in.Input.Clicks != 2 ||
		in.Input.FrameWidth != 640 || in.Input.PageWidth != 1280 {
		t.Fatalf("input relayed: %+v", in.Input)
	}
	owner.do("POST", "/api/sessions/"+id+"/input", obj{"kind": "text", "text": "ann@example.com"}).want(t, 204)
	if in := a.expect(protocol.MsgAuthorInput); in.Input.Text != "ann@example.com" {
		t.Fatalf("text relayed: %+v", in.Input)
	}
	owner.do("POST", "/api/sessions/"+id+"/input", obj{"kind": "key", "key": "a", "modifiers": []any{"Control"}}).want(t, 204)
	a.expect(protocol.MsgAuthorInput)

	// Leaving: the first watcher changes nothing, the last turns it off.
	one.close()
	<-one.ended
	two.close()
	<-two.ended
	if off := a.expect(protocol.MsgAuthorView); off.View == nil || off.View.On {
		t.Fatalf("view off: %+v", off)
	}

	// The session ends: a watcher's stream says so and ends.
	three := openView(t, owner, id)
	a.expect(protocol.MsgAuthorView)
	a.status(id, protocol.SessionError, "", "gone")
	select {
	case <-three.ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the view did not end with its session")
	}
	owner.do("POST", "/api/sessions/"+id+"/input", obj{"kind": "text", "text": "x"}).want(t, 409)
}

// TestSessionInputBadBodies: every bad input is a 422 naming the field,
// and a flood is 429; nothing reaches the agent.
func TestSessionInputBadBodies(t *testing.T) {
	w := newAuthorWorld(t)
	owner := w.o.owner
	id := w.p(owner, "POST", "/api/pick/start", obj{"url": "https://example.com/"}).want(t, 201).str("id")
	a := w.agent
	a.expect(protocol.MsgAuthorStart)
	a.status(id, protocol.SessionReady, "https://example.com/", "")
	v := openView(t, owner, id)
	a.expect(protocol.MsgAuthorView)
	a.frame(id, 640, 400)
	v.next(t)
	path := "/api/sessions/" + id + "/input"
	for _, c := range []struct {
		body  any
		field string
	}{
		{obj{"kind": "swipe", "x": 1, "y": 1}, "kind"},
		{obj{"x": 1, "y": 1}, "kind"},
		{obj{"kind": "click", "x": -1, "y": 1}, "x"},
		{obj{"kind": "click", "x": 641, "y": 1}, "x"},
		{obj{"kind": "move", "x": 1, "y": 400.5}, "y"},
		{obj{"kind": "wheel", "x": 1, "y": 1, "deltaY": 1e12}, "deltaX"},
		{obj{"kind": "click", "x": 1, "y": 1, "button": "fourth"}, "button"},
		{obj{"kind": "click", "x": 1, "y": 1, "clicks": 9}, "clicks"},
		{obj{"kind": "key", "key": "a"}, "key"},
		{obj{"kind": "key", "key": "Enter\r\n"}, "key"},
		{obj{"kind": "key", "key": "Enter", "modifiers": []any{"Hyper"}}, "modifiers"},
		{obj{"kind": "text", "text": ""}, "text"},
		{obj{"kind": "text", "text": strings.Repeat("é", protocol.MaxInputText+1)}, "text"},
		{obj{"kind": "text", "text": "a\x00b"}, "text"},
		{obj{"kind": "dialog", "accept": true, "text": "two\nlines"}, "text"},
		{obj{"kind": "dialog", "text": strings.Repeat("x", protocol.MaxInputText+1)}, "text"},
	} {
		r := owner.do("POST", path, c.body).want(t, 422)
		issues, _ := r.json()["issues"].([]any)
		if len(issues) == 0 || issues[0].(map[string]any)["path"] != c.field {
			t.Errorf("%v: %s", c.body, r.body)
		}
	}
	owner.do("POST", path, `{"kind": "click", "x": NaN}`).want(t, 400)
	owner.do("POST", path, obj{"kind": "click", "x": "1"}).want(t, 422)

	// A flood: the first ones pass, then 429 with Retry-After.
	limited := false
	for i := 0; i < 200 && !limited; i++ {
		r := owner.do("POST", path, obj{"kind": "move", "x": i % 600, "y": 1})
		switch r.status {
		case 204:
		case 429:
			limited = r.header.Get("Retry-After") != ""
		default:
			t.Fatalf("move %d: %d %s", i, r.status, r.body)
		}
	}
	if !limited {
		t.Error("200 inputs at once were not rate-limited")
	}
}

// TestSessionViewBelongsToItsUser: another user's session, of the same
// project or not, is not found (another project's audited); a caller
// who may not author is refused; a malformed id is not found.
func TestSessionViewBelongsToItsUser(t *testing.T) {
	w := newAuthorWorld(t)
	id := w.p(w.o.owner, "POST", "/api/record/start", obj{"url": "https://example.com/"}).want(t, 201).str("id")
	w.agent.expect(protocol.MsgAuthorStart)
	click := obj{"kind": "text", "text": "x"}
	for _, c := range []*client{w.o.members[access.Tester], w.o.members[access.TestManager]} {
		c.do("GET", "/api/sessions/"+id+"/view", nil).want(t, 404)
		c.do("POST", "/api/sessions/"+id+"/input", click).want(t, 404)
	}
	other := w.h.org(t)
	before := len(readAudit(t, w.h))
	other.owner.do("GET", "/api/sessions/"+id+"/view", nil).want(t, 404)
	other.owner.do("POST", "/api/sessions/"+id+"/input", click).want(t, 404)
	if n := len(readAudit(t, w.h)) - before; n < 2 {
		t.Errorf("another project's user: %d audit lines, want 2", n)
	}
	for _, bad := range []string{"nope", "rec_", "REC_aaaaaaaaaaaaaaaa", "run_aaaaaaaaaaaaaaaa", "a_b_c"} {
		w.o.owner.do("GET", "/api/sessions/"+bad+"/view", nil).want(t, 404)
		w.o.owner.do("POST", "/api/sessions/"+bad+"/input", click).want(t, 404)
	}
	// Bad bodies to someone else's session: not found first, no hint.
	w.o.members[access.Tester].do("POST", "/api/sessions/"+id+"/input", obj{"kind": "drag"}).want(t, 404)
}

// TestSessionViewEndsOnSignOut: the view is a stream like the others.
func TestSessionViewEndsOnSignOut(t *testing.T) {
	w := newAuthorWorld(t)
	owner := w.o.owner
	id := w.p(owner, "POST", "/api/record/start", obj{"url": "https://example.com/"}).want(t, 201).str("id")
	w.agent.expect(protocol.MsgAuthorStart)
	w.agent.status(id, protocol.SessionRecording, "https://example.com/", "")
	laptop := owner.signIn(t)
	v := openView(t, laptop, id)
	w.agent.expect(protocol.MsgAuthorView)
	settle()
	select {
	case <-v.ended:
		t.Fatal("the view ended by itself")
	default:
	}
	laptop.do("POST", "/api/auth/logout", nil).want(t, 204)
	at := time.Now()
	select {
	case <-v.ended:
		if took := time.Since(at); took > 1500*time.Millisecond {
			t.Errorf("the view ended %s after signing out", took)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the view outlived its sign-in")
	}
	if off := w.agent.expect(protocol.MsgAuthorView); off.View.On {
		t.Error("the agent was not told to stop the screencast")
	}
}

// TestPickWithoutEnvironmentSaysChooseOne (Issue 27, defect 3): a test
// whose URL is ${baseUrl}/... picked with no environment chosen is told
// to choose one, not that "the environment has no base URL".
func TestPickWithoutEnvironmentSaysChooseOne(t *testing.T) {
	w := newAuthorWorld(t)
	for path, body := range map[string]obj{
		"/api/pick/start":   {"url": "${baseUrl}/login"},
		"/api/record/start": {"url": "${baseUrl}/login"},
		"/api/scripts/try":  {"code": "return 1", "url": "${baseUrl}/login"},
	} {
		r := w.p(w.o.owner, "POST", path, body).want(t, 422)
		if msg := string(r.body); !strings.Contains(msg, "choose an environment: this url uses ${baseUrl}") || strings.Contains(msg, "the environment has no") {
			t.Errorf("%s: %s", path, msg)
		}
	}
	r := w.p(w.o.owner, "POST", "/api/pick/start", obj{"url": "/login"}).want(t, 422)
	if !strings.Contains(string(r.body), "choose an environment") {
		t.Errorf("relative url: %s", r.body)
	}
}
