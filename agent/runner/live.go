package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// The editor's live session runs steps on a page that outlives each run
// (protocol/authoring_live.go). The page belongs to the authoring browser,
// where pickers and the live view reach it; the runner attaches to it over
// a DevTools connection of its own, so the steps run with the same engine
// and guards as a run's: the scheme guard's Fetch interception and refusals,
// actionability, masking, screenshots.

// Attach connects to a browser that is already running (the authoring
// browser's DevTools address) to run steps on its pages. Close ends only
// this connection: the browser is not the runner's to close.
func Attach(ctx context.Context, devtoolsURL string, opts Options) (*Browser, error) {
	ws := &cdp.WebSocket{}
	if err := ws.Connect(ctx, devtoolsURL, nil); err != nil {
		return nil, fmt.Errorf("connecting to the browser: %w", err)
	}
	w := newWire(ws)
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	b := &Browser{opts: opts, log: log, url: devtoolsURL, gone: make(chan struct{}), watched: map[string]*tab{}}
	w.observe = b.observe
	b.root = session{c: cdp.New().Start(w), w: w}
	b.bg, b.stopBg = context.WithCancel(context.Background())
	go b.events(b.root.c.Event())
	// Tabs a live page's steps open are followed as a run's are
	// (tabs_hold.go); the browser's other pages are let go at once.
	if err := holdNewPages.Call(b.root.with(ctx)); err != nil {
		b.closeAttached()
		return nil, fmt.Errorf("watching for new tabs: %w", err)
	}
	return b, nil
}

// closeAttached ends an attached browser's connection (Close).
func (b *Browser) closeAttached() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	b.stopBg()
	b.wg.Wait()
	_ = b.root.w.ws.Close()
}

// LivePage is a page the runner drives run after run: steps run in order
// on it as it is, and the variables the steps set stay for the next run.
type LivePage struct {
	b *Browser
	t *tab

	mu   sync.Mutex        // held while a run uses the page: one at a time
	vars map[string]string // guarded by mu: what setVariable and scripts set
}

// AttachPage attaches to the page target targetID of an attached browser
// and prepares it as a run's tab is prepared (dialogs, focus, the guard).
func (b *Browser) AttachPage(ctx context.Context, targetID string) (*LivePage, error) {
	if err := b.alive(); err != nil {
		return nil, err
	}
	at, err := proto.TargetAttachToTarget{TargetID: proto.TargetTargetID(targetID), Flatten: true}.Call(b.root.with(ctx))
	if err != nil {
		return nil, fmt.Errorf("attaching to the page: %w", err)
	}
	// Its browser context tells the tabs its steps open (run.popup).
	info, err := proto.TargetGetTargetInfo{TargetID: proto.TargetTargetID(targetID)}.Call(b.root.with(ctx))
	if err != nil {
		return nil, fmt.Errorf("reading the page's target: %w", err)
	}
	t := &tab{ctxID: info.TargetInfo.BrowserContextID, target: proto.TargetTargetID(targetID), sess: session{c: b.root.c, w: b.root.w, id: at.SessionID}}
	b.tabs.Store(string(at.SessionID), t)
	p := &LivePage{b: b, t: t, vars: map[string]string{}}
	s := t.sess.with(ctx)
	for _, req := range append([]setupRequest{proto.PageEnable{}, proto.InspectorEnable{},
		proto.EmulationSetFocusEmulationEnabled{Enabled: true}}, guardRequests()...) {
		if err := req.Call(s); err != nil {
			p.Close()
			return nil, fmt.Errorf("%s: %w", req.ProtoReq(), err)
		}
	}
	return p, nil
}

// Run runs job.Document's steps on the page, from where the page is now,
// and reports them as Browser.Run does. Runs on one page wait for each
// other.
func (p *LivePage) Run(ctx context.Context, job protocol.Job, emit Emitter) protocol.RunResult {
	p.mu.Lock()
	defer p.mu.Unlock()
	mask := newMasker(job.Secrets)
	r := &run{b: p.b, job: job, mask: mask, vars: p.vars, parent: ctx, live: p.t,
		out: &output{emit: emit, mask: mask, log: p.b.log.With("live", job.RunID)}}
	r.current.Store(-1)
	return mask.result(r.execute(ctx))
}

// Close detaches from the page; the page itself stays (its owner closes
// it).
func (p *LivePage) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := proto.TargetDetachFromTarget{SessionID: p.t.sess.id}.Call(p.b.root.with(ctx))
	if err != nil && !errors.Is(err, context.Canceled) {
		p.b.log.Debug("detaching from a live page", "err", err)
	}
	p.b.tabs.Delete(string(p.t.sess.id))
}

// unwatch stops routing a live page's events to the run that used it.
func (b *Browser) unwatch(t *tab) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.watched, string(t.sess.id))
}
