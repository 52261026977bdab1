package protocol

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// seeds adds the test documents under testdata to a fuzz corpus.
func seeds(f *testing.F, globs ...string) {
	for _, g := range globs {
		files, _ := filepath.Glob(g)
		for _, name := range files {
			if data, err := os.ReadFile(name); err == nil {
				f.Add(data)
			}
		}
	}
}

// checkIssues fails on an issue without a code or a message.
func checkIssues(t *testing.T, is []Issue) {
	for _, x := range is {
		if x.Code == "" || x.Message == "" {
			t.Fatalf("issue without code or message: %+v", x)
		}
	}
}

// checkClean fails unless a document validates and survives a round trip
// through JSON and Parse unchanged.
func checkClean(t *testing.T, doc Document) {
	if is := doc.Validate(); is != nil {
		t.Fatalf("Validate of a clean document: %v", is)
	}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	again, from, issues := Parse(data)
	if len(issues) > 0 || from != DSLVersion || !reflect.DeepEqual(doc, again) {
		t.Fatalf("round trip: from %d, issues %v\n%#v\n%#v", from, issues, doc, again)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"dsl":2,"name":"x","steps":[{"type":"click","target":{"locators":[{"kind":"css","value":"#a"}]}}]}`))
	f.Add([]byte(`{"version":1,"name":"x","steps":[{"command":"sendKeys","target":"id=q","value":"a${KEY_ENTER}"}]}`))
	f.Add([]byte(`{"name":" x ","steps":[{"id":"s2","type":"wait","ms":1e3},{"type":"wait","ms":0}]}`))
	f.Add([]byte(`[1]`))
	seeds(f, "testdata/*.json", "testdata/playwright/*.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, from, issues := Parse(data)
		checkIssues(t, issues)
		if len(issues) > 0 {
			return
		}
		if from != 1 && from != 2 {
			t.Fatalf("clean document from version %d", from)
		}
		checkClean(t, doc)
	})
}

func FuzzImportSide(f *testing.F) {
	f.Add([]byte(`{"url":"http://x.test/","tests":[{"name":"t","commands":[{"command":"open","target":"/a"}]}]}`))
	f.Add([]byte(`{"tests":[{"name":"t","commands":[{"command":"selectFrame","target":"index=0"},{"command":"click","target":"id=a","targets":[["css=#a"],["xpath=//a"]]}]}]}`))
	f.Add([]byte(`{"tests":[{"name":"t","commands":[{"command":"if","target":"${a} > 1"},{"command":"run","target":"u"},{"command":"elseIf","target":"1"},` +
		`{"command":"else"},{"command":"times","target":"${n}","value":"3"},{"command":"do"},{"command":"click","target":"id=a"},{"command":"repeatIf","target":"0"},` +
		`{"command":"end"},{"command":"end"},{"command":"forEach","target":"l","value":"i"},{"command":"end"}]},{"name":"u","commands":[{"command":"while","target":"0"},{"command":"end"}]}]}`))
	seeds(f, "testdata/side/*.side")
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, skipped, issues := ImportSide(data)
		checkIssues(t, issues)
		for _, sk := range skipped {
			if sk.Reason == "" || sk.Index < 0 || sk.Command != CleanLabel(sk.Command) || sk.Test != CleanLabel(sk.Test) {
				t.Fatalf("skipped without a reason or index, or not clean: %+v", sk)
			}
		}
		if len(issues) > 0 {
			return
		}
		for _, d := range docs {
			checkClean(t, d)
		}
	})
}

// FuzzRenderPlaywright renders whatever Parse reads, valid or not.
func FuzzRenderPlaywright(f *testing.F) {
	f.Add([]byte(`{"name":"x","variables":{"a":"${b}"},"steps":[{"type":"fill","value":"${a}` + "`" + `","target":{"locators":[{"kind":"role","value":"textbox","name":"${secrets.X}"}]}}]}`))
	seeds(f, "testdata/playwright/*.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, _, issues := Parse(data)
		out := RenderPlaywright(doc)
		if len(issues) == 0 && len(out) == 0 {
			t.Fatal("empty script")
		}
	})
}

// FuzzDocumentText puts arbitrary text into the free-text strings of a
// valid document: the result either has issues or validates, round-trips
// and renders.
func FuzzDocumentText(f *testing.F) {
	for _, s := range []string{"x", "${user}", "${", "a\nb", "`${x}`", "'\\", "(?i)a/b", "\u2028", "${secrets.K}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		d := validDoc()
		d.Description = text
		d.Variables = map[string]string{"user": text}
		for i := range d.Steps {
			s := &d.Steps[i]
			s.Description = text
			for _, p := range []*string{&s.URL, &s.Key, &s.Code} {
				if *p != "" {
					*p = text
				}
			}
			if s.Value != nil {
				s.Value = &text
			}
			if s.Expected != nil {
				s.Expected = &text
			}
			if s.Target != nil {
				s.Target.Locators = append(s.Target.Locators, Locator{Kind: "role", Value: "button", Name: text},
					Locator{Kind: "text", Value: "t" + text})
				s.Target.Fingerprint = map[string]string{"text": text}
			}
		}
		RenderPlaywright(d)
		data, _ := json.Marshal(d)
		doc, _, issues := Parse(data)
		checkIssues(t, issues)
		if len(issues) == 0 {
			checkClean(t, doc)
		}
	})
}
