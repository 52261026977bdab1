package runner

import (
	"context"
	"errors"
	"time"

	"github.com/testautomation/ta/protocol"
)

// Hit target interception, as Playwright does it. The actionability checks
// find the element receiving the pointer at its centre, but the mouse
// events reach the page a little later; an element still moving, or one
// that something covers meanwhile, would let the click land elsewhere. So
// while the runner dispatches the events of a click or a hover, listeners
// in the element's window (and in the windows of the iframes around it)
// check every event's target: a trusted event that misses the element is
// stopped before the page sees it, and the attempt fails, as it does when
// the element did not receive the event at all. The step's polling then
// checks the element and acts again.

// gesture says which events an action's guard watches.
type gesture struct {
	hover bool   // pointer movement rather than presses and clicks
	verb  string // "clicking"
	noun  string // "click"
}

var (
	clickGesture = gesture{verb: "clicking", noun: "click"}
	hoverGesture = gesture{hover: true, verb: "hovering", noun: "mouse"}
)

// guardJS installs the listeners on the window of the element (this) and,
// with the iframes around it as anchors, on the same-origin windows above
// it. It returns the record, whose done function removes them and answers
// null when the element received the gesture, or why not. An event counts
// only the first time its type comes in a press (so label activation's
// second click passes); a right or middle button's press ends in
// contextmenu or auxclick instead of click; after the element got the press, its removal or
// the page capturing the pointer elsewhere is the page's own doing.
const guardJS = `function (g) {
  const el = this;
  const types = g.hover ? ['pointermove', 'mousemove', 'mouseover'] :
    ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick', 'auxclick', 'contextmenu'];
  const rec = {got: {}, miss: '', free: false, offs: []};
  const pressed = () => rec.got.pointerdown || rec.got.mousedown;
  const name = n => {
    if (!n || n.nodeType !== 1) return 'nothing';
    const cls = typeof n.className === 'string' && n.className ? ' class="' + n.className + '"' : '';
    return '<' + n.tagName.toLowerCase() + (n.id ? ' id="' + n.id + '"' : '') + cls + '>';
  };
  const watch = (win, anchor) => {
    let seen = new Set();
    const on = e => {
      if (!e.isTrusted) return;
      if (e.type === 'pointerdown') seen = new Set();
      if (seen.has(e.type)) return;
      seen.add(e.type);
      const path = e.composedPath();
      if (path.includes(anchor)) {
        if (anchor === el) rec.got[e.type] = true;
        return;
      }
      if (rec.free) return;
      if (pressed() && (!el.isConnected ||
          (e.type === 'pointerup' && e.target.hasPointerCapture && e.target.hasPointerCapture(e.pointerId)))) {
        rec.free = true;
        return;
      }
      if (!rec.miss) rec.miss = name(path[0] || e.target);
      e.preventDefault();
      e.stopImmediatePropagation();
    };
    for (const t of types) win.addEventListener(t, on, true);
    rec.offs.push(() => { for (const t of types) win.removeEventListener(t, on, true); });
  };
  let win = el.ownerDocument.defaultView, anchor = el;
  while (win) {
    watch(win, anchor);
    let up = null;
    try { up = win.frameElement ? win.parent : null; anchor = win.frameElement; } catch (e) {}
    win = up;
  }
  rec.done = () => {
    for (const off of rec.offs) off();
    const got = rec.got;
    if (rec.miss) return 'the element moved or was covered while ' + g.verb + ': ' + rec.miss + ' received the ' + g.noun;
    const ok = g.hover ? got.pointermove || got.mousemove || got.mouseover : got.click || got.auxclick || got.contextmenu || (rec.free && pressed());
    return ok ? null : 'the element did not receive the ' + g.noun + ': it moved or was covered while ' + g.verb;
  };
  return rec;
}`

// guardDoneJS removes a guard's listeners and reads its verdict.
const guardDoneJS = `function () { return this.done(); }`

// guarded performs act, which dispatches the mouse events of gesture g at
// el, under a guard; it fails when the events missed el. The listeners go
// away in every case, even when ctx ends meanwhile.
func (r *run) guarded(ctx context.Context, el elem, g gesture, act func() error) error {
	rec, err := callOn(ctx, r.tab.sess, el.obj, guardJS, false, map[string]any{"hover": g.hover, "verb": g.verb, "noun": g.noun})
	if err != nil {
		return err
	}
	actErr := act()
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	v, err := callValue(dctx, r.tab.sess, rec.ObjectID, guardDoneJS)
	switch {
	case actErr != nil && r.tab.closed.Load():
		return nil // the gesture closed the tab (window.close()): it got there
	case actErr != nil:
		return actErr
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		// The document went away: the gesture navigated, so it got there.
		var js *jsError
		if errors.As(err, &js) {
			return err
		}
		return nil
	}
	if reason, ok := v.Val().(string); ok {
		return &missedError{reason}
	}
	return nil
}

// missedError is an attempt that acted on the page, but whose events missed
// the element: the step acts again, which is a real retry (step.retry).
type missedError struct{ msg string }

func (e *missedError) Error() string { return e.msg }

// act waits until the target resolves to an element that passes c, then
// performs do at the point to act at under the guard for g. An attempt
// whose events missed the element is retried from the start, by polling.
func (s *stepRun) act(ctx context.Context, t *protocol.Target, c checks, g gesture, do func(ctx context.Context, pt point) error) error {
	return s.poll(ctx, "for the element", func(ctx context.Context) error {
		e, err := s.resolve(ctx, t)
		if err != nil {
			return err
		}
		pt, err := s.ready(ctx, e, c) // records where it is when acted on
		if err != nil {
			return err
		}
		s.r.flush()
		return s.r.guarded(ctx, e, g, func() error { return do(ctx, pt) })
	})
}
