package runner

import (
	"context"
	_ "embed"
	"encoding/json"
	"html"
	"strconv"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
	"github.com/ysmood/gson"
)

// A step's DOM snapshot (docs/trace.md "Snapshots") is serialized in the
// page by trace_snapshot.js. Its request is posted when the step ends and
// its answer read by the trace's sender: the browser handles a session's
// requests in order, so the page is serialized as the step left it, before
// the next step acts, and the run waits for no round trip.

//go:embed trace_snapshot.js
var snapshotSource string

// snapshotJS is the serializer without its comments and indentation: it
// goes to the page after every step.
var snapshotJS = compactJS(snapshotSource)

// compactJS drops the lines that are comments and every line's indentation.
func compactJS(src string) string {
	var b strings.Builder
	for _, l := range strings.Split(src, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "//") {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// The serializer called on the step's target element (this), or with none.
var (
	snapshotOn = "function (loc, max) { return (" + snapshotJS + ")(this, loc, max, " + queryJS + "); }"
)

// snapshotExpr is the serializer called without a target element.
func snapshotExpr(loc []byte) string {
	return "(" + snapshotJS + ")(null, " + string(loc) + ", " + strconv.Itoa(protocol.MaxSnapshot) + ", " + queryJS + ")"
}

// snapshotWait bounds the wait for a snapshot's answer.
const snapshotWait = 10 * time.Second

// snapshotCall is a snapshot's request on its way.
type snapshotCall struct {
	ctx  context.Context // the run's
	sess session         // the page's
	p    postedRequest
	err  error
	// plain is the request by the serializer's source without the target
	// element, sent should a handle be gone (the step navigated).
	plain *wireRequest
	// When world is not "", install installs the serializer there, and
	// its answer goes to tr (trace_install.go).
	tr      *tracer
	world   string
	install postedRequest
}

// snapshotLoc is the locator whose matches the snapshot marks: the first,
// when no locator found the step's element (it may match several; the one
// that found it matches it alone).
type snapshotLoc struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
	Exact bool   `json:"exact"`
}

// postSnapshot sends the request for the DOM after step s: by the
// serializer installed in the page's main world when it is there
// (trace_install.go), else by its source, installing it when the world
// is known. A target in a frame lives in another world: by the source.
func (r *run) postSnapshot(ctx context.Context, s *stepRun) *snapshotCall {
	var loc *snapshotLoc
	t := s.target
	if t != nil && s.last.obj == "" && len(t.Locators) > 0 && len(t.Frame) == 0 && t.Locators[0].Kind != "role" {
		l := t.Locators[0]
		loc = &snapshotLoc{l.Kind, l.Value, l.Exact}
	}
	locJSON, _ := json.Marshal(loc)
	plain := wireRequest{"Runtime.evaluate", proto.RuntimeEvaluate{
		Expression: snapshotExpr(locJSON), ReturnByValue: true}}
	c := &snapshotCall{ctx: ctx, sess: r.tab.sess, tr: r.trace}
	var fn proto.RuntimeRemoteObjectID
	if t == nil || len(t.Frame) == 0 {
		fn, c.world = r.trace.snapshotVia(string(c.sess.id))
	}
	req := plain
	switch obj := s.last.obj; {
	case fn != "":
		req, c.plain = installedRequest(fn, obj, loc, protocol.MaxSnapshot), &plain
	case obj != "":
		req = wireRequest{"Runtime.callFunctionOn", proto.RuntimeCallFunctionOn{ObjectID: obj, FunctionDeclaration: snapshotOn,
			ReturnByValue: true, Arguments: []*proto.RuntimeCallArgument{{Value: gson.New(loc)}, {Value: gson.New(protocol.MaxSnapshot)}}}}
		c.plain = &plain
	}
	c.p, c.err = c.sess.w.post(string(c.sess.id), req)
	if c.err == nil && c.world != "" {
		var err error
		if c.install, err = c.sess.w.post(string(c.sess.id), installRequest(c.world)); err != nil {
			c.world = ""
		}
	}
	return c
}

// snapshotHTML waits for the snapshot's answer and returns the HTML,
// masked; "" when there is none.
func (r *run) snapshotHTML(c *snapshotCall) string {
	if c == nil || c.err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(c.ctx, snapshotWait)
	defer cancel()
	ctx, stop := c.sess.unlessGone(ctx)
	defer stop()
	w := c.sess.w
	if c.world != "" {
		defer func() { // answered after the snapshot: the page handles them in order
			if raw, err := w.answer(ctx, c.install); err == nil {
				c.tr.installed(string(c.sess.id), c.world, raw)
			}
			w.forget(c.install)
		}()
	}
	raw, err := w.answer(ctx, c.p)
	w.forget(c.p)
	if err != nil && c.plain != nil && ctx.Err() == nil {
		var p postedRequest
		if p, err = w.post(string(c.sess.id), *c.plain); err == nil {
			raw, err = w.answer(ctx, p)
			w.forget(p)
		}
	}
	if err != nil {
		if ctx.Err() == nil {
			r.b.log.Debug("a trace's snapshot", "err", err)
		}
		return ""
	}
	var a struct {
		Result struct {
			Result struct {
				Value struct {
					HTML   string   `json:"html"`
					Frames []string `json:"frames"`
				} `json:"value"`
			} `json:"result"`
		} `json:"result"`
	}
	if json.Unmarshal(raw, &a) != nil {
		return ""
	}
	v := a.Result.Result.Value
	return snapshotDocument(r.mask, v.HTML, v.Frames)
}

// snapshotDocument masks the page's HTML and each frame's before escaping
// the frame into its iframe's srcdoc (an escaped secret would escape the
// mask), and bounds the whole by protocol.MaxSnapshot.
func snapshotDocument(m *masker, page string, frames []string) string {
	used := map[int]bool{}
	var resolve func(s string) string
	resolve = func(s string) string {
		s = m.String(s)
		var b strings.Builder
		for {
			i := strings.Index(s, "\x00F")
			if i < 0 {
				b.WriteString(s)
				return b.String()
			}
			j := strings.IndexByte(s[i+2:], 0)
			if j < 0 {
				b.WriteString(s)
				return b.String()
			}
			b.WriteString(s[:i])
			// Each frame once: the page cannot make a marker of its own
			// (the serializer replaces NULs), but a loop stays impossible.
			if n, err := strconv.Atoi(s[i+2 : i+2+j]); err == nil && n >= 0 && n < len(frames) && !used[n] {
				used[n] = true
				b.WriteString(html.EscapeString(resolve(frames[n])))
			}
			s = s[i+3+j:]
		}
	}
	out := resolve(page)
	if len(out) > protocol.MaxSnapshot {
		const note = "\n<!-- the snapshot was cut here: larger than 4 MiB -->"
		n := protocol.MaxSnapshot - len(note)
		for n > 0 && out[n]&0xC0 == 0x80 {
			n--
		}
		out = out[:n] + note
	}
	return out
}
