// Package secretbox encrypts secret values at rest with AES-256-GCM.
//
// The key comes from HUB_SECRET_KEY (32 bytes written as 64 hex digits or
// as base64) or, without it, from the key file <data>/secret.key: 32 random
// bytes created with mode 0600 on first use and reused afterwards. Losing
// the key makes every stored secret unreadable; back it up with the data
// folder, or set HUB_SECRET_KEY from a secret manager.
//
// Every value is sealed with additional authenticated data that names what
// it is (see SecretAAD), so a ciphertext copied into another row, another
// environment or another name fails to open instead of leaking there.
package secretbox

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// KeySize is the key length: AES-256.
const KeySize = 32

// KeyFile is the key file's name inside the data folder.
const KeyFile = "secret.key"

// ErrOpen is returned when a value does not decrypt: another key, another
// additional data (a moved row), or damaged bytes.
var ErrOpen = errors.New("secretbox: the value does not decrypt with this key and context (wrong HUB_SECRET_KEY or key file, or a moved or damaged row)")

// Box seals and opens values with one key. It is safe for concurrent use.
type Box struct {
	aead cipher.AEAD
}

// New returns a Box for a 32-byte key.
func New(key []byte) (*Box, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("secretbox: the key must be %d bytes, not %d", KeySize, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("secretbox: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("secretbox: %w", err)
	}
	return &Box{aead: aead}, nil
}

// Load returns the hub's Box: from envKey (the value of HUB_SECRET_KEY)
// when it is set, else from <dataDir>/secret.key, which it creates (0600,
// 32 random bytes) when missing. Errors never contain key material.
func Load(dataDir, envKey string) (*Box, error) {
	if envKey = strings.TrimSpace(envKey); envKey != "" {
		key, err := ParseKey(envKey)
		if err != nil {
			return nil, fmt.Errorf("HUB_SECRET_KEY: %w", err)
		}
		return New(key)
	}
	if dataDir == "" {
		return nil, errors.New("secretbox: no HUB_SECRET_KEY and no data folder for " + KeyFile)
	}
	key, err := loadKeyFile(filepath.Join(dataDir, KeyFile))
	if err != nil {
		return nil, err
	}
	return New(key)
}

// ParseKey decodes a key written as 64 hex digits or as standard or URL
// base64 (with or without padding) of 32 bytes.
func ParseKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if len(s) == 2*KeySize {
		if key, err := hex.DecodeString(s); err == nil {
			return key, nil
		}
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		key, err := enc.DecodeString(s)
		if err != nil {
			continue
		}
		if len(key) != KeySize {
			return nil, fmt.Errorf("the key must be %d bytes; this one decodes to %d bytes (make one with: openssl rand -base64 32)", KeySize, len(key))
		}
		return key, nil
	}
	return nil, errors.New("the key must be 32 bytes written as 64 hex digits or as base64 (make one with: openssl rand -base64 32)")
}

// loadKeyFile reads the key file, creating it first when it does not exist.
func loadKeyFile(path string) ([]byte, error) {
	key, err := readKeyFile(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	if err := createKeyFile(path); err != nil {
		return nil, err
	}
	return readKeyFile(path)
}

func readKeyFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("secret key file: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("secret key file: %w", err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("secret key file %s is not a regular file", path)
	}
	if info.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("secret key file %s is readable by other users (mode %04o): run chmod 600 %s", path, info.Mode().Perm(), path)
	}
	key, err := io.ReadAll(io.LimitReader(f, KeySize+1))
	if err != nil {
		return nil, fmt.Errorf("secret key file: %w", err)
	}
	if len(key) != KeySize {
		return nil, fmt.Errorf("secret key file %s is damaged: it must hold exactly %d bytes (restore it from a backup; a new key cannot open stored secrets)", path, KeySize)
	}
	return key, nil
}

// createKeyFile writes 32 random bytes to a temporary file and links it into
// place, so the key file appears whole or not at all, and a hub racing to do
// the same keeps whichever key was linked first.
func createKeyFile(path string) error {
	key := make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return fmt.Errorf("secret key: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".secret.key.*")
	if err != nil {
		return fmt.Errorf("secret key file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("secret key file: %w", err)
	}
	if _, err := tmp.Write(key); err != nil {
		tmp.Close()
		return fmt.Errorf("secret key file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("secret key file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("secret key file: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("secret key file: %w", err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// NonceSize is the length of the nonces Seal returns.
func (b *Box) NonceSize() int { return b.aead.NonceSize() }

// Seal encrypts plaintext bound to aad with a fresh random nonce.
func (b *Box) Seal(plaintext, aad []byte) (ciphertext, nonce []byte, err error) {
	nonce = make([]byte, b.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, nil, fmt.Errorf("secretbox: nonce: %w", err)
	}
	return b.aead.Seal(nil, nonce, plaintext, aad), nonce, nil
}

// Open decrypts a value sealed with the same key and aad; anything else
// gives ErrOpen.
func (b *Box) Open(ciphertext, nonce, aad []byte) ([]byte, error) {
	if len(nonce) != b.aead.NonceSize() || len(ciphertext) < b.aead.Overhead() {
		return nil, ErrOpen
	}
	plain, err := b.aead.Open(nil, nonce, ciphertext, aad)
	if err != nil {
		return nil, ErrOpen
	}
	return plain, nil
}

// SecretAAD is the additional data of an environment's secret: it binds the
// value to the environment's id and the secret's name. The hub seals with
// it and the run dispatcher opens with it.
func SecretAAD(environmentID, name string) []byte {
	return []byte("ta-secret/v1\x00" + environmentID + "\x00" + name)
}
