package runner

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"strings"
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
// the name, or "" and why there is none.
func (r *run) screenshot(ctx context.Context, step int, base string, failure bool) (string, string) {
	sctx, cancel := context.WithTimeout(ctx, shotBound)
	defer cancel()
	var data []byte
	var err error
	if failure {
		data, err = r.capture(sctx, false)
	} else {
		data, err = r.stepShot(sctx, make(chan struct{}), 0)
	}
	return r.shotArtifact(ctx, step, base, failure, data, err, false)
}

// shotBound bounds a step's screenshot: its step's result waits for it.
const shotBound = 10 * time.Second

// stepShot captures the viewport as the JPEG of an after-step screenshot.
// frozen is closed once what the image shows is fixed: the page may change
// from then on (see frames.go); at the latest when stepShot returns. With
// secrets, where the page shows one is asked for once the image is fixed,
// before the page may change (frozen waits for the answer), and painted
// over (shot_secrets.go).
func (r *run) stepShot(ctx context.Context, frozen chan struct{}, late time.Duration) ([]byte, error) {
	if len(r.mask.forms) == 0 {
		return r.stepShotAsIs(ctx, frozen, late)
	}
	fixed := make(chan struct{})
	var boxes *shotBoxes
	var berr error
	found := make(chan struct{})
	go func() {
		<-fixed // closed at the latest when stepShotAsIs returns
		boxes, berr = r.secretBoxes(ctx, false)
		close(found)
		close(frozen)
	}()
	data, err := r.stepShotAsIs(ctx, fixed, late)
	<-found
	if err = cmp.Or(err, berr); err != nil {
		return nil, err
	}
	return paintSecrets(data, true, boxes)
}

// stepShotAsIs is stepShot without the secrets' boxes.
func (r *run) stepShotAsIs(ctx context.Context, frozen chan struct{}, late time.Duration) ([]byte, error) {
	if r.browser.frames {
		data, err := r.tab.clock.shot(ctx, proto.PageCaptureScreenshotFormatJpeg, stepShotQuality, frozen, late)
		if !errors.Is(err, errNoImage) {
			return data, err
		}
		// The page is still held: the browser's own capture, as without
		// frames (late has been waited already).
		late = 0
	}
	defer close(frozen)
	if late > 0 && !sleep(ctx, late) {
		return nil, ctx.Err()
	}
	q := stepShotQuality
	return r.captureCall(ctx, proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatJpeg, Quality: &q, OptimizeForSpeed: true})
}

// shotArtifact sends a step's screenshot (see screenshot), or logs why
// there is none and returns it; now sends past the output's barrier (see
// output.hold).
func (r *run) shotArtifact(ctx context.Context, step int, base string, failure bool, data []byte, err error, now bool) (string, string) {
	artifact, logf := r.out.artifact, r.out.logf
	if now {
		artifact, logf = r.out.artifactNow, r.out.logfNow
	}
	if err != nil {
		if ctx.Err() != nil {
			return "", "" // the run ended: its end says why
		}
		why := "no screenshot: " + err.Error()
		logf("warn", &step, "no screenshot after the step: %v", err)
		return "", r.mask.String(why)
	}
	ext, ct := ".jpg", "image/jpeg"
	if failure {
		ext, ct = ".png", "image/png"
	}
	if name := artifact(step, base, ext, ct, data); name != "" {
		return name, ""
	}
	if ctx.Err() != nil {
		return "", ""
	}
	return "", fmt.Sprintf("no screenshot: the image (%d bytes) is larger than the limit of %d", len(data), protocol.MaxArtifact)
}

// An after-step screenshot is taken while the next step begins. The
// capture overlaps the next step's work that cannot change what the page
// shows: finding its element and checking it (visible, stable, enabled,
// receiving events) without scrolling, or reading an assertion's text.
// Anything else the next step does, from scrolling to input, waits until
// what the screenshot shows is fixed (flush): with a headless shell, once
// the frame's content is committed (1 to 2 ms, see frames.go), else once
// the capture answers, which is after its frame was produced (15 to 35
// ms). Either way the screenshot shows the page as the step left it.
// Events keep their order: the step's artifact and step.finished go out
// when the image is there, before anything emitted after the flush (the
// next step's step.started first), by means of the output's barrier.

// pendingShot is an after-step screenshot in flight.
type pendingShot struct {
	ctx    context.Context // the run's
	res    protocol.StepResult
	frozen chan struct{} // closed when what the image shows is fixed
	done   chan struct{} // closed when data or err is set
	data   []byte
	err    error
}

// overlaps lists the step types whose start may overlap the previous
// step's screenshot: they call flush before they change the page.
var overlaps = map[string]bool{"click": true, "dblclick": true, "hover": true, "check": true, "uncheck": true,
	"fill": true, "select": true, "assertText": true, "assertValue": true}

// shoot starts capturing the screenshot after the passed step res; its
// step.finished goes out once the image is there (see flush).
func (r *run) shoot(ctx context.Context, res protocol.StepResult) {
	p := &pendingShot{ctx: ctx, res: res, frozen: make(chan struct{}), done: make(chan struct{})}
	r.pending = p
	go func() {
		defer close(p.done)
		sctx, cancel := context.WithTimeout(ctx, shotBound)
		defer cancel()
		p.data, p.err = r.stepShot(sctx, p.frozen, r.shotDelay)
	}()
}

// flush waits until what the screenshot in flight shows is fixed, if one
// is in flight, and makes its step's artifact and step.finished go out
// before anything emitted from now on; then the step.started of the step
// running (held), if not yet reported. Nothing the current step does may
// change the page before flush.
func (r *run) flush() {
	held := r.held
	r.held = nil
	if held != nil {
		r.current.Store(int64(*held.Index))
	}
	p := r.pending
	if p == nil {
		if held != nil {
			r.out.event(*held)
		}
		return
	}
	r.pending = nil
	<-p.frozen
	r.out.hold(func() {
		<-p.done
		i := p.res.Index
		p.res.Screenshot, p.res.ScreenshotError = r.shotArtifact(p.ctx, i, fmt.Sprintf("step-%03d-%s%s", i+1, p.res.ID, iterationName(p.res.Iteration)), false, p.data, p.err, true)
		r.shotMu.Lock()
		if r.shots == nil {
			r.shots = map[string][2]string{}
		}
		r.shots[shotKey(i, p.res.Iteration)] = [2]string{p.res.Screenshot, p.res.ScreenshotError}
		r.shotMu.Unlock()
		r.out.eventNow(finishedEvent(p.res))
		if held != nil {
			r.out.eventNow(*held)
		}
	})
	// Sent as soon as the image is there, should nothing else be emitted
	// for a while (an assertion waiting).
	go func() {
		<-p.done
		r.out.pass()
	}()
}

// drain sends what flush held back and fills the screenshots it named
// into res.
func (r *run) drain(res *protocol.RunResult) {
	r.out.pass()
	r.shotMu.Lock()
	defer r.shotMu.Unlock()
	var fill func([]protocol.StepResult)
	fill = func(list []protocol.StepResult) {
		for i := range list {
			s := &list[i]
			if shot, ok := r.shots[shotKey(s.Index, s.Iteration)]; ok {
				s.Screenshot, s.ScreenshotError = shot[0], shot[1]
			}
			fill(s.Steps)
			for j := range s.Iterations {
				fill(s.Iterations[j].Steps)
			}
		}
	}
	fill(res.Steps)
}

// capture takes a PNG of the viewport, or of the whole page, secrets
// painted over.
func (r *run) capture(ctx context.Context, fullPage bool) ([]byte, error) {
	boxes, err := r.secretBoxes(ctx, fullPage)
	if err != nil {
		return nil, err
	}
	data, err := r.captureAsIs(ctx, fullPage)
	if err != nil {
		return nil, err
	}
	return paintSecrets(data, false, boxes)
}

// captureAsIs is capture without painting secrets over.
func (r *run) captureAsIs(ctx context.Context, fullPage bool) ([]byte, error) {
	var size *proto.PageViewport
	if fullPage {
		m, err := proto.PageGetLayoutMetrics{}.Call(r.sess(ctx))
		if err != nil {
			return nil, err
		}
		if m.CSSContentSize == nil {
			return nil, errors.New("the browser did not report the page's size")
		}
		size = &proto.PageViewport{Width: math.Ceil(m.CSSContentSize.Width), Height: math.Ceil(m.CSSContentSize.Height), Scale: 1}
		if r.browser.frames {
			return r.captureTall(ctx, m, size)
		}
	}
	if r.browser.frames {
		return r.viewportPNG(ctx)
	}
	req := proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng}
	if size != nil {
		req.Clip, req.CaptureBeyondViewport = size, true
	}
	return r.captureCall(ctx, req)
}

// viewportPNG takes a PNG of the viewport with frames on demand: a frame of
// its own, or the browser's own capture when frames come without an image.
func (r *run) viewportPNG(ctx context.Context) ([]byte, error) {
	data, err := r.tab.clock.shot(ctx, proto.PageCaptureScreenshotFormatPng, 0, nil, 0)
	if !errors.Is(err, errNoImage) {
		return data, err
	}
	return r.captureCall(ctx, proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
}

// captureWait bounds the browser's own capture with frames on demand.
const captureWait = 3 * time.Second

// maxTall bounds the height of a whole-page screenshot, in CSS pixels.
const maxTall = 16384

// captureTall takes the whole page with frames on demand: the viewport is
// made as tall as the page for one frame, as the browser's own capture
// beyond the viewport does.
func (r *run) captureTall(ctx context.Context, m *proto.PageGetLayoutMetricsResult, size *proto.PageViewport) ([]byte, error) {
	vw, vh := 0, 0
	if v := m.CSSLayoutViewport; v != nil {
		vw, vh = v.ClientWidth, v.ClientHeight
	}
	h := int(min(size.Height, maxTall))
	if vw == 0 || h <= vh {
		return r.viewportPNG(ctx)
	}
	tall := proto.EmulationSetDeviceMetricsOverride{Width: vw, Height: h}
	vp := r.viewport() // the device's or a setViewport step's, restored after
	if vp != nil {
		tall.DeviceScaleFactor, tall.Mobile = vp.DeviceScaleFactor, vp.Mobile
	}
	if err := tall.Call(r.sess(ctx)); err != nil {
		return nil, err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if vp != nil {
			_ = vp.Call(r.sess(cctx))
			return
		}
		_ = proto.EmulationClearDeviceMetricsOverride{}.Call(r.sess(cctx))
	}()
	return r.viewportPNG(ctx)
}

// captureCall takes the screenshot req asks for. With frames on demand
// (frames.go) the browser's own capture waits for the clock's frames, and
// now and then, with other pages' frames under way, answers "Unable to
// capture screenshot": it is asked again, at most three times in all, and
// each time for at most captureWait, as a page that stops drawing would
// keep it waiting. A headed run's page is brought to the front first (see
// front), and its capture is bounded by captureWait as well.
func (r *run) captureCall(ctx context.Context, req proto.PageCaptureScreenshot) ([]byte, error) {
	headed := r.own != nil
	for attempt := 1; ; attempt++ {
		cctx, cancel := ctx, context.CancelFunc(func() {})
		if r.browser.frames || headed {
			cctx, cancel = context.WithTimeout(ctx, captureWait)
		}
		if headed {
			r.front(cctx)
		}
		res, err := req.Call(r.sess(cctx))
		cancel()
		if err != nil && ctx.Err() == nil && cctx.Err() != nil {
			if headed {
				return nil, errors.New("the browser drew no picture of the page in " + captureWait.String() +
					" (is its window minimized or hidden?)")
			}
			return nil, errors.New("the browser's capture did not answer in " + captureWait.String())
		}
		if err == nil {
			return res.Data, nil
		}
		if !r.browser.frames || attempt == 3 || !strings.Contains(err.Error(), "Unable to capture screenshot") || !sleep(ctx, 50*time.Millisecond) {
			return nil, err
		}
	}
}

// front brings a headed run's page to the front of its window. A page
// behind another tab (one a link or a script opened) draws nothing, and
// the browser's capture waits for a frame it draws: seconds, or for ever.
// Puppeteer does the same before its screenshots in a headed browser.
func (r *run) front(ctx context.Context) {
	if err := (proto.PageBringToFront{}).Call(r.sess(ctx)); err != nil && ctx.Err() == nil {
		r.b.log.Debug("bringing the page to the front", "err", err)
	}
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
	if maxX-minX < 1 || maxY-minY < 1 {
		return nil, errors.New("the element has an empty box")
	}
	if r.browser.frames && m.CSSLayoutViewport != nil && m.CSSLayoutViewport.ClientWidth > 0 {
		// The viewport's frame, cut to the box.
		data, err := r.capture(ctx, false)
		if err != nil {
			return nil, err
		}
		return cropPNG(data, minX, minY, maxX, maxY, float64(m.CSSLayoutViewport.ClientWidth))
	}
	var pageX, pageY float64
	if m.CSSLayoutViewport != nil {
		pageX, pageY = float64(m.CSSLayoutViewport.PageX), float64(m.CSSLayoutViewport.PageY)
	}
	clip := &proto.PageViewport{X: pageX + minX, Y: pageY + minY, Width: maxX - minX, Height: maxY - minY, Scale: 1}
	boxes, err := r.secretBoxes(ctx, false)
	if err != nil {
		return nil, err
	}
	data, err := r.captureCall(ctx, proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng, Clip: clip})
	if err != nil || boxes == nil {
		return data, err
	}
	// The boxes are the viewport's; the image is the clip's.
	for i := range boxes.Boxes {
		boxes.Boxes[i][0] -= minX
		boxes.Boxes[i][1] -= minY
	}
	boxes.Width = maxX - minX
	return paintSecrets(data, false, boxes)
}

// cropPNG cuts the box (CSS pixels of a viewport cssWidth wide) out of the
// viewport's PNG.
func cropPNG(data []byte, minX, minY, maxX, maxY, cssWidth float64) ([]byte, error) {
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("reading the browser's image: %w", err)
	}
	b := img.Bounds()
	k := float64(b.Dx()) / cssWidth
	box := image.Rect(int(math.Round(minX*k)), int(math.Round(minY*k)), int(math.Round(maxX*k)), int(math.Round(maxY*k))).Intersect(b)
	if box.Empty() {
		return nil, errors.New("the element is outside the viewport")
	}
	sub, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	})
	if !ok {
		return nil, errors.New("unexpected image from the browser")
	}
	var out bytes.Buffer
	if err := png.Encode(&out, sub.SubImage(box)); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
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
