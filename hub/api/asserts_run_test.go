package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/testautomation/ta/protocol"
)

// The assertions, variables, log and request steps of issue 28, run
// through the hub and a paired agent with a real browser.

// assertsApp is an application under test: a page and a JSON API that
// echoes the Authorization header it gets.
func assertsApp(t *testing.T) string {
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Shop</title>
<p id="msg">Basket</p>
<label><input type="checkbox" id="agree" checked> Agree</label>
<button id="go" disabled>Go</button>
<input id="qty" value="2"> <input id="code" readonly value="X1">
<a id="home" href="/home" data-state="closed">Home</a>
<ul><li class="item">a</li><li class="item">b</li></ul>
<select id="size"><option value="s">Small</option><option value="l" selected>Large</option></select>
<script>setTimeout(() => { document.getElementById('go').disabled = false;
  document.getElementById('home').dataset.state = 'open'; }, 200);</script>`)
	})
	mux.HandleFunc("/api/orders", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(201)
		_ = json.NewEncoder(w).Encode(map[string]any{"order": map[string]any{"id": 42, "lines": []string{"a", "b"}},
			"auth": r.Header.Get("Authorization")})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestAssertionsAndRequestsThroughAnAgent(t *testing.T) {
	f := newRunFixture(t)
	app := assertsApp(t)
	css := func(sel string) map[string]any { return target(loc("css", sel)) }
	steps := []map[string]any{
		{"id": "open", "type": "navigate", "url": app + "/page"},
		{"id": "enabled", "type": "assertEnabled", "target": css("#go")},
		{"id": "checked", "type": "assertChecked", "target": css("#agree"), "checked": true},
		{"id": "editable", "type": "assertEditable", "target": css("#code"), "editable": false},
		{"id": "attr", "type": "assertAttribute", "target": css("#home"), "name": "data-state", "expected": "open", "match": "equals"},
		{"id": "notattr", "type": "assertAttribute", "target": css("#home"), "name": "href", "expected": "/away", "not": true},
		{"id": "count", "type": "assertCount", "target": css("li.item"), "expected": 2},
		{"id": "selected", "type": "assertSelected", "target": css("#size"), "expected": "Large", "by": "label"},
		{"id": "nottext", "type": "assertText", "target": css("#msg"), "expected": "Empty", "not": true},
		{"id": "nottitle", "type": "assertTitle", "expected": "Login", "not": true},
		{"id": "wait", "type": "waitFor", "target": css("#qty"), "state": "editable"},
		{"id": "n", "type": "setVariable", "name": "n", "from": "count", "target": css("li.item")},
		{"id": "href", "type": "setVariable", "name": "href", "from": "attribute", "attribute": "href", "target": css("#home")},
		{"id": "title", "type": "setVariable", "name": "title", "from": "title"},
		{"id": "async", "type": "script", "code": "await new Promise(r => setTimeout(r, 10));\nreturn Number(${n}) * 10", "assign": "tens"},
		{"id": "order", "type": "request", "method": "POST", "url": app + "/api/orders", "body": `{"qty": ${n}}`,
			"headers": map[string]string{"Authorization": "Bearer ${secrets.PASSWORD}"}, "expectStatus": 201, "assign": "resp"},
		{"id": "id", "type": "assertVariable", "name": "resp.body.order.id", "expected": "42", "match": "equals"},
		{"id": "line", "type": "assertVariable", "name": "resp.body.order.lines.1", "expected": "b", "match": "equals"},
		{"id": "vars", "type": "assertVariable", "name": "tens", "expected": "20", "match": "equals"},
		{"id": "say", "type": "log", "message": "order ${resp.body.order.id} of ${title} (${href}), token ${secrets.PASSWORD}"},
	}
	runID := f.start(t, map[string]any{"dsl": 2, "name": "Everything", "steps": steps}, map[string]any{"screenshots": false})
	events := f.user.sse(t, runID)
	r := f.user.do("GET", "/api/runs/"+runID, nil).want(t, 200)
	if got := r.json(); got["status"] != "passed" || num(got["passed"]) != len(steps) {
		t.Fatalf("run: %s", r.body)
	}
	const secret = "hunter2-very-secret"
	all, _ := json.Marshal(events)
	if strings.Contains(string(all), secret) || strings.Contains(string(r.body), secret) {
		t.Errorf("the secret leaked into the events or the run")
	}
	used := map[string]map[string]string{}
	for _, e := range events {
		if e.Kind == protocol.StepFinished {
			used[e.StepID] = e.Used
		}
	}
	if u := used["order"]; u["headers"] != "Authorization: ***" || u["status"] != "201 Created" || !strings.Contains(u["answer"], `"auth":"Bearer ***"`) {
		t.Errorf("the request step reports %+v", u)
	}
	if m := used["say"]["message"]; m != "order 42 of Shop (/home), token ***" {
		t.Errorf("log message %q", m)
	}
}

// A soft assertion's failure is recorded, the later steps run, and the run
// fails: the hub accepts that result and keeps every step's status.
func TestSoftAssertionThroughAnAgent(t *testing.T) {
	f := newRunFixture(t)
	app := assertsApp(t)
	steps := []map[string]any{
		{"id": "open", "type": "navigate", "url": app + "/page"},
		{"id": "soft", "type": "assertText", "target": target(loc("css", "#msg")), "expected": "Checkout", "soft": true, "timeoutMs": 500},
		{"id": "fill", "type": "fill", "target": target(loc("css", "#qty")), "value": "3"},
		{"id": "after", "type": "assertValue", "target": target(loc("css", "#qty")), "expected": "3", "match": "equals"},
	}
	runID := f.start(t, map[string]any{"dsl": 2, "name": "Soft", "steps": steps}, map[string]any{"screenshots": false})
	events := f.user.sse(t, runID)
	last := events[len(events)-1]
	if last.Kind != protocol.RunFinished || last.Status != "failed" {
		t.Fatalf("last event %+v (%s)", last, kinds(events))
	}
	r := f.user.do("GET", "/api/runs/"+runID, nil).want(t, 200).json()
	if r["status"] != "failed" || num(r["passed"]) != 3 || !strings.Contains(fmt.Sprint(r["error"]), `step 2 (soft, assertText) failed`) {
		t.Fatalf("run: %v", r)
	}
	res := r["result"].(map[string]any)["steps"].([]any)
	want := []string{"passed", "failed", "passed", "passed"}
	for i, s := range res {
		if got := s.(map[string]any)["status"]; got != want[i] {
			t.Errorf("step %d %v, want %s", i+1, got, want[i])
		}
	}
}
