package api

import (
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// liveRaw opens a live session of the owner on their raw agent, ready.
func liveRaw(t *testing.T, w authorWorld) (id, test string) {
	t.Helper()
	test = w.o.owner.createTest(t, w.o.project, signInDoc("https://shop.example.com", "Welcome"))
	r := w.p(w.o.owner, "POST", "/api/sessions", obj{"testId": test, "environmentId": w.env}).want(t, 201)
	id = r.str("id")
	start := w.agent.expect(protocol.MsgAuthorStart)
	if start.Session != id || start.Start.Kind != protocol.AuthorLive || strings.Contains(string(mustJSON(t, start)), authorSecret) {
		t.Fatalf("author.start %+v", start.Start)
	}
	w.agent.status(id, protocol.SessionReady, "about:blank", "")
	waitFor(t, func() bool {
		return w.o.owner.do("GET", "/api/sessions/"+id, nil).want(t, 200).str("status") == "ready"
	})
	return id, test
}

// TestLiveSessionClosesAfterTenIdleMinutes: unused for 10 minutes, the
// session ends and its agent is told to close the page; used, it stays.
func TestLiveSessionClosesAfterTenIdleMinutes(t *testing.T) {
	w := newAuthorWorld(t)
	id, _ := liveRaw(t, w)
	m := w.h.api.Authoring()
	w.h.advance(9 * time.Minute)
	m.Sweep(t.Context())
	if _, ended := m.Events(id, 0); ended {
		t.Fatal("closed after 9 minutes")
	}
	w.o.owner.do("GET", "/api/sessions/"+id, nil).want(t, 200) // a use
	w.h.advance(9 * time.Minute)
	m.Sweep(t.Context())
	if _, ended := m.Events(id, 0); ended {
		t.Fatal("closed 9 minutes after a use")
	}
	w.h.advance(2 * time.Minute)
	m.Sweep(t.Context())
	if st := w.agent.expect(protocol.MsgAuthorStop); st.Session != id {
		t.Errorf("stop for %s", st.Session)
	}
	v := w.o.owner.do("GET", "/api/sessions/"+id, nil).want(t, 200).json()
	if v["status"] != "closed" || !strings.Contains(v["error"].(string), "10m0s without use") {
		t.Errorf("after 11 idle minutes: %v", v)
	}
}

// TestLiveSessionRules: owner only, another project's is 404 and
// audited, a private test of another is invisible, a stranger to the project is refused,
// bad bodies and hostile documents are 4xx that change nothing, and what
// the agent is sent carries only the secrets the steps use.
func TestLiveSessionRules(t *testing.T) {
	w := newAuthorWorld(t)
	id, test := liveRaw(t, w)
	tester := w.o.members[access.Tester]
	for _, path := range []string{"/api/sessions/" + id, "/api/sessions/" + id + "/events", "/api/sessions/" + id + "/screenshots/1-x.png"} {
		tester.do("GET", path, nil).want(t, 404)
	}
	tester.do("POST", "/api/sessions/"+id+"/run", obj{"to": "open"}).want(t, 404)
	tester.do("POST", "/api/sessions/"+id+"/close", nil).want(t, 404)
	w.o.owner.do("GET", "/api/pick/"+strings.Replace(id, "ses_", "pck_", 1), nil).want(t, 404)
	w.o.owner.do("GET", "/api/sessions/"+strings.Replace(id, "ses_", "rec_", 1), nil).want(t, 404)
	w.p(tester, "POST", "/api/pick/start", obj{"sessionId": id, "stepId": "open"}).want(t, 422)

	other := w.h.org(t)
	before := len(readAudit(t, w.h))
	other.owner.do("GET", "/api/sessions/"+id, nil).want(t, 404)
	w.o.owner.do("POST", "/api/sessions/"+id+"/run", obj{"to": "open"}, ProjectHeader, other.project).want(t, 404)
	if n := len(readAudit(t, w.h)) - before; n < 1 {
		t.Errorf("audit lines added: %d", n)
	}

	// Nobody opens one on a test they cannot see, nor outside the project.
	other.owner.do("POST", "/api/sessions", obj{"testId": test}, ProjectHeader, w.o.project).want(t, 404)
	private := tester.createTest(t, w.o.project, with(signInDoc("https://shop.example.com", "x"), "visibility", "Private"))
	w.p(w.o.owner, "POST", "/api/sessions", obj{"testId": private}).want(t, 404)
	w.p(tester, "POST", "/api/sessions", obj{"testId": test}).wantCode(t, 409, "agent_needed") // no agent of theirs
	w.p(w.o.owner, "POST", "/api/sessions", obj{}).want(t, 422)
	w.p(w.o.owner, "POST", "/api/sessions", obj{"testId": test, "environmentId": other.project}).want(t, 422)

	run := func(body any) response { return w.o.owner.do("POST", "/api/sessions/"+id+"/run", body) }
	for _, bad := range []obj{
		{"from": "nope"},
		{"stepIds": []any{"open"}, "to": "open"},
		{"from": "greet", "to": "open"},
		{"document": "not a document"},
		{"document": obj{"dsl": 2, "name": "x", "steps": []any{obj{"id": "a", "type": "navigate", "url": "file:///etc/passwd"}}}},
		{"document": obj{"dsl": 2, "name": "x", "steps": []any{obj{"id": "a", "type": "navigate", "url": "javascript:alert(1)"}}}},
		{"document": obj{"dsl": 2, "name": "x", "steps": []any{obj{"id": "a", "type": "bogus"}}}},
		{"document": obj{"dsl": 2, "name": "x", "steps": []any{}}},
	} {
		if r := run(bad); r.status != 422 {
			t.Errorf("%v: %d %s", bad, r.status, r.body)
		}
	}
	if r := run(obj{"document": obj{"dsl": 2, "name": "x", "steps": []any{obj{"id": "a", "type": "navigate", "url": "file:///etc/passwd"}}}}); !strings.Contains(string(r.body), protocol.CodeURLScheme) {
		t.Errorf("a file: address: %s", r.body)
	}
	for _, bad := range []any{obj{"stepIds": "open"}, obj{"pauseOnFailure": "yes"}, "[", []any{}} {
		if r := run(bad); r.status < 400 || r.status > 422 {
			t.Errorf("%v: %d %s", bad, r.status, r.body)
		}
	}
	if st := w.o.owner.do("GET", "/api/sessions/"+id, nil).want(t, 200).str("status"); st != "ready" {
		t.Fatalf("bad requests changed the session: %s", st)
	}

	// A good one: the agent gets the steps chosen, with only the secret
	// they use; a second run while it runs is 409.
	run(obj{"to": "password"}).want(t, 202)
	m := w.agent.expect(protocol.MsgLiveRun)
	lr := m.LiveRun
	if lr == nil || !lr.Fresh || len(lr.Document.Steps) != 3 || lr.Secrets["PASSWORD"] != authorSecret || len(lr.Secrets) != 1 || lr.Variables["baseUrl"] != "https://shop.example.com" {
		t.Fatalf("live.run %+v", lr)
	}
	run(obj{"from": "submit"}).wantCode(t, 409, codeSessionBusy)
	// What the agent reports is masked.
	i := 2
	w.agent.send(protocol.Message{Type: protocol.MsgLiveEvent, Session: id, Event: &protocol.Event{Kind: protocol.StepFinished, Index: &i, StepID: "password",
		Status: protocol.StepFailed, Error: "typed " + authorSecret + " and failed"}})
	w.agent.send(protocol.Message{Type: protocol.MsgLiveEvent, Session: id, Event: &protocol.Event{Kind: protocol.RunFinished, Status: protocol.RunFailed}})
	// The hub handles the agent's messages on their connection's reader,
	// so the session is read once it has taken them in.
	waitFor(t, func() bool {
		return w.o.owner.do("GET", "/api/sessions/"+id, nil).want(t, 200).str("status") == "ready"
	})
	v := w.o.owner.do("GET", "/api/sessions/"+id, nil).want(t, 200)
	if strings.Contains(string(v.body), authorSecret) || !strings.Contains(string(v.body), "typed *** and failed") || v.str("status") != "ready" {
		t.Errorf("after a failure without pause: %s", v.body)
	}
	// Steps that could not run at all say why, masked.
	run(obj{"stepIds": []any{"open"}}).want(t, 202)
	w.agent.expect(protocol.MsgLiveRun)
	w.agent.send(protocol.Message{Type: protocol.MsgLiveEvent, Session: id, Error: "no page for " + authorSecret})
	waitFor(t, func() bool {
		return w.o.owner.do("GET", "/api/sessions/"+id, nil).want(t, 200).str("status") == "ready"
	})
	last := w.o.owner.do("GET", "/api/sessions/"+id, nil).want(t, 200).json()["lastRun"].(map[string]any)
	if last["status"] != "error" || last["error"] != "no page for ***" {
		t.Errorf("a run that could not start: %v", last)
	}
	w.o.owner.do("POST", "/api/sessions/"+id+"/close", nil).want(t, 204)
	w.agent.expect(protocol.MsgAuthorStop)
	run(obj{"to": "open"}).wantCode(t, 409, "session_ended")
}
