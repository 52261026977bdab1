package protocol

import (
	"encoding/base64"
	"encoding/json"
	"html"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestSecretForms(t *testing.T) {
	const v = `p@ss w/rd+"<x>&'!~*()é`
	forms := SecretForms(v)
	jsonHTML, _ := json.Marshal(v)
	q := strconv.Quote(v)
	for _, tc := range []struct{ name, want string }{
		{"value", v},
		{"Go string literal", q[1 : len(q)-1]},
		{"JSON string (json.Marshal)", string(jsonHTML[1 : len(jsonHTML)-1])},
		{"JSON string without HTML escapes (JSON.stringify)", `p@ss w/rd+\"<x>&'!~*()é`},
		{"url.QueryEscape", url.QueryEscape(v)},
		{"url.PathEscape", url.PathEscape(v)},
		{"encodeURIComponent", "p%40ss%20w%2Frd%2B%22%3Cx%3E%26'!~*()%C3%A9"},
		{"HTML", html.EscapeString(v)},
		{"base64 standard", base64.StdEncoding.EncodeToString([]byte(v))},
		{"base64 URL", base64.URLEncoding.EncodeToString([]byte(v))},
		{"base64 raw standard", base64.RawStdEncoding.EncodeToString([]byte(v))},
		{"base64 raw URL", base64.RawURLEncoding.EncodeToString([]byte(v))},
	} {
		if !slices.Contains(forms, tc.want) {
			t.Errorf("%s: %q is not among the forms %q", tc.name, tc.want, forms)
		}
	}
	if forms[0] != v {
		t.Errorf("the value is not first: %q", forms)
	}
	seen := map[string]bool{}
	for _, f := range forms {
		if f == "" || seen[f] {
			t.Errorf("empty or repeated form %q in %q", f, forms)
		}
		seen[f] = true
	}
	if SecretForms("") != nil {
		t.Error("an empty value has forms")
	}
}

// However the value sits inside a longer text that is then encoded, one of
// its forms is found in the encoding: btoa("user:" + secret).
func TestSecretFormsBase64AtAnyOffset(t *testing.T) {
	const v = "correct-horse-battery"
	forms := SecretForms(v)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		for _, prefix := range []string{"", "u", "us", "usr", "user:"} {
			for _, suffix := range []string{"", "!", "?x", "@end"} {
				text := enc.EncodeToString([]byte(prefix + v + suffix))
				if !slices.ContainsFunc(forms, func(f string) bool { return strings.Contains(text, f) && len(f) >= 6 }) {
					t.Errorf("%q+value+%q encoded as %s holds no form of the value", prefix, suffix, text)
				}
			}
		}
	}
}

// Values of one or two bytes have no base64 forms (they would match
// everywhere), and offset runs shorter than 6 characters are left out.
func TestSecretFormsShortValues(t *testing.T) {
	for _, v := range []string{"a", "ab"} {
		for _, f := range SecretForms(v) {
			if f == base64.StdEncoding.EncodeToString([]byte(v)) || f == base64.RawStdEncoding.EncodeToString([]byte(v)) {
				t.Errorf("%q has the base64 form %q", v, f)
			}
		}
	}
	forms := SecretForms("abc")
	if !slices.Contains(forms, "YWJj") {
		t.Errorf("a 3-byte value has no base64 form: %q", forms)
	}
	for _, f := range forms {
		if len(f) < 3 {
			t.Errorf("form %q of abc is shorter than 3 characters", f)
		}
	}
	full := map[string]bool{}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		full[enc.EncodeToString([]byte("abcd"))] = true
	}
	for _, f := range SecretForms("abcd")[1:] {
		if !full[f] && len(f) < 6 {
			t.Errorf("a 4-byte value has the short form %q", f)
		}
	}
}
