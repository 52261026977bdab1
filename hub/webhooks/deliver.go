package webhooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/testautomation/ta/hub/store"
)

// deliver makes one attempt and records it.
func (w *Worker) deliver(ctx context.Context, d store.ClaimedDelivery) {
	a := w.attempt(ctx, d)
	if ctx.Err() != nil {
		return // stopping: the claim's lease lets the next hub try again
	}
	if !a.Succeeded && !a.final && d.Attempt <= len(w.Backoff) {
		a.RetryIn = w.Backoff[d.Attempt-1]
	}
	if err := w.Store.RecordAttempt(ctx, d.ID, d.Attempt, a.Attempt); err != nil {
		w.Logger.Warn("webhooks: record attempt", "delivery", d.ID, "err", err)
	}
	if !a.Succeeded {
		w.Logger.Info("webhooks: delivery attempt failed", "delivery", d.ID, "webhook", d.WebhookID, "event", d.Event,
			"attempt", d.Attempt, "status", a.ResponseStatus, "err", a.Error, "retryIn", a.RetryIn)
	}
}

// outcome is an attempt's result; final marks failures no retry can help.
type outcome struct {
	store.Attempt
	final bool
}

func (w *Worker) attempt(ctx context.Context, d store.ClaimedDelivery) outcome {
	if !d.Enabled && d.Event != Ping {
		return outcome{Attempt: store.Attempt{Error: "the webhook is disabled"}, final: true}
	}
	if w.Secrets == nil {
		return outcome{Attempt: store.Attempt{Error: "this hub has no secret key, so it cannot sign"}, final: true}
	}
	secret, err := w.Secrets.Open(d.SecretCiphertext, d.SecretNonce, SecretAAD(d.WebhookID))
	if err != nil {
		return outcome{Attempt: store.Attempt{Error: "the signing secret does not decrypt with this hub's key: rotate it"}, final: true}
	}
	start := time.Now()
	p, err := w.payload(ctx, d, start)
	if errors.Is(err, errGone) {
		return outcome{Attempt: store.Attempt{Error: err.Error()}, final: true}
	}
	if err != nil {
		w.Logger.Warn("webhooks: build payload", "delivery", d.ID, "err", err)
		return outcome{Attempt: store.Attempt{Error: "the hub could not read what to send; it will try again"}}
	}
	data, err := body(d.Format, p)
	if err != nil {
		return outcome{Attempt: store.Attempt{Error: "the hub could not encode the payload"}, final: true}
	}
	sent := time.Now()
	code, internal, err := w.post(ctx, d, string(secret), data)
	a, detail := summarize(code, err, internal)
	if detail != "" {
		// The operator may read what the Test Manager may not.
		w.Logger.Info("webhooks: delivery to a loopback or private address failed", "delivery", d.ID, "webhook", d.WebhookID,
			"status", code, "err", detail)
		// A refused connection fails at once, a silent port after the
		// time-out: failures take the time-out, so timing tells neither.
		select {
		case <-time.After(time.Until(sent.Add(w.Timeout))):
		case <-ctx.Done():
		}
	}
	a.DurationMs = time.Since(start).Milliseconds()
	return outcome{Attempt: a}
}

// InternalFailure is all the delivery log says of a failed attempt on a
// loopback or private address.
const InternalFailure = "delivery failed (the receiver is on a loopback or private address: the hub's log has the detail)"

// summarize makes an attempt's record from the receiver's status or the
// error. For a receiver on a loopback or private address (internal) it
// keeps success or failure only, so that the delivery log, which Test
// Managers read, cannot map the ports and services of the hub's machine
// and network ("connection refused" against "the receiver answered 501");
// detail is then what it leaves out, for the hub's log. A public
// receiver's status and error are kept: they help fix the receiver.
func summarize(code int, err error, internal bool) (a store.Attempt, detail string) {
	a = store.Attempt{ResponseStatus: code}
	switch {
	case err != nil:
		a.Error = err.Error()
	case code >= 200 && code < 300:
		a.Succeeded = true
	default:
		a.Error = fmt.Sprintf("the receiver answered %d %s", code, http.StatusText(code))
	}
	if internal {
		a.ResponseStatus = 0
		if !a.Succeeded {
			detail, a.Error = a.Error, InternalFailure
		}
	}
	return a, detail
}

// post sends body signed with secret and answers the response status, and
// whether the receiver's address, or any address its name resolved to or
// the attempt connected to, is loopback or private (Internal).
// Errors never carry the address (it may hold a token, as Slack's do).
func (w *Worker) post(ctx context.Context, d store.ClaimedDelivery, secret string, data []byte) (int, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, w.Timeout)
	defer cancel()
	var internal atomic.Bool
	ctx = httptrace.WithClientTrace(ctx, watchAddresses(&internal))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(data))
	if err != nil {
		return 0, false, errors.New("the address is not a valid URL")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set(HeaderEvent, d.Event)
	req.Header.Set(HeaderDelivery, d.ID)
	req.Header.Set(HeaderSignature, Sign(secret, data))
	if ip, err := netip.ParseAddr(strings.Trim(req.URL.Hostname(), "[]")); err == nil && Internal(ip) {
		internal.Store(true)
	}
	code, err := w.send(req)
	return code, internal.Load(), err
}

// watchAddresses sets internal when the request meets an Internal address:
// among its name's answers, dialled, or on the connection it got (a kept-
// alive one is dialled by no one).
func watchAddresses(internal *atomic.Bool) *httptrace.ClientTrace {
	see := func(hostport string) {
		host, _, err := net.SplitHostPort(hostport)
		if err != nil {
			host = hostport
		}
		if ip, err := netip.ParseAddr(host); err == nil && Internal(ip) {
			internal.Store(true)
		}
	}
	return &httptrace.ClientTrace{
		DNSDone: func(info httptrace.DNSDoneInfo) {
			for _, a := range info.Addrs {
				see(a.IP.String())
			}
		},
		ConnectStart: func(_, addr string) { see(addr) },
		GotConn: func(info httptrace.GotConnInfo) {
			if info.Conn != nil {
				see(info.Conn.RemoteAddr().String())
			}
		},
	}
}

// send posts req and answers the response status.
func (w *Worker) send(req *http.Request) (int, error) {
	ctx := req.Context()
	res, err := w.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		var ne net.Error
		switch {
		case errors.Is(err, errRefusedAddress):
			return 0, errRefusedAddress
		case errors.Is(err, context.DeadlineExceeded), ctx.Err() != nil, errors.As(err, &ne) && ne.Timeout():
			return 0, fmt.Errorf("no answer within %s", w.Timeout)
		}
		return 0, errors.New(cut(err.Error()))
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	return res.StatusCode, nil
}

// cut bounds an error message kept in the delivery log.
func cut(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
