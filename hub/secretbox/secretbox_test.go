package secretbox

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func testBox(t *testing.T) *Box {
	t.Helper()
	b, err := Load(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRoundTrip(t *testing.T) {
	b := testBox(t)
	aad := SecretAAD("env_aaaaaaaaaaaaaaaa", "PASSWORD")
	for _, plain := range [][]byte{nil, []byte(""), []byte("hunter2"), bytes.Repeat([]byte{0, 1, 255}, 5000)} {
		ct, nonce, err := b.Seal(plain, aad)
		if err != nil {
			t.Fatal(err)
		}
		if len(nonce) != b.NonceSize() {
			t.Fatalf("nonce of %d bytes", len(nonce))
		}
		if len(plain) > 0 && bytes.Contains(ct, plain) {
			t.Fatal("ciphertext contains the plaintext")
		}
		got, err := b.Open(ct, nonce, aad)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, plain) {
			t.Fatalf("round trip gave %q", got)
		}
	}
	// Two seals of one value differ (fresh nonces).
	ct1, n1, _ := b.Seal([]byte("same"), aad)
	ct2, n2, _ := b.Seal([]byte("same"), aad)
	if bytes.Equal(ct1, ct2) || bytes.Equal(n1, n2) {
		t.Fatal("sealing twice gave the same ciphertext or nonce")
	}
}

func TestOpenRefusesWrongContext(t *testing.T) {
	b := testBox(t)
	aad := SecretAAD("env_aaaaaaaaaaaaaaaa", "PASSWORD")
	ct, nonce, err := b.Seal([]byte("hunter2"), aad)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]func() ([]byte, error){
		"other environment": func() ([]byte, error) { return b.Open(ct, nonce, SecretAAD("env_bbbbbbbbbbbbbbbb", "PASSWORD")) },
		"other name":        func() ([]byte, error) { return b.Open(ct, nonce, SecretAAD("env_aaaaaaaaaaaaaaaa", "TOKEN")) },
		// the separator keeps "a"+"bc" apart from "ab"+"c"
		"shifted boundary": func() ([]byte, error) { return b.Open(ct, nonce, SecretAAD("env_aaaaaaaaaaaaaaaaP", "ASSWORD")) },
		"no aad":           func() ([]byte, error) { return b.Open(ct, nonce, nil) },
		"other key":        func() ([]byte, error) { return testBox(t).Open(ct, nonce, aad) },
		"flipped bit": func() ([]byte, error) {
			bad := bytes.Clone(ct)
			bad[0] ^= 1
			return b.Open(bad, nonce, aad)
		},
		"short nonce":      func() ([]byte, error) { return b.Open(ct, nonce[:4], aad) },
		"short ciphertext": func() ([]byte, error) { return b.Open(ct[:3], nonce, aad) },
	}
	for name, open := range cases {
		got, err := open()
		if !errors.Is(err, ErrOpen) || got != nil {
			t.Errorf("%s: %q, %v; want ErrOpen", name, got, err)
		}
	}
}

func TestKeyFileCreatedOnceAndReused(t *testing.T) {
	dir := t.TempDir()
	b1, err := Load(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, KeyFile)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 || info.Size() != KeySize {
		t.Fatalf("key file mode %v size %d", info.Mode(), info.Size())
	}
	key1, _ := os.ReadFile(path)
	aad := SecretAAD("env_aaaaaaaaaaaaaaaa", "X")
	ct, nonce, _ := b1.Seal([]byte("v"), aad)

	b2, err := Load(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if key2, _ := os.ReadFile(path); !bytes.Equal(key1, key2) {
		t.Fatal("the key file changed on the second load")
	}
	if got, err := b2.Open(ct, nonce, aad); err != nil || string(got) != "v" {
		t.Fatalf("second load cannot open the first one's value: %q %v", got, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("data folder holds %d entries (temporary files left?)", len(entries))
	}
}

func TestKeyFileRace(t *testing.T) {
	dir := t.TempDir()
	boxes := make([]*Box, 8)
	var wg sync.WaitGroup
	for i := range boxes {
		wg.Go(func() {
			b, err := Load(dir, "")
			if err != nil {
				t.Error(err)
			}
			boxes[i] = b
		})
	}
	wg.Wait()
	aad := []byte("x")
	ct, nonce, _ := boxes[0].Seal([]byte("v"), aad)
	for i, b := range boxes {
		if _, err := b.Open(ct, nonce, aad); err != nil {
			t.Fatalf("box %d uses another key", i)
		}
	}
}

func TestKeyFileProblems(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, KeyFile)
	if err := os.WriteFile(path, make([]byte, KeySize), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir, ""); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("group-readable key file: %v", err)
	}
	if err := os.WriteFile(path, []byte("short"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o600)
	if _, err := Load(dir, ""); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("short key file: %v", err)
	}
	if _, err := Load("", ""); err == nil {
		t.Fatal("no key and no data folder should fail")
	}
}

func TestEnvKey(t *testing.T) {
	key := bytes.Repeat([]byte{0xab, 0x01}, KeySize/2)
	aad := []byte("a")
	var sealed []byte
	var nonce []byte
	for i, s := range []string{
		hex.EncodeToString(key),
		strings.ToUpper(hex.EncodeToString(key)),
		base64.StdEncoding.EncodeToString(key),
		"  " + base64.RawURLEncoding.EncodeToString(key) + "\n",
	} {
		dir := t.TempDir()
		b, err := Load(dir, s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if _, err := os.Stat(filepath.Join(dir, KeyFile)); !os.IsNotExist(err) {
			t.Fatal("HUB_SECRET_KEY set, yet a key file was created")
		}
		if i == 0 {
			sealed, nonce, _ = b.Seal([]byte("v"), aad)
		} else if _, err := b.Open(sealed, nonce, aad); err != nil {
			t.Fatalf("%q is another key", s)
		}
	}
	secretLooking := "c2VjcmV0LWtleS10aGF0LWlzLXRvby1zaG9ydA" // 28 bytes
	for _, bad := range []string{"tooshort", hex.EncodeToString(key[:16]), base64.StdEncoding.EncodeToString(append(key, 1)), "!!!not base64!!!", secretLooking} {
		_, err := Load(t.TempDir(), bad)
		if err == nil {
			t.Fatalf("%q accepted", bad)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "HUB_SECRET_KEY: ") || !strings.Contains(msg, "32 bytes") {
			t.Errorf("%q: unclear error %q", bad, msg)
		}
		if strings.Contains(msg, bad) {
			t.Errorf("the error repeats the key: %q", msg)
		}
	}
}
