package api

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
)

// liveWorld is a Tester with a real headless agent (its authoring browser
// on a debugging port), the fixture site, an environment with its base
// URL and a secret, and the sign-in test saved.
type liveWorld struct {
	h      *harness
	o      org
	c      *client
	env    string
	test   string
	base   string
	port   int
	secret string
}

func newLiveWorld(t *testing.T) liveWorld {
	h := newHarness(t)
	o := h.org(t)
	c := o.members[access.Tester]
	w := liveWorld{h: h, o: o, c: c, base: site(t), port: freePort(t), secret: "s3cret-Pw9"}
	w.env = o.owner.do("POST", "/api/environments", obj{"name": "Local", "variables": obj{"baseUrl": w.base},
		"secrets": obj{"PASSWORD": w.secret}}, ProjectHeader, o.project).want(t, 201).str("id")
	w.test = c.createTest(t, o.project, signInDoc(w.base, "Welcome, ann@example.com"))
	startPairedAgent(t, h, c, "--remote-debugging-port", fmt.Sprint(w.port))
	return w
}

// open starts a live session and waits until its page is open.
func (w liveWorld) open(t *testing.T) string {
	t.Helper()
	r := w.c.do("POST", "/api/sessions", obj{"testId": w.test, "environmentId": w.env}, ProjectHeader, w.o.project).want(t, 201)
	id := r.str("id")
	if !strings.HasPrefix(id, "ses_") {
		t.Fatalf("start: %s", r.body)
	}
	w.settle(t, id, "ready")
	return id
}

// settle waits until the session's steps have run and it is in status.
func (w liveWorld) settle(t *testing.T, id, status string) map[string]any {
	t.Helper()
	var v map[string]any
	end := time.Now().Add(60 * time.Second)
	for {
		v = w.c.do("GET", "/api/sessions/"+id, nil).want(t, 200).json()
		if v["status"] == status {
			return v
		}
		if v["status"] != "running" && v["status"] != "starting" {
			t.Fatalf("session is %v, want %s: %v", v["status"], status, v)
		}
		if time.Now().After(end) {
			t.Fatalf("session still %v after 60 s", v["status"])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// run asks for steps and waits until they ran.
func (w liveWorld) run(t *testing.T, id string, body obj, status string) map[string]any {
	t.Helper()
	w.c.do("POST", "/api/sessions/"+id+"/run", body).want(t, 202)
	return w.settle(t, id, status)
}

func marks(v map[string]any) string {
	steps := v["steps"].(map[string]any)
	var out []string
	for _, id := range []string{"open", "email", "password", "submit", "greet"} {
		if m, ok := steps[id].(map[string]any); ok {
			out = append(out, id+"="+fmt.Sprint(m["status"]))
		}
	}
	return strings.Join(out, " ")
}

// sessionStream reads a live session's stream for a moment.
func sessionStream(t *testing.T, c *client, id string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.h.srv.URL+"/api/sessions/"+id+"/events", nil)
	resp, err := c.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %d", resp.StatusCode)
	}
	b, _ := io.ReadAll(resp.Body) // until the deadline
	return string(b)
}

// TestLiveSessionRunToFromAndThisStep is the editor's loop on a real
// agent: "Run to here" on a fresh page, "Run from here" on the page as it
// is (the sign-in would fail on any other page), "Run this step", each
// with the steps' marks, events as a run's and the secret masked.
func TestLiveSessionRunToFromAndThisStep(t *testing.T) {
	w := newLiveWorld(t)
	id := w.open(t)

	v := w.run(t, id, obj{"to": "password"}, "ready")
	if got := marks(v); got != "open=passed email=passed password=passed" || v["at"] != "submit" {
		t.Fatalf("run to here: %s at %v: %v", got, v["at"], v)
	}
	waitFor(t, func() bool {
		return strings.HasSuffix(w.c.do("GET", "/api/sessions/"+id, nil).want(t, 200).str("url"), "/login.html")
	})
	page := recordingPage(t, w.port, "/login.html")
	if got := page.MustElement("#email").MustProperty("value").String(); got != "ann@example.com" {
		t.Fatalf("the session's page has email %q", got)
	}

	v = w.run(t, id, obj{"from": "submit"}, "ready")
	if got := marks(v); got != "open=passed email=passed password=passed submit=passed greet=passed" {
		t.Fatalf("run from here: %s: %v", got, v)
	}
	if v["at"] != nil {
		t.Errorf("after the last step the page is at %v, want null (the end)", v["at"])
	}

	v = w.run(t, id, obj{"stepIds": []string{"greet"}}, "ready")
	if m := v["steps"].(map[string]any)["greet"].(map[string]any); m["status"] != "passed" || m["screenshot"] == nil {
		t.Fatalf("run this step: %v", m)
	}
	shot := w.c.do("GET", "/api/sessions/"+id+"/screenshots/"+fmt.Sprint(v["steps"].(map[string]any)["greet"].(map[string]any)["screenshot"]), nil).want(t, 200)
	if ct := shot.header.Get("Content-Type"); !isPNGBytes(shot.body) && !(ct == "image/jpeg" && len(shot.body) > 100) {
		t.Errorf("the step's screenshot is not an image: %s", ct)
	}

	stream := sessionStream(t, w.c, id)
	for _, want := range []string{"event: run.started", "event: step.started", "event: step.finished", `"status":"passed"`, "event: run.finished"} {
		if !strings.Contains(stream, want) {
			t.Errorf("the stream lacks %s", want)
		}
	}
	if strings.Contains(stream, w.secret) || strings.Contains(fmt.Sprint(v), w.secret) {
		t.Error("the secret came back from the session")
	}

	w.c.do("POST", "/api/sessions/"+id+"/close", nil).want(t, 204)
	if v := w.c.do("GET", "/api/sessions/"+id, nil).want(t, 200).json(); v["status"] != "closed" {
		t.Errorf("after close: %v", v["status"])
	}
	w.c.do("POST", "/api/sessions/"+id+"/run", obj{"to": "open"}).wantCode(t, 409, "session_ended")
}

// TestLiveSessionPausesOnFailureThenContinues runs the editor's unsaved
// document: its last step fails (its expected text is wrong, and a secret
// in it is masked in the error), the session pauses at that step with the
// page left as it is; the step fixed, continuing from it passes.
func TestLiveSessionPausesOnFailureThenContinues(t *testing.T) {
	w := newLiveWorld(t)
	id := w.open(t)
	doc := signInDoc(w.base, "Welcome, ${secrets.PASSWORD}")
	doc["steps"].([]map[string]any)[4]["timeoutMs"] = 1500
	v := w.run(t, id, obj{"document": doc, "pauseOnFailure": true}, "paused")
	if v["failedStepId"] != "greet" || v["at"] != "greet" {
		t.Fatalf("paused: %v", v)
	}
	greet := v["steps"].(map[string]any)["greet"].(map[string]any)
	if greet["status"] != "failed" || !strings.Contains(fmt.Sprint(greet["error"]), "***") || strings.Contains(fmt.Sprint(v), w.secret) {
		t.Fatalf("the failed step: %v", greet)
	}
	if s := sessionStream(t, w.c, id); strings.Contains(s, w.secret) || !strings.Contains(s, `"failedStepId":"greet"`) {
		t.Errorf("stream: secret shown or no pause: %s", s)
	}
	// Fixed in the editor, not saved: continue from the failed step.
	doc = signInDoc(w.base, "Welcome, ann@example.com")
	v = w.run(t, id, obj{"document": doc, "from": "greet", "pauseOnFailure": true}, "ready")
	if got := marks(v); !strings.HasSuffix(got, "greet=passed") || v["failedStepId"] != nil {
		t.Fatalf("continued: %s %v", got, v)
	}
}

// TestLivePickReplaysTheStepsBefore: a picker for a late step opens where
// that step happens: the steps before it replay on the session (a fresh
// page), not the test's first URL alone.
func TestLivePickReplaysTheStepsBefore(t *testing.T) {
	w := newLiveWorld(t)
	id := w.open(t)
	r := w.c.do("POST", "/api/pick/start", obj{"sessionId": id, "stepId": "submit"}, ProjectHeader, w.o.project).want(t, 201)
	pid := r.str("id")
	waitFor(t, func() bool {
		return w.c.do("GET", "/api/pick/"+pid, nil).want(t, 200).json()["status"] == "ready"
	})
	page := recordingPage(t, w.port, "/login.html")
	if got := page.MustElement("#email").MustProperty("value").String(); got != "ann@example.com" {
		t.Fatalf("the picker's page has email %q: the steps before were not replayed", got)
	}
	if v := w.c.do("GET", "/api/sessions/"+id, nil).want(t, 200).json(); v["at"] != "submit" {
		t.Errorf("after the replay the page is at %v", v["at"])
	}
	w.c.do("POST", "/api/pick/"+pid+"/close", nil).want(t, 204)
	// Standing there already, no replay: a second picker opens at once.
	w.c.do("POST", "/api/pick/start", obj{"sessionId": id, "stepId": "submit"}, ProjectHeader, w.o.project).want(t, 201)
}
