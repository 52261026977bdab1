package runner

import (
	"context"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// A new page runs its first script as soon as it loads. Attached to after
// its creation (as target discovery announced it), a popup could load,
// fetch and navigate before the guard (guard.go) and the run's emulation
// (viewport.go) were on it. So the browser attaches the runner to every
// new page as it creates it and holds it (waitForDebuggerOnStart: its
// navigation waits) until the runner lets it go with
// Runtime.runIfWaitingForDebugger: a popup of a run once it is prepared
// (run.popup), any other page at once. Only pages: a worker or an iframe
// of a page is not held.
var holdNewPages = proto.TargetSetAutoAttach{AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true,
	Filter: proto.TargetTargetFilter{{Type: string(proto.TargetTargetInfoTypePage)}}}

// held hands a page the browser holds to the run whose context opened it,
// or lets it go. Called by the event reader: it must not wait.
func (b *Browser) held(a *proto.TargetAttachedToTarget) {
	if a.TargetInfo.Type == proto.TargetTargetInfoTypePage {
		if t := b.contextTab(a.TargetInfo.BrowserContextID); t != nil && t.onPopup != nil {
			go t.onPopup(a)
			return
		}
	}
	// A page the runner creates itself (newTab attaches to it on its own),
	// or a page of no run in progress.
	go b.letGo(a.SessionID, true)
}

// letGo lets a held page run; with detach, the runner's session that
// held it ends too.
func (b *Browser) letGo(id proto.TargetSessionID, detach bool) {
	ctx, cancel := context.WithTimeout(b.bg, 5*time.Second)
	defer cancel()
	s := session{c: b.root.c, w: b.root.w, id: id}
	if err := (proto.RuntimeRunIfWaitingForDebugger{}).Call(s.with(ctx)); err != nil && ctx.Err() == nil {
		b.log.Debug("letting a new page run", "err", err)
	}
	if !detach {
		return
	}
	if err := (proto.TargetDetachFromTarget{SessionID: id}).Call(b.root.with(ctx)); err != nil && ctx.Err() == nil {
		b.log.Debug("detaching from a new page", "err", err)
	}
}
