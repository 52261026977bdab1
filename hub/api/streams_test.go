package api

import (
	"bufio"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/dbtest"
	"github.com/testautomation/ta/protocol"
)

// liveStream is an open event stream read to its end in the background.
type liveStream struct {
	name  string
	ended chan struct{} // closed when the hub ended the stream
	at    time.Time     // when, once ended
}

// openStream opens path's event stream as c, with extra headers (an API
// token), and checks the hub answered it.
func openStream(t *testing.T, c *client, name, path string, headers ...string) *liveStream {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "GET", c.h.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := c.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		resp.Body.Close()
		t.Fatalf("%s: %d %s", name, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	s := &liveStream{name: name, ended: make(chan struct{})}
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
		}
		s.at = time.Now()
		close(s.ended)
	}()
	return s
}

// endsWithin fails unless the stream ends within d of since (when the
// change that ends it was answered).
func (s *liveStream) endsWithin(t *testing.T, since time.Time, d time.Duration) {
	t.Helper()
	select {
	case <-s.ended:
		if took := s.at.Sub(since); took > d {
			t.Errorf("%s ended %s after the change, want within %s", s.name, took.Round(time.Millisecond), d)
		}
	case <-time.After(time.Until(since.Add(d + 2*time.Second))):
		t.Errorf("%s still open %s after the change", s.name, time.Since(since).Round(time.Millisecond))
	}
}

// open fails if the stream has ended.
func (s *liveStream) open(t *testing.T) {
	t.Helper()
	select {
	case <-s.ended:
		t.Errorf("%s ended, but its caller may still watch", s.name)
	default:
	}
}

// streamWorld is a project with a test whose run waits queued (no agent),
// so its event stream stays open, and a Tester of the project.
type streamWorld struct {
	h      *harness
	o      org
	tester *client
	runID  string
	events string // the run's event stream path
}

func newStreamWorld(t *testing.T, h *harness) streamWorld {
	o := h.org(t)
	test := o.owner.createTest(t, o.project, signInDoc("http://site.test", "Welcome"))
	o.owner.do("PUT", "/api/tests/"+test+"/sharing", map[string]any{"visibility": "Shared"}).want(t, 200)
	run := o.owner.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": test}).want(t, 201).str("runId")
	return streamWorld{h: h, o: o, tester: o.members[access.Tester], runID: run, events: "/api/runs/" + run + "/events"}
}

// signIn makes another session (another browser) for c's account.
func (c *client) signIn(t *testing.T) *client {
	t.Helper()
	other := c.h.client()
	other.do("POST", "/api/auth/login", map[string]string{"email": c.email(), "password": "correct horse battery"}).want(t, 200)
	return other
}

// settle gives the hub time to check open streams and CI agents a few
// times (it does every half second).
func settle() { time.Sleep(1500 * time.Millisecond) }

// Signing out ends that session's event streams within a second, and
// only that session's: the same user's other session, and its API token,
// watch on.
func TestStreamEndsOnSignOut(t *testing.T) {
	h := newHarness(t)
	w := newStreamWorld(t, h)
	owner := w.o.owner
	_, token := owner.newToken(t, map[string]any{"name": "watcher"})
	laptop := owner.signIn(t)
	mine := openStream(t, owner, "the signed-out session's stream", w.events)
	other := openStream(t, laptop, "the other session's stream", w.events)
	byToken := openStream(t, h.client(), "the token's stream", w.events, "Authorization", "Bearer "+token)
	settle()
	mine.open(t)

	owner.do("POST", "/api/auth/logout", nil).want(t, 204)
	mine.endsWithin(t, time.Now(), time.Second)
	settle()
	other.open(t)
	byToken.open(t)
	owner.do("GET", w.events, nil).want(t, 401)
}

// Revoking an API token ends its streams within a second, also when it
// is revoked on another hub of the same database (which cannot tell this
// hub): the check runs against the database. Its user's other token and
// session watch on.
func TestStreamEndsOnTokenRevoked(t *testing.T) {
	pool := dbtest.Pool(t)
	h := newHarnessOn(t, pool)
	w := newStreamWorld(t, h)
	owner := w.o.owner
	revokedID, revoked := owner.newToken(t, map[string]any{"name": "old"})
	_, kept := owner.newToken(t, map[string]any{"name": "kept", "projectId": w.o.project})
	gone := openStream(t, h.client(), "the revoked token's stream", w.events, "Authorization", "Bearer "+revoked)
	stays := openStream(t, h.client(), "the other token's stream", w.events, "Authorization", "Bearer "+kept)
	session := openStream(t, owner, "the session's stream", w.events)

	other := newHarnessOn(t, pool) // a second hub on the same database
	(&client{h: other, http: owner.http}).do("DELETE", "/api/tokens/"+revokedID, nil).want(t, 204)
	gone.endsWithin(t, time.Now(), time.Second)
	settle()
	stays.open(t)
	session.open(t)
}

// Removing a member from the organization ends their streams of its
// records within a second, session and token alike; other members watch
// on. So does deleting an account.
func TestStreamEndsOnRemoval(t *testing.T) {
	h := newHarness(t)
	w := newStreamWorld(t, h)
	_, token := w.tester.newToken(t, map[string]any{"name": "watcher"})
	session := openStream(t, w.tester, "the removed member's stream", w.events)
	byToken := openStream(t, h.client(), "the removed member's token stream", w.events, "Authorization", "Bearer "+token)
	dev := openStream(t, w.o.members[access.TestDeveloper], "another member's stream", w.events)
	settle()
	session.open(t)

	w.o.owner.do("DELETE", "/api/orgs/"+w.o.id+"/members/"+w.o.ids[access.Tester], nil).want(t, 204)
	at := time.Now()
	session.endsWithin(t, at, time.Second)
	byToken.endsWithin(t, at, time.Second)
	w.tester.do("GET", w.events, nil).want(t, 404)

	// An account deleted by a platform administrator (the first account,
	// the owner here).
	deleted := openStream(t, w.o.members[access.TestManager], "the deleted account's stream", w.events)
	w.o.owner.do("DELETE", "/api/members/"+w.o.ids[access.TestManager], nil).want(t, 204)
	deleted.endsWithin(t, time.Now(), time.Second)
	settle()
	dev.open(t)
}

// A password change ends the account's other sessions' streams within a
// second; the changing session's and (without revokeTokens) the API
// token's watch on. A reset ends them all: every session, every token.
func TestStreamEndsOnPasswordChangeAndReset(t *testing.T) {
	h := newHarness(t)
	w := newStreamWorld(t, h)
	dev := w.o.members[access.TestDeveloper]
	_, token := dev.newToken(t, map[string]any{"name": "watcher"})
	laptop := dev.signIn(t)
	mine := openStream(t, dev, "the changing session's stream", w.events)
	other := openStream(t, laptop, "the other session's stream", w.events)
	byToken := openStream(t, h.client(), "the token's stream", w.events, "Authorization", "Bearer "+token)

	dev.do("POST", "/api/auth/password", map[string]any{"currentPassword": "correct horse battery", "newPassword": "a brand new password"}).want(t, 204)
	other.endsWithin(t, time.Now(), time.Second)
	settle()
	mine.open(t)
	byToken.open(t)

	h.client().do("POST", "/api/auth/forgot", map[string]string{"email": dev.email()}).want(t, 204)
	h.api.Wait()
	m := resetLink.FindStringSubmatch(h.logs.String())
	if m == nil {
		t.Fatal("no reset link in the log")
	}
	u, _ := url.Parse(m[2])
	h.client().do("POST", "/api/auth/reset", map[string]string{"token": u.Query().Get("token"), "password": "recovered at last"}).want(t, 204)
	at := time.Now()
	mine.endsWithin(t, at, time.Second)
	byToken.endsWithin(t, at, time.Second)
}

// A recording's live stream ends as a run's does: here on signing out.
func TestRecordingStreamEndsOnSignOut(t *testing.T) {
	w := newAuthorWorld(t)
	owner := w.o.owner
	id := w.p(owner, "POST", "/api/record/start", obj{"url": "https://example.com/"}).want(t, 201).str("id")
	w.agent.expect(protocol.MsgAuthorStart)
	w.agent.status(id, protocol.SessionRecording, "https://example.com/", "")
	laptop := owner.signIn(t)
	mine := openStream(t, owner, "the recording stream", "/api/record/"+id+"/events")
	other := openStream(t, laptop, "the other session's recording stream", "/api/record/"+id+"/events")
	settle()
	mine.open(t)

	owner.do("POST", "/api/auth/logout", nil).want(t, 204)
	mine.endsWithin(t, time.Now(), time.Second)
	settle()
	other.open(t)

	// Removed from the organization (by its other Admin: the owner is
	// not the last one), the owner's other session's stream ends too.
	ownerID := laptop.do("GET", "/api/auth/session", nil).want(t, 200).str("id")
	w.o.members[access.Admin].do("DELETE", "/api/orgs/"+w.o.id+"/members/"+ownerID, nil).want(t, 204)
	other.endsWithin(t, time.Now(), time.Second)
}
