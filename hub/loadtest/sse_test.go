package loadtest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
)

// openEvents opens GET /api/runs/{id}/events and answers the stream once
// its headers are in.
func (c *client) openEvents(ctx context.Context, runID string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", c.base+"/api/runs/"+runID+"/events", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != 200 {
		resp.Body.Close()
		return nil, fmt.Errorf("GET /api/runs/%s/events: %d", runID, resp.StatusCode)
	}
	return resp, nil
}

// eachEvent calls fn with the kind of every event on the stream until fn
// answers false or the stream ends.
func eachEvent(resp *http.Response, fn func(kind string) bool) error {
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if kind, ok := strings.CutPrefix(sc.Text(), "event: "); ok && !fn(kind) {
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return errors.New("the stream ended")
}

// subscribers are open event streams on live runs, read until they end.
type subscribers struct {
	open   atomic.Int64
	events atomic.Int64 // events read (none expected: the runs wait)
	wg     sync.WaitGroup
}

// subscribe opens n streams over the runs, width at a time.
func subscribe(ctx context.Context, c *client, runs []string, n, width int) (*subscribers, error) {
	s := &subscribers{}
	errs := make([]error, n)
	var opening sync.WaitGroup
	sem := make(chan struct{}, width)
	for i := range n {
		opening.Add(1)
		sem <- struct{}{}
		go func() {
			defer opening.Done()
			defer func() { <-sem }()
			resp, err := c.openEvents(ctx, runs[i%len(runs)])
			if err != nil {
				errs[i] = err
				return
			}
			s.open.Add(1)
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				defer s.open.Add(-1)
				defer resp.Body.Close()
				_ = eachEvent(resp, func(string) bool { s.events.Add(1); return true })
			}()
		}()
	}
	opening.Wait()
	return s, errors.Join(errs...)
}
