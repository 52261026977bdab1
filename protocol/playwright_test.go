package protocol

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenderPlaywright renders every testdata/playwright/*.json and compares
// with its .ts.golden (go test -update rewrites them).
func TestRenderPlaywright(t *testing.T) {
	files, err := filepath.Glob("testdata/playwright/*.json")
	if err != nil || len(files) == 0 {
		t.Fatal("no inputs", err)
	}
	types := map[string]bool{}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			doc, _, issues := Parse(data)
			wantIssues(t, issues)
			for _, s := range AllSteps(doc.Steps) {
				types[s.Type] = true
			}
			golden(t, strings.TrimSuffix(f, ".json")+".ts.golden", []byte(RenderPlaywright(doc)))
		})
	}
	for _, st := range Registry() {
		if !types[st.Type] {
			t.Errorf("no golden input has a %s step", st.Type)
		}
	}
}

func TestRenderPlaywrightInvalid(t *testing.T) {
	// Documents that do not validate still render, saying what they lack.
	d := Document{Name: "broken", Steps: []Step{
		{ID: "a", Type: "click"},
		{ID: "b", Type: "frob"},
		{ID: "c", Type: "fill", Target: &Target{}},
		{ID: "d", Type: "wait"},
		{ID: "e", Type: "setVariable", Name: "not ok", Value: Ptr("${bad name}")},
		{ID: "f", Type: "assertText", Target: el("h1"), Expected: Ptr("("), Match: "regex"},
		{ID: "g", Type: "navigate", URL: "${a-b}${"},
	}, Variables: map[string]string{"a b": "${c d}", "": "x"}}
	out := RenderPlaywright(d)
	for _, want := range []string{"// step a (click) has no target", `// step b: unknown step type 'frob'`,
		"// step c (fill) has no target", "await page.waitForTimeout(0);", "const a_b = '${c d}';", "const _ = 'x';",
		"not_ok = '${bad name}';", "toHaveText(/(/)", "await page.goto('${a-b}${');"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

// TestRenderPlaywrightInvalidSuiteSteps (issue 28): new steps missing what
// they need still render, saying what they lack, and never panic.
func TestRenderPlaywrightInvalidSuiteSteps(t *testing.T) {
	d := Document{Name: "broken", Steps: []Step{
		{ID: "a", Type: "dragTo", Target: el("#card")},
		{ID: "b", Type: "dragTo", Target: el("#card"), ToTarget: &Target{}},
		{ID: "c", Type: "switchTab"},
		{ID: "d", Type: "mouse", Action: "move"},
		{ID: "e", Type: "assertCount", Target: el("li")},
		{ID: "f", Type: "upload", Target: el("input")},
		{ID: "g", Type: "dialog"},
		{ID: "h", Type: "assertVariable", Name: "r.body.0", Expected: Ptr("x")},
	}}
	out := RenderPlaywright(d)
	for _, want := range []string{"// step a (dragTo) has no drop target", "// step b (dragTo) has no drop target",
		"// step c (switchTab) has no valid to", "// step d (mouse move) has no target or position", ".toHaveCount(0);",
		".setInputFiles([]);", "await dialog1;", "expect(jsonAt(r, 'body', '0')).toContain('x');", "const r = process.env.r ?? '';"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

func TestJSLiterals(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "'plain'"},
		{`it's \ "x"`, `'it\'s \\ "x"'`},
		{"a\nb\r\tc\u2028\x00", `'a\nb\r\tc\u2028\x00'`},
	} {
		if got := jsQuote(tc.in); got != tc.want {
			t.Errorf("jsQuote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
	if got := templateText("`${x}` \\ $ {"); got != "\\`\\${x}\\` \\\\ $ {" {
		t.Errorf("templateText = %s", got)
	}
	for _, tc := range []struct{ in, want string }{
		{"a/b", `/a\/b/`},
		{`a\/b`, `/a\/b/`},
		{"(?i)abc", "/abc/i"},
		{"(?is)a.c", "/a.c/is"},
		{"(?P<n>x)", "/(?<n>x)/"},
		{"", "/(?:)/"},
		{"a\nb", `/a\u000Ab/`},
		{"a\\\nb", `/a\u000Ab/`},
		{`trailing\`, `/trailing\\/`},
	} {
		if got := jsRegexLiteral(tc.in); got != tc.want {
			t.Errorf("jsRegexLiteral(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestScriptSource(t *testing.T) {
	fn, refs := ScriptSource("return ${a} + ${secrets.K} + ${a} + `${b + 1}`;")
	if fn != "(vars) => {\nreturn vars.a + vars.secrets.K + vars.a + `${b + 1}`;\n}" || strings.Join(refs, ",") != "a,secrets.K" {
		t.Errorf("ScriptSource = %q, %v", fn, refs)
	}
}

// TestScriptSourceFields (issue 28): ${resp.body.items.0.id} in a script is
// member access that parses as JavaScript, whatever the fields are called.
func TestScriptSourceFields(t *testing.T) {
	fn, refs := ScriptSource("return ${resp.body.items.0.id} + ${resp.headers.content-type};")
	if fn != "(vars) => {\nreturn vars.resp.body.items['0'].id + vars.resp.headers['content-type'];\n}" ||
		strings.Join(refs, ",") != "resp.body.items.0.id,resp.headers.content-type" {
		t.Errorf("ScriptSource = %q, %v", fn, refs)
	}
}

// TestScriptReadsVarsSecrets (issue 26, finding 11): a script may read a
// secret as vars.secrets.NAME, as the registry and the README say; it is
// a reference like ${secrets.NAME}, and ExplicitSecretRefs spells it so
// without changing the code that runs.
func TestScriptReadsVarsSecrets(t *testing.T) {
	code := "const pw = vars.secrets.PW; return [pw, vars.secrets.PW, ${secrets.K}, myvars.secrets.NO, a.vars.secrets.NO2, vars.secrets.Two_2]"
	fn, refs := ScriptSource(code)
	if strings.Join(refs, ",") != "secrets.PW,secrets.K,secrets.Two_2" {
		t.Errorf("refs %v", refs)
	}
	d := ExplicitSecretRefs(Document{DSL: 2, Name: "x", Steps: []Step{{ID: "s1", Type: "script", Code: code}, {ID: "s2", Type: "fill", Value: Ptr("vars.secrets.PW")}}})
	want := "const pw = ${secrets.PW}; return [pw, ${secrets.PW}, ${secrets.K}, myvars.secrets.NO, a.vars.secrets.NO2, ${secrets.Two_2}]"
	if d.Steps[0].Code != want || *d.Steps[1].Value != "vars.secrets.PW" {
		t.Errorf("explicit: %q", d.Steps[0].Code)
	}
	if fn2, refs2 := ScriptSource(d.Steps[0].Code); fn2 != fn || strings.Join(refs2, ",") != strings.Join(refs, ",") {
		t.Errorf("the code that runs changed:\n%s\n%s", fn, fn2)
	}
}
