package api

import (
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
)

// Codes of the answers sameOrigin gives.
const (
	codeCrossOrigin          = "cross_origin"
	codeUnsupportedMediaType = "unsupported_media_type"
)

// sameOrigin refuses changes a page of another site (or another port or
// subdomain of this one: SameSite cookies do not cover those) makes a
// signed-in browser send. A request that may change something (any method
// but GET, HEAD and OPTIONS) is refused with 403 when its Origin is present
// and is not the hub's own origin, or, without Origin, when Sec-Fetch-Site
// says it comes from another site. Requests with neither header are not
// from a browser's page (curl, the CI command, tokens) and pass. A body, and
// any Content-Type given even without a body, must then be JSON (415
// otherwise): what a page may send without asking first (forms, text/plain)
// never is, which also covers old browsers that sent no Origin with forms.
// It runs before authentication, so every route, present or future, is
// covered.
func (s *Server) sameOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			next.ServeHTTP(w, r)
			return
		}
		if origin, present := r.Header["Origin"]; present {
			own := s.ownOrigin(r)
			if len(origin) != 1 || normalOrigin(origin[0]) == "" || normalOrigin(origin[0]) != own {
				writeError(w, http.StatusForbidden, codeCrossOrigin, fmt.Sprintf(
					"refused: this request comes from a page outside the hub; the hub's pages are at %s (HUB_BASE_URL sets that address)", own))
				return
			}
		} else if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" || site == "same-site" {
			writeError(w, http.StatusForbidden, codeCrossOrigin, "refused: this request comes from a page of another site")
			return
		}
		if ct := r.Header.Get("Content-Type"); (ct != "" || r.ContentLength != 0) && !jsonMediaType(ct) && !csvImport(r, ct) && !fileUpload(r, ct) {
			writeError(w, http.StatusUnsupportedMediaType, codeUnsupportedMediaType, "send the body as JSON with Content-Type: application/json")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// ownOrigin is the origin the hub's pages have: HUB_BASE_URL's when it is
// configured, else the one the request was addressed to.
func (s *Server) ownOrigin(r *http.Request) string {
	if s.origin != "" {
		return s.origin
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return normalOrigin(scheme + "://" + r.Host)
}

// normalOrigin is scheme://host[:port] in lower case without the scheme's
// default port, or "" when s is not an http(s) origin ("null", a path...).
func normalOrigin(s string) string {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return ""
	}
	host := strings.ToLower(u.Host)
	if p := u.Port(); (u.Scheme == "http" && p == "80") || (u.Scheme == "https" && p == "443") {
		host = strings.ToLower(u.Hostname())
		if strings.Contains(host, ":") {
			host = "[" + host + "]"
		}
	}
	return u.Scheme + "://" + host
}

// jsonMediaType accepts application/json and application/*+json, with
// parameters (charset).
func jsonMediaType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")
}

// csvImport accepts text/csv on the one route that imports CSV (POST
// /api/test-data). A page of another site cannot send it without a CORS
// preflight, which the hub never grants, so it is as safe as JSON.
func csvImport(r *http.Request, ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "text/csv" && r.Method == http.MethodPost && r.URL.Path == "/api/test-data"
}

// fileUpload accepts the raw bytes of POST /api/files (files.go) under any
// Content-Type a page of another site cannot send without a CORS
// preflight: not the form and text/plain types, and not none at all.
func fileUpload(r *http.Request, ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && r.Method == http.MethodPost && (r.URL.Path == "/api/files" || r.URL.Path == agentOfferPath) &&
		mt != "application/x-www-form-urlencoded" && mt != "multipart/form-data" && mt != "text/plain"
}
