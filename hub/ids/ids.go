// Package ids makes record identifiers: a kind prefix, an underscore and 16
// random lowercase base32 characters (80 bits from crypto/rand).
package ids

import (
	"crypto/rand"
	"encoding/base32"
	"strings"
)

var enc = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// Kind prefixes used by the hub.
const (
	User         = "usr"
	Organization = "org"
	Project      = "prj"
	Test         = "tc"
)

// New returns a fresh identifier of the given kind, e.g. New("prj").
func New(kind string) string {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on Linux
	}
	return kind + "_" + enc.EncodeToString(b[:])
}

// Valid reports whether s looks like an identifier of the given kind. It does
// not say the record exists; it keeps garbage out of queries and logs.
func Valid(kind, s string) bool {
	rest, ok := strings.CutPrefix(s, kind+"_")
	if !ok || len(rest) < 16 || len(rest) > 64 {
		return false
	}
	for _, c := range rest {
		if !(c >= 'a' && c <= 'z' || c >= '2' && c <= '7') {
			return false
		}
	}
	return true
}
