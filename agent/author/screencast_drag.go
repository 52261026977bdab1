package author

import (
	"context"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// A drag through the live view (protocol/authoring_view_tabs.go): one
// input is the whole gesture, sent as a person's hand makes it, so the
// recorder sees what it sees of a real drag and records dragTo. A page
// that starts an HTML5 drag gets no drag from a headless browser on its
// own: the drag is intercepted and carried on with drag events, as the
// runner's dragTo does (agent/runner/mouse.go).

const (
	// viewDragSteps is how many moves a drag makes between its points:
	// enough for pages that follow the pointer (sortable lists, sliders).
	viewDragSteps = 10
	// viewDragPace is the time between two moves.
	viewDragPace = 16 * time.Millisecond
)

// dispatchDrag presses the left button at (x, y), moves in steps to (toX,
// toY), CSS pixels, and releases it there.
func dispatchDrag(ctx context.Context, pg *pageState, x, y, toX, toY float64, mods int) error {
	p := pg.page.Context(ctx)
	if err := (proto.InputSetInterceptDrags{Enabled: true}).Call(p); err != nil {
		return err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
		defer cancel()
		_ = proto.InputSetInterceptDrags{Enabled: false}.Call(pg.page.Context(cctx))
	}()
	// The drag the page starts, handed over by the browser.
	drags := make(chan *proto.InputDragData, 1)
	dctx, stop := context.WithCancel(ctx)
	defer stop()
	go pg.page.Context(dctx).EachEvent(func(e *proto.InputDragIntercepted) bool {
		drags <- e.Data
		return true
	})()

	one, none := 1, 0
	mouse := func(t proto.InputDispatchMouseEventType, x, y float64, held bool) error {
		e := proto.InputDispatchMouseEvent{Type: t, X: x, Y: y, Modifiers: mods, Button: proto.InputMouseButtonLeft, Buttons: &one, ClickCount: 1}
		switch {
		case t == proto.InputDispatchMouseEventTypeMouseReleased:
			e.Buttons = &none
		case t == proto.InputDispatchMouseEventTypeMouseMoved && !held:
			e.Button, e.Buttons, e.ClickCount = proto.InputMouseButtonNone, &none, 0
		case t == proto.InputDispatchMouseEventTypeMouseMoved:
			e.ClickCount = 0
		}
		return e.Call(p)
	}
	drag := func(t proto.InputDispatchDragEventType, x, y float64, data *proto.InputDragData) error {
		return proto.InputDispatchDragEvent{Type: t, X: x, Y: y, Data: data, Modifiers: mods}.Call(p)
	}
	if err := mouse(proto.InputDispatchMouseEventTypeMouseMoved, x, y, false); err != nil {
		return err
	}
	if err := mouse(proto.InputDispatchMouseEventTypeMousePressed, x, y, true); err != nil {
		return err
	}
	var data *proto.InputDragData
	for i := 1; i <= viewDragSteps; i++ {
		px, py := x+(toX-x)*float64(i)/viewDragSteps, y+(toY-y)*float64(i)/viewDragSteps
		if data != nil {
			if err := drag(proto.InputDispatchDragEventTypeDragOver, px, py, data); err != nil {
				return err
			}
		} else if err := mouse(proto.InputDispatchMouseEventTypeMouseMoved, px, py, true); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(viewDragPace):
		}
		if data == nil {
			select {
			case data = <-drags: // the page started a drag: drag events from here
				if err := drag(proto.InputDispatchDragEventTypeDragEnter, px, py, data); err != nil {
					return err
				}
			default:
			}
		}
	}
	if data == nil { // a drag handed over late, after the last move
		select {
		case data = <-drags:
			if err := drag(proto.InputDispatchDragEventTypeDragEnter, toX, toY, data); err != nil {
				return err
			}
			if err := drag(proto.InputDispatchDragEventTypeDragOver, toX, toY, data); err != nil {
				return err
			}
		case <-time.After(100 * time.Millisecond):
		}
	}
	if data != nil {
		if err := drag(proto.InputDispatchDragEventTypeDrop, toX, toY, data); err != nil {
			return err
		}
	}
	// Released in any case: the browser's button is up again after an
	// intercepted drag too.
	return mouse(proto.InputDispatchMouseEventTypeMouseReleased, toX, toY, false)
}

// dragInput performs a drag input, its points mapped from the frame's
// pixels to CSS pixels as dispatchInput maps a click's.
func dragInput(ctx context.Context, pg *pageState, in protocol.ViewInput) error {
	if in.ToX == nil || in.ToY == nil {
		return errDragEnd
	}
	x, y, toX, toY := in.X, in.Y, *in.ToX, *in.ToY
	if in.FrameWidth > 0 && in.FrameHeight > 0 && in.PageWidth > 0 && in.PageHeight > 0 {
		sx, sy := in.PageWidth/float64(in.FrameWidth), in.PageHeight/float64(in.FrameHeight)
		x, y, toX, toY = x*sx, y*sy, toX*sx, toY*sy
	}
	return dispatchDrag(ctx, pg, x, y, toX, toY, modifierBits(in.Modifiers))
}
