package runner

import (
	"context"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
)

// session is one DevTools session on the browser connection: the browser
// itself (id "") or one page. It implements proto.Client, proto.Sessionable
// and proto.Contextable, so any proto request can be sent on it:
// proto.PageNavigate{...}.Call(s.with(ctx)).
type session struct {
	c   *cdp.Client
	id  proto.TargetSessionID
	ctx context.Context
}

// Call sends one request and waits for its answer.
func (s session) Call(ctx context.Context, sessionID, method string, params any) ([]byte, error) {
	return s.c.Call(ctx, sessionID, method, params)
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
