package runner

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// stepShotQuality is the JPEG quality of the screenshots taken after every
// step: they show what the page looked like, at a fraction of a PNG's
// encoding time and size. A failed step's screenshot stays a lossless PNG.
const stepShotQuality = 80

// screenshot captures the viewport after a step and sends it as the step's
// artifact named base+".jpg" (".png" for a failure: lossless); it returns
// the name, "" when it could not.
func (r *run) screenshot(ctx context.Context, step int, base string, failure bool) string {
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var data []byte
	var err error
	if failure {
		data, err = r.capture(sctx, false)
	} else {
		data, err = r.stepShot(sctx)
	}
	return r.shotArtifact(ctx, step, base, failure, data, err)
}

// stepShot captures the viewport as the JPEG of an after-step screenshot.
func (r *run) stepShot(ctx context.Context) ([]byte, error) {
	q := stepShotQuality
	res, err := proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatJpeg, Quality: &q, OptimizeForSpeed: true}.Call(r.sess(ctx))
	if err != nil {
		return nil, err
	}
	return res.Data, nil
}

// shotArtifact sends a step's screenshot (see screenshot), or logs why
// there is none.
func (r *run) shotArtifact(ctx context.Context, step int, base string, failure bool, data []byte, err error) string {
	if err != nil {
		if ctx.Err() == nil {
			r.out.logf("warn", &step, "no screenshot after the step: %v", err)
		}
		return ""
	}
	if failure {
		return r.out.artifact(step, base, ".png", "image/png", data)
	}
	return r.out.artifact(step, base, ".jpg", "image/jpeg", data)
}

// An after-step screenshot is taken while the next step begins: the
// capture (about two frames of the compositor's, 15 to 35 ms) overlaps the
// next step's work that cannot change what the page shows: finding its
// element and checking it (visible, stable, enabled, receiving events)
// without scrolling, or reading an assertion's text. Anything else the next
// step does, from scrolling to input, waits for the capture's answer
// (flush), which comes only after its frame was produced: the screenshot
// shows the page as the step left it. Events keep their order: the step's
// artifact and step.finished go out when the capture is taken, and only
// then the next step's step.started.

// pendingShot is an after-step screenshot in flight.
type pendingShot struct {
	ctx  context.Context // the run's
	res  protocol.StepResult
	done chan struct{} // closed when data or err is set
	data []byte
	err  error
}

// overlaps lists the step types whose start may overlap the previous
// step's screenshot: they call flush before they change the page.
var overlaps = map[string]bool{"click": true, "dblclick": true, "hover": true, "check": true, "uncheck": true,
	"fill": true, "select": true, "assertText": true, "assertValue": true}

// shoot starts capturing the screenshot after the passed step res; its
// step.finished goes out on the next flush.
func (r *run) shoot(ctx context.Context, res protocol.StepResult) {
	p := &pendingShot{ctx: ctx, res: res, done: make(chan struct{})}
	r.pending = p
	go func() {
		defer close(p.done)
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if r.shotDelay > 0 && !sleep(sctx, r.shotDelay) {
			p.err = sctx.Err()
			return
		}
		p.data, p.err = r.stepShot(sctx)
	}()
}

// flush waits for the screenshot in flight, if any, and reports its step
// (artifact, step.finished), then the step.started of the step running
// (held), if not yet reported. Nothing the current step does may change
// the page before flush.
func (r *run) flush() {
	if p := r.pending; p != nil {
		r.pending = nil
		<-p.done
		i := p.res.Index
		p.res.Screenshot = r.shotArtifact(p.ctx, i, fmt.Sprintf("step-%03d-%s", i+1, p.res.ID), false, p.data, p.err)
		if i < len(r.res.Steps) {
			r.res.Steps[i].Screenshot = p.res.Screenshot
		}
		r.finished(p.res)
	}
	if r.held != nil {
		r.held()
		r.held = nil
	}
}

// capture takes a PNG of the viewport, or of the whole page.
func (r *run) capture(ctx context.Context, fullPage bool) ([]byte, error) {
	req := proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng}
	if fullPage {
		m, err := proto.PageGetLayoutMetrics{}.Call(r.sess(ctx))
		if err != nil {
			return nil, err
		}
		if m.CSSContentSize == nil {
			return nil, errors.New("the browser did not report the page's size")
		}
		req.Clip = &proto.PageViewport{Width: math.Ceil(m.CSSContentSize.Width), Height: math.Ceil(m.CSSContentSize.Height), Scale: 1}
		req.CaptureBeyondViewport = true
	}
	res, err := req.Call(r.sess(ctx))
	if err != nil {
		return nil, err
	}
	return res.Data, nil
}

// captureElement takes a PNG of the element's box (scrolled into view).
func (r *run) captureElement(ctx context.Context, el elem) ([]byte, error) {
	q, err := proto.DOMGetContentQuads{ObjectID: el.obj}.Call(r.sess(ctx))
	if err != nil {
		return nil, err
	}
	if len(q.Quads) == 0 {
		return nil, errors.New("the element has no box")
	}
	minX, minY, maxX, maxY := quadBounds(q.Quads)
	m, err := proto.PageGetLayoutMetrics{}.Call(r.sess(ctx))
	if err != nil {
		return nil, err
	}
	var pageX, pageY float64
	if m.CSSLayoutViewport != nil {
		pageX, pageY = float64(m.CSSLayoutViewport.PageX), float64(m.CSSLayoutViewport.PageY)
	}
	clip := &proto.PageViewport{X: pageX + minX, Y: pageY + minY, Width: maxX - minX, Height: maxY - minY, Scale: 1}
	if clip.Width < 1 || clip.Height < 1 {
		return nil, errors.New("the element has an empty box")
	}
	res, err := proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng, Clip: clip}.Call(r.sess(ctx))
	if err != nil {
		return nil, err
	}
	return res.Data, nil
}

// quadBounds is the smallest rectangle holding every point of an element's
// content quads (x1, y1, ... x4, y4 each): its box as drawn, transforms
// included.
func quadBounds(quads []proto.DOMQuad) (minX, minY, maxX, maxY float64) {
	minX, minY, maxX, maxY = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, quad := range quads {
		for i := 0; i+1 < len(quad); i += 2 {
			minX, maxX = math.Min(minX, quad[i]), math.Max(maxX, quad[i])
			minY, maxY = math.Min(minY, quad[i+1]), math.Max(maxY, quad[i+1])
		}
	}
	return minX, minY, maxX, maxY
}
