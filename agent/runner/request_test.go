package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

// apiServer is an application under test with a page and a JSON API:
//
//	/page             a page that sets the cookie page=1
//	/api/cookies      the request's cookies, as JSON {cookies: "a=1; b=2"}
//	/api/items        GET: a list; POST: echoes the body's name and the
//	                  X-Token header, 201, and sets the cookie session=abc
//	/api/text         a plain text answer
//	/api/big          11 MiB
//	/api/redirect?to= redirects to to
func apiServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "page", Value: "1", Path: "/"})
		fmt.Fprint(w, "<!doctype html><title>API page</title><p id=p>page</p>")
	})
	mux.HandleFunc("/api/cookies", func(w http.ResponseWriter, r *http.Request) {
		var names []string
		for _, c := range r.Cookies() {
			names = append(names, c.Name+"="+c.Value)
		}
		sort.Strings(names)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"cookies": strings.Join(names, "; ")})
	})
	mux.HandleFunc("/api/items", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		if r.Method == http.MethodPost {
			var in struct{ Name string }
			b, _ := io.ReadAll(r.Body)
			if err := json.Unmarshal(b, &in); err != nil || r.Header.Get("Content-Type") != "application/json" {
				w.WriteHeader(400)
				fmt.Fprintf(w, `{"error":"bad body %q"}`, b)
				return
			}
			http.SetCookie(w, &http.Cookie{Name: "session", Value: "abc", Path: "/"})
			w.WriteHeader(201)
			_ = json.NewEncoder(w).Encode(map[string]any{"id": 8, "name": in.Name, "token": r.Header.Get("X-Token")})
			return
		}
		fmt.Fprint(w, `{"items":[{"id":7,"name":"first"}],"total":1}`)
	})
	mux.HandleFunc("/api/text", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "plain answer") })
	mux.HandleFunc("/api/big", func(w http.ResponseWriter, r *http.Request) {
		chunk := strings.Repeat("x", 1<<20)
		for range 11 {
			fmt.Fprint(w, chunk)
		}
	})
	mux.HandleFunc("/api/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func req(method, url string) protocol.Step {
	return protocol.Step{Type: "request", Method: method, URL: url}
}

// A request step calls an API with the browser context's cookies, stores
// cookies the answer sets back into it, and its answer is readable in
// later steps; secrets in what it sent and got are masked.
func TestRequestStep(t *testing.T) {
	t.Parallel()
	const secret = "tok-9f8e7d-secret"
	api := apiServer(t)
	post := req("POST", "api/items") // relative to baseUrl
	post.Body = protocol.Ptr(`{"name": "${thing}"}`)
	post.Headers = map[string]string{"X-Token": "${secrets.TOKEN}"}
	post.ExpectStatus = 201
	post.Assign = "created"
	list := req("", api.URL+"/api/items")
	list.Assign = "items"
	cookies := req("GET", api.URL+"/api/cookies")
	cookies.Assign = "jar"
	text := req("GET", api.URL+"/api/text")
	text.Assign = "txt"
	steps := []protocol.Step{
		{Type: "navigate", URL: api.URL + "/page"},
		{Type: "setVariable", Name: "thing", Value: protocol.Ptr("widget")},
		post,
		varIs("created.status", "equals", "201"),
		varIs("created.body.name", "equals", "widget"),
		varIs("created.headers.content-type", "contains", "application/json"),
		list,
		varIs("items.body.items.0.id", "equals", "7"),
		varIs("items.body.total", "equals", "1"),
		{Type: "log", Message: "created ${created.body.id}"},
		{Type: "script", Code: "return ${created.body.id} + 1", Assign: "next"},
		varIs("next", "equals", "9"),
		cookies,
		varIs("jar.body.cookies", "equals", "page=1; session=abc"),
		{Type: "script", Code: "return document.cookie", Assign: "pageCookies"},
		varIs("pageCookies", "contains", "session=abc"),
		text,
		varIs("txt.body", "equals", "plain answer"),
		varIs("txt.status", "equals", "200"),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	res, rec := runJob(t, ctx, protocol.Job{Version: 1, Document: document(t, steps...),
		Variables: map[string]string{"baseUrl": api.URL + "/"}, Secrets: map[string]string{"TOKEN": secret}})
	mustPass(t, res)
	u := res.Steps[2].Used
	if u["method"] != "POST" || u["url"] != api.URL+"/api/items" || u["status"] != "201 Created" ||
		u["headers"] != "X-Token: ***" || !strings.Contains(u["answer"], `"token":"***"`) {
		t.Errorf("the POST step's used values: %+v", u)
	}
	if got := res.Steps[9].Used["message"]; got != "created 8" {
		t.Errorf("log: %q", got)
	}
	b, _ := json.Marshal(rec.events)
	if strings.Contains(string(b), secret) {
		t.Errorf("the secret leaked into the events: %s", b)
	}
}

// What a request step refuses, and how it fails.
func TestRequestStepFails(t *testing.T) {
	t.Parallel()
	api := apiServer(t)
	expect := req("GET", api.URL+"/api/nothing")
	expect.ExpectStatus = 200
	missing := req("GET", api.URL+"/api/items")
	missing.Assign = "r"
	cases := []struct {
		name  string
		steps []protocol.Step
		want  string
	}{
		{"status", []protocol.Step{expect}, "expected the answer of GET " + api.URL + "/api/nothing to have status 200, but it has 404 Not Found"},
		{"file url", []protocol.Step{req("GET", "${where}")}, "request to file:///etc/passwd refused"},
		{"redirect to a file", []protocol.Step{req("GET", api.URL+"/api/redirect?to=file:///etc/passwd")}, "the redirect of " + api.URL + "/api/redirect?to=file:///etc/passwd to file:///etc/passwd refused: a request step may only call http: and https: addresses"},
		{"credentials in the address", []protocol.Step{req("GET", "http://me:pw@127.0.0.1:1/")}, "user names and passwords in the address are not sent"},
		{"too big", []protocol.Step{req("GET", api.URL+"/api/big")}, "is larger than 10 MiB"},
		{"nobody answers", []protocol.Step{req("GET", "http://127.0.0.1:1/")}, "GET http://127.0.0.1:1/ failed: "},
		{"the browser's DevTools", []protocol.Step{req("GET", "${devtools}/json/list")}, "connecting to 127.0.0.1:"},
		{"the browser's DevTools by name", []protocol.Step{req("PUT", "${devtoolsByName}/json/new?about:blank")}, "it is the DevTools address of the agent's browser, which no test may call"},
		{"a redirect to the browser's DevTools", []protocol.Step{req("GET", api.URL+"/api/redirect?to=${devtools}/json/version")}, "it is the DevTools address of the agent's browser"},
		{"a cloud metadata address", []protocol.Step{req("GET", "http://169.254.169.254/latest/meta-data/")}, "link-local addresses (cloud metadata services, 169.254.169.254)"},
		{"headers redirected to another origin", []protocol.Step{withHeader(req("GET", api.URL+"/api/redirect?to=${other}/api/text"), "X-Api-Key", "k")},
			"a request step with headers or a body follows redirects only within its origin"},
		{"missing field", []protocol.Step{missing, varIs("r.body.items.0.price", "equals", "1")}, `${r.body.items.0.price}: r.body.items.0 has no field "price" (it has id, name)`},
		{"missing field in a later step", []protocol.Step{missing, fillStep(css("#x"), "${r.body.nope}")}, `${r.body.nope}: r.body has no field "nope" (it has items, total)`},
	}
	cu, err := url.Parse(testBrowser.ControlURL())
	if err != nil {
		t.Fatal(err)
	}
	au, _ := url.Parse(api.URL)
	vars := map[string]string{"where": "file:///etc/passwd", "devtools": "http://" + cu.Host, "devtoolsByName": "http://localhost:" + cu.Port(),
		"other": "http://localhost:" + au.Port()} // the same server under another origin
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			res, _ := runJob(t, ctx, protocol.Job{Version: 1, Document: document(t, c.steps...), Variables: vars})
			last := res.Steps[len(res.Steps)-1]
			if res.Status != protocol.RunFailed || last.Status != protocol.StepFailed || !strings.Contains(last.Error, c.want) {
				t.Errorf("run %s: last step %s %q, want it to contain %q", res.Status, last.Status, last.Error, c.want)
			}
		})
	}
}

func withHeader(st protocol.Step, k, v string) protocol.Step {
	st.Headers = map[string]string{k: v}
	return st
}
