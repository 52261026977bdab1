package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// collectAssigns reads an agent's messages in the background, accepts
// every job it is given and passes it on; it stops a cancelled run as a
// real agent would.
var finishSeq atomic.Int64

type assignment struct {
	a   *rawAgent
	job protocol.Job
}

func collectAssigns(t *testing.T, a *rawAgent, jobs chan<- assignment) {
	go func() {
		for {
			_, data, err := a.ws.Read(t.Context())
			if err != nil {
				return
			}
			var m protocol.Message
			if json.Unmarshal(data, &m) != nil {
				continue
			}
			if m.Type == protocol.MsgCancel {
				finish, _ := protocol.Message{Type: protocol.MsgFinish, ID: 1000 + finishSeq.Add(1), RunID: m.RunID,
					Result: &protocol.RunResult{Status: protocol.RunCancelled, Error: "run cancelled"}}.Encode()
				if a.ws.Write(t.Context(), websocket.MessageText, finish) != nil {
					return
				}
				continue
			}
			if m.Type != protocol.MsgAssign || m.Job == nil {
				continue
			}
			accept, _ := protocol.Message{Type: protocol.MsgAccept, RunID: m.Job.RunID}.Encode()
			if a.ws.Write(t.Context(), websocket.MessageText, accept) != nil {
				return
			}
			jobs <- assignment{a, *m.Job}
		}
	}()
}

// poolCounts reads a pool's counts as "free F leased L consumed C".
func poolCounts(t *testing.T, c *client, id string) string {
	t.Helper()
	p := c.do("GET", "/api/data-pools/"+id, nil).want(t, 200).json()
	return fmt.Sprintf("free %d leased %d consumed %d", num(p["free"]), num(p["leased"]), num(p["consumed"]))
}

// Fifty runs of a test bound to a 20-record pool start at once on agents
// with room for all of them: exactly twenty get a record, no record twice;
// the thirty others end error naming the empty pool; the leases come back
// when the runs end, and a cancelled run gives its lease back too.
func TestPoolTakenAtDispatch(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev := o.members[access.TestDeveloper]
	var records []map[string]string
	for i := range 20 {
		records = append(records, map[string]string{"card": fmt.Sprintf("card-%02d", i)})
	}
	pool := dev.projectDo(o.project, "POST", "/api/data-pools", map[string]any{"name": "Cards", "columns": []string{"card"}, "records": records}).
		want(t, 201).str("id")
	test := dev.createTest(t, o.project, map[string]any{"name": "Pay", "data": map[string]any{"pool": pool, "mode": "lease"},
		"steps": []map[string]any{{"id": "s1", "type": "navigate", "url": "https://shop.example/pay?card=${card}"}}})

	jobs := make(chan assignment, 100)
	for range 4 { // 4 agents × 16 slots: room for every run at once
		a := h.rawAgentSlots(t, dev, "", 16)
		collectAssigns(t, a, jobs)
	}
	var wg sync.WaitGroup
	runIDs := make([]string, 50)
	for i := range runIDs {
		wg.Go(func() {
			r := dev.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": test})
			if r.status != 201 {
				t.Errorf("start run: %d %s", r.status, r.body)
			}
			runIDs[i] = r.str("runId")
		})
	}
	wg.Wait()

	got := map[string]assignment{}
	cards := map[string]string{}
	deadline := time.After(60 * time.Second)
	errored := 0
	for len(got) < 20 || errored < 30 {
		select {
		case as := <-jobs:
			job := as.job
			card := job.Variables["card"]
			if other, ok := cards[card]; ok {
				t.Fatalf("record %q given to %s and %s", card, other, job.RunID)
			}
			if card == "" {
				t.Fatalf("a job without its record: %+v", job.Variables)
			}
			cards[card], got[job.RunID] = job.RunID, as
		case <-time.After(200 * time.Millisecond):
			errored = 0
			for _, id := range runIDs {
				r := dev.do("GET", "/api/runs/"+id, nil).json()
				if r["status"] == "error" {
					errored++
					if msg, _ := r["error"].(string); !strings.Contains(msg, `data pool "Cards" has no free record`) {
						t.Fatalf("run %s ended with %q", id, msg)
					}
				}
			}
		case <-deadline:
			t.Fatalf("after 60 s: %d runs got a record, %d ended error", len(got), errored)
		}
	}
	select {
	case as := <-jobs:
		t.Fatalf("a 21st run got a job: %+v", as.job.Variables)
	case <-time.After(300 * time.Millisecond):
	}
	if len(got) != 20 || errored != 30 {
		t.Fatalf("%d runs got a record, %d ended error; want 20 and 30", len(got), errored)
	}
	if c := poolCounts(t, dev, pool); c != "free 0 leased 20 consumed 0" {
		t.Fatalf("while they run: %s", c)
	}
	// The run page says which record a run took.
	for id := range got {
		r := dev.do("GET", "/api/runs/"+id, nil).json()
		p, _ := r["pool"].(map[string]any)
		if p == nil || p["id"] != pool || p["mode"] != "lease" || p["values"].(map[string]any)["card"] != got[id].job.Variables["card"] {
			t.Fatalf("run %s shows pool %v", id, r["pool"])
		}
		break
	}

	// The runs end (by their agents, or cancelled): every lease comes back.
	n := 0
	for id, as := range got {
		n++
		if n%4 == 0 {
			dev.do("POST", "/api/runs/"+id+"/cancel", nil).want(t, 202)
			continue
		}
		as.a.send(protocol.Message{Type: protocol.MsgFinish, ID: int64(n), RunID: id, Result: report(as.job, protocol.RunPassed)})
	}
	for id := range got {
		waitFor(t, func() bool {
			r := dev.do("GET", "/api/runs/"+id, nil).json()
			return r["status"] == "passed" || r["status"] == "cancelled"
		})
	}
	if c := poolCounts(t, dev, pool); c != "free 20 leased 0 consumed 0" {
		t.Fatalf("after the runs: %s", c)
	}
	for id := range got {
		if st := dev.do("GET", "/api/runs/"+id, nil).json()["status"]; st != "passed" && st != "cancelled" {
			t.Errorf("run %s ended %v", id, st)
		}
	}
}

// A consume-mode pool runs dry: each run uses a record up for good, the
// third run of a 2-record pool ends error naming it, and a reset (by those
// who manage data) frees them for the next run.
func TestPoolConsumeUntilEmptyAndReset(t *testing.T) {
	h := newHarness(t)
	o := h.org(t)
	dev, tester := o.members[access.TestDeveloper], o.members[access.Tester]
	pool := dev.projectDo(o.project, "POST", "/api/data-pools", map[string]any{"name": "Vouchers", "columns": []string{"code"},
		"records": []map[string]string{{"code": "A1"}, {"code": "B2"}}}).want(t, 201).str("id")
	test := tester.createTest(t, o.project, map[string]any{"name": "Redeem", "data": map[string]any{"pool": pool, "mode": "consume"},
		"steps": []map[string]any{{"id": "s1", "type": "navigate", "url": "https://shop.example/redeem?code=${code}"}}})
	a := h.rawAgent(t, tester, "")
	jobs := make(chan assignment, 10)
	collectAssigns(t, a, jobs)
	run := func() (string, protocol.Job, bool) {
		id := tester.projectDo(o.project, "POST", "/api/runs", map[string]any{"testId": test}).want(t, 201).str("runId")
		for range 100 {
			select {
			case as := <-jobs:
				a.send(protocol.Message{Type: protocol.MsgFinish, ID: finishSeq.Add(1), RunID: id, Result: report(as.job, protocol.RunPassed)})
				waitFor(t, func() bool { return tester.do("GET", "/api/runs/"+id, nil).json()["status"] == "passed" })
				return id, as.job, true
			case <-time.After(100 * time.Millisecond):
				if tester.do("GET", "/api/runs/"+id, nil).json()["status"] == "error" {
					return id, protocol.Job{}, false
				}
			}
		}
		t.Fatal("the run neither started nor ended")
		return "", protocol.Job{}, false
	}
	var used []string
	for range 2 {
		_, job, ok := run()
		if !ok {
			t.Fatal("a run of a pool with a free record did not start")
		}
		used = append(used, job.Variables["code"])
	}
	if used[0] == used[1] {
		t.Fatalf("the same record twice: %v", used)
	}
	if c := poolCounts(t, dev, pool); c != "free 0 leased 0 consumed 2" {
		t.Fatalf("after two runs: %s", c)
	}
	id, _, ok := run()
	if ok {
		t.Fatal("a run of an empty pool started")
	}
	r := tester.do("GET", "/api/runs/"+id, nil).want(t, 200).json()
	if msg, _ := r["error"].(string); r["status"] != "error" || !strings.Contains(msg, `data pool "Vouchers" has no free record`) {
		t.Fatalf("the empty pool's run: %v %v", r["status"], r["error"])
	}
	tester.do("POST", "/api/data-pools/"+pool+"/reset", nil).want(t, 403)
	if c := poolCounts(t, dev, pool); c != "free 0 leased 0 consumed 2" {
		t.Fatalf("a refused reset changed the pool: %s", c)
	}
	dev.do("POST", "/api/data-pools/"+pool+"/reset", nil).want(t, 200)
	if c := poolCounts(t, dev, pool); c != "free 2 leased 0 consumed 0" {
		t.Fatalf("after reset: %s", c)
	}
	if _, _, ok := run(); !ok {
		t.Fatal("no run after the reset")
	}
}
