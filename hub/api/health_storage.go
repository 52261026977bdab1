package api

import (
	"context"
	"errors"
	"net/http"
	"os"

	"github.com/testautomation/ta/hub/artifacts"
)

// pinger is an artifact store on another server (the S3 bucket), which
// /healthz checks beside the database.
type pinger interface {
	Ping(ctx context.Context) error
}

// storageHealth names where artifacts are kept ("s3" or "folder"), or
// answers 503 and says false when the bucket does not answer.
func (s *Server) storageHealth(ctx context.Context, w http.ResponseWriter) (string, bool) {
	p, ok := s.Artifacts.(pinger)
	if !ok {
		return "folder", true
	}
	if err := p.Ping(ctx); err != nil {
		s.log.Warn("health check: the bucket does not answer", "err", err)
		writeError(w, http.StatusServiceUnavailable, codeUnavailable, "the artifact bucket does not answer")
		return "", false
	}
	return "s3", true
}

// storageDown tells an error of the artifact store that is not about the
// artifact (missing, or a name that cannot be one): the bucket does not
// answer, the disk fails.
func storageDown(err error) bool {
	return err != nil && !errors.Is(err, os.ErrNotExist) && !errors.Is(err, artifacts.ErrBadName)
}

// storageUnavailable answers 503 when stored bytes cannot be read just
// now: the artifact is there, the bucket is not answering; a 404 would
// say it is gone.
func (s *Server) storageUnavailable(w http.ResponseWriter, r *http.Request, err error) {
	s.log.Warn("artifact storage unreadable", "path", r.URL.Path, "err", err)
	writeError(w, http.StatusServiceUnavailable, codeUnavailable, "the stored contents cannot be read just now (the hub's artifact storage does not answer); try again shortly")
}
