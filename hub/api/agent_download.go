package api

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"os"
	"strings"

	"github.com/testautomation/ta/hub/downloads"
)

// agentDownload lists the agent downloads this hub serves, or with
// ?os=&arch= (and optionally &kind=) serves one: the file carries the hub's
// address, so the installed agent pairs with this hub (hub/downloads).
func (s *Server) agentDownload(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	osName, arch, kind := q.Get("os"), q.Get("arch"), q.Get("kind")
	var list []downloads.File
	var err error
	if s.Downloads != nil {
		list, err = s.Downloads.List()
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if list == nil {
		list = []downloads.File{}
	}
	if osName == "" && arch == "" && kind == "" {
		var cert *downloads.SigningCertificate
		if s.Downloads != nil {
			if cert, err = s.Downloads.Certificate(); err != nil {
				s.internal(w, r, err)
				return
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"downloads": list, "signingCertificate": cert})
		return
	}
	var issues issueList
	switch osName {
	case "linux", "windows", "macos":
	case "":
		issues.add("os", "required", "os is required with arch: linux, windows or macos")
	default:
		issues.add("os", "enum", "os is linux, windows or macos")
	}
	switch arch {
	case "amd64", "arm64":
	case "":
		issues.add("arch", "required", "arch is required with os: amd64 or arm64")
	default:
		issues.add("arch", "enum", "arch is amd64 or arm64")
	}
	switch kind {
	case "", "deb", "tar.gz", "exe", "msi", "zip":
	default:
		issues.add("kind", "enum", "kind is deb, tar.gz, exe, msi or zip")
	}
	if len(issues) > 0 {
		writeJSON(w, http.StatusBadRequest, errorBody{Error: "choose a download by os and arch", Code: "invalid_query", Issues: issues})
		return
	}
	f, found := downloads.Pick(list, osName, arch, kind)
	if !found {
		want := osName + "/" + arch
		if kind != "" {
			want += " (" + kind + ")"
		}
		writeError(w, http.StatusNotFound, codeNotFound, "this hub has no agent download for "+want+"; "+available(list))
		return
	}
	file, mod, err := s.Downloads.Open(f)
	if errors.Is(err, os.ErrNotExist) { // removed since it was listed
		writeError(w, http.StatusNotFound, codeNotFound, "the download went away; "+available(list))
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	defer file.Close()
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": f.File}))
	w.Header().Set("Content-Type", contentTypes[f.Kind])
	w.Header().Set("X-Content-SHA256", f.SHA256)
	w.Header().Set("Cache-Control", "private, no-cache")
	http.ServeContent(w, r, f.File, mod, file)
}

var contentTypes = map[string]string{
	"deb":    "application/vnd.debian.binary-package",
	"tar.gz": "application/gzip",
	"exe":    "application/vnd.microsoft.portable-executable",
	"msi":    "application/x-msi",
	"zip":    "application/zip",
}

// available says what a hub can serve.
func available(list []downloads.File) string {
	if len(list) == 0 {
		return "it serves none yet: build them with `make installers` (see README)"
	}
	var parts []string
	for _, f := range list {
		parts = append(parts, fmt.Sprintf("%s/%s (%s)", f.OS, f.Arch, f.Kind))
	}
	return "it has " + strings.Join(parts, ", ")
}
