package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/testautomation/ta/protocol"
)

// A request step is an HTTP call the agent makes for the test (set up data
// through an API, check it), with the cookies of the run's browser
// context: what the page's session has, the call has, and cookies the
// answer sets go back into the browser. It is made by a Go client rather
// than the page's fetch(), which CORS would bind to the page's origin.
//
// The agent's computer belongs to whoever runs the test (DESIGN.md), so
// the call gets nothing of the agent's: no hub token, no proxy settings
// from its environment (the browser uses none either), no cookies but the
// run's own incognito context's. Only http and https addresses, redirects
// included, as navigate; local and private addresses are allowed, since
// the application under test is often on localhost.

const (
	// maxAnswer bounds the answer's body the step reads (after
	// decompression); a larger answer fails the step.
	maxAnswer = 10 << 20
	// maxRedirects is how many redirects the step follows.
	maxRedirects = 10
	// answerExcerpt is how much of the answer's body the step reports.
	answerExcerpt = 500
)

var requestMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}

func request(s *stepRun, ctx context.Context, st protocol.Step) error {
	method := strings.ToUpper(st.Method)
	if method == "" {
		method = "GET"
	}
	if !slices.Contains(requestMethods, method) {
		return permanent("unknown method %q: use %s", st.Method, strings.Join(requestMethods, ", "))
	}
	if st.Assign != "" && !identRe.MatchString(st.Assign) {
		return permanent("invalid variable name %q in assign", st.Assign)
	}
	if strings.TrimSpace(st.URL) == "" {
		return permanent("the request step has no url")
	}
	if protocol.RefusedScheme(st.URL) != "" {
		return permanent("%s", refused("request to", st.URL, requestRule))
	}
	target, err := s.r.absolute(st.URL)
	if err != nil {
		return err
	}
	if why := checkRequestURL(target); why != "" {
		return permanent("%s", refused("request to", target, why))
	}
	s.use("method", method)
	s.use("url", target)

	var body io.Reader
	if st.Body != nil {
		body = strings.NewReader(*st.Body)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return permanent("the request to %s cannot be made: %v", target, err)
	}
	names := make([]string, 0, len(st.Headers))
	for k := range st.Headers {
		names = append(names, k)
	}
	slices.Sort(names)
	var sent []string
	for _, k := range names {
		if strings.EqualFold(k, "Host") {
			req.Host = st.Headers[k]
		} else {
			req.Header.Set(k, st.Headers[k])
		}
		sent = append(sent, k+": "+shownHeader(k, st.Headers[k]))
	}
	if len(sent) > 0 {
		s.use("headers", strings.Join(sent, "\n"))
	}
	if st.Body != nil && req.Header.Get("Content-Type") == "" && json.Valid([]byte(*st.Body)) {
		req.Header.Set("Content-Type", "application/json") // what an API step's body nearly always is
	}

	client := s.r.httpClient(ctx, len(st.Headers) > 0 || st.Body != nil)
	defer client.CloseIdleConnections()
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("timed out after %s waiting for the answer of %s %s", s.timeout, method, target)
		}
		var no *refusal
		if errors.As(err, &no) {
			return permanent("%s", no.Error())
		}
		return permanent("%s %s failed: %v", method, target, plainURLError(err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("timed out after %s reading the answer of %s %s", s.timeout, method, target)
		}
		return permanent("reading the answer of %s %s: %v", method, target, err)
	}
	if len(data) > maxAnswer {
		return permanent("the answer of %s %s is larger than %d MiB, the most a request step reads", method, target, maxAnswer>>20)
	}
	status := resp.Status
	if status == "" {
		status = strconv.Itoa(resp.StatusCode)
	}
	s.use("status", status)
	if len(data) > 0 {
		// Masked before it is cut: a secret the cut would halve is masked whole.
		s.use("answer", clip(s.r.mask.String(strings.ToValidUTF8(string(data), "\uFFFD")), answerExcerpt))
	}
	if st.Assign != "" {
		v, err := answerJSON(resp, data)
		if err != nil {
			return permanent("storing the answer in %s: %v", st.Assign, err)
		}
		s.r.setVar(st.Assign, v, true)
	}
	if st.ExpectStatus != 0 && resp.StatusCode != st.ExpectStatus {
		return permanent("expected the answer of %s %s to have status %d, but it has %s", method, target, st.ExpectStatus, status)
	}
	return nil
}

// requestRule says what a request step may call.
const requestRule = "a request step may only call http: and https: addresses"

// checkRequestURL says why a request may not go to u, or "".
func checkRequestURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "it is not a valid address"
	}
	if s := strings.ToLower(p.Scheme); (s != "http" && s != "https") || p.Host == "" {
		return requestRule
	}
	if p.User != nil {
		// Credentials in the address would be sent as Basic auth and shown
		// in the step's url: write an Authorization header with a secret.
		return "user names and passwords in the address are not sent; use an Authorization header with ${secrets.NAME}"
	}
	return ""
}

// refusal is a redirect the request step does not follow, or an address
// it does not connect to.
type refusal struct{ msg string }

func (e *refusal) Error() string { return e.msg }

// devtools holds the ports of the DevTools endpoints of the agent's own
// browsers on this computer (GuardDevTools), each with the number of live
// browsers listening there. Through them a request could list and close
// every page of the browser, other runs' too, and a WebSocket there drives
// the browser: a request step never connects to one. The check is made on
// the address connected to, so neither a host name resolving to 127.0.0.1
// nor a redirect gets past it. A port leaves the map when its browser has
// exited: the system hands a freed port to the next listener, which may be
// the application under test.
var (
	devtoolsMu sync.Mutex // guards devtools' counts
	devtools   sync.Map   // port (int) -> count (int), read without devtoolsMu
)

// GuardDevTools keeps request steps and pages away from the DevTools
// endpoint at controlURL (ws://127.0.0.1:PORT/devtools/browser/...): every
// browser the agent launches registers its own, and calls the release it
// gets once the browser process has exited.
func GuardDevTools(controlURL string) (release func()) {
	u, err := url.Parse(controlURL)
	if err != nil {
		return func() {}
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil || port <= 0 {
		return func() {}
	}
	devtoolsMu.Lock()
	n, _ := devtools.Load(port)
	c, _ := n.(int)
	devtools.Store(port, c+1)
	devtoolsMu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			devtoolsMu.Lock()
			defer devtoolsMu.Unlock()
			n, _ := devtools.Load(port)
			if c, _ := n.(int); c > 1 {
				devtools.Store(port, c-1)
			} else {
				devtools.Delete(port)
			}
		})
	}
}

// dialGuarded connects as the request step's transport does, refusing the
// agent's browsers' DevTools endpoints on this computer.
func dialGuarded(ctx context.Context, network, addr string) (net.Conn, error) {
	d := &net.Dialer{Timeout: 30 * time.Second, Control: refuseMetadata}
	conn, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	a, ok := conn.RemoteAddr().(*net.TCPAddr)
	if !ok {
		return conn, nil
	}
	if a.IP.IsLoopback() || a.IP.IsUnspecified() {
		if _, own := devtools.Load(a.Port); own {
			conn.Close()
			return nil, &refusal{fmt.Sprintf("connecting to %s refused: it is the DevTools address of the agent's browser, which no test may call", addr)}
		}
	}
	return conn, nil
}

// refuseMetadata runs after the address is resolved and before it is
// connected to, so a host name resolving to 169.254.169.254 is refused as
// the address itself is, and an address that answers nothing does not
// hold the step until the dial times out.
func refuseMetadata(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip != nil && metadataAddress(ip) {
		return &refusal{fmt.Sprintf("connecting to %s refused: link-local addresses (cloud metadata services, 169.254.169.254) hold the credentials of the computer the agent runs on, which no test may call", address)}
	}
	return nil
}

// metadataAddress reports whether ip is link-local (169.254.0.0/16,
// fe80::/10: where cloud metadata services answer with the machine's
// credentials) or one of the metadata addresses outside those ranges
// (AWS's IPv6 fd00:ec2::254, Alibaba's 100.100.100.200). Loopback and
// private networks stay reachable: applications under test live there,
// and a test's page reaches them anyway (docs/steps.md).
func metadataAddress(ip net.IP) bool {
	return ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.Equal(net.ParseIP("fd00:ec2::254")) || ip.Equal(net.ParseIP("100.100.100.200"))
}

// secretHeader matches the names of headers whose values are credentials,
// shown as *** in what the step reports even when no secret made them (a
// token a script or an earlier answer gave).
var secretHeader = regexp.MustCompile(`(?i)^(authorization|proxy-authorization|cookie)$|token|secret|password|passwd|signature|api[-_]?key|session`)

// shownHeader is a request header's value as the step reports it.
func shownHeader(name, value string) string {
	if secretHeader.MatchString(name) {
		return "***"
	}
	return value
}

// httpClient is the client of a request step: direct (no proxy from the
// agent's environment), the browser context's cookies, redirects to http
// and https only, never from https down to http, and, when the test gave
// headers or a body (an API key, a password), never to another origin:
// Go's client would send them there.
func (r *run) httpClient(ctx context.Context, given bool) *http.Client {
	tr := &http.Transport{
		Proxy:                  nil,
		DialContext:            dialGuarded,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    10 * time.Second,
		MaxResponseHeaderBytes: 1 << 20,
	}
	return &http.Client{
		Transport: tr,
		Jar:       &contextJar{ctx: ctx, r: r},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= maxRedirects {
				return &refusal{fmt.Sprintf("%s %s was redirected more than %d times", via[0].Method, via[0].URL, maxRedirects)}
			}
			if why := checkRequestURL(req.URL.String()); why != "" {
				return &refusal{refused("the redirect of "+via[0].URL.String()+" to", req.URL.String(), why)}
			}
			prev := via[len(via)-1].URL
			switch {
			case prev.Scheme == "https" && req.URL.Scheme == "http":
				return &refusal{refused("the redirect of "+via[0].URL.String()+" to", req.URL.String(),
					"a request step does not follow a redirect from https: to http:, which would send its headers and body unencrypted")}
			case given && !sameOrigin(via[0].URL, req.URL):
				return &refusal{refused("the redirect of "+via[0].URL.String()+" to", req.URL.String(),
					"a request step with headers or a body follows redirects only within its origin, so they never reach another server; call the new address itself")}
			}
			return nil
		},
	}
}

// sameOrigin compares scheme, host and port (the default port spelled or not).
func sameOrigin(a, b *url.URL) bool {
	port := func(u *url.URL) string {
		if p := u.Port(); p != "" {
			return p
		}
		if strings.EqualFold(u.Scheme, "https") {
			return "443"
		}
		return "80"
	}
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

// plainURLError drops the method and address *url.Error repeats.
func plainURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// answerJSON is what assign stores: {status, headers, body} as JSON text,
// the body parsed when the answer says it is JSON, else its text. A
// header sent several times reads as its values joined by ", ".
func answerJSON(resp *http.Response, data []byte) (string, error) {
	headers := map[string]string{}
	for k, vs := range resp.Header {
		headers[strings.ToLower(k)] = strings.Join(vs, ", ")
	}
	var body any = strings.ToValidUTF8(string(data), "\uFFFD")
	if isJSON(resp.Header.Get("Content-Type")) && json.Valid(data) {
		body = json.RawMessage(data)
	}
	b, err := json.Marshal(map[string]any{"status": resp.StatusCode, "headers": headers, "body": body})
	return string(b), err
}

// isJSON reports a JSON media type: application/json, or any +json.
func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}
