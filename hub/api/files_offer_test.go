package api

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// offerFile posts a file offer as an agent would, answering on the channel
// once the hub does.
func offerFile(t *testing.T, h *harness, token, session, name string, data []byte) <-chan response {
	t.Helper()
	out := make(chan response, 1)
	go func() {
		u := h.srv.URL + "/api/agent/files?session=" + session + "&name=" + name
		req, _ := http.NewRequest("POST", u, bytes.NewReader(data))
		if token != "" {
			req.Header.Set("Authorization", "Agent "+token)
		}
		req.Header.Set("Content-Type", "application/octet-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			out <- response{status: -1, body: []byte(err.Error())}
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		out <- response{status: resp.StatusCode, header: resp.Header, body: body}
	}()
	return out
}

// waitOffer reads the recording's stream until a file.offered entry and
// answers its data.
func waitOffer(t *testing.T, c *client, id string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.h.srv.URL+"/api/record/"+id+"/events", nil)
	resp, err := c.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	kind := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			kind = line[7:]
		case strings.HasPrefix(line, "data: ") && kind == "file.offered":
			var d map[string]any
			if err := json.Unmarshal([]byte(line[6:]), &d); err != nil {
				t.Fatal(err)
			}
			return d
		}
	}
	t.Fatal("no file.offered event on the recording's stream")
	return nil
}

func answered(t *testing.T, ch <-chan response) response {
	t.Helper()
	r := <-ch
	if r.status >= 400 {
		var body map[string]any
		if json.Unmarshal(r.body, &body) != nil || body["error"] == "" || body["code"] == "" {
			t.Errorf("refusal without {error, code}: %d %s", r.status, r.body)
		}
	}
	return r
}

// TestFileOfferAnswers: a file the recording's agent offers waits for the
// person: declined, the agent hears 409 declined and no file is kept;
// accepted, it becomes a project file the person uploaded and the agent
// hears its id; the recording ending ends a waiting offer (410).
func TestFileOfferAnswers(t *testing.T) {
	w := newAuthorWorld(t)
	owner, a := w.o.owner, w.agent
	id := w.p(owner, "POST", "/api/record/start", obj{"url": "https://example.com/"}).want(t, 201).str("id")
	a.expect(protocol.MsgAuthorStart)
	a.status(id, protocol.SessionRecording, "https://example.com/", "")

	// Declined.
	ch := offerFile(t, w.h, a.token, id, "notes.txt", []byte("notes"))
	off := waitOffer(t, owner, id)
	if off["name"] != "notes.txt" || off["size"] != float64(5) {
		t.Fatalf("offered %v", off)
	}
	offerID := off["offerId"].(string)
	// One offer at a time.
	if r := answered(t, offerFile(t, w.h, a.token, id, "other.txt", []byte("x"))); r.status != 409 || !strings.Contains(string(r.body), "offer_pending") {
		t.Errorf("second offer: %d %s", r.status, r.body)
	}
	owner.do("POST", "/api/sessions/"+id+"/files/"+offerID, obj{"accept": false}).want(t, 204)
	if r := answered(t, ch); r.status != 409 || !strings.Contains(string(r.body), `"declined"`) {
		t.Errorf("declined offer answered the agent %d %s", r.status, r.body)
	}
	owner.do("POST", "/api/sessions/"+id+"/files/"+offerID, obj{"accept": true}).want(t, 404) // answered already
	if files := w.p(owner, "GET", "/api/files", nil).want(t, 200).json()["files"].([]any); len(files) != 0 {
		t.Errorf("a declined file was kept: %v", files)
	}

	// Accepted.
	ch = offerFile(t, w.h, a.token, id, "report.pdf", []byte("%PDF-1.4 report"))
	offerID = waitOffer(t, owner, id)["offerId"].(string)
	f := owner.do("POST", "/api/sessions/"+id+"/files/"+offerID, obj{"accept": true}).want(t, 201).json()
	r := answered(t, ch)
	var got struct{ ID string }
	if r.status != 201 || json.Unmarshal(r.body, &got) != nil || got.ID != f["id"] || !strings.HasPrefix(got.ID, "fil_") {
		t.Fatalf("accepted offer answered the agent %d %s (file %v)", r.status, r.body, f)
	}
	listed := w.p(owner, "GET", "/api/files", nil).want(t, 200).json()["files"].([]any)
	if len(listed) != 1 || listed[0].(map[string]any)["name"] != "report.pdf" || listed[0].(map[string]any)["projectId"] != w.o.project ||
		listed[0].(map[string]any)["createdBy"].(map[string]any)["name"] != "Owner" {
		t.Errorf("files: %v", listed)
	}
	if body := owner.do("GET", "/api/files/"+got.ID+"/content", nil).want(t, 200).body; string(body) != "%PDF-1.4 report" {
		t.Errorf("content %q", body)
	}

	// The recording ends while an offer waits.
	ch = offerFile(t, w.h, a.token, id, "late.txt", []byte("late"))
	waitOffer(t, owner, id)
	a.status(id, protocol.SessionStopped, "", "")
	if r := answered(t, ch); r.status != 410 || !strings.Contains(string(r.body), "session_ended") {
		t.Errorf("offer of an ended recording: %d %s", r.status, r.body)
	}
	if r := answered(t, offerFile(t, w.h, a.token, id, "later.txt", []byte("x"))); r.status != 410 {
		t.Errorf("offer after the end: %d %s", r.status, r.body)
	}
}

// TestFileOfferRefusals: only the recording's own agent offers, within the
// file limits; only the recording's person, allowed to upload, answers.
func TestFileOfferRefusals(t *testing.T) {
	w := newAuthorWorld(t)
	h, o := w.h, w.o
	tester := o.members[access.Tester]
	ta := h.rawAgent(t, tester, "")
	id := w.p(tester, "POST", "/api/record/start", obj{"url": "https://example.com/"}).want(t, 201).str("id")
	ta.expect(protocol.MsgAuthorStart)
	ta.status(id, protocol.SessionRecording, "https://example.com/", "")

	for _, c := range []struct {
		name, token, session, file string
		data                       []byte
		status                     int
	}{
		{"no token", "", id, "a.txt", []byte("a"), 401},
		{"a wrong token", strings.Repeat("x", 43), id, "a.txt", []byte("a"), 401},
		{"another agent's", w.agent.token, id, "a.txt", []byte("a"), 404},
		{"no such recording", ta.token, "rec_nosuch", "a.txt", []byte("a"), 404},
		{"not a recording id", ta.token, "ses_x", "a.txt", []byte("a"), 404},
		{"a bad name", ta.token, id, "..", []byte("a"), 422},
		{"no name", ta.token, id, "", []byte("a"), 422},
		{"too big", ta.token, id, "big.bin", make([]byte, MaxFileSize+1), 413},
	} {
		if r := answered(t, offerFile(t, h, c.token, c.session, c.file, c.data)); r.status != c.status {
			t.Errorf("%s: %d %s, want %d", c.name, r.status, r.body, c.status)
		}
	}

	// A refused offer is answered before its body is read: a body that
	// never ends still gets its 404 at once.
	pr, pw := io.Pipe()
	defer pw.Close()
	req, _ := http.NewRequest("POST", h.srv.URL+"/api/agent/files?session=rec_aaaaaaaaaaaaaaaa&name=a.txt", pr)
	req.Header.Set("Authorization", "Agent "+ta.token)
	req.Header.Set("Content-Type", "application/octet-stream")
	go func() { _, _ = pw.Write(make([]byte, 1<<20)) }() // a first MiB, then nothing
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if resp, err := http.DefaultClient.Do(req.WithContext(ctx)); err != nil || resp.StatusCode != 404 {
		t.Errorf("an offer for no recording, body unfinished: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}

	ch := offerFile(t, h, ta.token, id, "a.txt", []byte("a"))
	offerID := waitOffer(t, tester, id)["offerId"].(string)
	path := "/api/sessions/" + id + "/files/" + offerID
	o.owner.do("POST", path, obj{"accept": true}).want(t, 404) // not the owner's recording
	o.members[access.TestManager].do("POST", path, obj{"accept": true}).want(t, 404)
	other := h.org(t)
	before := len(readAudit(t, h))
	other.owner.do("POST", path, obj{"accept": true}).want(t, 404)
	if n := len(readAudit(t, h)) - before; n != 1 {
		t.Errorf("a stranger answering wrote %d audit lines", n)
	}
	tester.do("POST", path, obj{}).want(t, 422)
	tester.do("POST", path, obj{"accept": "yes"}).want(t, 422)
	tester.do("POST", "/api/sessions/"+id+"/files/ofr_nosuch", obj{"accept": true}).want(t, 404)
	tester.do("POST", path, obj{"accept": false}).want(t, 204)
	if r := answered(t, ch); r.status != 409 {
		t.Errorf("declined: %d %s", r.status, r.body)
	}
	if files := w.p(o.owner, "GET", "/api/files", nil).want(t, 200).json()["files"].([]any); len(files) != 0 {
		t.Errorf("files kept by refused answers: %v", files)
	}
}

// TestHostileFileOffers: junk names, session ids and content types from a
// real agent token are refused with the standard body, and nothing waits.
func TestHostileFileOffers(t *testing.T) {
	w := newAuthorWorld(t)
	id := w.p(w.o.owner, "POST", "/api/record/start", obj{"url": "https://example.com/"}).want(t, 201).str("id")
	w.agent.expect(protocol.MsgAuthorStart)
	w.agent.status(id, protocol.SessionRecording, "https://example.com/", "")
	for _, name := range []string{"%00", "a%2Fb", "..", "%E2%80%AE.exe", "new%0Aline", strings.Repeat("a", 300)} {
		if r := answered(t, offerFile(t, w.h, w.agent.token, id, name, []byte("x"))); r.status != 422 {
			t.Errorf("name %q: %d %s", name, r.status, r.body)
		}
	}
	for _, session := range []string{"", "%00", "rec_", "rec_" + strings.Repeat("a", 300), "pck_aaaaaaaaaaaaaaaa", "../rec_x"} {
		if r := answered(t, offerFile(t, w.h, w.agent.token, session, "a.txt", []byte("x"))); r.status != 404 {
			t.Errorf("session %q: %d %s", session, r.status, r.body)
		}
	}
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"} {
		req, _ := http.NewRequest("POST", w.h.srv.URL+"/api/agent/files?session="+id+"&name=a.txt", strings.NewReader("x"))
		req.Header.Set("Authorization", "Agent "+w.agent.token)
		req.Header.Set("Content-Type", ct)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 415 {
			t.Errorf("content type %s: %d", ct, resp.StatusCode)
		}
	}
	// Nothing was offered: the person's stream holds no offer.
	for _, e := range readSessionEvents(t, w.o.owner, id, "", 2) {
		if e.kind == "file.offered" {
			t.Errorf("a refused offer reached the stream: %s", e.data)
		}
	}
}
