package runner

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

// tracerSpy keeps the tracer of the one traced run going on, found when
// its first artifact comes (trace tests do not run in parallel).
type tracerSpy struct {
	*recorder
	tr *tracer
}

func (s *tracerSpy) Artifact(info protocol.ArtifactInfo, data []byte) {
	if s.tr == nil {
		testBrowser.tabs.Range(func(_, t any) bool {
			s.tr = t.(*tab).trace.Load()
			return s.tr == nil
		})
	}
	s.recorder.Artifact(info, data)
}

// The serializer installed in a page's main world serializes what each
// step left, its target marked, across two documents: the first
// document's handle is never used in the second, and the second's is
// installed.
func TestTraceInstalledSerializer(t *testing.T) {
	doc := document(t,
		nav("/login.html"), fillStep(css("#email"), "first@example.com"), fillStep(css("#search"), "query one"),
		nav("/trace.html"), fillStep(css("#token"), "one"), fillStep(css("#token"), "two"), click(css("#agree")),
		short(click(css(".row")), 500))
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	spy := &tracerSpy{recorder: &recorder{}}
	res := testBrowser.Run(ctx, protocol.Job{Version: 1, RunID: "run_test", Document: doc, Trace: protocol.TraceOn}, spy)
	if res.Status != protocol.RunFailed {
		t.Fatalf("run %s: %s", res.Status, res.Error)
	}
	dom := func(i int) string {
		spy.mu.Lock()
		defer spy.mu.Unlock()
		return string(spy.artifacts[protocol.SnapshotArtifact(i-1, "s"+string(rune('0'+i)), nil, false)])
	}
	for _, c := range []struct {
		step       int
		has, lacks []string
	}{
		{2, []string{"<h1>Sign in</h1>", `id="email" name="email" type="email" placeholder="you@example.com" data-testid="email" value="first@example.com" data-ta-target=""`}, []string{"Orders"}},
		{3, []string{`id="search" value="query one" data-ta-target=""`, `value="first@example.com"`}, []string{`data-testid="email" value="first@example.com" data-ta-target`}},
		{4, []string{"<h1>Orders</h1>"}, []string{"Sign in", "data-ta-target"}},
		{5, []string{`id="token" value="one" data-ta-target=""`}, nil},
		{6, []string{`id="token" value="two" data-ta-target=""`}, []string{`value="one"`}},
		{7, []string{`id="agree" data-ta-target=""`, `value="two"`}, []string{`id="agree" checked`}},
		{8, []string{`class="row" data-ta-match=""`}, []string{"data-ta-target"}},
	} {
		html := dom(c.step)
		for _, s := range c.has {
			if !strings.Contains(html, s) {
				t.Errorf("step %d's snapshot lacks %q: %s", c.step, s, html)
			}
		}
		for _, s := range c.lacks {
			if strings.Contains(html, s) {
				t.Errorf("step %d's snapshot has %q: %s", c.step, s, html)
			}
		}
	}
	tr := spy.tr
	if tr == nil {
		t.Fatal("no tracer seen")
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if len(tr.fns) != 1 || len(tr.worlds) != 1 {
		t.Fatalf("installed %+v in worlds %+v, want one page's", tr.fns, tr.worlds)
	}
	for sess, fn := range tr.fns {
		if fn.obj == "" || fn.world != tr.worlds[sess] {
			t.Errorf("the serializer of the last document: %+v, its world %q", fn, tr.worlds[sess])
		}
	}
}

// The tracer follows a page's main world by its events and says when to
// install the serializer, when to call it by its handle, and when neither.
func TestTraceWorlds(t *testing.T) {
	tr := newTracer(protocol.TraceOn, time.Now())
	created := func(world, frame string, isDefault bool) {
		p, _ := json.Marshal(map[string]any{"context": map[string]any{"uniqueId": world,
			"auxData": map[string]any{"isDefault": isDefault, "frameId": frame}}})
		tr.worldEvent("S", "TOP", "Runtime.executionContextCreated", p)
	}
	answer := func(obj string) []byte {
		return []byte(`{"id":7,"result":{"result":{"type":"function","objectId":"` + obj + `"}}}`)
	}
	via := func(wantObj, wantWorld string) {
		t.Helper()
		if obj, world := tr.snapshotVia("S"); string(obj) != wantObj || world != wantWorld {
			t.Errorf("snapshotVia = %q, %q; want %q, %q", obj, world, wantObj, wantWorld)
		}
	}
	via("", "") // no world known: by the source, nothing installed
	created("w-frame", "CHILD", true)
	created("w-isolated", "TOP", false)
	via("", "") // neither is the page's main world
	created("w1", "TOP", true)
	via("", "w1") // install there
	via("", "")   // being installed: the source once more
	tr.installed("S", "w1", answer("fn1"))
	via("fn1", "") // by the handle
	via("fn1", "")
	tr.worldEvent("S", "TOP", "Runtime.executionContextsCleared", json.RawMessage(`{}`))
	via("", "") // navigating: no world
	created("w2", "TOP", true)
	via("", "w2")
	tr.installed("S", "w1", answer("late-fn1")) // an old world's answer changes nothing
	via("", "")
	tr.installed("S", "w2", answer("fn2"))
	via("fn2", "")
	tr.worldEvent("S", "TOP", "Runtime.executionContextDestroyed", json.RawMessage(`{"executionContextId":3,"executionContextUniqueId":"w2"}`))
	via("", "")
	created("w3", "TOP", true)
	via("", "w3")
	tr.installed("S", "w3", []byte(`{"id":8,"error":{"code":-32000,"message":"no"}}`))
	via("", "") // an install that failed: by the source from then on
}
