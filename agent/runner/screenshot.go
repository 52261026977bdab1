package runner

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/go-rod/rod/lib/proto"
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
		q := stepShotQuality
		var res *proto.PageCaptureScreenshotResult
		res, err = proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatJpeg, Quality: &q, OptimizeForSpeed: true}.Call(r.sess(sctx))
		if err == nil {
			data = res.Data
		}
	}
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
