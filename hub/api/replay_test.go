package api

import (
	"bufio"
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/dispatch"
)

// Ten readers replaying a run at its event cap keep the hub's memory flat:
// the history is streamed a page at a time, never held whole. (Loading it
// whole for each reader took 2.2 GiB for ten readers of 50,000 events.)
func TestEventReplayMemoryIsFlat(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	mgr := o.members[access.TestManager]
	testID := mgr.createTest(t, o.project, map[string]any{"name": "T", "steps": []map[string]any{
		{"id": "s1", "type": "navigate", "url": "https://example.com/"}}})
	runID := mgr.do("POST", "/api/runs", map[string]any{"testId": testID}, ProjectHeader, o.project).want(t, 201).str("runId")
	lim := dispatch.DefaultLimits
	pad := int(lim.EventBytes)/lim.Events - 100 // events of ~1.6 kB fill both caps together
	if _, err := h.store.Pool().Exec(t.Context(), `INSERT INTO run_events (run_id, seq, kind, data)
		SELECT $1, g, 'log', json_build_object('runId', $1::text, 'seq', g, 'kind', 'log', 'level', 'info', 'message', repeat('x', $3))::json
		FROM generate_series(1, $2) g`, runID, lim.Events, pad); err != nil {
		t.Fatal(err)
	}
	if _, err := h.store.AddEvent(t.Context(), runID, int64(lim.Events)+1, "run.finished",
		[]byte(fmt.Sprintf(`{"runId":%q,"seq":%d,"kind":"run.finished","status":"passed"}`, runID, lim.Events+1))); err != nil {
		t.Fatal(err)
	}

	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	const readers = 10
	var wg sync.WaitGroup
	counts := make([]int, readers)
	for i := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := newRequest(h, "GET", "/api/runs/"+runID+"/events")
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			res, err := mgr.http.Do(req.WithContext(ctx))
			if err != nil {
				t.Error(err)
				return
			}
			defer res.Body.Close()
			sc := bufio.NewScanner(res.Body)
			sc.Buffer(make([]byte, 64<<10), 64<<10)
			for sc.Scan() {
				if strings.HasPrefix(sc.Text(), "event: ") {
					counts[i]++
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-sampled
	for i, n := range counts {
		if n != lim.Events+1 {
			t.Errorf("reader %d got %d events, want %d", i, n, lim.Events+1)
		}
	}
	grew := (int64(peak.Load()) - int64(base.HeapInuse)) >> 20
	t.Logf("figure: %d readers replaying %d events (%d MiB) each: heap grew by at most %d MiB", readers, lim.Events+1, lim.EventBytes>>20, grew)
	if grew > 100 {
		t.Errorf("replaying a run at its cap to %d readers grew the heap by %d MiB; it must stay flat (under 100 MiB)", readers, grew)
	}
}
