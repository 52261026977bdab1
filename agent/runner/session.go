package runner

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
)

// session is one DevTools session on the browser connection: the browser
// itself (id "") or one page. It implements proto.Client, proto.Sessionable
// and proto.Contextable, so any proto request can be sent on it:
// proto.PageNavigate{...}.Call(s.with(ctx)).
type session struct {
	c   *cdp.Client
	w   *wire // c's transport, for pipelines
	id  proto.TargetSessionID
	ctx context.Context
	// gone, when set, is closed once the page is gone (a tab that closed):
	// the browser never answers what was asked of it then, so the calls
	// waiting end.
	gone <-chan struct{}
}

// unlessGone ends ctx when s's page is gone; cancel releases it.
func (s session) unlessGone(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	if s.gone != nil {
		go func() {
			select {
			case <-s.gone:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	return ctx, cancel
}

// traceCDP is a profiling hook: with TA_CDP_TRACE=1 in the environment
// every DevTools call is written to stderr with its duration, to find
// where a run's time goes. Off, it costs one branch per call.
var traceCDP = os.Getenv("TA_CDP_TRACE") != ""

// Call sends one request and waits for its answer.
func (s session) Call(ctx context.Context, sessionID, method string, params any) ([]byte, error) {
	// rod's client can hand the answer of a request whose sending failed
	// (the connection ended meanwhile) to a caller that has left: its
	// reader then waits until ctx ends, and delivers nothing else. Ending
	// ctx when the call returns bounds that to the call.
	ctx, cancel := s.unlessGone(ctx)
	defer cancel()
	if !traceCDP {
		return s.c.Call(ctx, sessionID, method, params)
	}
	start := time.Now()
	res, err := s.c.Call(ctx, sessionID, method, params)
	fmt.Fprintf(os.Stderr, "cdp %s %-40s %7.2f ms err=%v\n", start.Format("15:04:05.000"), method,
		float64(time.Since(start).Microseconds())/1000, err != nil)
	return res, err
}

// pipeline sends reqs in order without waiting for each answer, then
// waits for them all (see wire); it returns the first error.
func (s session) pipeline(reqs ...wireRequest) error {
	start := time.Now()
	ctx, cancel := s.unlessGone(s.GetContext())
	defer cancel()
	err := s.w.pipeline(ctx, string(s.id), reqs...)
	if traceCDP {
		fmt.Fprintf(os.Stderr, "cdp %s %-40s %7.2f ms err=%v\n", start.Format("15:04:05.000"), fmt.Sprintf("pipeline of %d", len(reqs)),
			float64(time.Since(start).Microseconds())/1000, err != nil)
	}
	return err
}

// GetSessionID names the session requests go to.
func (s session) GetSessionID() proto.TargetSessionID { return s.id }

// GetContext bounds the requests sent on s.
func (s session) GetContext() context.Context {
	if s.ctx == nil {
		return context.Background()
	}
	return s.ctx
}

// with returns s bound to ctx.
func (s session) with(ctx context.Context) session {
	s.ctx = ctx
	return s
}
