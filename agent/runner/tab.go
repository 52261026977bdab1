package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
)

// tab is an incognito browser context with one page attached: what a run
// drives.
type tab struct {
	ctxID  proto.BrowserBrowserContextID
	target proto.TargetTargetID
	sess   session
	clock  frameClock // runs while a run uses the tab, with Browser.frames

	refusals refusals               // what its page tried to open and was refused (guard.go)
	trace    atomic.Pointer[tracer] // the trace of the run using it, if traced (trace.go)

	// Set while a run uses the tab (see watch).
	stop     func(error)                              // cancels the run with a cause
	onDialog dialogFunc                               // answers a JavaScript dialog
	onPopup  func(held *proto.TargetAttachedToTarget) // prepares and lets go a new page of its context

	opener proto.TargetTargetID // the page that opened it
	closed atomic.Bool
	gone   chan struct{}             // closed with closed set (see session.gone)
	goneMu sync.Once                 // the page is gone (a popup closed by itself or by closeTab)
	drags  chan *proto.InputDragData // drags the page started while intercepted (mouse.go)
}

// dialogFunc decides how a JavaScript dialog of the tab is answered: accept
// or dismiss, and the text a prompt gets.
type dialogFunc func(t *tab, d proto.PageJavascriptDialogOpening) (accept bool, text string)

// setupRequest is a request a new tab's session gets before its first run.
type setupRequest interface {
	proto.Request
	Call(proto.Client) error
}

// newTab creates a fresh incognito context and page, ready for input: the
// page domain is on (dialogs are seen), focus is emulated so typing works
// in pages that are not the focused window, and the renderer is up.
func (b *Browser) newTab(ctx context.Context) (t *tab, err error) {
	root := b.root.with(ctx)
	bc, err := proto.TargetCreateBrowserContext{DisposeOnDetach: true}.Call(root)
	if err != nil {
		return nil, err
	}
	t = &tab{ctxID: bc.BrowserContextID, drags: make(chan *proto.InputDragData, 1)}
	defer func() {
		if err != nil {
			b.dispose(t)
		}
	}()
	tg, err := proto.TargetCreateTarget{URL: "about:blank", BrowserContextID: bc.BrowserContextID, EnableBeginFrameControl: b.frames}.Call(root)
	if err != nil {
		return t, err
	}
	t.target = tg.TargetID
	at, err := proto.TargetAttachToTarget{TargetID: tg.TargetID, Flatten: true}.Call(root)
	if err != nil {
		return t, err
	}
	t.sess = session{c: b.root.c, w: b.root.w, id: at.SessionID}
	b.tabs.Store(string(at.SessionID), t)
	s := t.sess.with(ctx)
	for _, req := range append([]setupRequest{proto.PageEnable{}, proto.InspectorEnable{},
		proto.EmulationSetFocusEmulationEnabled{Enabled: true}}, guardRequests()...) {
		if err = req.Call(s); err != nil {
			return t, fmt.Errorf("%s: %w", req.ProtoReq(), err)
		}
	}
	_, err = proto.RuntimeEvaluate{Expression: "1"}.Call(s)
	return t, err
}

// dispose closes the tab's context and with it its page.
func (b *Browser) dispose(t *tab) {
	if t == nil || t.ctxID == "" {
		return
	}
	if t.sess.id != "" {
		defer b.tabs.Delete(string(t.sess.id))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := (proto.TargetDisposeBrowserContext{BrowserContextID: t.ctxID}).Call(b.root.with(ctx)); err != nil {
		b.log.Debug("disposing a browser context", "err", err)
	}
}

// keepSpare keeps one prepared tab in b.spare, so a run does not wait for
// a context and a renderer to start.
func (b *Browser) keepSpare() {
	defer b.wg.Done()
	for b.bg.Err() == nil {
		ctx, cancel := context.WithTimeout(b.bg, 30*time.Second)
		t, err := b.newTab(ctx)
		cancel()
		if err != nil {
			if b.bg.Err() == nil {
				b.log.Warn("preparing a browser context", "err", err)
				sleep(b.bg, time.Second)
			}
			continue
		}
		select {
		case b.spare <- t:
		case <-b.bg.Done():
			b.dispose(t)
		}
	}
	select {
	case t := <-b.spare:
		b.dispose(t)
	default:
	}
}

// acquire returns a fresh tab: the spare when ready, else a new one.
func (b *Browser) acquire(ctx context.Context) (*tab, error) {
	if err := b.alive(); err != nil {
		return nil, err
	}
	if b.spare != nil {
		select {
		case t := <-b.spare:
			return t, nil
		default:
		}
	}
	return b.newTab(ctx)
}

// watch routes the tab's crash, dialog, popup and drag events to the run
// using it.
func (b *Browser) watch(t *tab, stop func(error), onDialog dialogFunc, onPopup func(*proto.TargetAttachedToTarget)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t.stop, t.onDialog, t.onPopup = stop, onDialog, onPopup
	if t.drags == nil {
		t.drags = make(chan *proto.InputDragData, 1)
	}
	b.watched[string(t.sess.id)] = t
	if b.frames {
		t.clock.start(&b.frameMu, t.sess, &b.dropImages, &b.starveFrames)
	}
}

// release stops watching the tab and disposes of it in the background: a
// run's result does not wait for its context to close (10 to 20 ms), which
// shares nothing with the next run's. Close waits for the disposal.
func (b *Browser) release(t *tab) {
	t.clock.halt()
	b.mu.Lock()
	delete(b.watched, string(t.sess.id))
	closed := b.closed
	if !closed {
		b.wg.Add(1) // before Close's Wait: Close sets closed under b.mu first
	}
	b.mu.Unlock()
	if closed {
		b.dispose(t)
		return
	}
	go func() {
		defer b.wg.Done()
		b.dispose(t)
	}()
}

// events reads the browser's event stream until the connection ends. It
// must never block on a call to the browser: the client delivers answers
// and events from the same reader.
func (b *Browser) events(ch <-chan *cdp.Event) {
	for e := range ch {
		switch e.Method {
		case "Inspector.targetCrashed":
			if t := b.watchedTab(e.SessionID); t != nil {
				t.stop(errCrashed)
			}
		case "Target.detachedFromTarget":
			var d proto.TargetDetachedFromTarget
			if json.Unmarshal(e.Params, &d) == nil {
				if t := b.watchedTab(string(d.SessionID)); t != nil {
					t.stop(errPageClosed)
				}
			}
		case "Page.javascriptDialogOpening":
			var d proto.PageJavascriptDialogOpening
			if t := b.watchedTab(e.SessionID); t != nil && json.Unmarshal(e.Params, &d) == nil {
				go b.answer(t, d)
			}
		case "Target.attachedToTarget":
			var a proto.TargetAttachedToTarget
			if e.SessionID == "" && json.Unmarshal(e.Params, &a) == nil && a.WaitingForDebugger && a.TargetInfo != nil {
				b.held(&a) // a new page, held (holdNewPages)
			}
		case "Input.dragIntercepted":
			var d proto.InputDragIntercepted
			if t := b.watchedTab(e.SessionID); t != nil && json.Unmarshal(e.Params, &d) == nil {
				select {
				case t.drags <- d.Data:
				default:
				}
			}
		}
	}
	close(b.gone)
	b.stopBg()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, t := range b.watched {
		t.stop(errBrowserGone)
	}
}

// answer answers a JavaScript dialog as the run using the tab decides (see
// run.dialog): a dialog step armed for it, or else as Playwright does by
// default. The page waits until then: a dialog blocks its scripts.
func (b *Browser) answer(t *tab, d proto.PageJavascriptDialogOpening) {
	ctx, cancel := context.WithTimeout(b.bg, 5*time.Second)
	defer cancel()
	accept, text := t.onDialog(t, d) // first: the page goes on once the dialog is answered
	if err := (proto.PageHandleJavaScriptDialog{Accept: accept, PromptText: text}).Call(t.sess.with(ctx)); err != nil {
		b.log.Debug("answering a dialog", "err", err)
	}
}

// contextTab returns a watched tab of the browser context id: the page of
// the run that owns the context.
func (b *Browser) contextTab(id proto.BrowserBrowserContextID) *tab {
	if id == "" {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, t := range b.watched {
		if t.ctxID == id {
			return t
		}
	}
	return nil
}

func (b *Browser) watchedTab(sessionID string) *tab {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.watched[sessionID]
}

// sleep waits d or until ctx ends; it reports whether d passed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

var (
	errCrashed     = errors.New("the page crashed")
	errPageClosed  = errors.New("the page was closed")
	errBrowserGone = errors.New("the browser exited or its connection was lost")
)
