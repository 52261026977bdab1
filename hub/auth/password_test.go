package auth

import (
	"bytes"
	"strings"
	"testing"
)

var fast = Hasher{N: 1 << 10, R: 8, P: 1}

func TestHashVerify(t *testing.T) {
	h, err := fast.Hash("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "scrypt$1024$8$1$") {
		t.Fatalf("hash does not carry its parameters: %q", h)
	}
	if ok, err := Verify("correct horse battery", h); !ok || err != nil {
		t.Fatalf("Verify(right) = %v, %v", ok, err)
	}
	if ok, _ := Verify("correct horse batterY", h); ok {
		t.Fatal("Verify accepted a wrong password")
	}
	h2, _ := fast.Hash("correct horse battery")
	if h2 == h {
		t.Fatal("two hashes of one password are equal: salt missing")
	}
}

func TestNeedsRehash(t *testing.T) {
	h, _ := fast.Hash("some password")
	if fast.NeedsRehash(h) {
		t.Error("same parameters should not need a rehash")
	}
	stronger := Hasher{N: 1 << 11, R: 8, P: 1}
	if !stronger.NeedsRehash(h) {
		t.Error("raised parameters should need a rehash")
	}
	if ok, err := Verify("some password", h); !ok || err != nil {
		t.Error("old hash must still verify after parameters are raised")
	}
}

func TestVerifyBadHash(t *testing.T) {
	for _, bad := range []string{"", "plain", "scrypt$x$8$1$a$b", "scrypt$1024$8$1$!!$b", "bcrypt$1$2$3$4$5", "scrypt$1024$8$1$c2FsdA$"} {
		if ok, err := Verify("pw", bad); ok || err == nil {
			t.Errorf("Verify(%q) = %v, %v; want false and an error", bad, ok, err)
		}
	}
}

func TestTokens(t *testing.T) {
	tok, dig := NewToken()
	if len(tok) != 43 {
		t.Fatalf("token length %d, want 43 (32 bytes base64url)", len(tok))
	}
	if !bytes.Equal(dig, Digest(tok)) || len(dig) != 32 {
		t.Fatal("digest mismatch")
	}
	tok2, _ := NewToken()
	if tok2 == tok {
		t.Fatal("tokens repeat")
	}
}
