package api

import (
	"net/http"

	"github.com/testautomation/ta/hub/auth"
	"github.com/testautomation/ta/hub/metrics"
)

// serveMetrics is /metrics (Prometheus): open to the addresses in
// Config.MetricsAllow (HUB_METRICS_ALLOW), else only with the API token of
// a platform administrator (an unscoped token not capped below Admin).
func (s *Server) serveMetrics(w http.ResponseWriter, r *http.Request) {
	if s.Metrics == nil {
		writeError(w, http.StatusNotFound, codeNotFound, "this hub keeps no metrics")
		return
	}
	if !metrics.Allowed(s.MetricsAllow, clientAddress(r)) {
		raw, ok := auth.BearerToken(r.Header.Get("Authorization"))
		if !ok {
			w.Header().Set("WWW-Authenticate", "Bearer")
			writeError(w, http.StatusUnauthorized, codeUnauthenticated,
				"send Authorization: Bearer <API token of a platform administrator>, or scrape from an address in HUB_METRICS_ALLOW")
			return
		}
		u, tok, ok := s.bearer(w, r, raw)
		if !ok {
			return
		}
		if !tok.PlatformAdmin(u) {
			writeError(w, http.StatusForbidden, codeForbidden,
				"only a platform administrator's API token, for all projects and not capped below Admin, may read metrics")
			return
		}
	}
	s.Metrics.Handler().ServeHTTP(w, r)
}
