package api

import (
	"errors"
	"mime"
	"net/http"
	"os"
	"strings"

	"github.com/testautomation/ta/hub/artifacts"
	"github.com/testautomation/ta/hub/store"
)

// Presigned URLs (HUB_S3_PRESIGN=1, docs/object-storage.md): after the
// same access checks, a browser reading an artifact or a project file is
// sent to a short-lived URL of the bucket instead of through the hub. The
// bucket answers with the Content-Type, Content-Disposition and
// Cache-Control the URL forces, but it cannot send the hub's
// Content-Security-Policy or nosniff. So only what needs neither is
// presigned: a download (attachment: the browser renders nothing) or a
// raster image (a browser never runs an image/png as a page). A trace's
// HTML snapshot and JSON, SVG and anything else shown inline stay proxied.

// presignedInline are the content types safe to show from the bucket.
var presignedInline = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// headerOnly collects the headers a serving function would set.
type headerOnly http.Header

func (h headerOnly) Header() http.Header       { return http.Header(h) }
func (headerOnly) Write(p []byte) (int, error) { return len(p), nil }
func (headerOnly) WriteHeader(int)             {}

// presignable gives the headers a presigned URL must force, or false when
// what h describes must be served by the hub.
func presignable(h http.Header) (artifacts.ResponseHeaders, bool) {
	rh := artifacts.ResponseHeaders{ContentType: h.Get("Content-Type"), Disposition: h.Get("Content-Disposition"),
		CacheControl: h.Get("Cache-Control")}
	mt, _, err := mime.ParseMediaType(rh.ContentType)
	if err != nil {
		return rh, false
	}
	return rh, strings.HasPrefix(rh.Disposition, "attachment") || rh.Disposition == "" && presignedInline[mt]
}

// redirectArtifact answers a redirect to a presigned URL of a run's
// artifact when the store presigns and the artifact may be; otherwise it
// answers nothing and says false (the caller serves it itself).
func (s *Server) redirectArtifact(w http.ResponseWriter, r *http.Request, runID, name, contentType string) bool {
	p, ok := s.Artifacts.(artifacts.Presigner)
	if !ok || r.Method != http.MethodGet {
		return false // a presigned GET URL does not answer HEAD
	}
	h := headerOnly{}
	artifactHeaders(h, name, contentType) // runs_trace.go
	rh, ok := presignable(http.Header(h))
	if !ok {
		return false
	}
	u, err := p.PresignArtifact(r.Context(), runID, name, rh)
	return s.presignedRedirect(w, r, u, err)
}

// redirectFile is redirectArtifact for a project file a member reads
// (always a download). The agent's own reads stay proxied
// (files_agent.go): it checks the X-File-Sha256 header only the hub sends,
// and it may reach the hub but not the bucket.
func (s *Server) redirectFile(w http.ResponseWriter, r *http.Request, f store.File) bool {
	p, ok := s.Artifacts.(artifacts.Presigner)
	if !ok || r.Method != http.MethodGet {
		return false
	}
	h := headerOnly{}
	fileHeaders(h, f) // files.go
	rh, ok := presignable(http.Header(h))
	if !ok {
		return false
	}
	u, err := p.PresignFile(r.Context(), f.ID, rh)
	return s.presignedRedirect(w, r, u, err)
}

func (s *Server) presignedRedirect(w http.ResponseWriter, r *http.Request, u string, err error) bool {
	if err != nil {
		// The hub serves it instead: a missing object answers its 404,
		// a bucket that does not answer its error.
		if !errors.Is(err, os.ErrNotExist) {
			s.log.Warn("presigning failed; serving through the hub", "path", r.URL.Path, "err", err)
		}
		return false
	}
	// The URL expires: neither it nor the redirect may be kept.
	w.Header().Set("Cache-Control", "private, no-store")
	w.Header().Set("Location", u) // no body: http.Redirect's HTML would need a type of its own
	w.WriteHeader(http.StatusFound)
	return true
}

// presigned documents the redirect a presigning hub may answer.
func (r apiRoute) presigned() apiRoute {
	r.responses = append(r.responses, apiResponse{status: http.StatusFound, description: "With HUB_S3_PRESIGN=1 (docs/object-storage.md): " +
		"a redirect (Location) to a presigned URL of the bucket, valid a few minutes, that answers the same content type and disposition"})
	return r
}
