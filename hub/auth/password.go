// Package auth holds the hub's credential primitives: scrypt password hashes
// with their parameters stored beside them, and random tokens stored only as
// SHA-256 digests.
package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/crypto/scrypt"
)

// Hasher hashes passwords with scrypt. Its parameters are written into every
// hash, so raising them later still verifies old hashes and NeedsRehash tells
// when to upgrade one.
type Hasher struct {
	N, R, P int
}

// DefaultHasher uses the parameters recommended for interactive logins.
var DefaultHasher = Hasher{N: 1 << 15, R: 8, P: 1}

const (
	saltLen = 16
	keyLen  = 32
)

// Hash returns "scrypt$N$r$p$salt$key" with base64 (raw, std) salt and key.
func (h Hasher) Hash(password string) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key, err := scrypt.Key([]byte(password), salt, h.N, h.R, h.P, keyLen)
	if err != nil {
		return "", fmt.Errorf("scrypt: %w", err)
	}
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("scrypt$%d$%d$%d$%s$%s", h.N, h.R, h.P, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// ErrBadHash is returned for a stored hash this package cannot read.
var ErrBadHash = errors.New("unreadable password hash")

type parsedHash struct {
	n, r, p   int
	salt, key []byte
}

func parseHash(encoded string) (parsedHash, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "scrypt" {
		return parsedHash{}, ErrBadHash
	}
	var ph parsedHash
	var err error
	nums := []*int{&ph.n, &ph.r, &ph.p}
	for i, dst := range nums {
		if *dst, err = strconv.Atoi(parts[i+1]); err != nil || *dst <= 0 {
			return parsedHash{}, ErrBadHash
		}
	}
	b64 := base64.RawStdEncoding
	if ph.salt, err = b64.DecodeString(parts[4]); err != nil {
		return parsedHash{}, ErrBadHash
	}
	if ph.key, err = b64.DecodeString(parts[5]); err != nil || len(ph.key) == 0 {
		return parsedHash{}, ErrBadHash
	}
	return ph, nil
}

// Verify reports whether password matches the stored hash, comparing in
// constant time.
func Verify(password, encoded string) (bool, error) {
	ph, err := parseHash(encoded)
	if err != nil {
		return false, err
	}
	key, err := scrypt.Key([]byte(password), ph.salt, ph.n, ph.r, ph.p, len(ph.key))
	if err != nil {
		return false, fmt.Errorf("scrypt: %w", err)
	}
	return subtle.ConstantTimeCompare(key, ph.key) == 1, nil
}

// NeedsRehash reports whether a stored hash was made with other parameters
// than h's, so a successful sign-in should store a fresh hash.
func (h Hasher) NeedsRehash(encoded string) bool {
	ph, err := parseHash(encoded)
	return err != nil || ph.n != h.N || ph.r != h.R || ph.p != h.P
}

// NewToken returns a fresh token for a client (32 random bytes, base64url)
// and the SHA-256 digest under which the hub stores it.
func NewToken() (token string, digest []byte) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on Linux
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, Digest(token)
}

// Digest is the SHA-256 of a token as the hub stores it.
func Digest(token string) []byte {
	d := sha256.Sum256([]byte(token))
	return d[:]
}
