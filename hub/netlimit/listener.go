package netlimit

import (
	"log/slog"
	"net"
	"sync"
	"time"
)

// Listener caps the connections ln hands out: at most l.MaxConns open at
// once, and at most l.MaxConnsPerAddr from one client address, so one
// address cannot take every slot. A connection over a cap is closed as
// soon as it is accepted; logger hears of refusals at most once a minute.
func (l Limits) Listener(ln net.Listener, logger *slog.Logger) net.Listener {
	if logger == nil {
		logger = slog.Default()
	}
	return &listener{Listener: ln, max: l.MaxConns, perAddr: l.MaxConnsPerAddr, log: logger, byAddr: map[string]int{}}
}

type listener struct {
	net.Listener
	max, perAddr int
	log          *slog.Logger

	mu       sync.Mutex
	open     int            // guarded by mu
	byAddr   map[string]int // guarded by mu: open connections per addrKey
	refused  int            // guarded by mu: since the last log line
	loggedAt time.Time      // guarded by mu
}

func (l *listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key := addrKey(c.RemoteAddr())
		if l.take(key) {
			return &conn{Conn: c, release: func() { l.release(key) }}, nil
		}
		c.Close()
	}
}

// take counts a new connection from key in, or refuses it over a cap.
func (l *listener) take(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	overall := l.max > 0 && l.open >= l.max
	if overall || l.perAddr > 0 && l.byAddr[key] >= l.perAddr {
		l.refused++
		if now := time.Now(); now.Sub(l.loggedAt) >= time.Minute {
			l.log.Warn("connections refused: too many open", "refused", l.refused, "open", l.open, "max", l.max,
				"address", key, "fromAddress", l.byAddr[key], "maxPerAddress", l.perAddr)
			l.refused, l.loggedAt = 0, now
		}
		return false
	}
	l.open++
	l.byAddr[key]++
	return true
}

func (l *listener) release(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if l.byAddr[key]--; l.byAddr[key] <= 0 {
		delete(l.byAddr, key)
	}
}

// addrKey is what the per-address cap counts by: the IP, or for IPv6 its
// /64 (one machine commonly has a whole /64 to pick from).
func addrKey(a net.Addr) string {
	var ip net.IP
	switch a := a.(type) {
	case *net.TCPAddr:
		ip = a.IP
	default:
		host, _, err := net.SplitHostPort(a.String())
		if err != nil {
			return a.String()
		}
		ip = net.ParseIP(host)
		if ip == nil {
			return host
		}
	}
	if v4 := ip.To4(); v4 != nil {
		return v4.String()
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// conn gives its slot back once, when closed (by the server, or by
// whoever hijacked it).
type conn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
