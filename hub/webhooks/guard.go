package webhooks

import (
	"errors"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
)

// MaxURL bounds a webhook's address.
const MaxURL = 2000

// CheckURL says what is wrong with a webhook address ("" when nothing): it
// must be an absolute http or https URL of at most 2,000 characters whose
// host, when written as an address, is not link-local. Loopback and private
// addresses are allowed (tests, on-premise receivers); link-local ones
// (169.254.0.0/16, fe80::/10: cloud metadata services) never are, checked
// again when sending since a name may resolve to one later.
func CheckURL(raw string) string {
	if raw == "" {
		return "url is required"
	}
	if len(raw) > MaxURL {
		return "url is longer than 2,000 characters"
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		return "url must be an absolute http or https address like https://ci.example.com/hooks/tests"
	}
	if strings.ContainsAny(raw, " \t\r\n\x00") {
		return "url must not contain spaces or control characters"
	}
	host := u.Hostname()
	if host == "" {
		return "url has no host"
	}
	if ip, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil && Refused(ip) {
		return "url points at a link-local address (169.254.0.0/16 or fe80::/10), which webhooks may not reach"
	}
	return ""
}

// Refused reports whether webhooks may not connect to ip: link-local
// addresses, where cloud metadata services answer, and the unspecified one.
func Refused(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsUnspecified() || ip.IsMulticast()
}

var errRefusedAddress = errors.New("the address is link-local (169.254.0.0/16 or fe80::/10), which webhooks may not reach")

// guardDial is the dialer's Control: it checks the address actually dialled,
// after name resolution.
func guardDial(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return err
	}
	if Refused(ap.Addr()) {
		return errRefusedAddress
	}
	return nil
}

// newDialer dials with guardDial.
func newDialer() *net.Dialer { return &net.Dialer{Control: guardDial} }
