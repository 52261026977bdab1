package author

import (
	"context"
	"sync"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/agent/runner"
)

// guard keeps an authoring page from opening what a test may not, as the
// runner guards a run's tabs (agent/runner/guard.go): requests for file:
// addresses and documents redirected to a refused address fail, and
// refused is told each refusal, Chromium's own ones (a page asking for a
// file: page, say) included. It ends with ctx.
func guard(ctx context.Context, page *rod.Page, refused func(why string)) error {
	p := page.Context(ctx)
	wait := p.EachEvent(func(e *proto.FetchRequestPaused) {
		status, u := 0, ""
		if e.ResponseStatusCode != nil {
			status = *e.ResponseStatusCode
		}
		if e.Request != nil {
			u = e.Request.URL
		}
		if why := runner.FetchRefusal(u, status, e.ResponseHeaders); why != "" {
			_ = proto.FetchFailRequest{RequestID: e.RequestID, ErrorReason: proto.NetworkErrorReasonBlockedByClient}.Call(p)
			refused(why)
			return
		}
		_ = proto.FetchContinueRequest{RequestID: e.RequestID}.Call(p)
	}, func(e *proto.LogEntryAdded) {
		if e.Entry != nil {
			if why := runner.LogRefusal(string(e.Entry.Source), e.Entry.Text); why != "" {
				refused(why)
			}
		}
	})
	go wait()
	if err := (proto.LogEnable{}).Call(p); err != nil {
		return err
	}
	return proto.FetchEnable{Patterns: runner.GuardPatterns()}.Call(p)
}

// firstRefusal keeps the first refusal a guard reports.
type firstRefusal struct {
	mu  sync.Mutex // guards why
	why string
}

func (f *firstRefusal) add(why string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.why == "" {
		f.why = why
	}
}

func (f *firstRefusal) get() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.why
}
