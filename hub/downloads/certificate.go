package downloads

import (
	"crypto/sha1"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// CertificateFile is the self-signed development certificate the Windows
// installer is signed with when no real one was given (make installers
// puts it beside the downloads). Users who trust it see the installer's
// signature as valid; the download page says how.
const CertificateFile = "ta-agent-dev-signing.crt"

// SigningCertificate describes the development signing certificate, so a user
// can compare it with what Windows shows before trusting it.
type SigningCertificate struct {
	File     string    `json:"file"`
	Subject  string    `json:"subject"`
	NotAfter time.Time `json:"notAfter"`
	// SHA1 is what Windows calls the certificate's thumbprint; SHA256
	// what `openssl x509 -fingerprint -sha256` shows (both of its DER
	// bytes, upper-case hex).
	SHA1   string `json:"sha1"`
	SHA256 string `json:"sha256"`
}

// Certificate is the folder's development signing certificate; nil when
// there is none or it does not read as one (logged: it is not served then).
func (d *Dir) Certificate() (*SigningCertificate, error) {
	path := filepath.Join(d.Path, CertificateFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(data)
	var cert *x509.Certificate
	if block != nil && block.Type == "CERTIFICATE" {
		cert, err = x509.ParseCertificate(block.Bytes)
	}
	if cert == nil {
		d.logger().Warn("the development signing certificate is not served: it does not read as a PEM certificate", "file", path, "err", err)
		return nil, nil
	}
	s1, s256 := sha1.Sum(cert.Raw), sha256.Sum256(cert.Raw)
	return &SigningCertificate{File: CertificateFile, Subject: cert.Subject.CommonName, NotAfter: cert.NotAfter.UTC(),
		SHA1: strings.ToUpper(hex.EncodeToString(s1[:])), SHA256: strings.ToUpper(hex.EncodeToString(s256[:]))}, nil
}

// CertificatePath is where Certificate's file is.
func (d *Dir) CertificatePath() string { return filepath.Join(d.Path, CertificateFile) }
