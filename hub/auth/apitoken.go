package auth

import (
	"crypto/rand"
	"encoding/base32"
	"strings"
)

// APITokenPrefix starts every API token, so secret scanners (and people)
// recognise one in a log or a repository.
const APITokenPrefix = "tat_"

// apiTokenChars is the length of an API token after its prefix: 32 random
// bytes in unpadded base32.
const apiTokenChars = 52

var tokenEnc = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewAPIToken returns a fresh API token ("tat_" and 52 lowercase base32
// characters: 256 bits from crypto/rand) and the digest the hub stores.
func NewAPIToken() (token string, digest []byte) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on Linux
	}
	token = APITokenPrefix + tokenEnc.EncodeToString(b)
	return token, Digest(token)
}

// WellFormedAPIToken reports whether s has the shape of an API token, so
// garbage is refused without a database lookup.
func WellFormedAPIToken(s string) bool {
	rest, ok := strings.CutPrefix(s, APITokenPrefix)
	if !ok || len(rest) != apiTokenChars {
		return false
	}
	for _, c := range rest {
		if !(c >= 'a' && c <= 'z' || c >= '2' && c <= '7') {
			return false
		}
	}
	return true
}

// BearerToken reads an "Authorization: Bearer <token>" header value: ok
// says the scheme is Bearer (token may then be empty, which is a bad
// token); any other scheme or no header is not a bearer credential.
func BearerToken(header string) (token string, ok bool) {
	scheme, rest, _ := strings.Cut(strings.TrimSpace(header), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(rest), true
}

// APITokenDigest is the digest to look an API token up by
// (store.TokenUser); ok is false for text that is not shaped like a token,
// which needs no lookup: it is unknown.
func APITokenDigest(token string) (digest []byte, ok bool) {
	if !WellFormedAPIToken(token) {
		return nil, false
	}
	return Digest(token), true
}
