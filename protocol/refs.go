package protocol

import (
	"errors"
	"regexp"
	"strings"
)

// A reference ${name} interpolates a test variable, an environment
// variable or a data-set column; ${secrets.NAME} interpolates a secret of
// the run's environment. Names are identifiers. ${name.field.0.id} reads
// a field of a variable holding JSON text (a request step's answer).

var (
	identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	refRe   = regexp.MustCompile(`^(secrets\.[A-Za-z_][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_-]+)*)$`)
)

// SecretPrefix starts the name of a reference to a secret.
const SecretPrefix = "secrets."

// segment is a piece of a string: literal text, or a reference (Ref holds
// what is between ${ and }).
type segment struct {
	Text  string
	Ref   string
	IsRef bool
}

// splitRefs cuts s into text and references. strict reports a malformed or
// unterminated ${; otherwise such text stays literal text.
func splitRefs(s string, strict bool) ([]segment, error) {
	var out []segment
	text := func(t string) {
		if t == "" {
			return
		}
		out = append(out, segment{Text: t})
	}
	start := 0 // where the pending literal text began
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], "${")
		if j < 0 {
			break
		}
		open := i + j
		end := strings.IndexByte(s[open+2:], '}')
		if end < 0 {
			if strict {
				return nil, errors.New("unterminated ${: close it with }")
			}
			break
		}
		name := s[open+2 : open+2+end]
		if !refRe.MatchString(name) || strings.Count(name, ".") > 1 && strings.HasPrefix(name, SecretPrefix) {
			if strict {
				return nil, errors.New("malformed reference ${" + clip(name, 40) + "}: use ${name}, ${name.field} or ${secrets.NAME}")
			}
			i = open + 2 // literal text; look for the next ${ after this one
			continue
		}
		text(s[start:open])
		out = append(out, segment{Ref: name, IsRef: true})
		i = open + 2 + end + 1
		start = i
	}
	text(s[start:])
	return out, nil
}

// checkRefs reports whether every ${ in s starts a well-formed reference.
func checkRefs(s string) error {
	if !strings.Contains(s, "${") {
		return nil
	}
	_, err := splitRefs(s, true)
	return err
}

// References lists the well-formed references in s, in order of first
// appearance, as written between ${ and }: "user", "secrets.PASSWORD".
func References(s string) []string {
	segs, _ := splitRefs(s, false)
	var out []string
	seen := map[string]bool{}
	for _, g := range segs {
		if g.IsRef && !seen[g.Ref] {
			seen[g.Ref] = true
			out = append(out, g.Ref)
		}
	}
	return out
}

// Interpolate replaces each well-formed reference in s for which lookup
// answers true; other text, and references lookup does not know, stay.
func Interpolate(s string, lookup func(ref string) (string, bool)) string {
	if !strings.Contains(s, "${") {
		return s
	}
	segs, _ := splitRefs(s, false)
	var b strings.Builder
	for _, g := range segs {
		if !g.IsRef {
			b.WriteString(g.Text)
		} else if v, ok := lookup(g.Ref); ok {
			b.WriteString(v)
		} else {
			b.WriteString("${" + g.Ref + "}")
		}
	}
	return b.String()
}

// clip shortens s to at most n runes for messages.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
