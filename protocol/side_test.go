package protocol

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with the file, or rewrites the file with -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (go test -update rewrites it):\n%s", path, got)
	}
}

func TestImportSide(t *testing.T) {
	data, err := os.ReadFile("testdata/side/shop.side")
	if err != nil {
		t.Fatal(err)
	}
	if !IsSide(data) {
		t.Fatal("IsSide = false")
	}
	docs, issues := ImportSide(data)
	wantIssues(t, issues, "tests[1].commands[7].command unsupported")
	if len(docs) != 2 {
		t.Fatalf("%d documents", len(docs))
	}
	search, checkout := docs[0], docs[1]
	if search.Name != "Search a product" || search.Suite != "Storefront" || checkout.Name != "Checkout" {
		t.Errorf("names: %q %q %q", search.Name, search.Suite, checkout.Name)
	}
	if search.Steps[0].URL != "https://shop.example.com/search" {
		t.Errorf("relative open: %q", search.Steps[0].URL)
	}
	fill := search.Steps[1]
	if search.Description != "Recorded in Selenium IDE at window size 1280x800." || fill.Description != "Look for shoes" ||
		len(fill.Target.Locators) != 4 || fill.Target.Locators[1] != (Locator{Kind: "css", Value: `[name="query"]`}) {
		t.Errorf("fill: %+v %+v", fill, fill.Target)
	}
	if len(checkout.Steps[1].Target.Frame) != 1 || checkout.Steps[2].Target.Frame != nil ||
		checkout.Steps[2].Description != "disabled in Selenium IDE: click css=.coupon" {
		t.Errorf("checkout: %+v", checkout.Steps)
	}
	for _, d := range docs {
		wantIssues(t, d.Validate())
		roundTrip(t, d)
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(map[string]any{"documents": docs, "issues": issues}); err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/side/shop.want.json", out.Bytes())
}

func TestImportSideIssues(t *testing.T) {
	tests := []struct {
		name, in string
		docs     int
		want     []string
	}{
		{"malformed", `{"tests": [`, 0, []string{" json"}},
		{"not an object", `[]`, 0, []string{" type"}},
		{"no tests", `{"name":"p","tests":[]}`, 0, []string{"tests required"}},
		{"tests not an array", `{"tests":{}}`, 0, []string{"tests type"}},
		{"test not an object", `{"tests":[1]}`, 0, []string{"tests[0] type"}},
		{"unknown command and empty name", `{"url":"http://x","tests":[{"name":"","commands":[
			{"command":"open","target":"/a"},{"command":"frobnicate","target":"x"},{"command":"click","target":"dom=x"}]}]}`, 1,
			[]string{"tests[0].commands[1].command unsupported", "tests[0].commands[2].target unsupported", "tests[0].name required"}},
		{"commands not an array", `{"tests":[{"name":"t","commands":"open"}]}`, 1, []string{"tests[0].commands type"}},
		{"validation issue of a step", `{"tests":[{"name":"t","commands":[{"command":"store","target":"x","value":"a b"}]}]}`, 1,
			[]string{"tests[0].steps[0].name format"}},
		{"command not an object", `{"tests":[{"name":"t","commands":[null, 3]}]}`, 1,
			[]string{"tests[0].commands[0] type", "tests[0].commands[1] type"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			docs, issues := ImportSide([]byte(tc.in))
			wantIssues(t, issues, tc.want...)
			if len(docs) != tc.docs {
				t.Errorf("%d documents, want %d", len(docs), tc.docs)
			}
		})
	}
}

func TestIsSide(t *testing.T) {
	for in, want := range map[string]bool{
		`{"version":"2.0","tests":[]}`:        true,
		`{"tests":[{"commands":[]}]}`:         true,
		`{"dsl":2,"name":"x","steps":[]}`:     false,
		`{"version":1,"steps":[],"tests":[]}`: false,
		`{"tests":{}}`:                        false,
		`[1]`:                                 false,
		`nope`:                                false,
	} {
		if got := IsSide([]byte(in)); got != want {
			t.Errorf("IsSide(%s) = %v", in, got)
		}
	}
}

func TestResolveURL(t *testing.T) {
	for _, tc := range []struct{ base, u, want string }{
		{"https://x.test/app/", "/login", "https://x.test/login"},
		{"https://x.test/app/", "login", "https://x.test/app/login"},
		{"https://x.test/app/", "https://y.test/", "https://y.test/"},
		{"https://x.test", "${base}/a", "${base}/a"},
		{"https://x.test/app/", "/a/${id}?q=${secrets.Q}", "https://x.test/a/${id}?q=${secrets.Q}"},
		{"https://x.test/app/", "a b/ä", "https://x.test/app/a%20b/%C3%A4"},
		{"", "/login", "/login"},
		{"not a url", "/login", "/login"},
	} {
		if got := resolveURL(tc.base, tc.u); got != tc.want {
			t.Errorf("resolveURL(%q, %q) = %q, want %q", tc.base, tc.u, got, tc.want)
		}
	}
}
