package api

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/language/langtest"
)

// hostileRoute is one route of the router with its path parameters.
type hostileRoute struct {
	method, pattern string
	segments        []string // the pattern split on "/"
	params          []int    // indexes of {param} segments
}

func (rt hostileRoute) key() string { return rt.method + " " + rt.pattern }

// path fills the parameters: override[i] replaces parameter i when set.
func (rt hostileRoute) path(w hostileWorld, override map[int]string) (string, error) {
	segs := slices.Clone(rt.segments)
	for _, i := range rt.params {
		if v, ok := override[i]; ok {
			segs[i] = v
			continue
		}
		name := strings.Trim(segs[i], "{}")
		v, ok := w.param(segs[i-1], name)
		if !ok {
			return "", fmt.Errorf("%s: the hostile test has no value for {%s} after %q; add one to hostileWorld.param", rt.key(), name, segs[i-1])
		}
		segs[i] = escapeSegment(v)
	}
	return strings.Join(segs, "/"), nil
}

func escapeSegment(v string) string { return strings.ReplaceAll(v, " ", "%20") }

// walkRoutes lists every route the hub's router serves.
func walkRoutes(t *testing.T, h http.Handler) []hostileRoute {
	var out []hostileRoute
	err := chi.Walk(h.(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		route = strings.TrimSuffix(route, "/")
		rt := hostileRoute{method: method, pattern: route, segments: strings.Split(route, "/")}
		for i, s := range rt.segments {
			if strings.HasPrefix(s, "{") {
				rt.params = append(rt.params, i)
			}
		}
		out = append(out, rt)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Destructive routes go last, and the organization and project last
	// of all, so the other routes meet real records.
	rank := func(rt hostileRoute) int {
		switch {
		case rt.method != "DELETE":
			return 0
		case rt.pattern == "/api/orgs/{id}" || rt.pattern == "/api/projects/{id}":
			return 2
		}
		return 1
	}
	sort.SliceStable(out, func(i, j int) bool {
		if a, b := rank(out[i]), rank(out[j]); a != b {
			return a < b
		}
		return out[i].key() < out[j].key()
	})
	return out
}

// weirdSegments are path parameter values: malformed, or naming nothing.
// Each must answer 404 (400 when the path itself is refused).
var weirdSegments = []string{"%00", "a%00b", "%ff%fe", strings.Repeat("x", 3000), "usr_%00aaaaaaaaaaaaaaaa", "..", "%2e%2e%2f",
	"tc_aaaaaaaaaaaaaaaa", "%E2%80%AE", "-1", "99999999999999999999"}

// weirdHeaders are x-project-id values: junk, unknown and malformed ids.
var weirdHeaders = []string{"%00", "prj_aaaaaaaaaaaaaaaa", "prj_%00aaaaaaaaaaaaaa", strings.Repeat("p", 3000), "prj_ééééééééééééééé", "  ", "tc_aaaaaaaaaaaaaaaa"}

// queryParams are the list routes' query parameters; each gets every
// weird value in turn.
var queryParams = []string{"q", "suite", "unsorted", "cursor", "limit", "status", "visibility", "sort", "testId", "flaky", "quarantined"}

var weirdQueryValues = []string{"%00", "a%00b", "%ff%fe", strings.Repeat("q", 3000), "%25%5F%5C", "-1", "99999999999999999999",
	"eyJ4IjoiXHUwMDAwIn0", "WyJcdTAwMDAiLCJ0Y19cdTAwMDAiXQ", "WyIyMDI2LTAxLTAxVDAwOjAwOjAwWlx1MDAwMCIsInRjX2FhYWFhYWFhYWFhYWFhYWEiXQ"} // cursors: {"x":"\u0000"}, ["\u0000","tc_\u0000"], [time+NUL, id]

func weirdQueries() []string {
	var out []string
	for _, p := range queryParams {
		for _, v := range weirdQueryValues {
			out = append(out, "?"+p+"="+v)
		}
	}
	// The last two go to record routes too (with: a run's comparison;
	// attempt: a retried run's trace).
	return append(out, "?q=x&q=y&suite=a&unsorted=true&with=run_aaaaaaaaaaaaaaaa&attempt=99999999999999999999", "?q=%00&cursor=%ff&limit=%00&with=%00&attempt=%00")
}

// skipped are routes a request/response exchange cannot exercise.
var skipped = map[string]string{
	// The agents' WebSocket answers the upgrade handshake, not JSON; its
	// messages are tested in hub/dispatch and rawagent_test.go.
	"GET /api/agent/connect": "WebSocket",
}

// TestHostileInputNever500 sends hostile input to every route the router
// serves (chi.Walk, so a new route is covered the day it is added): NUL
// characters in every string of a well-formed body and in its keys, values
// of the wrong type, 100 KB strings, JSON nested 10,000 deep, a body over
// 1 MiB (413), malformed path parameters, junk x-project-id headers and
// query strings. No answer may be a 5xx, every error has the standard body,
// and a NUL is never accepted. The server-sent events route is exercised
// with a bounded request.
func TestHostileInputNever500(t *testing.T) {
	h := newHarness(t)
	model := withModel(t, h, 1<<20)
	model.Default = func(langtest.Request) langtest.Reply { return langtest.Reply{Content: draftAnswer} }
	w := newHostileWorld(t, h)
	owner := w.o.owner
	spare, _ := h.register("Spare") // signs out at /api/auth/logout
	samples := w.samples()
	routes := walkRoutes(t, h.api.Handler(nil))
	for k := range samples {
		if !slices.ContainsFunc(routes, func(rt hostileRoute) bool { return rt.key() == k }) {
			t.Errorf("sample for %s, which the router does not serve", k)
		}
	}
	type tally struct {
		requests int
		statuses map[int]int
		took     time.Duration
	}
	counts := map[string]*tally{}
	total := tally{statuses: map[int]int{}}
	start := time.Now()
	for _, rt := range routes {
		if why, skip := skipped[rt.key()]; skip {
			t.Logf("%-52s skipped (%s)", rt.key(), why)
			continue
		}
		if rt.pattern == "/api/probe" {
			continue
		}
		base, err := rt.path(w, nil)
		if err != nil {
			t.Error(err)
			continue
		}
		sample, known := samples[rt.key()]
		if !known && (rt.method == "POST" || rt.method == "PUT" || rt.method == "PATCH") {
			t.Errorf("%s has no sample body in hostileWorld.samples: add one (noBody when it reads none)", rt.key())
		}
		// Path, header and query junk comes with the first sample body, so
		// that a handler reading its body first gets as far as the junk.
		var body []byte
		if len(sample) > 0 {
			body = mustJSON(t, sample[0])
		}
		var reqs []hostileRequest
		for _, hv := range weirdHeaders {
			reqs = append(reqs, hostileRequest{what: "x-project-id " + clipFor(hv), path: base, body: body, header: hv})
		}
		if rt.method == "GET" {
			queries := weirdQueries()
			if len(rt.params) > 0 { // a record, not a list: fewer filters to fool
				queries = queries[len(queries)-2:]
			}
			for _, q := range queries {
				reqs = append(reqs, hostileRequest{what: "query " + clipFor(q), path: base + q, body: body, header: w.o.project})
			}
		}
		for _, i := range rt.params {
			for _, v := range weirdSegments {
				p, err := rt.path(w, map[int]string{i: v})
				if err != nil {
					t.Error(err)
					continue
				}
				reqs = append(reqs, hostileRequest{what: "path " + clipFor(v), path: p, body: body, header: w.o.project,
					want: func(status int, _ []byte) string {
						if status != http.StatusNotFound && status != http.StatusBadRequest && status != http.StatusTooManyRequests {
							return "want 404 (or 400, or 429 for too many pairing codes)"
						}
						return ""
					}})
			}
		}
		reqs = append(reqs, bodyRequests(t, base, sample, w.o.project)...)
		c := owner
		switch rt.key() {
		case "POST /api/auth/logout":
			c = spare
		case "POST /api/auth/login", "POST /api/auth/register":
			c = h.client() // a success signs this client in
		}
		tl := &tally{statuses: map[int]int{}}
		counts[rt.key()] = tl
		began := time.Now()
		for i, rq := range reqs {
			if strings.HasPrefix(rt.pattern, "/api/agent/pair/") && i%pairMisses == 0 {
				c, _ = h.register("Pairing") // wrong codes are limited per user
			}
			status := hostileSend(t, c, rt.method, rq)
			tl.requests++
			tl.statuses[status]++
			total.requests++
			total.statuses[status]++
		}
		tl.took = time.Since(began)
	}
	// One line per route, for the record.
	for _, rt := range routes {
		if tl := counts[rt.key()]; tl != nil {
			t.Logf("%-52s %4d requests in %5dms: %s", rt.key(), tl.requests, tl.took.Milliseconds(), statusLine(tl.statuses))
		}
	}
	t.Logf("%d routes, %d requests in %s: %s", len(counts), total.requests, time.Since(start).Round(time.Millisecond), statusLine(total.statuses))
}

func statusLine(m map[int]int) string {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d×%d", k, m[k]))
	}
	return strings.Join(parts, " ")
}

// hostileSend sends one request with a bounded context (the events route
// streams) and checks the answer: never a 5xx, errors in the standard body,
// and whatever rq.want requires.
func hostileSend(t *testing.T, c *client, method string, rq hostileRequest) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	var rd io.Reader
	if rq.body != nil {
		rd = bytes.NewReader(rq.body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.h.srv.URL+rq.path, rd)
	if err != nil {
		t.Errorf("%s %.80s (%s): %v", method, rq.path, rq.what, err)
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	if rq.header != "" {
		req.Header.Set(ProjectHeader, rq.header)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		t.Errorf("%s %.80s (%s): %v", method, rq.path, rq.what, err)
		return 0
	}
	defer resp.Body.Close()
	var data []byte
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		cancel() // a live stream: its status is the answer
	} else {
		data, _ = io.ReadAll(resp.Body)
	}
	out := response{status: resp.StatusCode, header: resp.Header, body: data}
	where := fmt.Sprintf("%s %.80s (%s)", method, rq.path, rq.what)
	if out.status >= 400 {
		checkErrorBody(t, method, where, out)
	}
	if out.status >= 500 {
		t.Errorf("%s answered %d: %.300s", where, out.status, data)
	}
	if rq.want != nil {
		if msg := rq.want(out.status, data); msg != "" {
			t.Errorf("%s: %d: %s: %.300s", where, out.status, msg, data)
		}
	}
	return out.status
}
