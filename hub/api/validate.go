package api

import (
	"net/mail"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/testautomation/ta/hub/access"
)

// Input limits.
const (
	minPassword = 10
	maxPassword = 1024 // bytes; scrypt reads all of it
	maxName     = 100
	maxEmail    = 254
)

type issueList []Issue

func (l *issueList) add(path, code, msg string) {
	*l = append(*l, Issue{Path: path, Code: code, Message: msg})
}

// normEmail is how emails are compared and stored.
func normEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

func (l *issueList) email(path, v string) {
	switch {
	case v == "":
		l.add(path, "required", "email is required")
	case len(v) > maxEmail:
		l.add(path, "too_long", "email is longer than 254 characters")
	default:
		a, err := mail.ParseAddress(v)
		if err != nil || a.Address != v || !strings.Contains(v, "@") || strings.IndexFunc(v, invisible) >= 0 {
			l.add(path, "format", "not an email address like name@example.com")
		}
	}
}

// invisible reports control and format characters (bidi overrides, zero
// width joiners): they make look-alike names and emails.
func invisible(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }

// name checks a display name or a record name (already trimmed).
func (l *issueList) name(path, v string) {
	switch {
	case v == "":
		l.add(path, "required", "name is required")
	case utf8.RuneCountInString(v) > maxName:
		l.add(path, "too_long", "name is longer than 100 characters")
	case !utf8.ValidString(v) || strings.IndexFunc(v, invisible) >= 0:
		l.add(path, "format", "name contains control or invisible formatting characters")
	}
}

func (l *issueList) password(path, v string) {
	switch {
	case utf8.RuneCountInString(v) < minPassword:
		l.add(path, "too_short", "password must be at least 10 characters")
	case len(v) > maxPassword:
		l.add(path, "too_long", "password is longer than 1024 bytes")
	}
}

func (l *issueList) role(path string, v access.Role) {
	if !v.Valid() {
		l.add(path, "enum", "role must be one of Tester, Test Developer, Test Manager, Admin")
	}
}

// queryText checks a text query parameter: PostgreSQL refuses NUL
// characters and invalid UTF-8.
func (l *issueList) queryText(path, v string) {
	if !utf8.ValidString(v) || strings.IndexByte(v, 0) >= 0 {
		l.add(path, "format", path+" must be UTF-8 text without NUL characters")
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
