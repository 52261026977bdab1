// Package netlimit keeps slow or numerous clients from exhausting the hub:
// caps on open connections (overall and per client address; connections
// over a cap are closed at once), time limits on a request's headers, on
// its body and on each write of its response, and the process's open-file
// limit raised as far as it may go.
//
// Long-lived answers need no care from their handlers: the write limit is
// per write, so a stream (server-sent events) or a large download lives as
// long as the client keeps taking what is written, and a hijacked
// connection (a WebSocket) is handed over without deadlines.
package netlimit

import (
	"log"
	"net/http"
	"syscall"
	"time"
)

// Limits are the hub's defences against slow and numerous clients.
type Limits struct {
	MaxConns        int           // open connections at once; 0: no cap (HUB_MAX_CONNS)
	MaxConnsPerAddr int           // from one client address, IPv6 by /64; 0: no cap (HUB_MAX_CONNS_PER_ADDR)
	Header          time.Duration // the request line and headers must arrive within this
	Body            time.Duration // a request's body must arrive within this
	Write           time.Duration // the client must take each write of a response within this
	Idle            time.Duration // a kept-alive connection waits this long for its next request
	MaxHeaderBytes  int
}

// Defaults suit a team's hub: browsers (a few connections each, plus one
// per open live run page) and agents (one each).
var Defaults = Limits{
	MaxConns:        4096,
	MaxConnsPerAddr: 256,
	Header:          10 * time.Second,
	Body:            30 * time.Second,
	Write:           60 * time.Second,
	Idle:            2 * time.Minute,
	MaxHeaderBytes:  64 << 10,
}

// Server is an http.Server serving h within the limits; serve it on a
// listener from Listener. Its ReadTimeout stays 0: a read deadline left on
// the connection while a handler runs would cancel the handler's context
// (net/http reads in the background to notice a client going away), so the
// body's limit is set and cleared per request by Deadlines instead.
// WriteTimeout covers what net/http writes itself before a handler runs;
// Deadlines then moves the write deadline with each write.
func (l Limits) Server(h http.Handler, errorLog *log.Logger) *http.Server {
	return &http.Server{
		Handler:           Deadlines(h, l.Body, l.Write),
		ReadHeaderTimeout: l.Header,
		WriteTimeout:      l.Write,
		IdleTimeout:       l.Idle,
		MaxHeaderBytes:    l.MaxHeaderBytes,
		ErrorLog:          errorLog,
	}
}

// RaiseFileLimit raises the soft limit on open files to the hard one (the
// Go runtime usually has done so already) and answers the limit in force.
func RaiseFileLimit() (uint64, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, err
	}
	if lim.Cur < lim.Max {
		raised := lim
		raised.Cur = raised.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised); err != nil {
			return lim.Cur, err
		}
		lim = raised
	}
	return lim.Cur, nil
}

// FitFiles lowers MaxConns so that connections leave reserve of the
// process's open files for the database, artifacts and logs; it says
// whether it had to.
func (l *Limits) FitFiles(files uint64, reserve int) bool {
	room := int(min(files, 1<<30)) - reserve
	if room < 1 {
		room = 1
	}
	if l.MaxConns == 0 || l.MaxConns > room {
		l.MaxConns = room
		return true
	}
	return false
}
