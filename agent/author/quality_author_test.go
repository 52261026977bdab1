package author

import (
	"context"
	"fmt"
	"net"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/protocol"
)

// qNewManager starts the real authoring side, a Manager as the agent
// makes it, with its browser's debugging port on 127.0.0.1:port.
var qNewManager = func(t testing.TB, port int) client.Author {
	m := New(Options{BrowserPath: os.Getenv("TA_BROWSER"), DebugPort: port})
	t.Cleanup(m.Close)
	return m
}

// newQAuthor is the real recorder and picker driven through its debugging
// port, or nil.
func newQAuthor(t testing.TB) qAuthor {
	if qNewManager == nil {
		return nil
	}
	port := qFreePort(t)
	m := qNewManager(t, port)
	t.Cleanup(m.CloseAll)
	return &managerAuthor{m: m, port: port}
}

func qFreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// qSink collects what a session reports, as the hub keeps it: steps by
// Seq (a Seq sent again replaces its step, Removed withdraws it),
// statuses, picks.
type qSink struct {
	mu       sync.Mutex
	steps    map[int]protocol.Step
	statuses []string
	errText  string
	picks    []protocol.Picked
	changed  chan struct{}
}

func newQSink() *qSink {
	return &qSink{steps: map[int]protocol.Step{}, changed: make(chan struct{}, 1)}
}

func (s *qSink) poke() {
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

func (s *qSink) Status(_, status, _, errText string) {
	s.mu.Lock()
	s.statuses = append(s.statuses, status)
	if errText != "" {
		s.errText = errText
	}
	s.mu.Unlock()
	s.poke()
}

func (s *qSink) Step(_ string, c protocol.Captured) {
	s.mu.Lock()
	if c.Removed {
		delete(s.steps, c.Seq)
	} else {
		s.steps[c.Seq] = c.Step
	}
	s.mu.Unlock()
	s.poke()
}

func (s *qSink) Picked(_ string, p protocol.Picked) {
	s.mu.Lock()
	s.picks = append(s.picks, p)
	s.mu.Unlock()
	s.poke()
}

// wait waits until cond (under the lock) holds.
func (s *qSink) wait(ctx context.Context, what string, cond func() bool) error {
	for {
		s.mu.Lock()
		ok, st, why := cond(), s.statuses, s.errText
		s.mu.Unlock()
		if ok {
			return nil
		}
		if len(st) > 0 && st[len(st)-1] == protocol.SessionError {
			return fmt.Errorf("the session failed: %s", why)
		}
		select {
		case <-s.changed:
		case <-time.After(50 * time.Millisecond):
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w (statuses %v)", what, ctx.Err(), st)
		}
	}
}

func (s *qSink) has(status string) func() bool {
	return func() bool {
		for _, x := range s.statuses {
			if x == status {
				return true
			}
		}
		return false
	}
}

// ordered is the steps by Seq.
func (s *qSink) ordered() []protocol.Step {
	s.mu.Lock()
	defer s.mu.Unlock()
	seqs := make([]int, 0, len(s.steps))
	for k := range s.steps {
		seqs = append(seqs, k)
	}
	sort.Ints(seqs)
	out := make([]protocol.Step, 0, len(seqs))
	for _, k := range seqs {
		out = append(out, s.steps[k])
	}
	return out
}

// managerAuthor drives a Manager as the hub does, and its pages through
// the debugging port as a person would.
type managerAuthor struct {
	m    client.Author
	port int
	n    int
	b    *rod.Browser // connected to the debugging port once, never closed here: Browser.close would end the Manager's browser
}

func (a *managerAuthor) session(kind string) string {
	a.n++
	return fmt.Sprintf("%s_quality%d", kind, a.n)
}

// page finds the session's page (the newest page at url) in the
// authoring browser through its debugging port.
func (a *managerAuthor) page(ctx context.Context, url string) (*rod.Page, error) {
	if a.b == nil {
		u, err := launcher.ResolveURL(fmt.Sprintf("127.0.0.1:%d", a.port))
		if err != nil {
			return nil, fmt.Errorf("the debugging port: %w", err)
		}
		b := rod.New().ControlURL(u)
		if err := b.Connect(); err != nil {
			return nil, fmt.Errorf("the debugging port: %w", err)
		}
		a.b = b
	}
	b := a.b.Context(ctx)
	path := strings.SplitN(strings.TrimPrefix(url, "http://"), "?", 2)[0]
	path = path[strings.Index(path, "/"):]
	for ctx.Err() == nil {
		ts, err := proto.TargetGetTargets{}.Call(b)
		if err == nil {
			for i := len(ts.TargetInfos) - 1; i >= 0; i-- {
				ti := ts.TargetInfos[i]
				if ti.Type == proto.TargetTargetInfoTypePage && strings.Contains(ti.URL, path) {
					p, err := b.PageFromTarget(ti.TargetID)
					if err == nil {
						return p, nil
					}
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, fmt.Errorf("no page at %s in the authoring browser", path)
}

func (a *managerAuthor) Toolbar() bool { return true }

func (a *managerAuthor) Record(ctx context.Context, url string, play func(*rod.Page) error) ([]protocol.Step, error) {
	id, sink := a.session("rec"), newQSink()
	if err := a.m.Start(ctx, id, protocol.AuthorStart{Kind: protocol.AuthorRecord, URL: url}, sink); err != nil {
		return nil, err
	}
	stopped := false
	defer func() {
		if !stopped {
			_ = a.m.Stop(id)
		}
	}()
	if err := sink.wait(ctx, "recording", sink.has(protocol.SessionRecording)); err != nil {
		return nil, err
	}
	page, err := a.page(ctx, url)
	if err != nil {
		return nil, err
	}
	if err := play(page); err != nil {
		return nil, fmt.Errorf("playing the session: %w", err)
	}
	stopped = true
	if err := a.m.Stop(id); err != nil {
		return nil, err
	}
	if err := sink.wait(ctx, "stopped", sink.has(protocol.SessionStopped)); err != nil {
		return nil, err
	}
	return sink.ordered(), nil
}

func (a *managerAuthor) Pick(ctx context.Context, url string, ws []qWhere) ([]qPicked, error) {
	id, sink := a.session("pck"), newQSink()
	if err := a.m.Start(ctx, id, protocol.AuthorStart{Kind: protocol.AuthorPick, URL: url, Mode: protocol.ModePick}, sink); err != nil {
		return nil, err
	}
	defer a.m.Stop(id) //nolint:errcheck
	if err := sink.wait(ctx, "ready", sink.has(protocol.SessionReady)); err != nil {
		return nil, err
	}
	page, err := a.page(ctx, url)
	if err != nil {
		return nil, err
	}
	var out []qPicked
	for _, w := range ws {
		if err := a.m.Mode(id, protocol.ModePick); err != nil {
			return out, err
		}
		el, err := qElement(ctx, page, w)
		if err != nil {
			out = append(out, qPicked{Err: err})
			continue
		}
		tags, err := el.Eval(qTagsJS)
		if err != nil {
			out = append(out, qPicked{Err: err})
			continue
		}
		tag, control := tags.Value.Get("tag").Str(), tags.Value.Get("control").Str()
		sink.mu.Lock()
		i := len(sink.picks)
		sink.mu.Unlock()
		if err := el.Click(proto.InputMouseButtonLeft, 1); err != nil {
			out = append(out, qPicked{Err: err})
			continue
		}
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err = sink.wait(pctx, "the pick", func() bool { return len(sink.picks) > i })
		cancel()
		if err != nil {
			out = append(out, qPicked{Tag: tag, Control: control, Err: err})
			continue
		}
		sink.mu.Lock()
		p := sink.picks[i]
		sink.mu.Unlock()
		out = append(out, qPicked{Picked: p, Tag: tag, Control: control})
	}
	return out, nil
}

// qTagsJS gives an element's tag and that of the control or link it is
// part of.
const qTagsJS = `() => {
	const c = this.closest('a[href],button,input,select,textarea,label,summary,[role=button],[role=link],[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=option]') || this;
	return {tag: this.tagName.toLowerCase(), control: c.tagName.toLowerCase()};
}`
