package api

import (
	"context"
	"net/http"
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
