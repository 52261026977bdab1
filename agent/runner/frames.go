package runner

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// Headless runs prefer Chromium's headless shell (chrome-headless-shell,
// Debian's chromium-headless-shell), started with begin-frame control: the
// page renders a frame only when the runner asks for one. A clock per run
// asks 60 times a second, so pages animate as usual, and the screenshot
// after a step is a frame of its own (HeadlessExperimental.beginFrame with
// a screenshot), produced at once rather than at the compositor's next
// vsync. It also lets the next step go on before the image is encoded:
//
//   - Before asking for the frame, the runner registers an animation-frame
//     callback in the page. Blink runs it in the frame's main-thread task,
//     right before that task updates style, layout and paint and commits
//     what the frame shows (run-all-compositor-stages-before-draw makes the
//     frame wait for that commit).
//   - Once the callback has run, the frame's content is fixed: input sent
//     from then on is handled by a later task of the page, and no later
//     frame can be drawn before the screenshot's frame is finished, because
//     the clock asks for the next frame only after it.
//   - So the next step may change the page as soon as the callback has run
//     (1 to 2 ms after the request), while the frame is drawn, read back and
//     encoded (15 to 20 ms on two cores); only its events wait for the image.
//
// Scrolling on the compositor thread could change a frame after its commit,
// so threaded scrolling is off. Frames of two pages must not overlap either,
// even in separate contexts: Chromium 156's GPU process exits on "overlapping
// IssueExternalBeginFrame" (seen with two pages' clocks), so one lock per
// browser orders every page's frames.

// headlessShellNames are looked up on PATH, in order.
var headlessShellNames = []string{"chromium-headless-shell", "chrome-headless-shell", "headless_shell"}

// debianHeadlessShell is the binary of Debian's chromium-headless-shell.
const debianHeadlessShell = "/usr/lib/chromium/chromium-headless-shell"

// FindHeadlessShell returns the headless shell to run headless runs in:
// path itself when given, "" when path is "off" or none is installed.
func FindHeadlessShell(path string) (string, error) {
	switch path {
	case "off":
		return "", nil
	case "":
	default:
		p, err := exec.LookPath(path)
		if err != nil {
			return "", errors.New("headless shell " + path + " not found or not executable: install it (apt-get install chromium-headless-shell), or pass off to run headless runs in the browser")
		}
		return p, nil
	}
	if runtime.GOOS == "linux" {
		// Debian's /usr/bin/chromium-headless-shell is a script that does
		// not exec the browser: its process would not be the browser's.
		if st, err := os.Stat(debianHeadlessShell); err == nil && !st.IsDir() {
			return debianHeadlessShell, nil
		}
	}
	for _, name := range headlessShellNames {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", nil
}

// frameInterval is the clock's period: 60 frames a second.
const frameInterval = time.Second / 60

// intervalMs is frameInterval as BeginFrame takes it.
var intervalMs = float64(frameInterval) / float64(time.Millisecond)

// frameClock asks for a tab's frames (see above). The zero value is off.
type frameClock struct {
	mu   *sync.Mutex // the browser's frameMu: held while a frame is produced
	sess session
	kick chan struct{} // asks for a frame now
	stop chan struct{} // closed to stop the clock; nil when not running
	// drawn is the time origin (its bits) of the document the last
	// screenshot came from: one whose frames have an image.
	drawn atomic.Uint64
	drop  *atomic.Bool  // tests: frames come without an image
	done  chan struct{} // closed when the clock's goroutine ended
	// stalled: the page stopped drawing (see shot); cleared by an image.
	stalled atomic.Bool
	starve  *atomic.Bool // tests: no frame reaches the page, as when stalled
}

// start starts asking for frames.
func (f *frameClock) start(mu *sync.Mutex, sess session, drop, starve *atomic.Bool) {
	f.mu, f.sess, f.drop, f.starve = mu, sess, drop, starve
	f.stop, f.done = make(chan struct{}), make(chan struct{})
	f.kick = make(chan struct{}, 1)
	go f.tick()
}

// halt stops asking for frames and waits for the one in flight.
func (f *frameClock) halt() {
	if f.stop == nil {
		return
	}
	close(f.stop)
	<-f.done
	f.stop = nil
}

// now asks for the next frame at once rather than at the next tick.
func (f *frameClock) now() {
	select {
	case f.kick <- struct{}{}:
	default:
	}
}

// frameTimeout bounds a frame. A frame given up on is still pending in the
// browser, where the next one, of any page, would overlap it: it is long.
const frameTimeout = 10 * time.Second

func (f *frameClock) tick() {
	defer close(f.done)
	t := time.NewTicker(frameInterval)
	defer t.Stop()
	for {
		select {
		case <-f.stop:
			return
		case <-f.sess.gone: // the page closed: no frame to ask for
			return
		case <-t.C:
		case <-f.kick:
		}
		f.mu.Lock()
		_, _ = f.frame(nil)
		f.mu.Unlock()
	}
}

// frame produces a frame, with a screenshot when params is set; f.mu must
// be held.
func (f *frameClock) frame(params *proto.HeadlessExperimentalScreenshotParams) (*proto.HeadlessExperimentalBeginFrameResult, error) {
	if f.starve.Load() {
		return &proto.HeadlessExperimentalBeginFrameResult{}, nil
	}
	// A page that closed (a popup's window.close()) never answers: its
	// frame ends with the page, or it would hold every other page's
	// frames (f.mu) for frameTimeout.
	ctx, cancel := f.sess.unlessGone(context.Background())
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, frameTimeout)
	defer cancelT()
	req := proto.HeadlessExperimentalBeginFrame{Interval: &intervalMs, Screenshot: params}
	var r proto.HeadlessExperimentalBeginFrameResult
	err := f.sess.w.call(ctx, string(f.sess.id), req.ProtoReq(), req, &r)
	return &r, err
}

// rafJS registers an animation-frame callback and returns a promise that it
// resolves with the document's time origin, which tells one document from
// the next. Should the page not render it (a document being replaced), the
// capture waits for the image instead.
const rafJS = `new Promise(done => requestAnimationFrame(() => done(performance.timeOrigin)))`

// errNoImage: the frames came without an image, and the page is still held
// (frozen is left open): the caller takes the screenshot another way.
var errNoImage = errors.New("the browser produced no image")

// errStalled: the page stopped drawing, so no screenshot can be taken.
// Now and then (about one page in a hundred under load here, Chromium 156's
// headless shell), a page that has just navigated never draws its new
// document: its animation frames never run, frames come without an image,
// and the browser's own capture waits forever. The page works otherwise
// (scripts, input, layout), so the run goes on without screenshots of it.
var errStalled = errors.New("the browser stopped drawing the page (a fault of the headless shell; run without --headless-shell to have screenshots)")

// noImageWait is how long a screenshot takes frames that come without an
// image (the first frames of a new document, before anything was drawn)
// before it checks that the page draws at all.
const noImageWait = 300 * time.Millisecond

// drawingJS answers whether the page runs an animation frame within 250 ms.
const drawingJS = `new Promise(done => { requestAnimationFrame(() => done(true)); setTimeout(() => done(false), 250); })`

// drawing reports whether the page draws: whether it runs an animation
// frame with the clock going; f.mu must not be held.
func (f *frameClock) drawing(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	var r proto.RuntimeEvaluateResult
	err := f.sess.w.call(ctx, string(f.sess.id), "Runtime.evaluate", proto.RuntimeEvaluate{Expression: drawingJS, AwaitPromise: true, ReturnByValue: true}, &r)
	// Should the page not answer at all, its run finds out by itself.
	return err != nil || r.Result == nil || r.Result.Value.Bool()
}

// shot takes a screenshot of the viewport (quality 0 for PNG) with a frame
// of its own. frozen, when not nil, is closed once the frame's content is
// fixed (see above), at the latest when shot returns. late postpones the
// frame (tests).
//
// A frame may come without an image (seen for whole runs now and then, with
// many pages at once): the first ones of a document, before
// anything was drawn. Taking another frame is then right only while the
// page is still held, so frozen is closed early only in a document whose
// frames have given an image already (drawn); otherwise when the image is
// there.
func (f *frameClock) shot(ctx context.Context, format proto.PageCaptureScreenshotFormat, quality int, frozen chan<- struct{}, late time.Duration) ([]byte, error) {
	var once sync.Once
	// state: 0 pending, 1 frozen early (before the image), 2 no early freeze
	// any more (a frame came without an image: the page stays held).
	var state atomic.Int32
	freeze := func() {
		if frozen != nil {
			once.Do(func() { close(frozen) })
		}
	}
	held := false // returning errNoImage with the page still held
	defer func() {
		if !held {
			freeze()
		}
	}()
	if f.stop == nil {
		return nil, errors.New("the page is not rendering")
	}
	params := &proto.HeadlessExperimentalScreenshotParams{Format: proto.HeadlessExperimentalScreenshotParamsFormat(format), OptimizeForSpeed: true}
	if quality > 0 {
		params.Quality = &quality
	}
	// No other frame may come between the callback's registration and
	// the screenshot's frame: the callback would run in that one.
	f.mu.Lock()
	defer func() {
		f.mu.Unlock()
		// A check waiting for the next animation frame gets it at once,
		// not at the next tick.
		f.now()
	}()
	// The callback is registered before the frame is asked for: the page
	// handles its requests in order, and the frame reaches it later, by way
	// of the compositor. Should it come first all the same, the callback
	// runs with the next frame, after the screenshot's: later, still right.
	// The answer leaves the page when the callback runs, ahead of the
	// image, which keeps the browser busy for a while.
	s := f.sess.with(ctx)
	var origin atomic.Value // the document's time origin, once the callback ran
	// Nothing waits for the content of a screenshot without frozen.
	if frozen != nil {
		if w, err := s.w.post(string(s.id), wireRequest{"Runtime.evaluate", proto.RuntimeEvaluate{Expression: rafJS, AwaitPromise: true, ReturnByValue: true}}); err == nil {
			go func() {
				defer s.w.forget(w)
				raw, err := s.w.answer(ctx, w)
				if err != nil {
					return
				}
				var a struct {
					Result struct {
						Result struct {
							Value float64 `json:"value"`
						} `json:"result"`
					} `json:"result"`
				}
				if json.Unmarshal(raw, &a) != nil {
					return
				}
				o := a.Result.Result.Value
				origin.Store(o)
				if f.drawn.Load() == math.Float64bits(o) && state.CompareAndSwap(0, 1) {
					freeze()
				}
			}()
		}
	}
	if late > 0 && !sleep(ctx, late) {
		return nil, ctx.Err()
	}
	for wait := time.Now().Add(noImageWait); ; {
		r, err := f.frame(params)
		switch {
		case err != nil:
			return nil, err
		case len(r.ScreenshotData) > 0 && !f.drop.Load():
			if o, ok := origin.Load().(float64); ok {
				f.drawn.Store(math.Float64bits(o))
			}
			f.stalled.Store(false)
			return r.ScreenshotData, nil
		case !state.CompareAndSwap(0, 2) && state.Load() == 1:
			// The page may have changed since: no image rather than a wrong one.
			return nil, errors.New("the browser produced no image")
		case f.stalled.Load():
			return nil, errStalled
		}
		// The page is held from here on (state 2): what it shows stays as
		// the step left it, whichever frame gives the image, so the clock
		// may go on meanwhile (an animation frame the page awaits).
		f.mu.Unlock()
		if time.Now().After(wait) {
			ok := f.drawing(ctx)
			f.mu.Lock()
			if !ok {
				f.stalled.Store(true)
				return nil, errStalled
			}
			// It draws, yet gives no image: the caller may take it the
			// browser's way.
			held = true
			return nil, errNoImage
		}
		ok := sleep(ctx, frameInterval)
		f.mu.Lock()
		if !ok {
			return nil, ctx.Err()
		}
	}
}
