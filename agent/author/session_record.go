package author

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// attachWindow is how soon after a recorded step a navigation the page
// asked for counts as caused by that step (a link, a form sent with
// Enter): it is then part of the step, not a step of its own.
const attachWindow = 2 * time.Second

// recorder turns a recording's reports into captured steps. Only the last
// few steps are kept, for merging fills and withdrawing the clicks of a
// double-click, so a long or busy recording does not grow the agent.
type recorder struct {
	s *session

	mu          sync.Mutex
	seq         int
	last        []capturedStep      // the most recent steps, oldest first, at most keepLast
	lastAt      time.Time           // when the last step was recorded
	requestedAt time.Time           // when the top frame last asked to navigate
	pending     *protocol.Captured  // the latest value of a fill, not sent yet
	early       []protocol.Step     // dialogs of the start page, before its navigate
	cur         *pageState          // the tab of the last step; nil for the first page
	visited     map[*pageState]bool // tabs a switchTab went to
	timer       *time.Timer         // sends pending

	sendMu sync.Mutex // keeps the pending fill's sends in order
}

// flushPending sends the fill update held back, if any.
func (r *recorder) flushPending() {
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	r.mu.Lock()
	c, s := r.pending, r.s
	r.pending = nil
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
	r.mu.Unlock()
	if c != nil {
		s.sink.Step(s.id, *c)
	}
}

const keepLast = 3

// fillDelay is how long the updates of a fill being typed are held: a
// field typed into quickly (or a flood of input events) sends its latest
// value a few times a second rather than once per keystroke.
const fillDelay = 150 * time.Millisecond

type capturedStep struct {
	seq    int
	step   protocol.Step
	handle int
	ctxID  proto.RuntimeExecutionContextID
	pg     *pageState // the tab it happened in; nil when none
}

// start records the first step: the start page.
func (r *recorder) start(s *session, url string) {
	r.mu.Lock()
	r.s = s
	early := r.early
	r.early = nil
	r.mu.Unlock()
	for _, st := range early {
		r.add(st, 0, 0)
	}
	r.add(protocol.Step{Type: "navigate", URL: url}, 0, 0)
}

// add sends a new step and keeps it for merging.
func (r *recorder) add(st protocol.Step, handle int, ctxID proto.RuntimeExecutionContextID) {
	r.addIn(nil, st, handle, ctxID)
}

// addIn adds a step that happened in the tab pg, after the switchTab step
// to it when the last step was in another tab.
func (r *recorder) addIn(pg *pageState, st protocol.Step, handle int, ctxID proto.RuntimeExecutionContextID) {
	r.flushPending()
	r.mu.Lock()
	if sw, ok := r.switchTo(pg); ok {
		r.mu.Unlock()
		r.add(sw, 0, 0)
		r.mu.Lock()
	}
	r.seq++
	st.ID = "s" + strconv.Itoa(r.seq)
	c := capturedStep{seq: r.seq, step: st, handle: handle, ctxID: ctxID, pg: pg}
	if pg != nil && pg.opener != nil && pg.isClosed() {
		// The tab closed before this step of it was recorded: the step
		// closed it (window.close()), and the recording goes on in its
		// opener, as a replay does (session_tabs.go).
		r.cur = pg.opener
	}
	r.last = append(r.last, c)
	if len(r.last) > keepLast {
		r.last = r.last[1:]
	}
	r.lastAt = time.Now()
	s := r.s
	r.mu.Unlock()
	s.sink.Step(s.id, protocol.Captured{Seq: c.seq, Step: st})
}

// action turns one reported action into a step: a fill of the field the
// last step filled replaces that step, a dblclick withdraws the two clicks
// before it.
func (r *recorder) action(ctx context.Context, pg *pageState, rep fullReport, ctxID proto.RuntimeExecutionContextID) {
	r.mu.Lock()
	if r.s == nil { // not started yet
		r.mu.Unlock()
		return
	}
	// A field typed into, or a select changed again (type-ahead changes it
	// once a key), right after its last step: that step, with the final value.
	if (rep.Type == "fill" || rep.Type == "select") && len(r.last) > 0 {
		l := &r.last[len(r.last)-1]
		if l.step.Type == rep.Type && l.handle == rep.Handle && l.ctxID == ctxID && l.pg == pg {
			l.step.Value = protocol.Ptr(rep.Value)
			r.lastAt = time.Now()
			r.pending = &protocol.Captured{Seq: l.seq, Step: l.step}
			if r.timer == nil {
				r.timer = time.AfterFunc(fillDelay, r.flushPending)
			}
			r.mu.Unlock()
			return
		}
	}
	r.mu.Unlock()
	r.flushPending()
	r.mu.Lock()
	var removed []int
	if rep.Type == "dblclick" {
		for i := len(r.last) - 1; i >= 0 && len(removed) < 2; i-- {
			l := r.last[i]
			if l.step.Type != "click" || l.step.Button != "" || l.handle != rep.Handle || l.ctxID != ctxID || l.pg != pg {
				break
			}
			removed = append(removed, l.seq)
			r.last = r.last[:i]
		}
	}
	s := r.s
	r.lastAt = time.Now()
	r.mu.Unlock()
	for _, seq := range removed {
		s.sink.Step(s.id, protocol.Captured{Seq: seq, Removed: true})
	}

	st := protocol.Step{Type: rep.Type}
	switch rep.Type {
	case "fill", "select":
		st.Value = protocol.Ptr(rep.Value)
	case "press":
		st.Key = rep.Key
	case "assertText", "assertValue":
		st.Expected = protocol.Ptr(rep.Expected)
	case "click", "dblclick":
		st.Button, st.Modifiers = rep.Button, rep.Modifiers
	case "dragTo":
		// The drop element first: the dragged one is resolved below.
		st.ToTarget = r.resolve(ctx, pg, fullReport{report: report{Type: rep.Type, Handle: rep.To, T: rep.T}, Fallback: rep.ToFallback}, ctxID)
		if st.ToTarget == nil {
			s.m.log.Debug("recorded drop element gone")
			return
		}
		stableDrop(st.ToTarget)
	case "upload":
		r.upload(ctx, pg, rep, ctxID)
		return
	case "hover", "check", "uncheck", "assertVisible":
	default:
		return
	}
	if rep.Handle != 0 {
		t := r.resolve(ctx, pg, rep, ctxID)
		if t == nil && rep.Type != "press" {
			return
		}
		st.Target = t
	}
	r.addIn(pg, st, rep.Handle, ctxID)
}

// resolve is the target of a reported element: verified in the live page,
// or the page's snapshot when it is gone or the reports are behind; nil
// when neither tells it.
func (r *recorder) resolve(ctx context.Context, pg *pageState, rep fullReport, ctxID proto.RuntimeExecutionContextID) *protocol.Target {
	var t *protocol.Target
	var err error
	if behind(rep.report) {
		// A backlog (a flood of events): the page's own snapshot, cheap,
		// lets it drain rather than grow.
		err = errors.New("behind")
	} else {
		snap := rep.Fallback
		if rep.Type == "fill" {
			// Taken after the first keystroke: the field's text then is
			// no truer than now (a contenteditable's). It serves only
			// when the field is gone (Enter submitted and navigated).
			snap = nil
		}
		t, err = pg.target(ctx, ctxID, rep.Handle, snap)
	}
	if err != nil {
		t = pg.snapshotTarget(ctx, ctxID, rep)
	}
	if t == nil {
		pg.m.log.Debug("recorded element gone", "type", rep.Type, "err", err)
	}
	return t
}

// backlog is how late a report may be handled and still get its target
// verified in the live page.
const backlog = 3 * time.Second

// behind reports whether rep waited longer than backlog to be handled.
func behind(rep report) bool {
	return rep.T > 0 && time.Since(time.UnixMilli(rep.T)) > backlog
}

// requested notes that the top frame asked to navigate (a link, a form, a
// script), as opposed to an address typed or back and forward.
func (r *recorder) requested() {
	r.mu.Lock()
	r.requestedAt = time.Now()
	r.mu.Unlock()
}

// navigated handles a navigation of the top frame: caused by the last
// step (it came, or the page asked for it, within attachWindow), it is
// part of it; otherwise (an address typed, back or forward in the
// browser, a redirect long after) it is a navigate step.
func (r *recorder) navigated(pg *pageState, url string) {
	r.mu.Lock()
	req := r.requestedAt
	r.requestedAt = time.Time{}
	// Soon after a step, or asked for by the page soon after it (a slow
	// server answers later): history.back() in a click handler asks for
	// nothing CDP reports, so time alone counts too.
	caused := !r.lastAt.IsZero() && (time.Since(r.lastAt) < attachWindow ||
		!req.IsZero() && req.Sub(r.lastAt) < attachWindow && !req.Before(r.lastAt.Add(-time.Second)))
	started := r.s != nil
	r.mu.Unlock()
	if !started || caused {
		return
	}
	r.addIn(pg, protocol.Step{Type: "navigate", URL: url}, 0, 0)
}

// target is a recorded element's step target: the locators that matched it
// alone in the live page, best first.
func (pg *pageState) target(ctx context.Context, ctxID proto.RuntimeExecutionContextID, handle int, snap *snapshot) (*protocol.Target, error) {
	obj, frames, err := pg.element(ctx, ctxID, handle)
	if err != nil {
		return nil, err
	}
	defer func() { _ = proto.RuntimeReleaseObject{ObjectID: obj}.Call(pg.page.Context(ctx)) }()
	picked, _, err := describeTarget(ctx, pg.page, obj, frames)
	if err != nil {
		pg.m.log.Debug("describeTarget", "err", err)
		picked, _ = pg.minimalTarget(ctx, obj, frames)
		if len(picked.Locators) == 0 {
			// The page is going (a click that navigated): the caller falls
			// back on the page's snapshot.
			return nil, errors.New("the element has no path: its page is unloading")
		}
	}
	if snap != nil {
		if !anyUnique(picked.Locators) {
			// Nothing tells it apart any more: the action removed it (a
			// row's Delete) or its page is going. The caller falls back on
			// the page's snapshot from when the action happened.
			return nil, errors.New("the element left the page")
		}
		picked = asItWas(picked, snap)
	}
	t := &protocol.Target{Frame: picked.Frame, Fingerprint: picked.Fingerprint}
	for _, l := range picked.Locators {
		if l.Matches == 1 && strings.TrimSpace(l.Value) != "" {
			t.Locators = append(t.Locators, l.Locator)
		}
	}
	if len(t.Locators) == 0 {
		css := pg.cssPath(ctx, obj)
		if css == "" {
			// The page is going (a click that navigated): the caller falls
			// back on the page's snapshot.
			return nil, errors.New("the element has no path: its page is unloading")
		}
		t.Locators = []protocol.Locator{{Kind: "css", Value: css}}
	}
	if len(t.Frame) == 0 {
		t.Frame = nil
	}
	return t, nil
}

// anyUnique reports whether one of ls matched its element alone.
func anyUnique(ls []protocol.RankedLocator) bool {
	for _, l := range ls {
		if l.Matches == 1 && strings.TrimSpace(l.Value) != "" {
			return true
		}
	}
	return false
}

// asItWas corrects a target described after the page handled the event
// (a button whose text a click changed: "Add" became "Added") with the
// candidates the page gave when the event happened, before its handlers
// ran: a replay meets the element as it was then. Text-based locators
// (text, role with a name) the page gave then and that no longer exist
// replace those made of the new text (xpaths may test text too); the
// fingerprint's text goes back too.
func asItWas(t protocol.PickedTarget, snap *snapshot) protocol.PickedTarget {
	key := func(l protocol.Locator) string { return l.Kind + "\x00" + l.Value + "\x00" + l.Name }
	textual := func(l protocol.Locator) bool {
		return l.Kind == "text" || l.Kind == "xpath" || (l.Kind == "role" && l.Name != "")
	}
	then := map[string]bool{}
	for _, c := range snap.Candidates {
		then[key(c.Locator)] = true
	}
	now := map[string]bool{}
	var out []protocol.RankedLocator
	for _, l := range t.Locators {
		now[key(l.Locator)] = true
		if !textual(l.Locator) || then[key(l.Locator)] || len(snap.Candidates) == 0 {
			out = append(out, l)
		}
	}
	// Unverified, they are added in their exact form only (fewer
	// elements match it), once each.
	added := map[string]int{}
	for _, c := range snap.Candidates {
		k := key(c.Locator)
		if !textual(c.Locator) || !c.Unique || now[k] || strings.TrimSpace(c.Value) == "" {
			continue
		}
		if i, ok := added[k]; ok {
			if c.Exact && !out[i].Exact {
				out[i] = protocol.RankedLocator{Locator: c.Locator, Score: out[i].Score, Matches: 1}
			}
			continue
		}
		added[k] = len(out)
		out = append(out, protocol.RankedLocator{Locator: c.Locator, Score: c.Score, Matches: 1})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score < out[j].Score })
	t.Locators = out
	if snap.Text != "" && t.Fingerprint != nil && t.Fingerprint["text"] != snap.Text {
		fp := maps.Clone(t.Fingerprint)
		if fp["name"] == fp["text"] {
			fp["name"] = snap.Text
		}
		fp["text"] = snap.Text
		t.Fingerprint = fp
	}
	return t
}

// snapshotTarget is the target of an element that is gone (a click that
// navigated): the locators the page gave when it happened, unverified.
func (pg *pageState) snapshotTarget(ctx context.Context, ctxID proto.RuntimeExecutionContextID, rep fullReport) *protocol.Target {
	if rep.Fallback == nil || rep.Fallback.CSS == "" {
		return nil
	}
	t := &protocol.Target{}
	// The candidates that told it apart then, best first; then its css
	// path (its order among its siblings: the last resort).
	cands := slices.Clone(rep.Fallback.Candidates)
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].Score < cands[j].Score })
	for _, c := range cands {
		// A link without text gives an empty one: not a locator.
		if c.Unique && strings.TrimSpace(c.Value) != "" && !slices.Contains(t.Locators, c.Locator) {
			t.Locators = append(t.Locators, c.Locator)
		}
	}
	if css := (protocol.Locator{Kind: "css", Value: rep.Fallback.CSS}); !slices.Contains(t.Locators, css) {
		t.Locators = append(t.Locators, css)
	}
	pg.mu.Lock()
	fid := pg.frameOf[ctxID]
	pg.mu.Unlock()
	if frames, err := pg.framePath(ctx, fid); err == nil && len(frames) > 0 {
		t.Frame = frames
	}
	return t
}
