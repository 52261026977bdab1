package runner

import (
	"context"
	"errors"
	"math"
	"strconv"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// What a step result carries to explain itself on the run page: where its
// element was (to draw on the screenshot) and the values it used.

// usedOf lists the values an interpolated step uses, by parameter name.
// The output masks secrets in them, as in every string it sends.
func usedOf(st protocol.Step) protocol.Used {
	u := protocol.Used{}
	if st.URL != "" {
		u["url"] = st.URL
	}
	if st.Value != nil {
		u["value"] = *st.Value
	}
	if st.Key != "" {
		u["key"] = st.Key
	}
	if st.Expected != nil {
		u["expected"] = *st.Expected
	}
	if st.Text != nil {
		u["text"] = *st.Text // a dialog step's prompt answer
	}
	if st.Ms != nil {
		u["ms"] = strconv.Itoa(*st.Ms)
	}
	if st.Name != "" && (st.Type == "screenshot" || st.Type == "setVariable") {
		u["name"] = st.Name
	}
	if len(u) == 0 {
		return nil
	}
	return u
}

// mark records where el is now, as the step's box; a step whose element
// cannot be measured (detached meanwhile, no layout) keeps the last box.
// It reports whether it measured.
func (s *stepRun) mark(ctx context.Context, el elem) bool {
	b, err := s.r.boxOf(ctx, el)
	if err != nil || b == nil {
		return false
	}
	s.box, s.el, s.stale = b, el, false
	return true
}

// found notes el as the element the step found last, measured when the
// step ends (settle) unless ready or mark measure it before: a step that
// polls resolves its target every few milliseconds, and only the last
// element found matters.
func (s *stepRun) found(el elem) { s.last, s.stale = el, true }

// settle measures the element the step found last, if nothing measured it
// since (see found).
// It reports whether it measured the element.
func (s *stepRun) settle(ctx context.Context) bool {
	if !s.stale {
		return false
	}
	sctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	s.stale = false
	return s.mark(sctx, s.last)
}

// frame measures the step's element again right before its screenshot, so
// the box drawn on it is where the element is in it: none when the element
// went away (the step navigated). A failed step's element outside the
// viewport (an assertion does not scroll) is scrolled into view first.
// fresh says settle has just measured it.
func (s *stepRun) frame(ctx context.Context, failed, fresh bool) {
	if s.box == nil {
		return
	}
	fctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	b := s.box
	if !fresh {
		var err error
		if b, err = s.r.boxOf(fctx, s.el); err != nil || b == nil {
			s.box = nil
			return
		}
	}
	s.box = b
	inView := b.X+b.Width > 0 && b.Y+b.Height > 0 && b.X < b.ViewportWidth && b.Y < b.ViewportHeight
	if failed && !inView {
		if err := (proto.DOMScrollIntoViewIfNeeded{ObjectID: s.el.obj}).Call(s.r.sess(fctx)); err == nil {
			s.mark(fctx, s.el)
		}
	}
}

// boxOf measures el's border box in CSS pixels of the viewport, with the
// viewport's size and the device pixel ratio.
func (r *run) boxOf(ctx context.Context, el elem) (*protocol.Box, error) {
	q, err := proto.DOMGetContentQuads{ObjectID: el.obj}.Call(r.sess(ctx))
	if err != nil || len(q.Quads) == 0 {
		return nil, err
	}
	minX, minY, maxX, maxY := quadBounds(q.Quads)
	m, err := proto.PageGetLayoutMetrics{}.Call(r.sess(ctx))
	if err != nil {
		return nil, err
	}
	if m.CSSVisualViewport == nil || m.CSSVisualViewport.ClientWidth <= 0 {
		return nil, errors.New("the browser did not report the viewport")
	}
	dpr := 1.0
	if m.VisualViewport != nil && m.VisualViewport.ClientWidth > 0 {
		dpr = m.VisualViewport.ClientWidth / m.CSSVisualViewport.ClientWidth
	}
	round := func(v float64) float64 { return math.Round(v*100) / 100 }
	return &protocol.Box{X: round(minX), Y: round(minY), Width: round(maxX - minX), Height: round(maxY - minY),
		ViewportWidth: round(m.CSSVisualViewport.ClientWidth), ViewportHeight: round(m.CSSVisualViewport.ClientHeight),
		DPR: round(dpr)}, nil
}
