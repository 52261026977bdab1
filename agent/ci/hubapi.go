package ci

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/testautomation/ta/protocol"
)

// hubAPI is the command's REST client: every request carries the API token
// (and the project, once chosen); a hub that does not answer, or answers
// 5xx, is tried again with backoff until Wait has passed without an
// answer, then the error is a *hubGoneError. With several hubs (issue 32)
// each try that gets no answer moves to the next one, and the backoff is
// waited once per round of the list.
type hubAPI struct {
	base    string        // the first hub
	hubs    []string      // all of them (with), preferred first
	at      *atomic.Int32 // the index in hubs now; copies share it
	token   string
	project string
	wait    time.Duration
	http    *http.Client
	stream  *http.Client // no overall time-out: event streams last
}

func newHubAPI(base, token string, wait time.Duration) *hubAPI {
	dial := &net.Dialer{Timeout: 10 * time.Second}
	tr := &http.Transport{DialContext: dial.DialContext, ResponseHeaderTimeout: 30 * time.Second, MaxIdleConnsPerHost: 32}
	return &hubAPI{base: strings.TrimRight(base, "/"), at: new(atomic.Int32), token: token, wait: wait,
		http: &http.Client{Transport: tr, Timeout: 60 * time.Second}, stream: &http.Client{Transport: tr}}
}

// with makes the client use every hub of the list (the first is base).
func (a *hubAPI) with(hubs []string) *hubAPI {
	if len(hubs) > 1 {
		a.hubs = hubs
	}
	return a
}

// hub is the hub requests go to now.
func (a *hubAPI) hub() string {
	if len(a.hubs) == 0 {
		return a.base
	}
	return strings.TrimRight(a.hubs[int(a.at.Load())%len(a.hubs)], "/")
}

// failover moves to the next hub of the list after a try that got no
// answer, and says whether a round of the list is over (time to wait).
func (a *hubAPI) failover() (roundOver bool) {
	if len(a.hubs) < 2 {
		return true
	}
	return int(a.at.Add(1))%len(a.hubs) == 0
}

// apiError is a refusal by the hub (4xx): its message and issues.
type apiError struct {
	Status int
	Msg    string `json:"error"`
	Code   string `json:"code"`
	Issues []struct {
		Path    string `json:"path"`
		Message string `json:"message"`
	} `json:"issues"`
}

func (e *apiError) Error() string {
	var b strings.Builder
	b.WriteString(e.Msg)
	if e.Msg == "" {
		b.WriteString(http.StatusText(e.Status))
	}
	for _, is := range e.Issues {
		fmt.Fprintf(&b, "\n  %s: %s", is.Path, is.Message)
	}
	return b.String()
}

// hubGoneError says the hub did not answer for the whole wait.
type hubGoneError struct {
	base string
	wait time.Duration
	last error
}

func (e *hubGoneError) Error() string {
	return fmt.Sprintf("the hub at %s did not answer for %s (last: %v)", e.base, e.wait, e.last)
}

func (e *hubGoneError) Unwrap() error { return e.last }

func (a *hubAPI) request(ctx context.Context, method, path string, body []byte) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.hub()+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+a.token)
	req.Header.Set("User-Agent", "ta-agent-ci")
	if a.project != "" {
		req.Header.Set("X-Project-Id", a.project)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// retrying calls try until it succeeds, fails for good, or the hub has not
// answered for a.wait. A try that got an answer before failing calls
// answered, so the wait starts again.
func (a *hubAPI) retrying(ctx context.Context, try func() (retry bool, err error)) error {
	return a.retryingFrom(ctx, func(func()) (bool, error) { return try() })
}

func (a *hubAPI) retryingFrom(ctx context.Context, try func(answered func()) (retry bool, err error)) error {
	start := time.Now()
	backoff := 250 * time.Millisecond
	answered := func() { start, backoff = time.Now(), 250*time.Millisecond }
	for {
		retry, err := try(answered)
		if err == nil || !retry {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if time.Since(start) >= a.wait {
			return &hubGoneError{base: a.hub(), wait: a.wait, last: err}
		}
		if !a.failover() {
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(min(backoff, a.wait-time.Since(start)+time.Millisecond)):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

// do sends a JSON request and decodes a JSON answer into out (nil: none).
func (a *hubAPI) do(ctx context.Context, method, path string, in, out any) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return err
		}
	}
	return a.retrying(ctx, func() (bool, error) {
		req, err := a.request(ctx, method, path, body)
		if err != nil {
			return false, err
		}
		req.Header.Set("Accept", "application/json")
		res, err := a.http.Do(req)
		if err != nil {
			return ctx.Err() == nil, err
		}
		defer res.Body.Close()
		data, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
		if err != nil {
			return true, err
		}
		switch {
		case res.StatusCode >= 500:
			return true, fmt.Errorf("%s %s: %s", method, path, res.Status)
		case res.StatusCode >= 400:
			e := &apiError{Status: res.StatusCode}
			if json.Unmarshal(data, e) != nil || e.Msg == "" {
				e.Msg = fmt.Sprintf("%s %s: %s", method, path, res.Status)
			}
			return false, e
		}
		if out == nil || res.StatusCode == http.StatusNoContent {
			return false, nil
		}
		if err := json.Unmarshal(data, out); err != nil {
			return false, fmt.Errorf("%s %s: the hub's answer is not what this command expects (%v); is --hub the hub's address?", method, path, err)
		}
		return false, nil
	})
}

// download fetches a file (an artifact).
func (a *hubAPI) download(ctx context.Context, path string) ([]byte, error) {
	var data []byte
	err := a.get(ctx, a.http, path, func(body io.Reader) (bool, error) {
		var err error
		data, err = io.ReadAll(io.LimitReader(body, protocol.MaxArtifact+1))
		return err != nil, err
	})
	return data, err
}

// get sends GET path with client, tried again as every call is, and hands
// a 200's body to read, which says whether a failure is worth another try.
func (a *hubAPI) get(ctx context.Context, client *http.Client, path string, read func(io.Reader) (bool, error)) error {
	return a.retrying(ctx, func() (bool, error) {
		req, err := a.request(ctx, http.MethodGet, path, nil)
		if err != nil {
			return false, err
		}
		res, err := client.Do(req)
		if err != nil {
			return ctx.Err() == nil, err
		}
		defer res.Body.Close()
		if res.StatusCode >= 500 {
			return true, errors.New(res.Status)
		}
		if res.StatusCode != http.StatusOK {
			return false, fmt.Errorf("GET %s: %s", path, res.Status)
		}
		return read(res.Body)
	})
}

// follow reads a run's live events until run.finished, reconnecting (with
// Last-Event-ID, so nothing is seen twice or lost) when the stream breaks
// or goes quiet for longer than idle.
func (a *hubAPI) follow(ctx context.Context, runID string, idle time.Duration, on func(protocol.Event)) error {
	var last int64
	done := false
	return a.retryingFrom(ctx, func(answered func()) (bool, error) {
		sctx, cancel := context.WithCancel(ctx)
		defer cancel()
		req, err := a.request(sctx, http.MethodGet, "/api/runs/"+runID+"/events", nil)
		if err != nil {
			return false, err
		}
		req.Header.Set("Accept", "text/event-stream")
		if last > 0 {
			req.Header.Set("Last-Event-ID", strconv.FormatInt(last, 10))
		}
		res, err := a.stream.Do(req)
		if err != nil {
			return ctx.Err() == nil, err
		}
		defer res.Body.Close()
		if res.StatusCode >= 500 {
			return true, errors.New(res.Status)
		}
		if res.StatusCode != http.StatusOK {
			data, _ := io.ReadAll(io.LimitReader(res.Body, 1<<16))
			e := &apiError{Status: res.StatusCode}
			if json.Unmarshal(data, e) != nil || e.Msg == "" {
				e.Msg = "GET /api/runs/" + runID + "/events: " + res.Status
			}
			return false, e
		}
		answered()
		// The hub sends a keep-alive comment every 15 s: silence for
		// longer means the connection is dead without having said so.
		watchdog := time.AfterFunc(idle, cancel)
		defer watchdog.Stop()
		rd := bufio.NewReaderSize(res.Body, 64<<10)
		var data strings.Builder
		for {
			line, err := rd.ReadString('\n')
			if err != nil {
				if done {
					return false, nil
				}
				if ctx.Err() != nil {
					return false, ctx.Err()
				}
				return true, fmt.Errorf("the event stream of %s broke: %w", runID, err)
			}
			watchdog.Reset(idle)
			line = strings.TrimRight(line, "\r\n")
			switch {
			case line == "":
				if data.Len() > 0 {
					var e protocol.Event
					if json.Unmarshal([]byte(data.String()), &e) == nil {
						if e.Seq > last {
							last = e.Seq
							on(e)
						}
						if e.Kind == protocol.RunFinished {
							done = true
							return false, nil
						}
					}
					data.Reset()
				}
			case strings.HasPrefix(line, "data:"):
				data.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
			}
		}
	})
}
