package author

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

// liveEvents keeps what steps run on a live session emit.
type liveEvents struct {
	mu     sync.Mutex
	events []protocol.Event
}

func (l *liveEvents) Event(e protocol.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, e)
}

func (l *liveEvents) Artifact(protocol.ArtifactInfo, []byte) {}

// finished is the run's status and error as its last event says.
func (l *liveEvents) finished() (string, string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range l.events {
		if e.Kind == protocol.RunFinished {
			return e.Status, e.Error
		}
	}
	return "", "no run.finished event"
}

// TestLiveRunFollowsTabs (issue 28): steps run on the editor's live
// session ("Run from here") follow the tab a link opens, as a run's do.
func TestLiveRunFollowsTabs(t *testing.T) {
	srv := site(t, map[string]string{
		"/":            `<!doctype html><title>Home</title><a id="open" href="/report.html" target="_blank">Open report</a>`,
		"/report.html": `<!doctype html><title>Report</title><button id="ok" onclick="this.textContent = 'Approved'">Approve</button>`,
	})
	id, _, _ := start(t, protocol.AuthorLive, "")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	css := func(v string) *protocol.Target {
		return &protocol.Target{Locators: []protocol.Locator{{Kind: "css", Value: v}}}
	}
	steps := []protocol.Step{{ID: "a", Type: "navigate", URL: srv.URL + "/"}, {ID: "b", Type: "click", Target: css("#open")},
		{ID: "c", Type: "switchTab", To: "new"}, {ID: "d", Type: "click", Target: css("#ok")},
		{ID: "e", Type: "assertText", Target: css("#ok"), Expected: protocol.Ptr("Approved")},
		{ID: "f", Type: "switchTab", To: "opener"}, {ID: "g", Type: "assertTitle", Expected: protocol.Ptr("Home")}}
	out := &liveEvents{}
	doc := protocol.Document{DSL: protocol.DSLVersion, Name: "live", Steps: steps}
	if err := manager(t).RunLive(ctx, id, protocol.LiveRun{Document: doc}, out); err != nil {
		t.Fatal(err)
	}
	if status, why := out.finished(); status != protocol.RunPassed {
		t.Fatalf("live run %s: %s", status, why)
	}
}
