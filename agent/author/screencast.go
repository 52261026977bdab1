package author

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/jpeg"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/protocol"
)

// The live view (protocol/authoring_view.go): a page's CDP screencast,
// on while the hub says someone watches, and real input sent to the page.
// One screencast per page: a picker on a recording's page shares it, and
// each session watching it gets the frames under its own id.

// casts keeps the screencasts and input queues of the manager's pages.
type casts struct {
	mu     sync.Mutex
	of     map[*pageState]*cast            // guarded by mu
	inputs map[*pageState]chan inputAction // guarded by mu
	given  map[string]string               // guarded by mu: path of a file set through the view → its project file id (screencast_chooser.go)
}

// cast is one page's screencast and who watches it.
type cast struct {
	// send orders the cast's frames: one is made and sent at a time
	// (broadcast), so a frame made before a change never reaches a viewer
	// after the frame made after it (a file choice shown again once
	// answered). Taken before casts.mu.
	send    sync.Mutex
	viewers map[string]client.FrameSink // guarded by casts.mu: session → sink
	last    protocol.ViewFrame          // guarded by casts.mu: sent again when a dialog opens or closes
	chooser *pendingChooser             // guarded by casts.mu: the file choice the page waits for
	cancel  context.CancelFunc
}

type inputAction struct {
	session string
	in      protocol.ViewInput
	done    chan error // for tab inputs (screencast_tabs.go): how it went
}

// View implements client.Author.
func (m *Manager) View(id string, on bool, out client.FrameSink) error {
	s, err := m.session(id)
	if err != nil {
		return err
	}
	if !on {
		m.unwatch(s)
		return nil
	}
	if pg := s.pageState(); pg != nil {
		m.watch(s, pg, out)
		return nil
	}
	// The page is still opening (the view opened with the session): watch
	// it once it is open, unless the session ends first.
	go func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-s.done:
				return
			case <-t.C:
				if pg := s.pageState(); pg != nil {
					m.watch(s, pg, out)
					return
				}
			}
		}
	}()
	return nil
}

// pageState is the page the session's view shows and its input goes to:
// the tab a recording followed last (session_tabs.go), else its page.
func (s *session) pageState() *pageState {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.front != nil {
		return s.front
	}
	return s.pg
}

// watch adds a session's watcher of its page, starting the screencast for
// the first one.
func (m *Manager) watch(s *session, pg *pageState, out client.FrameSink) {
	v := &m.views
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.of == nil {
		v.of = map[*pageState]*cast{}
	}
	c := v.of[pg]
	if c == nil {
		ctx, cancel := context.WithCancel(pg.ctx)
		c = &cast{viewers: map[string]client.FrameSink{}, cancel: cancel}
		v.of[pg] = c
		go m.screencast(ctx, pg, c)
	}
	c.viewers[s.id] = out
}

// unwatch removes a session's watcher; the last one stops the screencast.
func (m *Manager) unwatch(s *session) {
	v := &m.views
	v.mu.Lock()
	defer v.mu.Unlock()
	for pg, c := range v.of {
		if _, ok := c.viewers[s.id]; !ok {
			continue
		}
		delete(c.viewers, s.id)
		if len(c.viewers) == 0 {
			c.cancel()
			delete(v.of, pg)
		}
	}
}

// screencast runs a page's screencast until ctx ends: frames at most
// ViewMaxFPS a second (the next frame is acknowledged only then), sent to
// every viewer.
func (m *Manager) screencast(ctx context.Context, pg *pageState, c *cast) {
	p := pg.page.Context(ctx)
	var last time.Time
	wait := p.EachEvent(func(e *proto.PageScreencastFrame) {
		m.sendFrame(pg, c, e)
		if d := time.Second/protocol.ViewMaxFPS - time.Since(last); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return
			}
		}
		last = time.Now()
		_ = proto.PageScreencastFrameAck{SessionID: e.SessionID}.Call(p)
	}, func(e *proto.PageFileChooserOpened) {
		m.chooserOpened(pg, c, e)
	})
	done := make(chan struct{})
	go func() { wait(); close(done) }()
	m.interceptChoosers(ctx, pg, true)
	q := protocol.ViewQuality
	err := proto.PageStartScreencast{Format: proto.PageStartScreencastFormatJpeg, Quality: &q,
		MaxWidth: gsonInt(protocol.ViewMaxWidth), MaxHeight: gsonInt(protocol.ViewMaxHeight), EveryNthFrame: gsonInt(1)}.Call(p)
	if err != nil {
		m.log.Info("screencast did not start", "err", err)
	} else {
		m.log.Debug("screencast started")
	}
	<-ctx.Done()
	m.views.mu.Lock()
	if m.views.of[pg] == c { // the page closed while watched
		delete(m.views.of, pg)
	}
	m.views.mu.Unlock()
	if !pg.isClosed() {
		sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		_ = proto.PageStopScreencast{}.Call(pg.page.Context(sctx))
		m.interceptChoosers(sctx, pg, false)
		cancel()
		m.log.Debug("screencast stopped")
	}
	<-done
}

func gsonInt(n int) *int { return &n }

// sendFrame sends a screencast frame to the page's viewers.
func (m *Manager) sendFrame(pg *pageState, c *cast, e *proto.PageScreencastFrame) {
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(e.Data))
	if err != nil || e.Metadata == nil {
		return
	}
	f := protocol.ViewFrame{Data: e.Data, Width: cfg.Width, Height: cfg.Height,
		PageWidth: e.Metadata.DeviceWidth, PageHeight: e.Metadata.DeviceHeight,
		ScrollX: e.Metadata.ScrollOffsetX, ScrollY: e.Metadata.ScrollOffsetY}
	f.Dialog = pg.shownDialog()
	m.broadcast(c, func() (protocol.ViewFrame, bool) {
		if c.chooser != nil {
			f.FileChooser = c.chooser.shown
		}
		c.last = f
		return f, true
	})
}

// broadcast sends the frame that frame makes (with casts.mu held; false:
// none) to the cast's viewers, each with its session's tabs, in the
// order the frames are made (cast.send). A frame without a picture is
// not sent: the screencast's first frame, coming, carries what it would
// say.
func (m *Manager) broadcast(c *cast, frame func() (protocol.ViewFrame, bool)) {
	c.send.Lock()
	defer c.send.Unlock()
	m.views.mu.Lock()
	f, ok := frame()
	viewers := make(map[string]client.FrameSink, len(c.viewers))
	for id, out := range c.viewers {
		viewers[id] = out
	}
	m.views.mu.Unlock()
	if !ok || len(f.Data) == 0 {
		return
	}
	for id, out := range viewers {
		out.Frame(id, m.withTabs(id, f))
	}
}

// Input implements client.Author: the input joins its page's queue, sent
// in order by one goroutine per page.
func (m *Manager) Input(ctx context.Context, id string, in protocol.ViewInput) error {
	s, err := m.session(id)
	if err != nil {
		return err
	}
	pg := s.pageState()
	if pg == nil {
		return errors.New("the session's page is not open yet")
	}
	if in.Kind == protocol.InputDialog {
		// Not queued: the click that opened the dialog may still be
		// waiting in the queue for the page, which waits for the answer.
		go m.answerDialog(pg, id, in)
		return nil
	}
	if in.Kind == protocol.InputFiles {
		// Not queued either: fetching the files may take a while.
		go m.chooseFiles(pg, id, in)
		return nil
	}
	v := &m.views
	v.mu.Lock()
	if v.inputs == nil {
		v.inputs = map[*pageState]chan inputAction{}
	}
	q := v.inputs[pg]
	if q == nil {
		q = make(chan inputAction, 64)
		v.inputs[pg] = q
		go m.sendInputs(pg, q)
	}
	v.mu.Unlock()
	a := inputAction{session: id, in: in}
	if tabInputs[in.Kind] { // answered once done, after the inputs before it
		a.done = make(chan error, 1)
	}
	select {
	case q <- a:
	default:
		return errors.New("too many inputs waiting: dropped")
	}
	if a.done == nil {
		return nil
	}
	select {
	case err := <-a.done:
		return err
	case <-time.After(15 * time.Second): // the page closed with it still queued
		return errors.New("the input was not done in time")
	case <-ctx.Done():
		return ctx.Err()
	}
}

// sendInputs sends a page's queued inputs until the page closes.
func (m *Manager) sendInputs(pg *pageState, q chan inputAction) {
	defer func() {
		m.views.mu.Lock()
		delete(m.views.inputs, pg)
		m.views.mu.Unlock()
	}()
	for {
		select {
		case <-pg.ctx.Done():
			return
		case a := <-q:
			ctx, cancel := context.WithTimeout(pg.ctx, 10*time.Second)
			err := m.runInput(ctx, pg, a)
			if err != nil {
				m.log.Info("view input", "session", a.session, "kind", a.in.Kind, "err", err)
			}
			if a.done != nil {
				a.done <- err
			}
			cancel()
		}
	}
}

// dispatchInput sends one input to the page as CDP input events, its
// coordinates mapped from the frame's pixels to CSS pixels.
func dispatchInput(ctx context.Context, pg *pageState, in protocol.ViewInput) error {
	p := pg.page.Context(ctx)
	x, y := in.X, in.Y
	if in.FrameWidth > 0 && in.FrameHeight > 0 && in.PageWidth > 0 && in.PageHeight > 0 {
		x, y = x*in.PageWidth/float64(in.FrameWidth), y*in.PageHeight/float64(in.FrameHeight)
	}
	mods := modifierBits(in.Modifiers)
	mouse := func(t proto.InputDispatchMouseEventType, clicks int) error {
		e := proto.InputDispatchMouseEvent{Type: t, X: x, Y: y, Modifiers: mods}
		if t == proto.InputDispatchMouseEventTypeMousePressed || t == proto.InputDispatchMouseEventTypeMouseReleased {
			e.Button, e.ClickCount = mouseButton(in.Button), clicks
		}
		if t == proto.InputDispatchMouseEventTypeMouseWheel {
			e.DeltaX, e.DeltaY = in.DeltaX, in.DeltaY
		}
		return e.Call(p)
	}
	switch in.Kind {
	case protocol.InputMove:
		return mouse(proto.InputDispatchMouseEventTypeMouseMoved, 0)
	case protocol.InputWheel:
		if err := mouse(proto.InputDispatchMouseEventTypeMouseMoved, 0); err != nil {
			return err
		}
		return mouse(proto.InputDispatchMouseEventTypeMouseWheel, 0)
	case protocol.InputClick:
		if err := mouse(proto.InputDispatchMouseEventTypeMouseMoved, 0); err != nil {
			return err
		}
		// One press and release: the second click of a double click comes
		// as its own input with clicks 2, as the browser's events do.
		if err := mouse(proto.InputDispatchMouseEventTypeMousePressed, max(in.Clicks, 1)); err != nil {
			return err
		}
		return mouse(proto.InputDispatchMouseEventTypeMouseReleased, max(in.Clicks, 1))
	case protocol.InputDrag:
		return dragInput(ctx, pg, in)
	case protocol.InputText:
		return proto.InputInsertText{Text: in.Text}.Call(p)
	case protocol.InputKey:
		down, up, err := keyEvents(in.Key, mods)
		if err != nil {
			return err
		}
		if err := down.Call(p); err != nil {
			return err
		}
		return up.Call(p)
	}
	return fmt.Errorf("unknown input kind %q", in.Kind)
}

func mouseButton(b string) proto.InputMouseButton {
	switch b {
	case "middle":
		return proto.InputMouseButtonMiddle
	case "right":
		return proto.InputMouseButtonRight
	}
	return proto.InputMouseButtonLeft
}

func modifierBits(mods []string) int {
	bits := 0
	for _, m := range mods {
		bits |= map[string]int{"Alt": input.ModifierAlt, "Control": input.ModifierControl, "Meta": input.ModifierMeta, "Shift": input.ModifierShift}[m]
	}
	return bits
}

// namedKeys maps the view's key names (protocol.InputKeys) to rod's keys,
// for their codes.
var namedKeys = map[string]input.Key{
	"Enter": input.Enter, "Tab": input.Tab, "Escape": input.Escape, "Backspace": input.Backspace,
	"Delete": input.Delete, "Space": input.Space, "ArrowUp": input.ArrowUp, "ArrowDown": input.ArrowDown,
	"ArrowLeft": input.ArrowLeft, "ArrowRight": input.ArrowRight, "Home": input.Home, "End": input.End,
	"PageUp": input.PageUp, "PageDown": input.PageDown, "Insert": input.Insert,
	"F1": input.F1, "F2": input.F2, "F3": input.F3, "F4": input.F4, "F5": input.F5, "F6": input.F6,
	"F7": input.F7, "F8": input.F8, "F9": input.F9, "F10": input.F10, "F11": input.F11, "F12": input.F12,
}

// keyEvents are the key down and up events of a key name: the DOM's key
// value (Enter, not rod's "\r"), the key's code, and the text it types
// (Enter and Space only, and none with Control, Alt or Meta held).
func keyEvents(name string, mods int) (down, up proto.InputDispatchKeyEvent, err error) {
	var code string
	var keyCode int
	key, text := name, ""
	if k, ok := namedKeys[name]; ok {
		info := k.Info()
		code, keyCode = info.Code, info.KeyCode
		switch name {
		case "Enter":
			text = "\r"
		case "Space":
			key, text = " ", " "
		}
	} else if len(name) == 1 {
		info := input.Key(name[0] | 0x20).Info() // a letter's lower case; digits are unchanged
		if name[0] >= '0' && name[0] <= '9' {
			info = input.Key(name[0]).Info()
		}
		code, keyCode, key = info.Code, info.KeyCode, info.Key
	} else {
		return down, up, fmt.Errorf("unknown key %q", name)
	}
	if mods&(input.ModifierControl|input.ModifierAlt|input.ModifierMeta) != 0 {
		text = ""
	}
	down = proto.InputDispatchKeyEvent{Type: proto.InputDispatchKeyEventTypeKeyDown, Key: key, Code: code,
		WindowsVirtualKeyCode: keyCode, NativeVirtualKeyCode: keyCode, Text: text, UnmodifiedText: text, Modifiers: mods}
	if text == "" {
		down.Type = proto.InputDispatchKeyEventTypeRawKeyDown
	}
	up = proto.InputDispatchKeyEvent{Type: proto.InputDispatchKeyEventTypeKeyUp, Key: key, Code: code,
		WindowsVirtualKeyCode: keyCode, NativeVirtualKeyCode: keyCode, Modifiers: mods}
	return down, up, nil
}
