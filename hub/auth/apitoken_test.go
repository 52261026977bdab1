package auth

import (
	"strings"
	"testing"
)

func TestAPIToken(t *testing.T) {
	tok, digest := NewAPIToken()
	if !strings.HasPrefix(tok, "tat_") || len(tok) != 56 || !WellFormedAPIToken(tok) {
		t.Fatalf("token %q", tok)
	}
	if d, ok := APITokenDigest(tok); !ok || string(d) != string(digest) {
		t.Fatal("digest differs")
	}
	other, _ := NewAPIToken()
	if other == tok {
		t.Fatal("two tokens alike")
	}
	for _, bad := range []string{"", "tat_", tok[:55], tok + "a", strings.ToUpper(tok), "tok_" + tok[4:], strings.Replace(tok, tok[10:11], "1", 1)} {
		if WellFormedAPIToken(bad) && bad != tok {
			t.Errorf("%q accepted", bad)
		}
	}
	for header, want := range map[string]string{"Bearer abc": "abc", "bearer  abc ": "abc", "Bearer": "", "BEARER x y": "x y"} {
		if got, ok := BearerToken(header); !ok || got != want {
			t.Errorf("BearerToken(%q) = %q, %v", header, got, ok)
		}
	}
	for _, header := range []string{"", "Basic abc", "Bearerabc", "Token abc"} {
		if _, ok := BearerToken(header); ok {
			t.Errorf("BearerToken(%q) is a bearer", header)
		}
	}
}
