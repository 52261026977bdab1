package api

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// expect reads until a message of type typ arrives.
func (a *rawAgent) expect(typ string) protocol.Message {
	a.t.Helper()
	for {
		m := a.read()
		if m.Type == typ {
			return m
		}
		if m.Type != protocol.MsgAck {
			a.t.Fatalf("want %s, got %+v", typ, m)
		}
	}
}

func (a *rawAgent) status(session, status, url, why string) {
	a.send(protocol.Message{Type: protocol.MsgAuthorStatus, Session: session, Status: status, URL: url, Error: why})
}

func (a *rawAgent) captured(session string, seq int, st protocol.Step) {
	a.send(protocol.Message{Type: protocol.MsgAuthorStep, Session: session, Captured: &protocol.Captured{Seq: seq, Step: st}})
}

var tinyPNG = []byte("\x89PNG\r\n\x1a\n" + "not really the rest of a PNG")

// answerPreview answers the next preview request with tinyPNG.
func (a *rawAgent) answerPreview(session string) {
	a.t.Helper()
	req := a.expect(protocol.MsgAuthorPreview)
	if req.Session != session || req.ReqID == "" {
		a.t.Fatalf("preview request %+v", req)
	}
	a.send(protocol.Message{Type: protocol.MsgAuthorPreview, Session: session, ReqID: req.ReqID,
		Artifact: &protocol.ArtifactInfo{Name: "preview.png", ContentType: "image/png", Size: int64(len(tinyPNG))}})
	if err := a.ws.Write(a.t.Context(), websocket.MessageBinary, tinyPNG); err != nil {
		a.t.Fatal(err)
	}
}

// authorWorld is a project with an environment (base URL, a secret) and
// the owner's raw agent.
type authorWorld struct {
	h     *harness
	o     org
	env   string
	agent *rawAgent
}

const authorSecret = "hunter22-secret"

func newAuthorWorld(t *testing.T) authorWorld {
	h := newHarness(t)
	o := h.org(t)
	env := o.owner.do("POST", "/api/environments", obj{"name": "Staging", "variables": obj{"baseUrl": "https://shop.example.com"},
		"secrets": obj{"PASSWORD": authorSecret}}, ProjectHeader, o.project).want(t, 201).str("id")
	return authorWorld{h: h, o: o, env: env, agent: h.rawAgent(t, o.owner, "")}
}

func (w authorWorld) p(c *client, method, path string, body any) response {
	return c.do(method, path, body, ProjectHeader, w.o.project)
}

func fillStep(id, label, value string) protocol.Step {
	return protocol.Step{ID: id, Type: "fill", Value: protocol.Ptr(value),
		Target: &protocol.Target{Locators: []protocol.Locator{{Kind: "label", Value: label}, {Kind: "css", Value: "#" + strings.ToLower(label)}}}}
}

// TestRecordingThroughAgent follows a recording from start to stop: the
// start URL resolved against the environment, captured steps replaced and
// withdrawn by seq, a typed secret and the base URL written as variables,
// the live stream resumable, the preview where it ended.
func TestRecordingThroughAgent(t *testing.T) {
	w := newAuthorWorld(t)
	owner := w.o.owner
	r := w.p(owner, "POST", "/api/record/start", obj{"url": "/login", "environmentId": w.env}).want(t, 201)
	id := r.str("id")
	if !strings.HasPrefix(id, "rec_") || r.str("status") != "starting" {
		t.Fatalf("start: %s", r.body)
	}
	start := w.agent.expect(protocol.MsgAuthorStart)
	if start.Session != id || start.Start.Kind != protocol.AuthorRecord || start.Start.URL != "https://shop.example.com/login" || !start.Start.Headed {
		t.Fatalf("author.start %+v %+v", start, start.Start)
	}
	if start.Try != nil || strings.Contains(string(mustJSON(t, start)), authorSecret) {
		t.Fatal("the agent was sent a secret for a recording")
	}
	a := w.agent
	a.status(id, protocol.SessionRecording, "https://shop.example.com/login", "")
	a.captured(id, 1, protocol.Step{ID: "s1", Type: "navigate", URL: "https://shop.example.com/login"})
	a.captured(id, 2, fillStep("s2", "Password", "hun"))
	a.captured(id, 2, fillStep("s2", "Password", authorSecret))
	a.captured(id, 3, protocol.Step{ID: "s3", Type: "click", Target: &protocol.Target{Locators: []protocol.Locator{{Kind: "text", Value: "Go " + authorSecret}, {Kind: "css", Value: "#go"}}}})
	a.captured(id, 4, protocol.Step{ID: "s4", Type: "click", Target: &protocol.Target{Locators: []protocol.Locator{{Kind: "css", Value: "#x"}}}})
	a.send(protocol.Message{Type: protocol.MsgAuthorStep, Session: id, Captured: &protocol.Captured{Seq: 4, Removed: true}})
	a.captured(id, 5, protocol.Step{ID: "s5", Type: "bogus"}) // not a step: dropped
	var got map[string]any
	waitFor(t, func() bool {
		got = owner.do("GET", "/api/record/"+id, nil).want(t, 200).json()
		return got["status"] == "recording" && len(got["steps"].([]any)) == 3
	})
	body := string(mustJSON(t, got))
	if strings.Contains(body, authorSecret) {
		t.Fatalf("the recording holds the secret: %s", body)
	}
	steps := got["steps"].([]any)
	if u := steps[0].(map[string]any)["url"]; u != "${baseUrl}/login" {
		t.Errorf("navigate url %v", u)
	}
	if v := steps[1].(map[string]any)["value"]; v != "${secrets.PASSWORD}" {
		t.Errorf("fill value %v", v)
	}
	if locs := steps[2].(map[string]any)["target"].(map[string]any)["locators"].([]any); len(locs) != 1 {
		t.Errorf("the locator holding a secret was kept: %v", locs)
	}

	// The live stream: every step's latest form and the statuses; resuming
	// after the first entries gives only what came later.
	all := readSessionEvents(t, owner, id, "", 5)
	if all[len(all)-1].kind != "step" || !strings.Contains(all[1].data, "recording") {
		t.Errorf("stream: %+v", all)
	}
	later := readSessionEvents(t, owner, id, all[1].id, 3)
	if len(later) != 3 || later[0].id == all[1].id {
		t.Errorf("resumed stream: %+v", later)
	}

	// Stop: a screenshot of where it ended, then the agent's last word.
	done := make(chan response, 1)
	go func() { done <- owner.do("POST", "/api/record/"+id+"/stop", nil) }()
	a.answerPreview(id)
	stop := a.expect(protocol.MsgAuthorStop)
	if stop.Session != id {
		t.Fatalf("stop %+v", stop)
	}
	a.captured(id, 6, protocol.Step{ID: "s6", Type: "press", Key: "Enter"})
	a.status(id, protocol.SessionStopped, "", "")
	res := (<-done).want(t, 200).json()
	if res["status"] != "stopped" || len(res["steps"].([]any)) != 4 {
		t.Fatalf("stop answered %v", res)
	}
	pr := owner.do("GET", "/api/record/"+id+"/preview", nil).want(t, 200)
	if pr.header.Get("Content-Type") != "image/png" || string(pr.body) != string(tinyPNG) {
		t.Errorf("preview %q %q", pr.header.Get("Content-Type"), pr.body)
	}
	// Once stopped, late steps change nothing, and stopping again answers
	// the same.
	a.captured(id, 7, protocol.Step{ID: "s7", Type: "press", Key: "Tab"})
	if n := len(owner.do("POST", "/api/record/"+id+"/stop", nil).want(t, 200).json()["steps"].([]any)); n != 4 {
		t.Errorf("steps after stop: %d", n)
	}
}

type sessionEvent struct{ id, kind, data string }

// readSessionEvents reads n entries of a recording's stream.
func readSessionEvents(t *testing.T, c *client, id, lastID string, n int) []sessionEvent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.h.srv.URL+"/api/record/"+id+"/events", nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %d", resp.StatusCode)
	}
	var out []sessionEvent
	var cur sessionEvent
	sc := bufio.NewScanner(resp.Body)
	for len(out) < n && sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			cur.id = line[4:]
		case strings.HasPrefix(line, "event: "):
			cur.kind = line[7:]
		case strings.HasPrefix(line, "data: "):
			cur.data = line[6:]
			out = append(out, cur)
			cur = sessionEvent{}
		}
	}
	return out
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	end := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(end) {
			t.Fatal("condition not met in 10 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestAuthoringSessionsBelongToTheirUser: another member gets 404, a
// member of another project 404 and an audit line; a caller without a
// connected agent 409 agent_needed.
func TestAuthoringSessionsBelongToTheirUser(t *testing.T) {
	w := newAuthorWorld(t)
	id := w.p(w.o.owner, "POST", "/api/record/start", obj{"url": "https://example.com/"}).want(t, 201).str("id")
	w.agent.expect(protocol.MsgAuthorStart)
	tester := w.o.members[access.Tester]
	for _, path := range []string{"/api/record/" + id, "/api/record/" + id + "/events", "/api/record/" + id + "/preview"} {
		tester.do("GET", path, nil).want(t, 404)
	}
	tester.do("POST", "/api/record/"+id+"/stop", nil).want(t, 404)
	// A session of one kind is not found as the other.
	w.o.owner.do("GET", "/api/pick/"+strings.Replace(id, "rec_", "pck_", 1), nil).want(t, 404)

	other := w.h.org(t)
	before := len(readAudit(t, w.h))
	other.owner.do("GET", "/api/record/"+id, nil).want(t, 404)
	// The owner naming another project of theirs in the header: refused
	// and audited too.
	w.o.owner.do("GET", "/api/record/"+id, nil, ProjectHeader, other.project).want(t, 404)
	if n := len(readAudit(t, w.h)) - before; n != 1 {
		// The outsider is not a member of the record's project: audited;
		// the owner's header names a project they are not in: audited.
		if n < 1 {
			t.Errorf("audit lines added: %d", n)
		}
	}
	// No agent: a clear 409.
	r := w.p(tester, "POST", "/api/record/start", obj{"url": "https://example.com/"}).want(t, 409)
	if r.str("code") != "agent_needed" {
		t.Errorf("no agent: %s", r.body)
	}
	w.p(tester, "POST", "/api/pick/start", obj{"url": "https://example.com/"}).want(t, 409)
	w.p(tester, "POST", "/api/scripts/try", obj{"code": "return 1"}).want(t, 409)
	// Someone else's recording cannot host a picker or a script.
	w.p(tester, "POST", "/api/pick/start", obj{"recordingId": id}).want(t, 422)
	w.p(tester, "POST", "/api/scripts/try", obj{"code": "return 1", "recordingId": id}).want(t, 422)
}

// TestRecordingEndsWhenItsAgentGoes: the session ends as error with a
// reason, and the stream ends, never hangs.
func TestRecordingEndsWhenItsAgentGoes(t *testing.T) {
	w := newAuthorWorld(t)
	id := w.p(w.o.owner, "POST", "/api/record/start", obj{"url": "https://example.com/"}).want(t, 201).str("id")
	w.agent.expect(protocol.MsgAuthorStart)
	w.agent.status(id, protocol.SessionRecording, "", "")
	w.agent.captured(id, 1, protocol.Step{ID: "s1", Type: "navigate", URL: "https://example.com/"})
	waitFor(t, func() bool {
		return len(w.o.owner.do("GET", "/api/record/"+id, nil).want(t, 200).json()["steps"].([]any)) == 1
	})
	w.agent.ws.CloseNow()
	var got map[string]any
	waitFor(t, func() bool {
		got = w.o.owner.do("GET", "/api/record/"+id, nil).want(t, 200).json()
		return got["status"] == "error"
	})
	if got["error"] != "the agent disconnected" || len(got["steps"].([]any)) != 1 {
		t.Errorf("after the agent left: %v", got)
	}
	ev := readSessionEvents(t, w.o.owner, id, "", 100) // returns at the stream's end
	if last := ev[len(ev)-1]; !strings.Contains(last.data, "the agent disconnected") {
		t.Errorf("last event %+v", last)
	}
	// Stopping it answers what it has.
	if st := w.o.owner.do("POST", "/api/record/"+id+"/stop", nil).want(t, 200).str("status"); st != "error" {
		t.Errorf("stop after the agent left: %s", st)
	}
	w.o.owner.do("GET", "/api/record/"+id+"/preview", nil).want(t, 404)
}

// TestAuthoringIdleAndFlood: an idle session ends after 30 minutes; a
// recording that captures too many steps ends with a reason and the hub
// keeps answering.
func TestAuthoringIdleAndFlood(t *testing.T) {
	w := newAuthorWorld(t)
	idle := w.p(w.o.owner, "POST", "/api/pick/start", obj{"url": "https://example.com/"}).want(t, 201).str("id")
	w.agent.expect(protocol.MsgAuthorStart)
	w.h.advance(31 * time.Minute)
	w.h.api.Authoring().Sweep(t.Context())
	if st := w.agent.expect(protocol.MsgAuthorStop); st.Session != idle {
		t.Errorf("stop for %s", st.Session)
	}
	got := w.o.owner.do("GET", "/api/pick/"+idle, nil).want(t, 200).json()
	if got["status"] != "closed" || !strings.Contains(fmt.Sprint(got["error"]), "without use") {
		t.Errorf("idle picker: %v", got)
	}
	w.o.owner.do("POST", "/api/pick/"+idle+"/mode", obj{"mode": "off"}).want(t, 409)

	id := w.p(w.o.owner, "POST", "/api/record/start", obj{"url": "https://example.com/"}).want(t, 201).str("id")
	w.agent.expect(protocol.MsgAuthorStart)
	for i := 1; i <= protocol.MaxCapturedSteps+5; i++ {
		w.agent.captured(id, i, protocol.Step{ID: fmt.Sprintf("s%d", i), Type: "press", Key: "a"})
	}
	waitFor(t, func() bool {
		return w.o.owner.do("GET", "/api/record/"+id, nil).want(t, 200).str("status") == "error"
	})
	got = w.o.owner.do("GET", "/api/record/"+id, nil).want(t, 200).json()
	if n := len(got["steps"].([]any)); n != protocol.MaxCapturedSteps || !strings.Contains(fmt.Sprint(got["error"]), "more than") {
		t.Errorf("flooded recording: %d steps, %v", n, got["error"])
	}
	w.o.owner.do("GET", "/api/auth/session", nil).want(t, 200)
}

// TestPickerThroughAgent: a picker in a recording's page goes to the
// recording's agent; the pick, the mode and the close reach the agent.
func TestPickerThroughAgent(t *testing.T) {
	w := newAuthorWorld(t)
	rec := w.p(w.o.owner, "POST", "/api/record/start", obj{"url": "/", "environmentId": w.env}).want(t, 201).str("id")
	w.agent.expect(protocol.MsgAuthorStart)
	w.agent.status(rec, protocol.SessionRecording, "", "")
	r := w.p(w.o.owner, "POST", "/api/pick/start", obj{"recordingId": rec, "environmentId": w.env}).want(t, 201)
	id := r.str("id")
	if r.str("mode") != "pick" || r.str("status") != "starting" {
		t.Fatalf("pick start %s", r.body)
	}
	start := w.agent.expect(protocol.MsgAuthorStart)
	if start.Start.Kind != protocol.AuthorPick || start.Start.Recording != rec || start.Start.URL != "" {
		t.Fatalf("pick start sent %+v", start.Start)
	}
	w.agent.status(id, protocol.SessionReady, "https://shop.example.com/", "")
	w.agent.send(protocol.Message{Type: protocol.MsgAuthorPicked, Session: id, Picked: &protocol.Picked{
		Element: protocol.PickedElement{Tag: "input", Text: authorSecret, Attributes: map[string]string{"value": authorSecret, "id": "pw"}},
		Target: protocol.PickedTarget{Locators: []protocol.RankedLocator{
			{Locator: protocol.Locator{Kind: "label", Value: "Password"}, Score: 140, Matches: 1},
			{Locator: protocol.Locator{Kind: "text", Value: authorSecret}, Score: 180, Matches: 1},
			{Locator: protocol.Locator{Kind: "css", Value: "input"}, Score: 10000, Matches: 3},
		}},
	}})
	var got map[string]any
	waitFor(t, func() bool {
		got = w.o.owner.do("GET", "/api/pick/"+id, nil).want(t, 200).json()
		return got["status"] == "picked"
	})
	if s := string(mustJSON(t, got)); strings.Contains(s, authorSecret) {
		t.Errorf("the pick shows a secret: %s", s)
	}
	locs := got["target"].(map[string]any)["locators"].([]any)
	if len(locs) != 2 || locs[1].(map[string]any)["matches"] != float64(3) {
		t.Errorf("candidates %v", locs)
	}
	w.o.owner.do("POST", "/api/pick/"+id+"/mode", obj{"mode": "inspect"}).want(t, 200)
	if m := w.agent.expect(protocol.MsgAuthorMode); m.Mode != "inspect" || m.Session != id {
		t.Errorf("mode sent %+v", m)
	}
	w.o.owner.do("POST", "/api/pick/"+id+"/mode", obj{"mode": "hover"}).want(t, 422)
	w.o.owner.do("POST", "/api/pick/"+id+"/close", nil).want(t, 204)
	if m := w.agent.expect(protocol.MsgAuthorStop); m.Session != id {
		t.Errorf("close sent %+v", m)
	}
	if st := w.o.owner.do("GET", "/api/pick/"+id, nil).want(t, 200).str("status"); st != "closed" {
		t.Errorf("after close: %s", st)
	}
	// Stopping the recording closes pickers in its page.
	id2 := w.p(w.o.owner, "POST", "/api/pick/start", obj{"recordingId": rec}).want(t, 201).str("id")
	w.agent.expect(protocol.MsgAuthorStart)
	go func() {
		w.agent.answerPreview(rec)
		w.agent.expect(protocol.MsgAuthorStop)
		w.agent.status(rec, protocol.SessionStopped, "", "")
	}()
	w.o.owner.do("POST", "/api/record/"+rec+"/stop", nil).want(t, 200)
	if st := w.o.owner.do("GET", "/api/pick/"+id2, nil).want(t, 200).str("status"); st != "closed" {
		t.Errorf("picker after its recording stopped: %s", st)
	}
	w.p(w.o.owner, "POST", "/api/pick/start", obj{"recordingId": rec}).want(t, 409)
}

// TestTryScriptThroughAgent: the script and only the secrets it names
// reach the agent; what comes back is masked; bad input is 422; a
// protected environment keeps its secrets.
func TestTryScriptThroughAgent(t *testing.T) {
	w := newAuthorWorld(t)
	done := make(chan response, 1)
	go func() {
		done <- w.p(w.o.owner, "POST", "/api/scripts/try", obj{"code": "console.log(vars.secrets.PASSWORD); return vars.secrets.PASSWORD",
			"url": "/", "environmentId": w.env, "timeoutMs": 2000})
	}()
	m := w.agent.expect(protocol.MsgScriptTry)
	if m.Try.URL != "https://shop.example.com/" || m.Try.Secrets["PASSWORD"] != authorSecret || m.Try.TimeoutMs != 2000 ||
		m.Try.Variables["baseUrl"] != "https://shop.example.com" {
		t.Fatalf("script.try %+v", m.Try)
	}
	value, _ := json.Marshal(map[string]string{"pw": authorSecret})
	w.agent.send(protocol.Message{Type: protocol.MsgScriptResult, ReqID: m.ReqID, Tried: &protocol.TryResult{Value: value,
		Console: []protocol.ConsoleLine{{Level: "log", Text: "it is " + authorSecret}}, Error: &protocol.TryError{Message: "no " + authorSecret}, DurationMs: 12}})
	r := (<-done).want(t, 200)
	if strings.Contains(string(r.body), authorSecret) {
		t.Fatalf("try answer holds the secret: %s", r.body)
	}
	got := r.json()
	if got["value"].(map[string]any)["pw"] != "***" || got["durationMs"] != float64(12) ||
		got["console"].([]any)[0].(map[string]any)["text"] != "it is ***" {
		t.Errorf("try answer %s", r.body)
	}
	// A script naming no secret gets none.
	go func() {
		done <- w.p(w.o.owner, "POST", "/api/scripts/try", obj{"code": "return 1", "environmentId": w.env})
	}()
	m = w.agent.expect(protocol.MsgScriptTry)
	if len(m.Try.Secrets) != 0 || m.Try.URL != "https://shop.example.com" || m.Try.TimeoutMs != protocol.DefaultTryTimeoutMs {
		t.Errorf("script.try without secrets %+v", m.Try)
	}
	w.agent.send(protocol.Message{Type: protocol.MsgScriptResult, ReqID: m.ReqID, Tried: &protocol.TryResult{Value: json.RawMessage("1")}})
	if v := (<-done).want(t, 200).json()["value"]; v != float64(1) {
		t.Errorf("value %v", v)
	}
	// The agent going away mid-script: a clear 409, not a hang.
	go func() { done <- w.p(w.o.owner, "POST", "/api/scripts/try", obj{"code": "while(true){}"}) }()
	w.agent.expect(protocol.MsgScriptTry)
	w.agent.ws.CloseNow()
	if c := (<-done).want(t, 409).str("code"); c != "agent_lost" {
		t.Errorf("agent lost: %s", c)
	}
	// Bad input.
	for _, body := range []obj{
		{"code": ""}, {"code": strings.Repeat("x", protocol.MaxTryCode+1)}, {"code": "return 1", "timeoutMs": 0},
		{"code": "return 1", "timeoutMs": 600000}, {"code": "return 1", "url": "javascript:alert(1)"},
		{"code": "return 1", "url": "/relative"}, {"code": "return 1", "url": "https://a.example/", "recordingId": "rec_aaaaaaaaaaaaaaaa"},
		{"code": "return 1", "environmentId": "env_aaaaaaaaaaaaaaaa"},
	} {
		w.p(w.o.owner, "POST", "/api/scripts/try", body).want(t, 422)
	}
	// A protected environment's secrets go only to runs of Ready tests.
	prot := w.p(w.o.owner, "POST", "/api/environments", obj{"name": "Prod", "protected": true, "secrets": obj{"TOKEN": "tok-123456"}}).want(t, 201).str("id")
	r = w.p(w.o.owner, "POST", "/api/scripts/try", obj{"code": "return '${secrets.TOKEN}'", "environmentId": prot}).want(t, 403)
	if r.str("code") != codeEnvironmentProtected {
		t.Errorf("protected: %s", r.body)
	}
}

// TestRecordStartBadInput: unusable start addresses are 422 with the path.
func TestRecordStartBadInput(t *testing.T) {
	w := newAuthorWorld(t)
	for _, body := range []obj{
		{}, {"url": "ftp://example.com/"}, {"url": "/login"}, {"url": "javascript:alert(1)"}, {"url": "http://"},
		{"url": "https://example.com/\x00"}, {"url": "https://example.com/" + strings.Repeat("a", 3000)},
	} {
		r := w.p(w.o.owner, "POST", "/api/record/start", body).want(t, 422)
		if !strings.Contains(string(r.body), `"path":"url"`) {
			t.Errorf("%v: %s", body, r.body)
		}
	}
	w.p(w.o.owner, "POST", "/api/record/start", obj{"url": "https://example.com/", "environmentId": "env_aaaaaaaaaaaaaaaa"}).want(t, 422)
	w.p(w.o.owner, "POST", "/api/record/start", obj{"url": "https://example.com/", "testId": "tc_aaaaaaaaaaaaaaaa"}).want(t, 404)
	// The environment's base URL alone is a start address.
	w.p(w.o.owner, "POST", "/api/record/start", obj{"environmentId": w.env}).want(t, 201)
	if u := w.agent.expect(protocol.MsgAuthorStart).Start.URL; u != "https://shop.example.com" {
		t.Errorf("start url %q", u)
	}
}
