package protocol

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"strconv"
	"strings"
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
	docs, skipped, issues := ImportSide(data)
	wantIssues(t, issues)
	wantSkipped(t, skipped)
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
	viewport, fill := search.Steps[1], search.Steps[2]
	if viewport.Type != "setViewport" || viewport.Width != 1280 || viewport.Height != 800 || fill.Description != "Look for shoes" ||
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
	if err := enc.Encode(map[string]any{"documents": docs, "skipped": skipped, "issues": issues}); err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/side/shop.want.json", out.Bytes())
}

func TestImportSideIssues(t *testing.T) {
	tests := []struct {
		name, in string
		docs     int
		want     []string
		skipped  []string // "test#index command: reason contains"
	}{
		{"malformed", `{"tests": [`, 0, []string{" json"}, nil},
		{"not an object", `[]`, 0, []string{" type"}, nil},
		{"no tests", `{"name":"p","tests":[]}`, 0, []string{"tests required"}, nil},
		{"tests not an array", `{"tests":{}}`, 0, []string{"tests type"}, nil},
		{"test not an object", `{"tests":[1]}`, 0, []string{"tests[0] type"}, nil},
		{"unknown command and empty name", `{"url":"http://x","tests":[{"name":"","commands":[
			{"command":"open","target":"/a"},{"command":"frobnicate","target":"x"},{"command":"click","target":"dom=x"}]}]}`, 1,
			[]string{"tests[0].name required"}, []string{"#1 frobnicate: not supported", "#2 click: dom"}},
		{"commands not an array", `{"tests":[{"name":"t","commands":"open"}]}`, 1, []string{"tests[0].commands type"}, nil},
		{"a step that would not be valid is skipped", `{"tests":[{"name":"t","commands":[{"command":"store","target":"x","value":"a b"}]}]}`, 1,
			nil, []string{"t#0 store: "}},
		{"command not an object", `{"tests":[{"name":"t","commands":[null, 3]}]}`, 1,
			[]string{"tests[0].commands[0] type", "tests[0].commands[1] type"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			docs, skipped, issues := ImportSide([]byte(tc.in))
			wantIssues(t, issues, tc.want...)
			if len(docs) != tc.docs {
				t.Errorf("%d documents, want %d", len(docs), tc.docs)
			}
			wantSkipped(t, skipped, tc.skipped...)
		})
	}
}

func wantSkipped(t *testing.T, got []Skipped, want ...string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("skipped %+v, want %q", got, want)
	}
	for i, w := range want {
		head, reason, _ := strings.Cut(w, ": ")
		g := got[i]
		if g.Test+"#"+strconv.Itoa(g.Index)+" "+g.Command != head || !strings.Contains(g.Reason, reason) {
			t.Errorf("skipped[%d] = %+v, want %q", i, g, w)
		}
	}
}

// A project with commands we cannot run imports the rest: each test keeps
// its other commands in order, and every left-out command is listed with
// its test and index; a test with nothing left comes with no steps.
func TestImportSidePartial(t *testing.T) {
	in := `{"url":"https://shop.test","tests":[
		{"id":"a","name":"Checkout","commands":[
			{"command":"open","target":"/cart"},
			{"command":"run","target":"Login"},
			{"command":"selectFrame","target":"index=0"},
			{"command":"click","target":"dom=document.x"},
			{"command":"click","target":"id=pay"},
			{"command":"pause","target":"-5"},
			{"command":"assertTitle","target":"Paid"}]},
		{"id":"b","name":"Only unsupported","commands":[{"command":"setSpeed","target":"100"}]}]}`
	docs, skipped, issues := ImportSide([]byte(in))
	wantIssues(t, issues)
	wantSkipped(t, skipped, "Checkout#1 run: no test named \"Login\"", "Checkout#3 click: dom",
		"Checkout#5 pause: milliseconds", "Only unsupported#0 setSpeed: no meaning here")
	if len(docs) != 2 {
		t.Fatalf("%d documents", len(docs))
	}
	var types []string
	for _, st := range docs[0].Steps {
		types = append(types, st.Type)
	}
	if strings.Join(types, ",") != "navigate,click,assertTitle" {
		t.Errorf("Checkout steps %v", types)
	}
	if f := docs[0].Steps[1].Target.Frame; len(f) != 1 {
		t.Errorf("the frame selected before a skipped command still applies: %+v", f)
	}
	if docs[1].Name != "Only unsupported" || len(docs[1].Steps) != 0 {
		t.Errorf("second test %+v", docs[1])
	}
	for _, d := range docs {
		wantIssues(t, d.Validate())
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
