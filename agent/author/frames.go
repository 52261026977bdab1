package author

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// pageState is a session's page: the isolated world of each of its frames,
// the events it sends, and who listens (the session that opened it, and a
// picker opened on a recording's page).
type pageState struct {
	m      *Manager
	b      *browser
	inc    *rod.Browser // the incognito context
	page   *rod.Page
	owner  *session
	ctx    context.Context // ends when the page closes
	cancel context.CancelFunc

	mu        sync.Mutex
	worlds    map[proto.PageFrameID]proto.RuntimeExecutionContextID
	frameOf   map[proto.RuntimeExecutionContextID]proto.PageFrameID
	picker    *session
	started   bool
	closed    bool // the page went away
	lastURL   string
	scriptID  proto.PageScriptIdentifier // the mode script for new documents
	flushWait chan struct{}
	dialog    *proto.PageJavascriptDialogOpening // open now (session_dialog.go)
	shown     *protocol.ViewDialog               // open now, for the view (screencast_dialog.go)
	opener    *pageState                         // for a tab the session's pages opened (session_tabs.go)
}

func newPageState(m *Manager, b *browser, inc *rod.Browser, page *rod.Page, owner *session) *pageState {
	ctx, cancel := context.WithCancel(context.Background())
	return &pageState{m: m, b: b, inc: inc, page: page, owner: owner, ctx: ctx, cancel: cancel,
		worlds: map[proto.PageFrameID]proto.RuntimeExecutionContextID{}, frameOf: map[proto.RuntimeExecutionContextID]proto.PageFrameID{}}
}

// install starts listening to the page and puts the in-page script in an
// isolated world of every frame, now and after each navigation.
func (pg *pageState) install() error {
	p := pg.page.Context(pg.ctx)
	if err := guard(pg.ctx, pg.page, func(why string) { pg.m.log.Info("authoring page", "refused", why) }); err != nil {
		return err
	}
	wait := p.EachEvent(
		func(e *proto.RuntimeExecutionContextCreated) { pg.contextCreated(e) },
		func(e *proto.RuntimeExecutionContextDestroyed) { pg.contextDestroyed(e.ExecutionContextID) },
		func(e *proto.RuntimeExecutionContextsCleared) { pg.contextsCleared() },
		func(e *proto.RuntimeBindingCalled) { pg.bindingCalled(e) },
		func(e *proto.PageFrameRequestedNavigation) { pg.requestedNavigation(e) },
		func(e *proto.PageFrameNavigated) { pg.frameNavigated(e) },
		func(e *proto.PageNavigatedWithinDocument) { pg.sameDocument(e) },
		func(e *proto.InspectorTargetCrashed) { pg.gone("the page crashed") },
		func(e *proto.PageJavascriptDialogOpening) { pg.dialogOpening(e) },
		func(e *proto.PageJavascriptDialogClosed) { pg.dialogClosed(e) },
	)
	go wait()
	go pg.watch()
	go pg.answerForNobody()
	if err := (proto.PageEnable{}).Call(p); err != nil {
		return err
	}
	if err := (proto.DOMEnable{}).Call(p); err != nil {
		return err
	}
	if err := (proto.RuntimeAddBinding{Name: bindingName, ExecutionContextName: worldName}).Call(p); err != nil {
		return err
	}
	if _, err := (proto.PageAddScriptToEvaluateOnNewDocument{Source: inpageJS, WorldName: worldName, RunImmediately: true}).Call(p); err != nil {
		return err
	}
	if err := pg.modeScript(); err != nil {
		return err
	}
	return proto.RuntimeEnable{}.Call(p)
}

// watch ends the session when its page or the browser goes away.
func (pg *pageState) watch() {
	sid := pg.page.SessionID
	wait := pg.b.rod.Context(pg.ctx).EachEvent(func(e *proto.TargetDetachedFromTarget) bool {
		return e.SessionID == sid
	}, func(e *proto.TargetTargetDestroyed) bool {
		return e.TargetID == pg.page.TargetID
	})
	done := make(chan struct{})
	go func() { wait(); close(done) }()
	select {
	case <-done:
		if pg.ctx.Err() != nil {
			return
		}
		if pg.opener != nil { // a tab the recording followed: closed, not gone
			pg.tabClosed()
			return
		}
		// A browser that died detaches its pages too: tell the two apart.
		select {
		case <-pg.b.gone:
			pg.gone("the browser stopped (it crashed or was closed)")
		case <-time.After(300 * time.Millisecond):
			pg.gone("the browser window was closed")
		}
	case <-pg.b.gone:
		pg.gone("the browser stopped (it crashed or was closed)")
	case <-pg.ctx.Done():
	}
}

// gone ends the sessions on the page with an error.
func (pg *pageState) gone(why string) {
	pg.mu.Lock()
	if pg.closed {
		pg.mu.Unlock()
		return
	}
	pg.closed = true
	pg.mu.Unlock()
	go pg.owner.end(protocol.SessionError, why)
}

func (pg *pageState) isClosed() bool {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	return pg.closed
}

// close closes the page's browser context.
func (pg *pageState) close() {
	pg.mu.Lock()
	pg.closed = true
	pg.mu.Unlock()
	pg.cancel()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = proto.TargetDisposeBrowserContext{BrowserContextID: pg.inc.BrowserContextID}.Call(pg.b.rod.Context(ctx))
}

func (pg *pageState) setStarted() {
	pg.mu.Lock()
	pg.started = true
	pg.mu.Unlock()
}

// url is the page's address now.
func (pg *pageState) url() string {
	pg.mu.Lock()
	u := pg.lastURL
	pg.mu.Unlock()
	if u != "" {
		return u
	}
	ctx, cancel := context.WithTimeout(pg.ctx, 2*time.Second)
	defer cancel()
	if info, err := pg.page.Context(ctx).Info(); err == nil {
		return info.URL
	}
	return ""
}

// mode is the mode of the in-page script: a picker's on a recording's page
// while it is attached and picking or inspecting, else the owner's (a
// picker turned off lets the recording go on).
func (pg *pageState) mode() string {
	pg.mu.Lock()
	p := pg.picker
	pg.mu.Unlock()
	if p != nil {
		if m := p.currentMode(); m != protocol.ModeOff {
			return m
		}
	}
	return pg.owner.currentMode()
}

func (pg *pageState) attachPicker(p *session) {
	pg.mu.Lock()
	old := pg.picker
	pg.picker = p
	pg.mu.Unlock()
	if old != nil {
		old.end(protocol.SessionClosed, "")
	}
	pg.applyMode()
}

func (pg *pageState) detachPicker(p *session) {
	pg.mu.Lock()
	if pg.picker != p {
		pg.mu.Unlock()
		return
	}
	pg.picker = nil
	pg.mu.Unlock()
	pg.applyMode()
}

func (pg *pageState) pickers() []*session {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if pg.picker == nil {
		return nil
	}
	return []*session{pg.picker}
}

// modeScript makes every new document start in the current mode: the
// script after inpageJS is replaced on each change.
func (pg *pageState) modeScript() error {
	p := pg.page.Context(pg.ctx)
	pg.mu.Lock()
	old := pg.scriptID
	pg.mu.Unlock()
	if old != "" {
		_ = proto.PageRemoveScriptToEvaluateOnNewDocument{Identifier: old}.Call(p)
	}
	src := fmt.Sprintf("globalThis.__taAuthor && globalThis.__taAuthor.setMode(%q);", pg.mode())
	res, err := proto.PageAddScriptToEvaluateOnNewDocument{Source: src, WorldName: worldName}.Call(p)
	if err != nil {
		return err
	}
	pg.mu.Lock()
	pg.scriptID = res.Identifier
	pg.mu.Unlock()
	return nil
}

// applyMode sets the current mode in every frame's world and for new
// documents.
func (pg *pageState) applyMode() {
	if err := pg.modeScript(); err != nil {
		pg.m.log.Debug("mode script", "err", err)
	}
	pg.mu.Lock()
	ids := make([]proto.RuntimeExecutionContextID, 0, len(pg.worlds))
	for _, id := range pg.worlds {
		ids = append(ids, id)
	}
	pg.mu.Unlock()
	for _, id := range ids {
		pg.setModeIn(id)
	}
}

func (pg *pageState) setModeIn(id proto.RuntimeExecutionContextID) {
	ctx, cancel := context.WithTimeout(pg.ctx, 5*time.Second)
	defer cancel()
	expr := fmt.Sprintf("globalThis.__taAuthor && globalThis.__taAuthor.setMode(%q)", pg.mode())
	_, _ = proto.RuntimeEvaluate{Expression: expr, ContextID: id}.Call(pg.page.Context(ctx))
}

func (pg *pageState) contextCreated(e *proto.RuntimeExecutionContextCreated) {
	if e.Context.Name != worldName {
		return
	}
	fid := proto.PageFrameID(e.Context.AuxData["frameId"].Str())
	pg.mu.Lock()
	pg.worlds[fid] = e.Context.ID
	pg.frameOf[e.Context.ID] = fid
	pg.mu.Unlock()
	go pg.setModeIn(e.Context.ID)
}

func (pg *pageState) contextDestroyed(id proto.RuntimeExecutionContextID) {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if fid, ok := pg.frameOf[id]; ok {
		delete(pg.frameOf, id)
		if pg.worlds[fid] == id {
			delete(pg.worlds, fid)
		}
	}
}

func (pg *pageState) contextsCleared() {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	clear(pg.worlds)
	clear(pg.frameOf)
}

// bindingCalled takes a report of the in-page script: a recorded action
// goes to the recording, a pick to the picker.
func (pg *pageState) bindingCalled(e *proto.RuntimeBindingCalled) {
	if e.Name != bindingName {
		return
	}
	var r fullReport
	if err := json.Unmarshal([]byte(e.Payload), &r); err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(pg.ctx, 10*time.Second)
	defer cancel()
	switch r.Kind {
	case "flush":
		pg.mu.Lock()
		w := pg.flushWait
		pg.flushWait = nil
		pg.mu.Unlock()
		if w != nil {
			close(w)
		}
	case "pick":
		pg.mu.Lock()
		p := pg.picker
		pg.mu.Unlock()
		if p == nil && pg.owner.kind == protocol.AuthorPick {
			p = pg.owner
		}
		if p != nil {
			p.picked(ctx, pg, r.report, e.ExecutionContextID)
		}
	case "action":
		if pg.owner.kind == protocol.AuthorRecord {
			pg.owner.rec.action(ctx, pg, r, e.ExecutionContextID)
		}
	}
}

// fullReport is a report with the element as the page saw it when it
// happened (recorder.js's snapshot, taken before the page's own handlers
// ran).
type fullReport struct {
	report
	Fallback *snapshot `json:"fallback,omitempty"`
}

// snapshot is an element as recorder.js saw it at the event: its CSS
// path, its locator candidates (locators.js, counted in the page) and its
// text.
type snapshot struct {
	CSS        string `json:"css"`
	Text       string `json:"text"`
	Candidates []struct {
		protocol.Locator
		Score int `json:"score"`
		// Unique: the page counted it matching the element alone then.
		Unique bool `json:"unique"`
	} `json:"candidates"`
}

// flush waits until the reports the page sent so far are handled: a
// report sent now arrives after them.
func (pg *pageState) flush(limit time.Duration) {
	w := make(chan struct{})
	pg.mu.Lock()
	id, ok := pg.worlds[pg.page.FrameID]
	pg.flushWait = w
	pg.mu.Unlock()
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(pg.ctx, limit)
	defer cancel()
	expr := fmt.Sprintf(`globalThis[%q](JSON.stringify({kind: "flush"}))`, bindingName)
	if _, err := (proto.RuntimeEvaluate{Expression: expr, ContextID: id}).Call(pg.page.Context(ctx)); err != nil {
		return
	}
	select {
	case <-w:
	case <-ctx.Done():
	}
}

func (pg *pageState) requestedNavigation(e *proto.PageFrameRequestedNavigation) {
	if e.FrameID == pg.page.FrameID && pg.owner.kind == protocol.AuthorRecord {
		pg.owner.rec.requested()
	}
}

func (pg *pageState) frameNavigated(e *proto.PageFrameNavigated) {
	if e.Frame.ParentID != "" {
		return
	}
	url := e.Frame.URL + e.Frame.URLFragment
	pg.mu.Lock()
	pg.lastURL = url
	started := pg.started
	pg.mu.Unlock()
	if started && pg.owner.kind == protocol.AuthorRecord {
		pg.owner.rec.navigated(pg, url)
	}
}

func (pg *pageState) sameDocument(e *proto.PageNavigatedWithinDocument) {
	if e.FrameID != pg.page.FrameID {
		return
	}
	pg.mu.Lock()
	pg.lastURL = e.URL
	pg.mu.Unlock()
}

// element resolves a report's element to a remote object of its frame's
// isolated world and the frame path to it.
func (pg *pageState) element(ctx context.Context, ctxID proto.RuntimeExecutionContextID, handle int) (proto.RuntimeRemoteObjectID, []protocol.Locator, error) {
	p := pg.page.Context(ctx)
	res, err := proto.RuntimeEvaluate{Expression: fmt.Sprintf("globalThis.__taAuthor.element(%d)", handle), ContextID: ctxID}.Call(p)
	if err != nil {
		return "", nil, err
	}
	if res.ExceptionDetails != nil || res.Result.ObjectID == "" {
		return "", nil, errors.New("the element is gone")
	}
	pg.mu.Lock()
	fid := pg.frameOf[ctxID]
	pg.mu.Unlock()
	frames, err := pg.framePath(ctx, fid)
	if err != nil {
		return "", nil, err
	}
	return res.Result.ObjectID, frames, nil
}

// framePath is the locators of the iframes from the top frame down to the
// frame fid, outermost first (none for the top frame).
func (pg *pageState) framePath(ctx context.Context, fid proto.PageFrameID) ([]protocol.Locator, error) {
	if fid == "" || fid == pg.page.FrameID {
		return []protocol.Locator{}, nil
	}
	p := pg.page.Context(ctx)
	tree, err := proto.PageGetFrameTree{}.Call(p)
	if err != nil {
		return nil, err
	}
	parent := map[proto.PageFrameID]proto.PageFrameID{}
	var walk func(t *proto.PageFrameTree)
	walk = func(t *proto.PageFrameTree) {
		for _, c := range t.ChildFrames {
			parent[c.Frame.ID] = t.Frame.ID
			walk(c)
		}
	}
	walk(tree.FrameTree)
	var chain []proto.PageFrameID // innermost first
	for f := fid; f != pg.page.FrameID; {
		par, ok := parent[f]
		if !ok {
			return nil, errors.New("the element's frame is gone")
		}
		chain = append(chain, f)
		f = par
	}
	out := make([]protocol.Locator, 0, len(chain))
	for i := len(chain) - 1; i >= 0; i-- {
		f := chain[i]
		owner, err := proto.DOMGetFrameOwner{FrameID: f}.Call(p)
		if err != nil {
			return nil, fmt.Errorf("the iframe of a frame: %w", err)
		}
		pg.mu.Lock()
		world, ok := pg.worlds[parent[f]]
		pg.mu.Unlock()
		if !ok {
			return nil, errors.New("the iframe's parent frame has no authoring world")
		}
		node, err := proto.DOMResolveNode{BackendNodeID: owner.BackendNodeID, ExecutionContextID: world}.Call(p)
		if err != nil {
			return nil, fmt.Errorf("the iframe element: %w", err)
		}
		loc, err := frameLocator(ctx, pg.page, node.Object.ObjectID)
		if err != nil {
			loc = protocol.Locator{Kind: "css", Value: pg.cssPath(ctx, node.Object.ObjectID)}
		}
		out = append(out, loc)
	}
	return out, nil
}

// cssPath is recorder.js's plain CSS path of an element.
func (pg *pageState) cssPath(ctx context.Context, obj proto.RuntimeRemoteObjectID) string {
	res, err := proto.RuntimeCallFunctionOn{ObjectID: obj, FunctionDeclaration: "function() { return globalThis.__taAuthor.cssPath(this) }",
		ReturnByValue: true}.Call(pg.page.Context(ctx))
	if err != nil || res.ExceptionDetails != nil {
		return ""
	}
	return res.Result.Value.Str()
}

// minimalTarget is the target when describeTarget cannot tell more: the
// element's CSS path, and its tag and text.
func (pg *pageState) minimalTarget(ctx context.Context, obj proto.RuntimeRemoteObjectID, frames []protocol.Locator) (protocol.PickedTarget, protocol.PickedElement) {
	t := protocol.PickedTarget{Frame: frames}
	if css := pg.cssPath(ctx, obj); css != "" { // none when its page is unloading
		t.Locators = []protocol.RankedLocator{{Locator: protocol.Locator{Kind: "css", Value: css}, Score: 10000, Matches: 1}}
	}
	el := protocol.PickedElement{Frame: frames, Attributes: map[string]string{}}
	res, err := proto.RuntimeCallFunctionOn{ObjectID: obj, ReturnByValue: true,
		FunctionDeclaration: "function() { return {tag: this.localName, text: (this.innerText || '').trim().slice(0, 200)} }"}.Call(pg.page.Context(ctx))
	if err == nil && res.ExceptionDetails == nil {
		var v struct{ Tag, Text string }
		if json.Unmarshal([]byte(res.Result.Value.JSON("", "")), &v) == nil {
			el.Tag, el.Text = v.Tag, v.Text
		}
	}
	return t, el
}
