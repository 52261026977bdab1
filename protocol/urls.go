package protocol

import (
	"net/url"
	"strings"
)

// Where a test may send the browser (DESIGN.md, "The runner's computer
// belongs to the person who runs the test"): http: and https: pages, and
// about:blank. Any other scheme is refused: file: would read the runner's
// own files (the agent's token among them), chrome:, devtools: and
// view-source: show the browser's internals, javascript: and data: run
// code the test wrote as a page of its own, filesystem: and blob: read
// storage, and unknown schemes may start other programs of the computer.
// The hub refuses such a URL when a test is saved or imported, if its
// literal text shows it; the agent refuses it again when the browser is
// about to go there, whatever wrote it (a variable, a script, a link, a
// redirect, a popup or a frame).

// OpenRule says in words what a test may open; refusals end with it.
const OpenRule = "a test may only open http:, https: and about:blank pages"

// RefusedScheme returns the scheme (lower case, without ":") that the URL
// text u starts with when a test may not open it, or "" when it is an
// http: or https: address, about:blank, an address relative to the base
// URL, or text whose scheme is not known before interpolation (a ${...}
// before the first ":"). It reads u as browsers do: leading and trailing
// spaces and control characters do not count, nor do tabs and line breaks
// anywhere, and schemes are case-insensitive ("  JaVa\tScript:" is
// javascript:).
func RefusedScheme(u string) string {
	u = strings.TrimFunc(u, func(r rune) bool { return r <= ' ' })
	u = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(u)
	literal, _, _ := strings.Cut(u, "${")
	scheme, rest, found := strings.Cut(literal, ":")
	if !found || !isScheme(scheme) {
		return "" // relative, or not known yet
	}
	scheme = strings.ToLower(scheme)
	switch scheme {
	case "http", "https":
		return ""
	case "about":
		if literal == u && isBlank(rest) {
			return ""
		}
	}
	return scheme
}

// isBlank reports whether what follows "about:" names about:blank, with
// an optional query or fragment.
func isBlank(rest string) bool {
	page, _, _ := strings.Cut(rest, "#")
	page, _, _ = strings.Cut(page, "?")
	return strings.EqualFold(page, "blank")
}

// isScheme reports whether s is a URL scheme: a letter, then letters,
// digits, "+", "-" or ".".
func isScheme(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// CheckOpenURL says why the browser may not open u, an address after
// interpolation and resolution against the base URL, or "" when it may:
// u must be an absolute http: or https: URL with a host, or about:blank.
// The agent asks it before every navigation it starts, and words a
// refusal "<what> <u> refused: <reason>".
func CheckOpenURL(u string) string {
	if RefusedScheme(u) != "" {
		return OpenRule
	}
	if strings.HasPrefix(strings.ToLower(u), "about:") {
		return "" // RefusedScheme lets only about:blank through
	}
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return "it is not an absolute address; " + OpenRule
	}
	return ""
}
