package runner

import (
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/testautomation/ta/protocol"
)

func TestMasker(t *testing.T) {
	m := newMasker(map[string]string{"A": `p"w<d>&1 2`, "B": "pw", "EMPTY": ""})
	for in, want := range map[string]string{
		`typed p"w<d>&1 2 here`:             "typed *** here",
		`quoted "p\"w<d>&1 2"`:              `quoted "***"`,
		"url ?x=p%22w%3Cd%3E%261+2":         "url ?x=***",
		"path /p%22w%3Cd%3E&1%202":          "path /***",
		"html p&#34;w&lt;d&gt;&amp;1 2":     "html ***",
		`json "p\"w\u003cd\u003e\u00261 2"`: `json "***"`,
		"short pw and pwd":                  "short *** and ***d",
		"nothing":                           "nothing",
		// A message cut before it was masked keeps no start of a secret.
		`cut at p"w<d>…`:     "cut at ***…",
		"refused: ?k=p%22w…": "refused: ?k=***…",
		"just pw… and more…": "just ***… and more…",
	} {
		if got := m.String(in); got != want {
			t.Errorf("mask(%q) = %q, want %q", in, got, want)
		}
	}
	if got := newMasker(nil).String("pw"); got != "pw" {
		t.Errorf("no secrets: %q", got)
	}
	e := m.event(protocol.Event{Error: "pw", Message: "pw", Name: "pw", Screenshot: "pw", StepID: "pw",
		HealedBy: &protocol.Locator{Value: "pw", Name: "pw"}})
	if e.Error != Mask || e.Message != Mask || e.Name != Mask || e.Screenshot != Mask || e.StepID != Mask ||
		e.HealedBy.Value != Mask || e.HealedBy.Name != Mask {
		t.Errorf("event not masked: %+v", e)
	}
}

func TestSanitizeName(t *testing.T) {
	for in, want := range map[string]string{
		"step-003-s3":      "step-003-s3",
		"Login page: ü?":   "Login-page",
		"../../etc/passwd": "etc-passwd",
		"***":              "",
		".hidden":          "hidden",
		"a b\tc\nd":        "a-b-c-d",
	} {
		got := sanitizeName(in)
		if got != want {
			t.Errorf("sanitizeName(%q) = %q, want %q", in, got, want)
		}
		if got != "" && !protocol.ValidArtifactName(got+".png") {
			t.Errorf("%q is not a valid artifact name", got)
		}
	}
	long := sanitizeName(string(slices.Repeat([]byte("a"), 300)))
	if len(long) != 100 {
		t.Errorf("long name: %d bytes", len(long))
	}
}

func TestParseKey(t *testing.T) {
	for combo, want := range map[string]struct {
		mods []string
		key  string
	}{
		"Enter":           {nil, "Enter"},
		"a":               {nil, "a"},
		"+":               {nil, "+"},
		"Control+A":       {[]string{"Control"}, "A"},
		"Control++":       {[]string{"Control"}, "+"},
		"Shift+Alt+Tab":   {[]string{"Shift", "Alt"}, "Tab"},
		"Space":           {nil, " "},
		"é":               {nil, "é"},
		"Control+Shift+1": {[]string{"Control", "Shift"}, "1"},
	} {
		mods, def, err := parseKey(combo)
		if err != nil || !slices.Equal(mods, want.mods) || def.key != want.key {
			t.Errorf("parseKey(%q) = %v %q %v, want %v %q", combo, mods, def.key, err, want.mods, want.key)
		}
	}
	for _, bad := range []string{"Hyper+a", "Enterr", "Control+Nope"} {
		if _, _, err := parseKey(bad); err == nil || !isPermanent(err) {
			t.Errorf("parseKey(%q): %v, want a permanent error", bad, err)
		}
	}
}

func TestArtifactNames(t *testing.T) {
	rec := &recorder{}
	o := &output{emit: rec, mask: newMasker(map[string]string{"S": "a-b"}), log: slog.New(slog.DiscardHandler)}
	png := []byte("\x89PNG")
	var got []string
	for _, base := range []string{"a b", "shot", "shot", "x a-b y", "../up"} {
		got = append(got, o.artifact(3, base, ".png", "image/png", png))
	}
	want := []string{"artifact.png", "shot.png", "shot-2.png", "x-y.png", "up.png"}
	if !slices.Equal(got, want) {
		t.Errorf("names %v, want %v", got, want)
	}
	if big := o.artifact(3, "big", ".png", "image/png", make([]byte, protocol.MaxArtifact+1)); big != "" {
		t.Errorf("an oversized artifact was sent as %q", big)
	}
	if logs := rec.ofKind(protocol.LogLine); len(logs) != 1 || logs[0].Level != "warn" {
		t.Errorf("logs %+v, want a warning about the oversized artifact", logs)
	}
	o.event(protocol.Event{Kind: protocol.RunFinished})
	if name := o.artifact(3, "late", ".png", "image/png", png); name != "" || len(rec.ofKind(protocol.ArtifactMade)) != 5 {
		t.Errorf("an artifact went out after run.finished: %q", name)
	}
}

// Every encoded form of a secret is masked: what the runner quotes and
// what a script can make of a value (encodeURIComponent, btoa ...).
func TestMaskerEncodings(t *testing.T) {
	const v = `p@ss w/rd+"<x>&'!~*()`
	m := newMasker(map[string]string{"S": v, "SHORT": "ab"})
	jsonHTML, _ := json.Marshal(v)
	b64 := func(e *base64.Encoding, s string) string { return e.EncodeToString([]byte(s)) }
	for _, tc := range []struct{ name, form string }{
		{"raw", v},
		{"url.QueryEscape", url.QueryEscape(v)},
		{"url.PathEscape", url.PathEscape(v)},
		{"encodeURIComponent", `p%40ss%20w%2Frd%2B%22%3Cx%3E%26'!~*()`},
		{"json.Marshal", string(jsonHTML[1 : len(jsonHTML)-1])},
		{"JSON.stringify", `p@ss w/rd+\"<x>&'!~*()`},
		{"base64 StdEncoding", b64(base64.StdEncoding, v)},
		{"base64 URLEncoding", b64(base64.URLEncoding, v)},
		{"base64 RawStdEncoding", b64(base64.RawStdEncoding, v)},
		{"base64 RawURLEncoding", b64(base64.RawURLEncoding, v)},
	} {
		if got := m.String("got " + tc.form + " here"); got != "got *** here" {
			t.Errorf("%s: %q masked as %q", tc.name, tc.form, got)
		}
	}
	// Inside a longer encoded text: btoa("user:" + secret) in a header.
	for _, prefix := range []string{"u:", "us:", "user:"} {
		basic := "Basic " + b64(base64.StdEncoding, prefix+v)
		if got := m.String(basic); got == basic || !strings.Contains(got, Mask) {
			t.Errorf("%q is not masked: %q", basic, got)
		}
	}
	// Short values are masked as they are, not as base64 (YWI).
	if got := m.String("YWI= and YWI"); got != "YWI= and YWI" {
		t.Errorf("base64 of a short value masked: %q", got)
	}
}
