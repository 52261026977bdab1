package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// Where a run may send the browser (protocol.CheckOpenURL; DESIGN.md, "The
// runner's computer belongs to the person who runs the test"). What we
// measured with Chromium 156, site isolation off as the runner runs it:
//
//   - Page.navigate opens file:, data:, view-source: and chrome: pages: a
//     navigation the runner starts is checked before it starts (navigate).
//   - A page cannot open file:, chrome:, view-source:, filesystem: or
//     top-level data: pages itself (location, links, forms, window.open,
//     iframes, meta refresh): Chromium refuses, logs "Not allowed to load
//     local resource: URL" or "Not allowed to navigate top frame to data
//     URL: URL" on the Log domain, and the page stays where it was; a
//     window.open or target=_blank link announces Page.windowOpen with the
//     URL first, and the new window stays blank. Redirects to file: or
//     data: end in net::ERR_UNSAFE_REDIRECT, without the target.
//   - Fetch interception sees requests for file: (not data:, chrome: or
//     javascript:), and a document's redirect at the response stage.
//
// So every tab of a run has Fetch interception for file: requests (failed,
// whoever asked) and for documents' responses (a redirect to an address a
// test may not open is failed), and the Log and Page.windowOpen events
// name what the page tried. Each is a refusal of the tab; the step running
// when one comes fails saying so (run.step). The wire hands these events
// to observe before rod's client sees them, so a refusal logged while a
// step's request ran is recorded before that request's answer returns.

// GuardPatterns are the Fetch interceptions of a guarded page: requests
// for file: and filesystem: addresses, and documents' responses (for their
// redirects). A paused request is answered as FetchRefusal says. The
// authoring browser's pages take them too.
func GuardPatterns() []*proto.FetchRequestPattern {
	pats := []*proto.FetchRequestPattern{
		{URLPattern: "file:*"},
		{URLPattern: "filesystem:*"},
		{URLPattern: "*", ResourceType: proto.NetworkResourceTypeDocument, RequestStage: proto.FetchRequestStageResponse},
	}
	// The DevTools endpoints of the agent's browsers (GuardDevTools): a
	// page sent there lists every page of the browser, other runs' too,
	// and GET /json/close/<id> closes one. Only their ports are paused, so
	// the application under test on localhost is not slowed.
	devtools.Range(func(k, _ any) bool {
		for _, host := range loopbackHosts {
			pats = append(pats, &proto.FetchRequestPattern{URLPattern: "*://" + host + ":" + strconv.Itoa(k.(int)) + "/*"})
		}
		return true
	})
	return pats
}

// loopbackHosts are the names of this computer a URL may give.
var loopbackHosts = []string{"127.0.0.1", "localhost", "[::1]", "0.0.0.0"}

// devToolsURL reports whether u is on the DevTools endpoint of one of the
// agent's browsers.
func devToolsURL(u string) bool {
	p, err := url.Parse(u)
	if err != nil {
		return false
	}
	port, err := strconv.Atoi(p.Port())
	if err != nil {
		return false
	}
	host := strings.ToLower(p.Hostname())
	ip := net.ParseIP(host)
	if host != "localhost" && (ip == nil || !(ip.IsLoopback() || ip.IsUnspecified())) {
		return false
	}
	_, own := devtools.Load(port)
	return own
}

// guardRequests turn the guard on in a new tab's session.
func guardRequests() []setupRequest {
	return []setupRequest{proto.LogEnable{}, proto.FetchEnable{Patterns: GuardPatterns()}}
}

// refusals holds what a tab's page tried to open and was refused, for the
// step running then.
type refusals struct {
	mu    sync.Mutex // guards first
	first string     // the first refusal not yet reported
}

func (f *refusals) add(msg string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.first == "" {
		f.first = msg
	}
}

// take returns the refusal not yet reported, if any, and forgets it.
func (f *refusals) take() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	msg := f.first
	f.first = ""
	return msg
}

// refused words a refusal: "<what> <u> refused: <why>".
func refused(what, u, why string) string {
	return fmt.Sprintf("%s %s refused: %s", what, clipURL(u), why)
}

// clipURL keeps a refused address readable in a message (a data: URL can
// hold a whole page).
func clipURL(u string) string {
	if len(u) <= 200 {
		return u
	}
	n := 200
	for n > 0 && u[n]&0xC0 == 0x80 {
		n--
	}
	return u[:n] + "…"
}

// Methods of the events observe reads.
var (
	fetchPaused = []byte(`{"method":"Fetch.requestPaused"`)
	logEntry    = []byte(`{"method":"Log.entryAdded"`)
	windowOpen  = []byte(`{"method":"Page.windowOpen"`)
)

// observe reads an event before rod's client does: it answers the guard's
// paused requests and records refusals on their tab. It runs on the
// connection's reader, so it never waits for the browser.
func (b *Browser) observe(data []byte) {
	b.traceEvent(data)
	if !bytes.HasPrefix(data, fetchPaused) && !bytes.HasPrefix(data, logEntry) && !bytes.HasPrefix(data, windowOpen) {
		return
	}
	var e struct {
		Method    string `json:"method"`
		SessionID string `json:"sessionId"`
		Params    struct {
			RequestID          string `json:"requestId"`
			URL                string `json:"url"` // Page.windowOpen
			Request            struct{ URL string }
			ResponseStatusCode int                       `json:"responseStatusCode"`
			ResponseHeaders    []*proto.FetchHeaderEntry `json:"responseHeaders"`
			Entry              struct{ Source, Text string }
		} `json:"params"`
	}
	if json.Unmarshal(data, &e) != nil {
		return
	}
	var msg string
	switch e.Method {
	case "Fetch.requestPaused":
		msg = b.decide(e.SessionID, e.Params.RequestID, e.Params.Request.URL, e.Params.ResponseStatusCode, e.Params.ResponseHeaders)
	case "Log.entryAdded":
		msg = LogRefusal(e.Params.Entry.Source, e.Params.Entry.Text)
	case "Page.windowOpen":
		// A blob: window shows what the page itself made (a PDF it built,
		// say), as a data: frame does; Chromium opens both.
		if s := protocol.RefusedScheme(e.Params.URL); s != "" && s != "blob" {
			msg = refused("opening a window at", e.Params.URL, protocol.OpenRule)
		}
	}
	if msg == "" {
		return
	}
	if t, ok := b.tabs.Load(e.SessionID); ok {
		t.(*tab).refusals.add(msg)
	}
}

// decide answers a paused request as FetchRefusal says and returns the
// refusal, if any.
func (b *Browser) decide(sessionID, id, u string, status int, headers []*proto.FetchHeaderEntry) string {
	msg := FetchRefusal(u, status, headers)
	req := wireRequest{Method: "Fetch.continueRequest", Params: proto.FetchContinueRequest{RequestID: proto.FetchRequestID(id)}}
	if msg != "" {
		req = wireRequest{Method: "Fetch.failRequest", Params: proto.FetchFailRequest{RequestID: proto.FetchRequestID(id),
			ErrorReason: proto.NetworkErrorReasonBlockedByClient}}
	}
	// The answer to it is not awaited: this runs on the connection's reader.
	if p, err := b.root.w.post(sessionID, req); err == nil {
		b.root.w.forget(p)
	}
	return msg
}

// FetchRefusal says why a request paused by GuardPatterns must fail, or
// "" when it may go on: a request for an address a test may not open, or
// a document redirected (status 3xx) to one. status is 0 at the request
// stage.
func FetchRefusal(u string, status int, headers []*proto.FetchHeaderEntry) string {
	switch {
	case status == 0 && protocol.RefusedScheme(u) != "":
		return refused("opening", u, protocol.OpenRule)
	case status == 0 && devToolsURL(u):
		return refused("opening", u, "it is the DevTools address of the agent's browser, which no test may open")
	case status >= 300 && status < 400:
		if to := redirectTarget(u, headers); to != "" && protocol.RefusedScheme(to) != "" {
			return refused("the redirect from "+clipURL(u)+" to", to, protocol.OpenRule)
		}
	}
	return ""
}

// redirectTarget is where a redirect response sends the browser.
func redirectTarget(from string, headers []*proto.FetchHeaderEntry) string {
	for _, h := range headers {
		if h == nil {
			continue
		}
		if !strings.EqualFold(h.Name, "Location") {
			continue
		}
		base, err := url.Parse(from)
		if err != nil {
			return h.Value
		}
		to, err := base.Parse(strings.TrimSpace(h.Value))
		if err != nil {
			return h.Value
		}
		return to.String()
	}
	return ""
}

// LogRefusal reads a Log entry in which Chromium says it refused to open
// an address a page asked for; it returns the refusal, or "".
func LogRefusal(source, text string) string {
	if source != "security" {
		return ""
	}
	u, ok := strings.CutPrefix(text, "Not allowed to load local resource: ")
	if !ok {
		rest, top := strings.CutPrefix(text, "Not allowed to navigate top frame to ")
		if _, u, ok = strings.Cut(rest, " URL: "); !top || !ok {
			return ""
		}
	}
	if protocol.RefusedScheme(u) == "" {
		return ""
	}
	return refused("opening", u, protocol.OpenRule)
}

// mayNavigate lists the step types whose actions commonly make the page
// open something; after them the run waits until the page's earlier
// events are in (see refusal). After other steps a refusal logged late is
// still reported, by the step that follows.
var mayNavigate = map[string]bool{"click": true, "dblclick": true, "press": true, "select": true,
	"check": true, "uncheck": true, "script": true}

// refusal returns what the page tried to open and was refused while step
// st ran, if anything. After an action that may have made the page open
// something, it first makes a round trip to the page: the page's log
// comes on the same channel as its answers, so what it logged while
// handling the action is in when the answer is.
func (r *run) refusal(ctx context.Context, st protocol.Step) string {
	if mayNavigate[st.Type] && ctx.Err() == nil {
		bctx, cancel := context.WithTimeout(ctx, time.Second)
		_, _ = evalValue(bctx, r.tab.sess, "0")
		cancel()
	}
	return r.tab.refusals.take()
}
