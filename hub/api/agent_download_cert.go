package api

import (
	"errors"
	"mime"
	"net/http"
	"os"

	"github.com/testautomation/ta/hub/downloads"
)

// agentDownloadCertificate serves the development certificate the Windows
// installer is signed with (make installers puts it beside the downloads
// when no real certificate was given), so a tester can trust it; the
// download page says how per system.
func (s *Server) agentDownloadCertificate(w http.ResponseWriter, r *http.Request) {
	var cert *downloads.SigningCertificate
	var err error
	if s.Downloads != nil {
		cert, err = s.Downloads.Certificate()
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if cert == nil {
		writeError(w, http.StatusNotFound, codeNotFound, "this hub has no development signing certificate: its Windows installer is signed with a real one, or not built yet (make installers)")
		return
	}
	f, err := os.Open(s.Downloads.CertificatePath())
	if errors.Is(err, os.ErrNotExist) { // removed since it was read
		writeError(w, http.StatusNotFound, codeNotFound, "the development signing certificate went away")
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		s.internal(w, r, err)
		return
	}
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": cert.File}))
	w.Header().Set("Content-Type", "application/x-x509-ca-cert")
	w.Header().Set("Cache-Control", "private, no-cache")
	http.ServeContent(w, r, cert.File, info.ModTime(), f)
}
