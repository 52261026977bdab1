package protocol

import "testing"

func TestCleanText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"plain text", "plain text"},
		{"a\x00b", "ab"},
		{"line\none\ttab", "line\none\ttab"},
		{"bell\a esc\x1b[0m cr\r", "bell esc[0m cr"},
		{"bad \xff utf-8", "bad \uFFFD utf-8"},
		{"bidi \u202e and zero\u200bwidth stay", "bidi \u202e and zero\u200bwidth stay"},
		{"\x00\x01\x02", ""},
	} {
		if got := CleanText(tc.in); got != tc.want {
			t.Errorf("CleanText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCleanLabel(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"laptop-01.example.com", "laptop-01.example.com"},
		{"Zoë's Mac ✓", "Zoë's Mac ✓"},
		{"a\x00b", "ab"},
		{"two\nlines\ttab\r", "twolinestab"},
		{"del\x7f c1\u0085", "del c1"},
		{"evil\u202egnp.exe", "evilgnp.exe"},
		{"zero\u200bwidth\u2066iso\u2069", "zerowidthiso"},
		{"sep\u2028par\u2029", "seppar"},
		{"bad \xff utf-8", "bad \uFFFD utf-8"},
	} {
		if got := CleanLabel(tc.in); got != tc.want {
			t.Errorf("CleanLabel(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
