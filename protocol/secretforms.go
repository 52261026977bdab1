package protocol

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"html"
	"net/url"
	"strconv"
	"strings"
)

// minBase64Value is the shortest value whose base64 forms are masked. One
// or two bytes encode to 2-4 characters that turn up by chance in any
// text, and a value that short is guessed anyway.
const minBase64Value = 3

// minBase64Core is the shortest run of base64 characters masked for a
// value that sits at an offset inside a longer encoded text: shorter runs
// match ordinary words.
const minBase64Core = 6

// SecretForms lists the forms a secret value takes when a runner, a
// browser or a test's script quotes, escapes or encodes it, so that a
// masker replaces them all, not only the value itself:
//
//   - the value;
//   - inside a Go string literal (strconv.Quote) and inside a JSON string,
//     with Go's HTML escaping (\u003c) and without it (JSON.stringify);
//   - URL-escaped: Go's query (url.QueryEscape) and path (url.PathEscape)
//     forms and JavaScript's encodeURIComponent;
//   - HTML-escaped;
//   - base64 in the standard and URL alphabets, padded and raw (btoa, Basic
//     authorization), for values of at least 3 bytes; and the runs of
//     base64 characters that encode the value alone when it sits at any
//     offset inside a longer encoded text ("user:" + value), when such a
//     run is at least 6 characters long.
//
// No form is empty and none repeats; the value is first. An empty value
// has no forms. Masking is a safety net for values that leak by accident:
// a script that means to disclose a secret can always transform it in a
// way no list foresees, which is what protected environments are for.
func SecretForms(value string) []string {
	if value == "" {
		return nil
	}
	var forms []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			forms = append(forms, s)
		}
	}
	add(value)
	q := strconv.Quote(value)
	add(q[1 : len(q)-1])
	add(jsonString(value, true))
	add(jsonString(value, false))
	add(url.QueryEscape(value))
	add(url.PathEscape(value))
	add(encodeURIComponent(value))
	add(html.EscapeString(value))
	if len(value) >= minBase64Value {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
			add(enc.EncodeToString([]byte(value)))
		}
		for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
			for offset := range 3 {
				if core := base64Core(enc, value, offset); len(core) >= minBase64Core {
					add(core)
				}
			}
		}
	}
	return forms
}

// jsonString is value as it appears between the quotes of a JSON string.
func jsonString(value string, escapeHTML bool) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(escapeHTML)
	if err := e.Encode(value); err != nil {
		return ""
	}
	s := strings.TrimSuffix(b.String(), "\n")
	return s[1 : len(s)-1]
}

// encodeURIComponent is JavaScript's: it keeps A-Z a-z 0-9 - _ . ! ~ * ' ( )
// and escapes every other byte of the UTF-8 encoding as %XX.
func encodeURIComponent(value string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(value); i++ {
		c := value[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// base64Core is the run of characters that encode value's bytes alone when
// value starts offset bytes (mod 3) into a longer encoded text: the
// characters that also hold bits of the bytes before or after are left out.
func base64Core(enc *base64.Encoding, value string, offset int) string {
	s := enc.EncodeToString(append(make([]byte, offset), value...))
	first := (8*offset + 5) / 6           // the first character whose bits all belong to value
	last := 8 * (offset + len(value)) / 6 // characters before this one end within value
	if first >= last || last > len(s) {
		return ""
	}
	return s[first:last]
}
