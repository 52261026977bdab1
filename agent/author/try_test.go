package author

import (
	"context"
	"strings"
	"testing"

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
		{name: "busy loop", req: protocol.TryRequest{Code: `while (true) {}`, TimeoutMs: 500}, value: `null`, err: "the script did not finish within 500 ms", maxMillis: 10_000},
		{name: "never settles", req: protocol.TryRequest{Code: `await new Promise(() => {})`, TimeoutMs: 300}, value: `null`, err: "the script did not finish within 300 ms", maxMillis: 10_000},
		{name: "unknown variable", req: protocol.TryRequest{Code: `return ${nope}`}, value: `null`, err: "${nope}"},
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
