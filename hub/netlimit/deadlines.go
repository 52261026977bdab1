package netlimit

import (
	"bufio"
	"net"
	"net/http"
	"time"
)

// Deadlines bounds the time a client may hold a connection without doing
// its part: a request's body must arrive within body, and each write of the
// response must be taken within write (the deadline moves with every write,
// so streams and large downloads live as long as the client reads). A
// hijacked connection is handed over without deadlines: its new owner (a
// WebSocket) sets its own.
//
// The body's read deadline does not outlive the body: net/http clears it
// when the body has been read (by the handler, or by net/http discarding
// it) and it starts reading ahead to notice the client leaving; a deadline
// expiring there would cancel the request's context.
func Deadlines(next http.Handler, body, write time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if body > 0 && r.ContentLength != 0 {
			rc.SetReadDeadline(time.Now().Add(body)) //nolint:errcheck // best effort
		}
		if write <= 0 {
			next.ServeHTTP(w, r)
			return
		}
		dw := &deadlineWriter{ResponseWriter: w, rc: rc, limit: write}
		dw.extend()
		next.ServeHTTP(dw, r)
		// net/http writes the end of the response after the handler returns.
		dw.extend()
	})
}

// deadlineWriter moves the write deadline before each write. It implements
// Flusher and Hijacker itself and unwraps for http.ResponseController.
type deadlineWriter struct {
	http.ResponseWriter
	rc       *http.ResponseController
	limit    time.Duration
	hijacked bool // the connection is someone else's: leave its deadlines alone
}

func (w *deadlineWriter) extend() {
	if !w.hijacked {
		w.rc.SetWriteDeadline(time.Now().Add(w.limit)) //nolint:errcheck // best effort
	}
}

func (w *deadlineWriter) WriteHeader(status int) {
	w.extend()
	w.ResponseWriter.WriteHeader(status)
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.extend()
	return w.ResponseWriter.Write(p)
}

func (w *deadlineWriter) Flush() { w.FlushError() } //nolint:errcheck // http.Flusher has no error

func (w *deadlineWriter) FlushError() error {
	w.extend()
	return w.rc.Flush()
}

// Hijack hands the connection over without deadlines (http.Hijacker leaves
// clearing them to the caller).
func (w *deadlineWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, brw, err := w.rc.Hijack()
	if err == nil {
		w.hijacked = true
		c.SetDeadline(time.Time{}) //nolint:errcheck // best effort
	}
	return c, brw, err
}

func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
