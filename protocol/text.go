package protocol

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text the hub stores comes from people and from agents. PostgreSQL refuses
// a NUL character in text and jsonb, and invalid UTF-8 anywhere; control
// and formatting characters make names that look alike or print oddly.
// Documents are validated (a NUL or a stray control character is an issue
// at its path); what an agent reports is cleaned with CleanText or
// CleanLabel instead, since there is nobody to answer an issue to.

// CleanText makes free text safe to store: valid UTF-8 (each invalid byte
// becomes U+FFFD) without NUL or other C0 control characters, except tabs
// and line feeds. Use it for messages, errors and logs.
func CleanText(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, badInText) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if badInText(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// CleanLabel makes a one-line label safe to store and show: valid UTF-8
// without any control character (C0, DEL, C1, line breaks, tabs), format
// character (bidi overrides, zero-width joiners: Unicode category Cf) or
// line and paragraph separator. Use it for names and host names.
func CleanLabel(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, badInLabel) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if badInLabel(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// badInText reports the characters free text may not hold: C0 controls
// other than tab and line feed.
func badInText(r rune) bool { return r < 0x20 && r != '\t' && r != '\n' }

// badInLabel reports the characters a one-line label may not hold.
func badInLabel(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

// badInMultiline reports the characters a multi-line text written by
// people (a description, script code) may not hold: C0 controls other
// than tab, line feed and carriage return (text pasted from Windows), and
// DEL.
func badInMultiline(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f
}

// checkMultiline refuses the control characters a multi-line text may
// not hold (its length is checked by the caller).
func checkMultiline(l *issueList, path, what, s string) {
	switch {
	case strings.IndexByte(s, 0) >= 0:
		l.add(path, CodeFormat, "%s may not contain a NUL character", what)
	case strings.ContainsFunc(s, badInMultiline):
		l.add(path, CodeFormat, "%s may not contain control characters other than tabs and line breaks", what)
	}
}

// checkNoNUL refuses a NUL character in a value that may otherwise hold
// anything (a value to type, an expected text).
func checkNoNUL(l *issueList, path, what, s string) {
	if strings.IndexByte(s, 0) >= 0 {
		l.add(path, CodeFormat, "%s may not contain a NUL character", what)
	}
}
