package api

import (
	"crypto/sha1"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/downloads"
	"github.com/testautomation/ta/installer"
)

// The hub serves the development certificate its Windows installer is
// signed with beside the downloads, and lists it with the thumbprint
// Windows shows, so a tester can trust it knowingly; without one (or with
// a damaged file) the listing says null and the certificate answers 404.
func TestAgentDownloadServesCertificate(t *testing.T) {
	h := newHarness(t)
	dir := filepath.Join(h.dataDir, "downloads")
	h.api.Downloads = &downloads.Dir{Path: dir, Cache: filepath.Join(h.dataDir, "served"), HubURL: h.srv.URL}
	ann, _ := h.register("Ann")
	const path = "/api/agent/download/certificate"

	h.client().do("GET", path, nil).want(t, 401)
	if c := ann.do("GET", "/api/agent/download", nil).want(t, 200).json()["signingCertificate"]; c != nil {
		t.Fatalf("no certificate yet, listed %v", c)
	}
	if r := ann.do("GET", path, nil).wantCode(t, 404, codeNotFound); !strings.Contains(r.str("error"), "make installers") {
		t.Errorf("no certificate: %s", r.body)
	}

	signer, err := installer.DevSigner(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	pemBytes, _ := os.ReadFile(signer.Cert)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ta-agent-dev-signing.crt"), pemBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(pemBytes)
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	thumb := sha1.Sum(cert.Raw)
	listed, ok := ann.do("GET", "/api/agent/download", nil).want(t, 200).json()["signingCertificate"].(map[string]any)
	if !ok || listed["file"] != "ta-agent-dev-signing.crt" || listed["subject"] != "Test Automation Agent (development)" ||
		listed["sha1"] != strings.ToUpper(hex.EncodeToString(thumb[:])) || len(listed["sha256"].(string)) != 64 || listed["notAfter"] == "" {
		t.Fatalf("listed %v", listed)
	}
	got := ann.do("GET", path, nil).want(t, 200)
	if string(got.body) != string(pemBytes) || got.header.Get("Content-Type") != "application/x-x509-ca-cert" ||
		!strings.Contains(got.header.Get("Content-Disposition"), "filename=ta-agent-dev-signing.crt") {
		t.Fatalf("served %q with %v", got.body, got.header)
	}

	// A file that is no certificate is not offered as one.
	if err := os.WriteFile(filepath.Join(dir, "ta-agent-dev-signing.crt"), []byte("not a certificate"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := ann.do("GET", "/api/agent/download", nil).want(t, 200).json()["signingCertificate"]; c != nil {
		t.Errorf("a damaged certificate listed as %v", c)
	}
	ann.do("GET", path, nil).wantCode(t, 404, codeNotFound)
}
