package protocol

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// harness replaces @playwright/test with recording fakes: every call on
// page, on a locator or on expect is recorded with its arguments, and a
// script's function is run with its arguments, so the test can check what
// values the rendered script really passes.
const harness = `
const calls = [];
const print = console.log;
console.log = (...args) => calls.push({ call: 'console.log', args });
const plain = (a) => a instanceof RegExp ? { re: a.source, flags: a.flags, matches: a.test(JSON.parse(process.env.T_TEXT)) }
  : typeof a === 'function' ? { fn: true } : a;
const fake = (path) => new Proxy(function () {}, {
  get: (_, p) => p === 'then' ? undefined : p === Symbol.toPrimitive ? () => 'fake' : fake(path + '.' + String(p)),
  apply: (_, __, args) => {
    calls.push({ call: path, args: args.map(plain) });
    if ((path.endsWith('.once') || path.endsWith('.on')) && typeof args[1] === 'function') {
      args[1](fake(path + '.event')); // a dialog opens, a tab opens
    }
    if (path.endsWith('.count')) return 5; // a locator finds five elements
    if (path.endsWith('evaluate') && typeof args[0] === 'function') {
      try { // no DOM here
        const v = args[0](args[1]);
        return v instanceof Promise ? v.catch((e) => 'page code: ' + e.name) : v;
      } catch (e) { return 'page code: ' + e.name; }
    }
    return fake(path + '()');
  },
});
const page = fake('page');
const context = fake('context');
const devices = { 'Pixel 7': { viewport: 'fake' } };
const path = { join: (...a) => a.join('/'), dirname: (p) => p.replace(/\/[^/]*$/, '') };
const expect = (x) => fake('expect');
expect.soft = (x) => fake('expect.soft');
const test = async (name, opts, fn) => {
  calls.push({ call: 'test', args: [name, typeof opts === 'function' ? null : opts] });
  await (fn || opts)({ page, context });
  print(JSON.stringify(calls));
};
test.describe = (name, fn) => { calls.push({ call: 'describe', args: [name] }); fn(); };
test.use = (o) => calls.push({ call: 'test.use', args: [o] });
test.info = () => ({ file: '/specs/t.spec.ts' });
`

// importRe finds the imports of a rendered script.
var importRe = regexp.MustCompile(`import \{[^}]*\} from '@playwright/test';(\nimport \* as path from 'node:path';)?`)

type call struct {
	Call string            `json:"call"`
	Args []json.RawMessage `json:"args"`
}

// runRendered runs a rendered script under node with the harness.
func runRendered(t *testing.T, node, script, text string) []call {
	t.Helper()
	js := importRe.ReplaceAllLiteralString(script, harness)
	// TypeScript's annotations go; the fakes have no tabs, so findTab gives up at once.
	for _, r := range [][2]string{{"(s: string) =>", "(s) =>"}, {"(inputs: Record<string, string> = {})", "(inputs = {})"},
		{"(json: string, ...path: string[])", "(json, ...path)"}, {"let v: any", "let v"}, {"(res: APIResponse)", "(res)"},
		{"let body: unknown", "let body"}, {"(timeout: number)", "(timeout)"}, {"(ok: (p: Page) => Promise<boolean>, timeout: number)", "(ok, timeout)"},
		{"if (Date.now() > end) throw new Error('no open tab matches');", "return page;"},
		{"(json: string): string[]", "(json)"}, {"const list: unknown", "const list"},
		{"new Set<string>()", "new Set()"}, {"(name: string, v: unknown): string =>", "(name, v) =>"},
		{"(name: string, text: string): unknown =>", "(name, text) =>"},
		// A condition on an element holds: the fakes are not promises.
		{".then(() => true, () => false)", ""}} {
		js = strings.ReplaceAll(js, r[0], r[1])
	}
	path := filepath.Join(t.TempDir(), "t.mjs")
	if err := os.WriteFile(path, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, path)
	textJSON, _ := json.Marshal(text)
	cmd.Env = append(os.Environ(), "T_TEXT="+string(textJSON), "S="+envSafe(text), "baseUrl=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s\n%s", err, stderr.String(), js)
	}
	var calls []call
	if err := json.Unmarshal(out, &calls); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return calls
}

// envSafe drops NUL, which an environment variable cannot hold.
func envSafe(s string) string { return strings.ReplaceAll(s, "\x00", "") }

// TestRenderedScriptsRun puts awkward text in every kind of place and
// checks, by running the script under node, that each value arrives intact
// and nothing leaks into the code. It needs node; without it, it skips.
func TestRenderedScriptsRun(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	texts := []string{"plain", `it's "quoted"`, `back\slash \n \u0041`, "back`tick ${not a ref} ${", "$${ x }$",
		"line\nbreak\r\nand\rreturn", "sep\u2028ara\u2029tors", "tab\tnul\x00bell\x07", "*/ '); process.exit(3); ('",
		"</script><!--", "emoji 😀 and ünïcödé", "regex .*+?^$()[]{}|/\\d", ""}
	for _, text := range texts {
		t.Run(text, func(t *testing.T) {
			target := &Target{Locators: []Locator{{Kind: "label", Value: text + "x"}}}
			d := Document{DSL: 2, Name: text, Suite: strings.ReplaceAll(text, "/", ""), Tags: []string{"t"}, Description: text,
				Variables: map[string]string{"v": text}, Steps: []Step{
					{ID: "s1", Type: "fill", Description: text, Target: target, Value: Ptr(text)},
					{ID: "s2", Type: "fill", Target: target, Value: Ptr("${v}")},
					{ID: "s3", Type: "fill", Target: target, Value: Ptr("${secrets.S}")},
					{ID: "s4", Type: "assertText", Target: target, Expected: Ptr("<${v}>"), Match: "equals"},
					{ID: "s5", Type: "assertUrl", Expected: Ptr(text)},
					{ID: "s6", Type: "assertTitle", Expected: Ptr("${v}")},
					{ID: "s7", Type: "script", Code: "return ${v} + '|' + ${secrets.S};", Assign: "r"},
					{ID: "s8", Type: "fill", Target: target, Value: Ptr("${r}")},
					{ID: "s9", Type: "assertTitle", Expected: Ptr(regexQuote(text)), Match: "regex"},
					{ID: "s10", Type: "log", Message: text},
					{ID: "s11", Type: "dialog", Action: "accept", Text: Ptr(text)},
					{ID: "s12", Type: "request", Method: "POST", URL: "/x", Headers: map[string]string{"X": text}, Body: Ptr(text)},
				}}
			calls := runRendered(t, node, RenderPlaywright(d), text)
			q := func(v any) string {
				var b bytes.Buffer
				enc := json.NewEncoder(&b)
				enc.SetEscapeHTML(false)
				_ = enc.Encode(v)
				return strings.TrimSpace(b.String())
			}
			got := map[string][]string{}
			for _, c := range calls {
				for _, a := range c.Args {
					var v any
					_ = json.Unmarshal(a, &v)
					got[c.Call] = append(got[c.Call], q(v))
				}
			}
			suite := strings.ReplaceAll(text, "/", "")
			want := map[string][]string{
				"test":                   {q(text), `{"tag":["@t"]}`},
				"page.getByLabel":        {q(text + "x"), q(text + "x"), q(text + "x"), q(text + "x"), q(text + "x")},
				"page.getByLabel().fill": {q(text), q(text), q(envSafe(text)), q(text + "|" + envSafe(text))},
				"expect.toHaveText":      {q("<" + text + ">")},
				"console.log":            {q(text)},
				"page.once.event.accept": {q(text)},
				"page.request.fetch":     {q("/x"), q(map[string]any{"method": "POST", "headers": map[string]string{"X": text}, "data": text})},
			}
			if suite != "" {
				want["describe"] = []string{q(suite)}
			}
			for k, w := range want {
				if strings.Join(got[k], " ") != strings.Join(w, " ") {
					t.Errorf("%s: got %v, want %v", k, got[k], w)
				}
			}
			// Regular expressions built from the text match it.
			for _, k := range []string{"expect.toHaveURL", "expect.toHaveTitle"} {
				for _, a := range got[k] {
					if !strings.Contains(a, `"matches":true`) {
						t.Errorf("%s: %s does not match the text", k, a)
					}
				}
			}
			if len(got["expect.toHaveTitle"]) != 2 || len(got["expect.toHaveURL"]) != 1 {
				t.Errorf("assertions: %v", got)
			}
		})
	}
}

// TestGoldenScriptsRun runs every golden script under node with the fakes.
func TestGoldenScriptsRun(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	files, _ := filepath.Glob("testdata/playwright/*.ts.golden")
	for _, f := range files {
		script, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if calls := runRendered(t, node, string(script), ""); len(calls) < 3 {
			t.Errorf("%s: only %d calls", f, len(calls))
		}
	}
}
