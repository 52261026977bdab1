package api

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// codeHostNotAllowed: the request is addressed to a host name the hub does
// not answer to.
const codeHostNotAllowed = "host_not_allowed"

// ownHost answers 421 host_not_allowed to every request addressed (its
// Host header) to a name the hub does not serve: the defence against DNS
// rebinding. There, a page of a site whose name the attacker then points at
// the hub's address makes the victim's browser talk to the hub as that
// site: its requests name the attacker's host in Host, and without
// HUB_BASE_URL in Origin too, which would pass the cross-site check
// (csrf.go) as the hub's own origin.
//
// The hub answers to HUB_BASE_URL's host name when one is configured, and
// always to loopback names (localhost, *.localhost) and IP addresses: no
// page but the hub's own can be addressed so, since the attacker serves no
// page at the hub's address. So `make run` (127.0.0.1:8080), tests, agents,
// health checks and scrapers given an address keep working, while any
// other name needs HUB_BASE_URL (the hub says so at start). Ports are not
// compared: a rebinding page has the hub's port anyway.
func (s *Server) ownHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.hostAllowed(r.Host) {
			next.ServeHTTP(w, r)
			return
		}
		msg := "this hub answers only requests addressed to localhost or an IP address; to serve it under a host name, its operator sets HUB_BASE_URL"
		if s.baseHost != "" {
			msg = "this hub answers only requests addressed to " + s.baseHost + " (HUB_BASE_URL), localhost or an IP address"
		}
		writeError(w, http.StatusMisdirectedRequest, codeHostNotAllowed, msg)
	})
}

// hostAllowed reports whether the hub answers requests whose Host header
// is hostport.
func (s *Server) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if host == "" {
		return false
	}
	if host == s.baseHost || host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	_, err := netip.ParseAddr(host)
	return err == nil
}

// originHost is the host name of an origin ("https://tests.example.com"),
// lower case, or "" for none.
func originHost(origin string) string {
	u, err := url.Parse(origin)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
}
