package runner

import (
	"context"
	"errors"
	"math"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
	"github.com/ysmood/gson"
)

// checks selects the actionability checks an action needs, as Playwright's
// table has them: click and check want visible, stable, enabled and
// receiving events; hover the same but enabled; fill visible, enabled and
// editable; select visible and enabled. Attached is always checked.
type checks struct {
	Visible  bool `json:"visible"`
	Enabled  bool `json:"enabled"`
	Editable bool `json:"editable"`
	Scroll   bool `json:"scroll"`
	Stable   bool `json:"stable"`
	Hit      bool `json:"hit"`
	// Hold: scrolling is needed but must wait (a screenshot is in
	// flight, see overlap); the check answers holdScroll instead.
	Hold bool `json:"hold"`
	// At is where to act, as an offset from the element's top left
	// corner; nil is its centre.
	At *protocol.Position `json:"at,omitempty"`
}

// holdScroll is checkJS's answer when it would scroll under Hold.
const holdScroll = "\x00scroll"

var (
	clickChecks  = checks{Visible: true, Enabled: true, Scroll: true, Stable: true, Hit: true}
	hoverChecks  = checks{Visible: true, Scroll: true, Stable: true, Hit: true}
	fillChecks   = checks{Visible: true, Enabled: true, Editable: true, Scroll: true}
	selectChecks = checks{Visible: true, Enabled: true, Scroll: true}
	shotChecks   = checks{Visible: true, Scroll: true, Stable: true}
)

// point is a position in the main frame's viewport, in CSS pixels.
type point struct{ X, Y float64 }

// check tests el once; it returns the point to act at, or why el is not
// actionable yet, and el's box (nil for an element in an iframe: its
// box in the main frame comes from the DevTools protocol).
func (r *run) check(ctx context.Context, el elem, c checks) (point, *protocol.Box, error) {
	if el.framed && c.Scroll {
		// Scroll every enclosing document, not only the element's own.
		if err := (proto.DOMScrollIntoViewIfNeeded{ObjectID: el.obj}).Call(r.sess(ctx)); err != nil {
			return point{}, nil, err
		}
	}
	v, err := callValue(ctx, r.tab.sess, el.obj, checkJS, c)
	if err != nil {
		return point{}, nil, err
	}
	if reason, ok := v.Val().(string); ok {
		return point{}, nil, errors.New(reason)
	}
	a := v.Arr()
	if len(a) != 9 {
		return point{}, nil, errors.New("unexpected answer from the page while checking the element")
	}
	if el.framed {
		pt, err := r.center(ctx, el, c.At)
		return pt, nil, err
	}
	round := func(v gson.JSON) float64 { return math.Round(v.Num()*100) / 100 }
	box := &protocol.Box{X: round(a[2]), Y: round(a[3]), Width: round(a[4]), Height: round(a[5]),
		ViewportWidth: round(a[6]), ViewportHeight: round(a[7]), DPR: round(a[8])}
	return point{a[0].Num(), a[1].Num()}, box, nil
}

// ready checks el (see check) and records its box as the step's, where it
// is when acted on: scrolled into view.
func (s *stepRun) ready(ctx context.Context, el elem, c checks) (point, error) {
	if s.r.pending != nil && c.Scroll {
		if el.framed {
			s.r.flush()
		} else {
			c.Hold = true
		}
	}
	pt, box, err := s.r.check(ctx, el, c)
	if err != nil && err.Error() == holdScroll {
		s.r.flush()
		c.Hold = false
		pt, box, err = s.r.check(ctx, el, c)
	}
	switch {
	case err != nil:
	case box != nil:
		s.box, s.el, s.stale = box, el, false
	default:
		s.mark(ctx, el)
	}
	return pt, err
}

// center returns the centre of el's box in main-frame coordinates, or the
// point at the offset at from its top left corner; it accounts for the
// iframes around el.
func (r *run) center(ctx context.Context, el elem, at *protocol.Position) (point, error) {
	q, err := proto.DOMGetContentQuads{ObjectID: el.obj}.Call(r.sess(ctx))
	if err != nil {
		return point{}, err
	}
	if len(q.Quads) == 0 || len(q.Quads[0]) < 8 {
		return point{}, errors.New("the element is not visible")
	}
	if at != nil {
		return point{q.Quads[0][0] + at.X, q.Quads[0][1] + at.Y}, nil
	}
	var x, y float64
	for i := 0; i < 8; i += 2 {
		x += q.Quads[0][i]
		y += q.Quads[0][i+1]
	}
	return point{x / 4, y / 4}, nil
}

// actionable waits until the target resolves to an element that passes c,
// and returns it with the point to act at.
func (s *stepRun) actionable(ctx context.Context, t *protocol.Target, c checks) (elem, point, error) {
	var el elem
	var pt point
	err := s.poll(ctx, "for the element", func(ctx context.Context) error {
		e, err := s.resolve(ctx, t)
		if err != nil {
			return err
		}
		p, err := s.ready(ctx, e, c)
		if err != nil {
			return err
		}
		el, pt = e, p
		return nil
	})
	return el, pt, err
}

// attached waits until the target resolves to an element.
func (s *stepRun) attached(ctx context.Context, t *protocol.Target) (elem, error) {
	var el elem
	err := s.poll(ctx, "for the element", func(ctx context.Context) error {
		e, err := s.resolve(ctx, t)
		el = e
		return err
	})
	return el, err
}
