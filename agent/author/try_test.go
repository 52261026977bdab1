package author

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// TestTry runs snippets as the runner's script step does: the value, the
// console, a throw, a busy loop stopped by the time limit, a promise that
// never settles, and secrets masked everywhere.
func TestTry(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html><title>Shop</title><p>hi</p>`})
	m := manager(t)
	ctx := context.Background()
	const secret = "hunter2-Pw"

	cases := []struct {
		name      string
		req       protocol.TryRequest
		value     string
		console   []protocol.ConsoleLine
		err       string
		maxMillis int64
	}{
		{name: "value and console at a URL",
			req:     protocol.TryRequest{URL: srv.URL + "/", Code: `console.log("title", document.title); console.warn({a: 1, b: "x"}, [1, 2]); return {n: 2, who: ${user}}`, Variables: map[string]string{"user": "ann"}},
			value:   `{"n":2,"who":"ann"}`,
			console: []protocol.ConsoleLine{{Level: "log", Text: "title Shop"}, {Level: "warn", Text: `{a: 1, b: "x"} [1, 2]`}}},
		{name: "await and undefined", req: protocol.TryRequest{Code: `await new Promise(r => setTimeout(r, 10))`}, value: `null`},
		{name: "not JSON", req: protocol.TryRequest{Code: `return () => 1`}, value: `"() => 1"`},
		{name: "throw", req: protocol.TryRequest{Code: `throw new Error("no cart")`}, value: `null`, err: "the script threw: Error: no cart"},
		{name: "secrets masked",
			req:     protocol.TryRequest{Code: `console.log("pw", ${secrets.PW}); if (${secrets.PW}.length) throw new Error("bad " + ${secrets.PW}); `, Secrets: map[string]string{"PW": secret}},
			value:   `null`,
			console: []protocol.ConsoleLine{{Level: "log", Text: "pw ***"}},
			err:     "the script threw: Error: bad ***"},
		{name: "secret in the value", req: protocol.TryRequest{Code: `return ${secrets.PW}`, Secrets: map[string]string{"PW": secret}}, value: `"***"`},
		// Issue 26, finding 11: vars.secrets.NAME, as the README says.
		{name: "vars.secrets", req: protocol.TryRequest{Code: `console.log(vars.secrets.PW); return [vars.secrets.PW.length, vars.secrets.PW]`,
			Secrets: map[string]string{"PW": secret}}, value: `[10,"***"]`, console: []protocol.ConsoleLine{{Level: "log", Text: "***"}}},
		{name: "busy loop", req: protocol.TryRequest{Code: `while (true) {}`, TimeoutMs: 500}, value: `null`, err: "the script did not finish within 500 ms", maxMillis: 10_000},
		{name: "never settles", req: protocol.TryRequest{Code: `await new Promise(() => {})`, TimeoutMs: 300}, value: `null`, err: "the script did not finish within 300 ms", maxMillis: 10_000},
		{name: "unknown variable", req: protocol.TryRequest{Code: `return ${nope}`}, value: `null`, err: "${nope}"},
		// Issue 28: dotted references read a field of a JSON variable as in
		// a run (a request step's answer), the variable arriving parsed.
		{name: "dotted reference", req: protocol.TryRequest{Code: `return [${resp.body.items.1.id}, ${resp.status}, typeof ${resp}]`,
			Variables: map[string]string{"resp": `{"status":201,"body":{"items":[{"id":"a"},{"id":"b"}]}}`}}, value: `["b",201,"object"]`},
		{name: "dotted reference to a missing field", req: protocol.TryRequest{Code: `return ${resp.body.nope}`,
			Variables: map[string]string{"resp": `{"status":201,"body":{"items":[]}}`}}, value: `null`, err: `${resp.body.nope}: resp.body has no field "nope" (it has items)`},
		{name: "dotted reference to text", req: protocol.TryRequest{Code: `return ${user.name}`,
			Variables: map[string]string{"user": "ann"}}, value: `null`, err: "the variable user does not hold JSON"},
		{name: "unreachable", req: protocol.TryRequest{URL: "http://127.0.0.1:9/", Code: `return 1`}, value: `null`, err: "cannot open http://127.0.0.1:9/"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := m.Try(ctx, c.req)
			if string(res.Value) != c.value {
				t.Errorf("value %s, want %s", res.Value, c.value)
			}
			if c.err == "" && res.Error != nil {
				t.Errorf("error %q", res.Error.Message)
			}
			if c.err != "" && (res.Error == nil || !strings.Contains(res.Error.Message, c.err)) {
				t.Errorf("error %+v, want %q", res.Error, c.err)
			}
			if c.console != nil && !equalConsole(res.Console, c.console) {
				t.Errorf("console %+v, want %+v", res.Console, c.console)
			}
			if c.maxMillis > 0 && res.DurationMs > c.maxMillis {
				t.Errorf("took %d ms", res.DurationMs)
			}
			all := string(res.Value)
			for _, l := range res.Console {
				all += l.Text
			}
			if res.Error != nil {
				all += res.Error.Message
			}
			if strings.Contains(all, secret) {
				t.Errorf("the secret leaked: %s", all)
			}
		})
	}
}

func equalConsole(got, want []protocol.ConsoleLine) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

// TestTryInRecording runs a snippet in a recording's page, which keeps
// working after a busy loop was stopped.
func TestTryInRecording(t *testing.T) {
	srv := site(t, map[string]string{"/": `<!doctype html><title>Cart</title><p>hi</p>`})
	id, out, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	m := manager(t)
	res := m.Try(context.Background(), protocol.TryRequest{Session: id, Code: `while (true) {}`, TimeoutMs: 300})
	if res.Error == nil || !strings.Contains(res.Error.Message, "did not finish within 300 ms") {
		t.Fatalf("busy loop: %+v", res)
	}
	res = m.Try(context.Background(), protocol.TryRequest{Session: id, Code: `return document.title`})
	if string(res.Value) != `"Cart"` || res.Error != nil {
		t.Fatalf("after the busy loop: %s %+v", res.Value, res.Error)
	}
	p.MustElement("p").MustClick()
	out.waitSteps(t, "navigate,click")
}

// TestAuthoringRefusesSchemes (issue 26, finding 1a): a script tried, a
// recording and a picker never open an address a test may not open: the
// start address is refused, what a tried script makes the page open is
// refused and said, and an authoring page asked to go to a file: page
// (as an address typed in a headed window would) loads nothing of it.
func TestAuthoringRefusesSchemes(t *testing.T) {
	dir := t.TempDir()
	const marker = "tat_MARKER_never_in_authoring"
	if err := os.WriteFile(filepath.Join(dir, "agent.json"), []byte(marker), 0o600); err != nil {
		t.Fatal(err)
	}
	file := "file://" + filepath.ToSlash(filepath.Join(dir, "agent.json"))
	srv := site(t, map[string]string{"/": `<!doctype html><title>Shop</title><p>hi</p>`})
	m := manager(t)
	ctx := context.Background()
	refusal := "refused: " + protocol.OpenRule
	for _, c := range []struct {
		name string
		req  protocol.TryRequest
		want string
	}{
		{"a file: start address", protocol.TryRequest{URL: file, Code: "return document.body.innerText"}, "opening " + file + " " + refusal},
		{"a view-source: start address", protocol.TryRequest{URL: "view-source:" + srv.URL + "/", Code: "return 1"}, refusal},
		{"location", protocol.TryRequest{URL: srv.URL + "/", Code: "location = '" + file + "'; await new Promise(r => setTimeout(r, 200)); return document.body.innerText"},
			"opening " + file + " " + refusal},
		{"window.open", protocol.TryRequest{URL: srv.URL + "/", Code: "window.open('" + file + "')"}, "opening " + file + " " + refusal},
		{"an iframe", protocol.TryRequest{URL: srv.URL + "/", Code: "const f = document.createElement('iframe'); f.src = '" + file + "'; document.body.append(f)"},
			"opening " + file + " " + refusal},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := m.Try(ctx, c.req)
			if res.Error == nil || !strings.Contains(res.Error.Message, c.want) {
				t.Errorf("error %+v, want %q", res.Error, c.want)
			}
			if strings.Contains(string(res.Value), marker) {
				t.Errorf("the file reached the script: %s", res.Value)
			}
		})
	}
	for _, kind := range []string{protocol.AuthorRecord, protocol.AuthorPick} {
		err := m.Start(ctx, kind+"-refused", protocol.AuthorStart{Kind: kind, URL: file}, newSink())
		if err == nil || !strings.Contains(err.Error(), "opening "+file+" "+refusal) {
			t.Errorf("%s at %s: %v", kind, file, err)
		}
	}
	_, _, p := start(t, protocol.AuthorRecord, srv.URL+"/")
	nav, err := proto.PageNavigate{URL: file}.Call(p)
	if err != nil {
		t.Fatal(err)
	}
	if nav.ErrorText != "net::ERR_BLOCKED_BY_CLIENT" {
		t.Errorf("navigating the recording's page to %s: %q", file, nav.ErrorText)
	}
	if html := p.MustEval(`() => document.documentElement ? document.documentElement.outerHTML : ""`).Str(); strings.Contains(html, marker) {
		t.Errorf("the recording's page shows the file: %s", html)
	}
}
