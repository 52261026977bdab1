package api

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/coder/websocket"
	"github.com/testautomation/ta/protocol"
)

// send is one request as a browser's page (or anything else) might make
// it: no header is added, not even Content-Type.
func (c *client) send(method, path, body string, headers ...string) response {
	c.h.t.Helper()
	return sendTo(c.h.t, c.http, c.h.srv.URL, method, path, body, headers...)
}

// sendTo sends a request to base with headers as name, value pairs; a
// "Host" pair sets the host the request is addressed to.
func sendTo(t testing.TB, hc *http.Client, base, method, path, body string, headers ...string) response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" { // net/http sends req.Host, not a Host header
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	out := response{status: resp.StatusCode, header: resp.Header, body: data}
	if resp.StatusCode >= 400 {
		checkErrorBody(t, method, path, out)
	}
	return out
}

func (r response) wantCode(t testing.TB, status int, code string) response {
	t.Helper()
	r.want(t, status)
	if got := r.str("code"); got != code {
		t.Fatalf("code %q, want %q: %s", got, code, r.body)
	}
	return r
}

// waitingAgent is an agent asking to pair; it answers its pairing code.
func (h *harness) waitingAgent(t *testing.T) (*websocket.Conn, string) {
	t.Helper()
	ws, _, err := websocket.Dial(t.Context(), "ws"+strings.TrimPrefix(h.srv.URL, "http")+"/api/agent/connect", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.CloseNow() })
	a := &rawAgent{t: t, ws: ws}
	a.send(protocol.Message{Type: protocol.MsgHello, Protocol: protocol.Version, Pair: &protocol.PairRequest{Hostname: "attacker", OS: "linux"}})
	m := a.read()
	if m.Type != protocol.MsgPairing || m.Code == "" {
		t.Fatalf("no pairing code: %+v", m)
	}
	return ws, m.Code
}

// The attack from the report: a page on another port of the hub's host
// posts a text/plain form to approve the attacker's agent as the signed-in
// victim. It is refused, and the pairing stays unapproved.
func TestCrossOriginPairingRefused(t *testing.T) {
	h := newHarness(t)
	victim, _ := h.register("Victim")
	ws, code := h.waitingAgent(t)
	evil := "http://127.0.0.1:" + otherPort(h)
	victim.send("POST", "/api/agent/pair/"+code, "a=b", "Origin", evil, "Content-Type", "text/plain;charset=UTF-8").
		wantCode(t, 403, codeCrossOrigin)
	victim.send("POST", "/api/agent/pair/"+code, "", "Origin", evil).wantCode(t, 403, codeCrossOrigin)
	victim.send("POST", "/api/agent/pair/"+code, "", "Sec-Fetch-Site", "same-site").wantCode(t, 403, codeCrossOrigin)
	if list := victim.do("GET", "/api/agent", nil).want(t, 200).json(); len(list["agents"].([]any)) != 0 {
		t.Fatalf("the attacker's agent was approved: %v", list)
	}
	// The code is still waiting (nothing consumed it) and works from the
	// hub's own page; the agent hears of that approval first.
	victim.send("POST", "/api/agent/pair/"+code, "", "Origin", h.srv.URL, "Sec-Fetch-Site", "same-origin").want(t, 201)
	if m := (&rawAgent{t: t, ws: ws}).read(); m.Type != protocol.MsgPaired {
		t.Fatalf("the agent heard %+v first", m)
	}
}

// otherPort is a port of the hub's host that is not the hub's.
func otherPort(h *harness) string {
	u, _ := url.Parse(h.srv.URL)
	if u.Port() == "8081" {
		return "8082"
	}
	return "8081"
}

// Login CSRF (signing the victim into the attacker's account) and changes
// made for a signed-in user are refused from another origin, or without
// Origin when Sec-Fetch-Site says another site; the hub's own pages and
// clients that are not browsers (no Origin, no Sec-Fetch-Site) pass.
func TestCrossOriginChangesRefused(t *testing.T) {
	h := newHarness(t)
	attacker, _ := h.register("Attacker")
	email := attacker.email()
	evil := "http://127.0.0.1:" + otherPort(h)
	creds := `{"email":"` + email + `","password":"correct horse battery"}`

	victim := h.client()
	for _, ct := range []string{"text/plain", "application/json"} {
		r := victim.send("POST", "/api/auth/login", creds, "Origin", evil, "Content-Type", ct).wantCode(t, 403, codeCrossOrigin)
		if r.header.Get("Set-Cookie") != "" {
			t.Errorf("a refused sign-in set a cookie: %v", r.header)
		}
	}
	victim.send("POST", "/api/auth/login", creds, "Sec-Fetch-Site", "cross-site", "Content-Type", "application/json").wantCode(t, 403, codeCrossOrigin)
	if s := victim.do("GET", "/api/auth/session", nil).want(t, 200); string(s.body) != "null\n" {
		t.Fatalf("the victim's browser is signed in: %s", s.body)
	}

	user, _ := h.register("User")
	orgs := func() int {
		return len(user.do("GET", "/api/context", nil).want(t, 200).json()["organizations"].([]any))
	}
	body := `{"name":"Evil"}`
	refused := [][]string{
		{"Origin", evil, "Content-Type", "application/x-www-form-urlencoded"},
		{"Origin", evil, "Content-Type", "application/json"},
		{"Origin", "null", "Content-Type", "application/json"},
		{"Origin", "", "Content-Type", "application/json"},
		{"Origin", "https" + strings.TrimPrefix(h.srv.URL, "http"), "Content-Type", "application/json"}, // another scheme
		{"Origin", "http://sub." + strings.TrimPrefix(h.srv.URL, "http://"), "Content-Type", "application/json"},
		{"Origin", evil, "Sec-Fetch-Site", "same-origin", "Content-Type", "application/json"}, // Origin decides
		{"Sec-Fetch-Site", "cross-site", "Content-Type", "application/json"},
		{"Sec-Fetch-Site", "same-site", "Content-Type", "application/json"},
	}
	for _, hdr := range refused {
		user.send("POST", "/api/orgs", body, hdr...).wantCode(t, 403, codeCrossOrigin)
	}
	if n := orgs(); n != 0 {
		t.Fatalf("refused requests created %d organizations", n)
	}
	passed := [][]string{
		{"Origin", h.srv.URL, "Content-Type", "application/json"},
		{"Origin", strings.ToUpper(h.srv.URL), "Content-Type", "application/json"},
		{"Origin", h.srv.URL, "Sec-Fetch-Site", "same-origin", "Content-Type", "application/json; charset=utf-8"},
		{"Sec-Fetch-Site", "same-origin", "Content-Type", "application/json"},
		{"Sec-Fetch-Site", "none", "Content-Type", "application/json"},
		{"Content-Type", "application/json"}, // curl, the CI command, tokens
	}
	var id string
	for _, hdr := range passed {
		id = user.send("POST", "/api/orgs", body, hdr...).want(t, 201).str("id")
	}
	// Every method that changes something, on every route.
	user.send("PUT", "/api/orgs/"+id, `{"name":"Renamed"}`, "Origin", evil, "Content-Type", "application/json").wantCode(t, 403, codeCrossOrigin)
	user.send("DELETE", "/api/orgs/"+id, "", "Origin", evil).wantCode(t, 403, codeCrossOrigin)
	user.send("PATCH", "/api/no-such-route", "", "Origin", evil).wantCode(t, 403, codeCrossOrigin)
	user.send("POST", "/api/auth/logout", "", "Origin", evil).wantCode(t, 403, codeCrossOrigin)
	user.do("GET", "/api/auth/session", nil).want(t, 200) // still signed in
	user.send("DELETE", "/api/orgs/"+id, "", "Origin", h.srv.URL).want(t, 204)
	if n := orgs(); n != len(passed)-1 {
		t.Fatalf("%d organizations, want %d", n, len(passed)-1)
	}
	// Reading is not refused: a page cannot read the answer anyway.
	user.send("GET", "/api/context", "", "Origin", evil, "Sec-Fetch-Site", "cross-site").want(t, 200)
}

// With HUB_BASE_URL configured, its origin is the hub's only one, whatever
// Host a request names.
func TestConfiguredOrigin(t *testing.T) {
	h := newHarness(t)
	s, err := New(Config{Store: h.store, Origin: "https://tests.example.com", BaseURL: "https://tests.example.com", Hasher: h.api.Hasher})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler(nil))
	defer srv.Close()
	login := func(origin string) response {
		return sendTo(t, srv.Client(), srv.URL, "POST", "/api/auth/login", `{"email":"nobody@example.com","password":"wrong password"}`,
			"Origin", origin, "Content-Type", "application/json")
	}
	for _, o := range []string{"https://tests.example.com", "https://TESTS.example.com", "https://tests.example.com:443"} {
		login(o).wantCode(t, 401, "invalid_credentials") // past the origin check
	}
	for _, o := range []string{srv.URL, "http://tests.example.com", "https://tests.example.com:8443", "https://evil.example.com"} {
		login(o).wantCode(t, 403, codeCrossOrigin)
	}
	for _, bad := range []string{"null", "tests.example.com", "ftp://tests.example.com"} {
		if _, err := New(Config{Store: h.store, Origin: bad, Hasher: h.api.Hasher}); err == nil {
			t.Errorf("New accepted origin %q", bad)
		}
	}
}

// A JSON route refuses bodies of any other type, and any other declared
// type even without a body; empty requests without a type pass.
func TestJSONBodiesOnly(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members["Test Manager"]
	for _, ct := range []string{"", "text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
		"multipart/form-data; boundary=x", "application/jsonx", "text/json", "nonsense;;"} {
		for _, route := range [][2]string{{"POST", "/api/auth/login"}, {"POST", "/api/auth/register"}, {"POST", "/api/orgs"},
			{"PUT", "/api/orgs/" + o.id}, {"POST", "/api/tests"}, {"POST", "/api/agent/pair/ABC-DEF"}} {
			hdr := []string{ProjectHeader, o.project}
			if ct != "" {
				hdr = append(hdr, "Content-Type", ct)
			}
			mgr.send(route[0], route[1], `{"name":"X"}`, hdr...).wantCode(t, 415, codeUnsupportedMediaType)
			if ct != "" {
				mgr.send(route[0], route[1], "", hdr...).wantCode(t, 415, codeUnsupportedMediaType)
			}
		}
	}
	mgr.send("POST", "/api/orgs", `{"name":"A"}`, "Content-Type", "application/json;charset=UTF-8").want(t, 201)
	o.owner.send("PUT", "/api/orgs/"+o.id, `{"name":"B"}`, "Content-Type", "application/merge-patch+json").want(t, 200)

	// Empty requests without a type: revise, logout.
	id := mgr.createTest(t, o.project, doc("Flow", 1))
	mgr.do("PUT", "/api/tests/"+id, map[string]any{"status": "Ready"}).want(t, 200)
	mgr.send("POST", "/api/tests/"+id+"/revisions", "").want(t, 201)
	mgr.send("POST", "/api/auth/logout", "").want(t, 204)
	mgr.send("GET", "/api/auth/session", "").want(t, 200)
}

// The agents' WebSocket is a GET, so sameOrigin lets it by; its upgrade
// keeps its own check (coder/websocket's default): another origin is
// refused before any message.
func TestAgentWebSocketCrossOriginRefused(t *testing.T) {
	h := newHarness(t)
	url := "ws" + strings.TrimPrefix(h.srv.URL, "http") + "/api/agent/connect"
	evil := "http://127.0.0.1:" + otherPort(h)
	_, resp, err := websocket.Dial(t.Context(), url, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {evil}}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-origin upgrade: err %v, response %v", err, resp)
	}
	ws, _, err := websocket.Dial(t.Context(), url, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {h.srv.URL}}})
	if err != nil {
		t.Fatalf("same-origin upgrade: %v", err)
	}
	ws.CloseNow()
}
