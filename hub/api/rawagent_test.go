package api

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// rawAgent speaks the agent protocol by hand, to send what a real agent
// never would.
type rawAgent struct {
	t     *testing.T
	ws    *websocket.Conn
	token string
	id    string // the agent's id, from its welcome
}

func (h *harness) rawAgent(t *testing.T, approver *client, token string, holding ...string) *rawAgent {
	t.Helper()
	return h.rawAgentSlots(t, approver, token, 4, holding...)
}

// rawAgentSlots is rawAgent saying it runs up to slots runs at once.
func (h *harness) rawAgentSlots(t *testing.T, approver *client, token string, slots int, holding ...string) *rawAgent {
	t.Helper()
	url := "ws" + strings.TrimPrefix(h.srv.URL, "http") + "/api/agent/connect"
	ws, _, err := websocket.Dial(t.Context(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(protocol.MaxMessage)
	t.Cleanup(func() { ws.CloseNow() })
	a := &rawAgent{t: t, ws: ws, token: token}
	hello := protocol.Message{Type: protocol.MsgHello, Protocol: protocol.Version, Token: token, Parallel: slots, Runs: holding}
	if token == "" {
		hello.Pair = &protocol.PairRequest{Hostname: "raw", OS: "linux"}
	}
	a.send(hello)
	for {
		m := a.read()
		switch m.Type {
		case protocol.MsgPairing:
			approver.do("POST", "/api/agent/pair/"+m.Code, nil).want(t, 201)
		case protocol.MsgPaired:
			a.token = m.Token
		case protocol.MsgWelcome:
			a.id = m.AgentID
			return a
		case protocol.MsgCancel:
			// for a run it listed that is over: a real agent stops it, if
			// it still runs it
		default:
			t.Fatalf("unexpected %+v", m)
		}
	}
}

func (a *rawAgent) send(m protocol.Message) {
	a.t.Helper()
	data, _ := m.Encode()
	if err := a.ws.Write(a.t.Context(), websocket.MessageText, data); err != nil {
		a.t.Fatal(err)
	}
}

func (a *rawAgent) read() protocol.Message {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(a.t.Context(), 10*time.Second)
	defer cancel()
	_, data, err := a.ws.Read(ctx)
	if err != nil {
		a.t.Fatalf("raw agent read: %v", err)
	}
	var m protocol.Message
	_ = json.Unmarshal(data, &m)
	return m
}

// assigned waits for an assign.
func (a *rawAgent) assigned() protocol.Job {
	a.t.Helper()
	for {
		if m := a.read(); m.Type == protocol.MsgAssign {
			return *m.Job
		}
	}
}

// A malicious or broken agent cannot forge SSE frames, serve pages from
// the hub's origin, or keep a cancelled run going after a reconnect; and it
// gets only the secrets the test uses.
func TestRawAgentCannotMisbehave(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr, admin := o.members[access.TestManager], o.members[access.Admin]
	env := mgr.do("POST", "/api/environments", map[string]any{"name": "Prod", "variables": map[string]string{},
		"secrets": map[string]string{"USED": "used-secret-value", "UNUSED": "unused-secret-value"}}, ProjectHeader, o.project).want(t, 201).str("id")
	a := h.rawAgent(t, mgr, "")
	id := mgr.createTest(t, o.project, map[string]any{"name": "T", "steps": []map[string]any{
		{"id": "s1", "type": "navigate", "url": "https://example.com/?p=${secrets.USED}"}}})
	runID := mgr.do("POST", "/api/runs", map[string]any{"testId": id, "environmentId": env}, ProjectHeader, o.project).want(t, 201).str("runId")
	job := a.assigned()
	if job.Secrets["USED"] != "used-secret-value" || len(job.Secrets) != 1 {
		t.Errorf("the agent got secrets %v; want only USED", job.Secrets)
	}
	a.send(protocol.Message{Type: protocol.MsgAccept, RunID: runID})
	ev := func(seq int64, kind protocol.EventKind, extra func(*protocol.Event)) {
		e := protocol.Event{Seq: seq, Kind: kind}
		if extra != nil {
			extra(&e)
		}
		a.send(protocol.Message{Type: protocol.MsgEvent, RunID: runID, Event: &e})
	}
	ev(1, protocol.RunStarted, nil)
	ev(2, "log\ndata: {\"forged\":true}\n\nid: 99\nevent: run.finished", nil)
	ev(3, protocol.LogLine, func(e *protocol.Event) { e.Message = "typed used-secret-value" })
	a.send(protocol.Message{Type: protocol.MsgArtifact, RunID: runID, Artifact: &protocol.ArtifactInfo{Name: "page.html", ContentType: "text/html", Size: 30}})
	if err := a.ws.Write(t.Context(), websocket.MessageBinary, []byte("<script>alert(document.cookie)</script>")); err != nil {
		t.Fatal(err)
	}
	var art response
	for range 100 {
		if art = admin.do("GET", "/api/runs/"+runID+"/artifacts/page.html", nil); art.status == 200 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	art.want(t, 200)
	if ct := art.header.Get("Content-Type"); ct != "application/octet-stream" || !strings.Contains(art.header.Get("Content-Security-Policy"), "sandbox") ||
		!strings.HasPrefix(art.header.Get("Content-Disposition"), "attachment") {
		t.Errorf("an agent's text/html artifact is served as %q, CSP %q, disposition %q", ct, art.header.Get("Content-Security-Policy"), art.header.Get("Content-Disposition"))
	}
	// Cancel while the agent is away; it hears of it when it is back.
	a.ws.CloseNow()
	mgr.do("POST", "/api/runs/"+runID+"/cancel", nil).want(t, 202)
	a = h.rawAgent(t, mgr, a.token)
	// (the reconnect's hello listed no runs, so the hub took the run back)
	r := mgr.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
	if r["status"] != "cancelled" {
		t.Errorf("a run cancelled while its agent was away: %v", r)
	}

	events := admin.sse(t, runID)
	all, _ := json.Marshal(events)
	if strings.Contains(string(all), "forged") || strings.Contains(string(all), "used-secret-value") {
		t.Errorf("events: %s", all)
	}
	// A stream resumed after run.finished ends at once.
	req, _ := newRequest(h, "GET", "/api/runs/"+runID+"/events")
	req.Header.Set("Last-Event-ID", "1000")
	start := time.Now()
	res, err := admin.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if time.Since(start) > 5*time.Second {
		t.Error("an event stream resumed past run.finished did not end")
	}
}

// report is the result a real agent sends for a job that ended with
// status: passed, every step passed; failed, the last step failed; else
// every step skipped. The hub checks results against the job.
func report(job protocol.Job, status string) *protocol.RunResult {
	n := len(job.Document.Steps)
	res := &protocol.RunResult{Status: status, Total: n, Steps: []protocol.StepResult{}}
	for i, st := range job.Document.Steps {
		s := protocol.StepSkipped
		switch {
		case status == protocol.RunPassed, status == protocol.RunFailed && i < n-1:
			s = protocol.StepPassed
			res.Passed++
		case status == protocol.RunFailed:
			s = protocol.StepFailed
		}
		res.Steps = append(res.Steps, protocol.StepResult{Index: i, ID: st.ID, Type: st.Type, Status: s})
	}
	return res
}
