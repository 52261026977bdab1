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
// host, when written as an address, is not one Refused names. Loopback and
// private addresses are allowed (tests, on-premise receivers); link-local
// ones (169.254.0.0/16, fe80::/10: cloud metadata services) never are, in
// whatever IPv6 form they come, checked again when sending since a name may
// resolve to one later.
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
		return "url points at " + refusedWhat + ", which webhooks may not reach"
	}
	return ""
}

// refusedWhat names the addresses Refused refuses, for messages.
const refusedWhat = "a link-local, unspecified or multicast address (such as 169.254.0.0/16 or fe80::/10, also inside an IPv6 address)"

// Refused reports whether webhooks may not connect to ip: link-local
// addresses, where cloud metadata services answer, the unspecified ones and
// multicast; also as the IPv4 address an IPv6 one carries (NAT64, mapped,
// 6to4, Teredo...), which a translator on the way may turn back into it.
func Refused(ip netip.Addr) bool {
	return refused(ip) || anyEmbedded(ip, refused)
}

func refused(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsUnspecified() || ip.IsMulticast() ||
		ip.Is4() && (ip.As4()[0] == 0 || ip == netip.AddrFrom4([4]byte{255, 255, 255, 255})) // "this network", broadcast
}

// Internal reports whether ip is a loopback or private address (or carries
// one, as Refused reads them): the hub's own machine and network, whose
// receivers the delivery log describes only by success or failure. Refused
// addresses are not Internal: no connection to them is tried, so saying so
// tells nothing about what listens there.
func Internal(ip netip.Addr) bool {
	return internal(ip) || anyEmbedded(ip, internal)
}

// sharedSpace is 100.64.0.0/10, carrier-grade NAT's addresses: private to
// a provider's network.
var sharedSpace = netip.MustParsePrefix("100.64.0.0/10")

// siteLocal is fec0::/10, IPv6's deprecated private range.
var siteLocal = netip.MustParsePrefix("fec0::/10")

func internal(ip netip.Addr) bool {
	ip = ip.Unmap().WithZone("")
	return ip.IsLoopback() || ip.IsPrivate() || sharedSpace.Contains(ip) || siteLocal.Contains(ip)
}

// anyEmbedded reports whether test holds for an IPv4 address that ip
// carries.
func anyEmbedded(ip netip.Addr, test func(netip.Addr) bool) bool {
	for _, v4 := range embeddedIPv4(ip) {
		if test(v4) {
			return true
		}
	}
	return false
}

var (
	nat64        = netip.MustParsePrefix("64:ff9b::/96")   // RFC 6052 well-known prefix
	nat64Local   = netip.MustParsePrefix("64:ff9b:1::/48") // RFC 8215 local use
	mapped       = netip.MustParsePrefix("::ffff:0:0/96")
	translated   = netip.MustParsePrefix("::ffff:0:0:0/96") // RFC 2765 SIIT
	compatible   = netip.MustParsePrefix("::/96")           // deprecated IPv4-compatible
	sixToFour    = netip.MustParsePrefix("2002::/16")
	teredoPrefix = netip.MustParsePrefix("2001::/32")
)

// embeddedIPv4 lists the IPv4 addresses an IPv6 address carries in the
// forms a network may translate back to IPv4: NAT64 (the well-known
// prefix; for the local-use prefix every position RFC 6052 allows for a
// prefix of /48 or longer, since the translator's length is unknown),
// IPv4-mapped, -translated and -compatible, 6to4, and Teredo (its server,
// and its client stored inverted).
func embeddedIPv4(ip netip.Addr) []netip.Addr {
	ip = ip.WithZone("") // a prefix contains no zoned address
	if !ip.Is6() {
		return nil
	}
	b := ip.As16()
	v4 := func(a, b2, c, d byte) netip.Addr { return netip.AddrFrom4([4]byte{a, b2, c, d}) }
	last := v4(b[12], b[13], b[14], b[15])
	switch {
	case mapped.Contains(ip), translated.Contains(ip), nat64.Contains(ip):
		return []netip.Addr{last}
	case nat64Local.Contains(ip):
		return []netip.Addr{v4(b[6], b[7], b[9], b[10]), v4(b[7], b[9], b[10], b[11]), v4(b[9], b[10], b[11], b[12]), last}
	case compatible.Contains(ip):
		if ip.IsUnspecified() || ip.IsLoopback() {
			return nil // ::, ::1 are not IPv4 addresses
		}
		return []netip.Addr{last}
	case sixToFour.Contains(ip):
		return []netip.Addr{v4(b[2], b[3], b[4], b[5])}
	case teredoPrefix.Contains(ip):
		return []netip.Addr{v4(b[4], b[5], b[6], b[7]), v4(^b[12], ^b[13], ^b[14], ^b[15])}
	}
	return nil
}

var errRefusedAddress = errors.New("the address is " + refusedWhat + ", which webhooks may not reach")

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
