package runner

import (
	"context"
	"errors"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// mouseState is where the mouse is and whether mouse steps hold its button
// down, so that a move between a mouse down and a mouse up drags.
type mouseState struct {
	at   point
	down bool
}

// buttonPress is one click's button and the modifier keys held during it.
type buttonPress struct {
	button  proto.InputMouseButton
	buttons int      // the button's bit in the buttons field while it is down
	mods    []string // modifier keys, as keyDefs names them
	bits    int      // their bits
}

var buttonBits = map[string]buttonPress{
	"":       {button: proto.InputMouseButtonLeft, buttons: 1},
	"left":   {button: proto.InputMouseButtonLeft, buttons: 1},
	"right":  {button: proto.InputMouseButtonRight, buttons: 2},
	"middle": {button: proto.InputMouseButtonMiddle, buttons: 4},
}

// pressOf reads a click step's button and modifiers.
func pressOf(st protocol.Step) (buttonPress, error) {
	p, ok := buttonBits[st.Button]
	if !ok {
		return p, permanent("unknown button %q: use left, right or middle", st.Button)
	}
	for _, m := range st.Modifiers {
		bit, ok := modifiers[m]
		if !ok {
			return p, permanent("unknown modifier %q: use Alt, Control, Meta or Shift", m)
		}
		if p.bits&bit == 0 {
			p.mods, p.bits = append(p.mods, m), p.bits|bit
		}
	}
	return p, nil
}

func clickN(n int) stepFunc {
	return func(s *stepRun, ctx context.Context, st protocol.Step) error {
		p, err := pressOf(st)
		if err != nil {
			return err
		}
		c := clickChecks
		c.At = st.Position
		return s.act(ctx, st.Target, c, clickGesture, func(ctx context.Context, pt point) error {
			return s.r.clickWith(ctx, pt, n, p)
		})
	}
}

// click moves the mouse to pt and clicks the left button count times.
func (r *run) click(ctx context.Context, pt point, count int) error {
	return r.clickWith(ctx, pt, count, buttonBits[""])
}

// clickWith moves the mouse to pt and clicks p's button count times (2 for
// a double click), as a person does: each press and release carries the
// running click count, and the modifier keys are held down around them.
// The events go out as one pipeline (in order, without waiting for each):
// Blink holds a mouse move until the next animation frame unless a press
// follows it.
func (r *run) clickWith(ctx context.Context, pt point, count int, p buttonPress) error {
	const mouse, key = "Input.dispatchMouseEvent", "Input.dispatchKeyEvent"
	var reqs []wireRequest
	keys := func(typ proto.InputDispatchKeyEventType, names []string, bits func(i int) int) {
		for i, m := range names {
			d := keyDefs[m]
			loc := d.location
			reqs = append(reqs, wireRequest{key, proto.InputDispatchKeyEvent{Type: typ, Modifiers: bits(i), Key: d.key, Code: d.code,
				WindowsVirtualKeyCode: d.keyCode, NativeVirtualKeyCode: d.keyCode, Location: &loc}})
		}
	}
	held := 0
	keys(proto.InputDispatchKeyEventTypeRawKeyDown, p.mods, func(i int) int { held |= modifiers[p.mods[i]]; return held })
	reqs = append(reqs, wireRequest{mouse, proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseMoved,
		X: pt.X, Y: pt.Y, Modifiers: p.bits}})
	down, none := p.buttons, 0
	for n := 1; n <= count; n++ {
		pr := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMousePressed, X: pt.X, Y: pt.Y,
			Button: p.button, Buttons: &down, ClickCount: n, Modifiers: p.bits}
		up := pr
		up.Type, up.Buttons = proto.InputDispatchMouseEventTypeMouseReleased, &none
		reqs = append(reqs, wireRequest{mouse, pr}, wireRequest{mouse, up})
	}
	rev := make([]string, len(p.mods))
	for i, m := range p.mods {
		rev[len(p.mods)-1-i] = m
	}
	keys(proto.InputDispatchKeyEventTypeKeyUp, rev, func(i int) int { held &^= modifiers[rev[i]]; return held })
	r.mouse = mouseState{at: pt}
	return r.sess(ctx).pipeline(reqs...)
}

// mouseStep presses, releases or moves the left button at the target (at
// its centre, or position inside it) or at position in the viewport; a
// press or release without either happens where the mouse is.
func mouseStep(s *stepRun, ctx context.Context, st protocol.Step) error {
	r := s.r
	pt := r.mouse.at
	switch {
	case st.Target != nil && len(st.Target.Locators) > 0:
		c := hoverChecks
		c.At = st.Position
		c.Hit = !r.mouse.down // a dragged element may cover its target
		_, p, err := s.actionable(ctx, st.Target, c)
		if err != nil {
			return err
		}
		pt = p
	case st.Position != nil:
		pt = point{st.Position.X, st.Position.Y}
	case st.Action == "move":
		return permanent("a mouse move needs a target or a position")
	}
	s.r.flush()
	one, none := 1, 0
	ev := proto.InputDispatchMouseEvent{X: pt.X, Y: pt.Y, Button: proto.InputMouseButtonLeft, ClickCount: 1}
	switch st.Action {
	case "down":
		if err := r.moveTo(ctx, pt, 1); err != nil {
			return err
		}
		ev.Type, ev.Buttons = proto.InputDispatchMouseEventTypeMousePressed, &one
		r.mouse.down = true
	case "up":
		if err := r.moveTo(ctx, pt, 1); err != nil {
			return err
		}
		ev.Type, ev.Buttons = proto.InputDispatchMouseEventTypeMouseReleased, &none
		r.mouse.down = false
	case "move":
		return r.moveTo(ctx, pt, dragSteps)
	default:
		return permanent("unknown mouse action %q: use down, up or move", st.Action)
	}
	return ev.Call(r.sess(ctx))
}

// dragSteps is how many moves a drag makes between its ends: libraries that
// drag on pointer events wait for movement past a threshold, and over the
// drop target.
const dragSteps = 5

// moveTo moves the mouse from where it is to pt in n even moves, holding
// the left button when a mouse step pressed it.
func (r *run) moveTo(ctx context.Context, pt point, n int) error {
	from := r.mouse.at
	if from == pt {
		n = 1
	}
	for i := 1; i <= n; i++ {
		p := point{from.X + (pt.X-from.X)*float64(i)/float64(n), from.Y + (pt.Y-from.Y)*float64(i)/float64(n)}
		ev := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseMoved, X: p.X, Y: p.Y}
		if r.mouse.down {
			one := 1
			ev.Button, ev.Buttons = proto.InputMouseButtonLeft, &one
		}
		if err := ev.Call(r.sess(ctx)); err != nil {
			return err
		}
		r.mouse.at = p
	}
	return nil
}

// dragWatchJS notes in the element's window whether a drag the page did
// not cancel started (HTML5 drag and drop), read by dragStartedJS. The
// listener is the window's last in bubbling, after the page's own.
const dragWatchJS = `function () {
  const w = this.ownerDocument.defaultView;
  w.__taDrag = false;
  w.addEventListener('dragstart', e => { w.__taDrag = !e.defaultPrevented; }, {once: true});
}`

const dragStartedJS = `function () { return !!this.ownerDocument.defaultView.__taDrag; }`

// dragTo presses the left button on the target, moves in steps to the drop
// target and releases it there. A drag the page starts (HTML5 drag and
// drop) is intercepted, as a headless browser has no drag of its own, and
// carried on with drag events: dragenter and dragover at each move, drop
// at the end. Pointer-based drags see the moves as mouse events.
func dragTo(s *stepRun, ctx context.Context, st protocol.Step) error {
	if st.ToTarget == nil || len(st.ToTarget.Locators) == 0 {
		return permanent("dragTo needs a drop target (to)")
	}
	r := s.r
	src, from, err := s.actionable(ctx, st.Target, clickChecks)
	if err != nil {
		return err
	}
	// Checked before the press: once pressed, a dragged element may
	// cover the drop target, or the page scroll under the drag.
	_, to, err := s.actionable(ctx, st.ToTarget, checks{Visible: true, Scroll: true, Stable: true})
	if err != nil {
		return err
	}
	if _, from, err = s.actionable(ctx, st.Target, clickChecks); err != nil { // scrolling to the target may move it
		return err
	}
	s.r.flush()
	t := r.tab
	select { // a drag of an earlier step
	case <-t.drags:
	default:
	}
	if _, err := callValue(ctx, t.sess, src.obj, dragWatchJS); err != nil {
		return err
	}
	if err := (proto.InputSetInterceptDrags{Enabled: true}).Call(r.sess(ctx)); err != nil {
		return err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = proto.InputSetInterceptDrags{Enabled: false}.Call(r.sess(cctx))
	}()
	r.mouse = mouseState{at: r.mouse.at}
	if err := r.moveTo(ctx, from, 1); err != nil {
		return err
	}
	one, none := 1, 0
	if err := (proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMousePressed, X: from.X, Y: from.Y,
		Button: proto.InputMouseButtonLeft, Buttons: &one, ClickCount: 1}).Call(r.sess(ctx)); err != nil {
		return err
	}
	r.mouse.down = true
	defer func() { r.mouse.down = false }()
	var data *proto.InputDragData
	for i := 1; i <= dragSteps; i++ {
		p := point{from.X + (to.X-from.X)*float64(i)/dragSteps, from.Y + (to.Y-from.Y)*float64(i)/dragSteps}
		if data != nil {
			if err := (proto.InputDispatchDragEvent{Type: proto.InputDispatchDragEventTypeDragOver, X: p.X, Y: p.Y, Data: data}).Call(r.sess(ctx)); err != nil {
				return err
			}
			continue
		}
		if err := r.moveTo(ctx, p, 1); err != nil {
			return err
		}
		v, err := callValue(ctx, t.sess, src.obj, dragStartedJS)
		if err != nil || !v.Bool() {
			continue // a detached source, or no drag yet: pointer events go on
		}
		select {
		case data = <-t.drags:
		case <-time.After(time.Second):
			return errors.New("the page started a drag, but the browser did not hand it over")
		case <-ctx.Done():
			return ctx.Err()
		}
		if err := (proto.InputDispatchDragEvent{Type: proto.InputDispatchDragEventTypeDragEnter, X: p.X, Y: p.Y, Data: data}).Call(r.sess(ctx)); err != nil {
			return err
		}
	}
	if data != nil {
		return proto.InputDispatchDragEvent{Type: proto.InputDispatchDragEventTypeDrop, X: to.X, Y: to.Y, Data: data}.Call(r.sess(ctx))
	}
	return proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseReleased, X: to.X, Y: to.Y,
		Button: proto.InputMouseButtonLeft, Buttons: &none, ClickCount: 1}.Call(r.sess(ctx))
}
