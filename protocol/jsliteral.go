package protocol

import (
	"fmt"
	"regexp"
	"strings"
)

// JavaScript source helpers for RenderPlaywright: string, template and
// regular-expression literals that are safe whatever the text holds.

// jsQuote returns s as a single-quoted JavaScript string literal.
func jsQuote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\'', '\\':
			b.WriteRune('\\')
			b.WriteRune(r)
		default:
			writeEscaped(&b, r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// templateText escapes literal text for the inside of a template literal.
func templateText(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '`' || r == '\\':
			b.WriteRune('\\')
			b.WriteRune(r)
		case r == '$' && strings.HasPrefix(s[i:], "${"):
			b.WriteString(`\$`)
		default:
			writeEscaped(&b, r)
		}
	}
	return b.String()
}

// writeEscaped writes r, escaping line terminators and control characters
// so a literal never spans lines (nor ends a // comment that shows it).
func writeEscaped(b *strings.Builder, r rune) {
	switch r {
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	case '\t':
		b.WriteString(`\t`)
	case 0x2028, 0x2029, 0xFEFF:
		fmt.Fprintf(b, `\u%04X`, r)
	default:
		if r < 0x20 || r == 0x7f {
			fmt.Fprintf(b, `\x%02X`, r)
		} else {
			b.WriteRune(r)
		}
	}
}

// goFlagsRe finds the flags group a Go regular expression may start with.
var goFlagsRe = regexp.MustCompile(`^\(\?([imsU]+)\)`)

// jsRegexLiteral writes a regular expression (Go syntax) as a JavaScript
// regex literal: leading (?i), (?m), (?s) become flags; (?P<name> becomes
// (?<name>. Go and JavaScript agree on the common syntax.
func jsRegexLiteral(pattern string) string {
	flags := ""
	if m := goFlagsRe.FindStringSubmatch(pattern); m != nil {
		for _, f := range "ims" {
			if strings.ContainsRune(m[1], f) {
				flags += string(f)
			}
		}
		pattern = pattern[len(m[0]):]
	}
	pattern = strings.ReplaceAll(pattern, "(?P<", "(?<")
	if pattern == "" {
		return "/(?:)/" + flags
	}
	var b strings.Builder
	b.WriteByte('/')
	escaped := false
	for _, r := range pattern {
		switch {
		case escaped:
			escaped = false
			if r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029 || r < 0x20 {
				// A backslash before a line terminator: write the escape instead.
				fmt.Fprintf(&b, `u%04X`, r)
				continue
			}
			b.WriteRune(r)
		case r == '\\':
			escaped = true
			b.WriteRune(r)
		case r == '/':
			b.WriteString(`\/`)
		case r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	if escaped {
		b.WriteRune('\\') // a lone trailing backslash matches a backslash
	}
	b.WriteByte('/')
	return b.String() + flags
}

// regexQuote escapes text to match literally in a regular expression.
func regexQuote(s string) string { return regexp.QuoteMeta(s) }

// jsReserved holds words a variable may not be called in the script, and
// the names the script itself uses.
var jsReserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`break case catch class const continue debugger default delete do else
		enum export extends false finally for function if import in instanceof new null return super switch
		this throw true try typeof var void while with yield let static implements interface package private
		protected public await async arguments eval undefined NaN Infinity
		page test expect process vars escapeRegExp String RegExp
		context devices path tabs tabsSeen newTab findTab jsonAt answerOf specFiles console JSON listItems`) {
		jsReserved[w] = true
	}
}
