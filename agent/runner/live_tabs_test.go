package runner

import (
	"context"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// TestLivePageFollowsTabs (issue 28): steps run on a live page (the
// editor's "Run from here" and Try) follow the tabs they open as a run's
// do: switchTab new, opener and closeTab work, a new tab's first script
// already meets the guard, and the tabs a run opened are closed when it
// ends, the next run starting on the live page.
func TestLivePageFollowsTabs(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	// A browser of its own, whose owner's connection, as the authoring
	// browser's, holds no new page: the first connection to let a held
	// page go lets it run.
	owner, err := Launch(ctx, Options{BrowserPath: os.Getenv("TA_BROWSER"), HeadlessShell: "off"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = owner.Close() }) // after the live page's (cleanups run last first)
	if err := (proto.TargetSetAutoAttach{Flatten: true}).Call(owner.root.with(ctx)); err != nil {
		t.Fatal(err)
	}
	p, bc, tg := livePageOf(t, ctx, owner)
	run := func(steps ...protocol.Step) protocol.RunResult {
		return p.Run(ctx, protocol.Job{RunID: "ses_test", Document: unsaved(t, steps...)}, &recorder{})
	}

	mustPass(t, run(nav("/tabs.html"), click(css("#link")), switchTo("new"), titleIs("Second tab"),
		click(css("#hello")), textIs(out, "equals", "hello from ?via=link"),
		switchTo("opener"), titleIs("Tabs"), click(css("#open")), switchTo("new"), protocol.Step{Type: "closeTab"}, titleIs("Tabs"),
		click(css("#link")), switchTo("new"), titleIs("Second tab")))
	// The next run starts on the live page; the tabs the last one opened
	// are gone.
	res := run(titleIs("Tabs"), short(protocol.Step{Type: "switchTab", To: "index", Index: protocol.Ptr(1)}, 500))
	if res.Status != protocol.RunFailed || !strings.Contains(res.Error, "no tab 1") {
		t.Fatalf("status %s: %q; want no tab 1", res.Status, res.Error)
	}
	pages, err := proto.TargetGetTargets{}.Call(owner.root.with(ctx))
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range pages.TargetInfos {
		if ti.Type == proto.TargetTargetInfoTypePage && ti.BrowserContextID == bc && ti.TargetID != tg {
			t.Errorf("a tab of the last run is still open: %s", ti.URL)
		}
	}

	cu, err := url.Parse(owner.ControlURL())
	if err != nil {
		t.Fatal(err)
	}
	res = run(openEarly("?fetch="+url.QueryEscape("http://"+cu.Host+"/json/version"), false), switchTo("new"),
		protocol.Step{Type: "wait", Ms: protocol.Ptr(500)}, jsAssert("document.documentElement.dataset.fetch === 'refused'"))
	if res.Status != protocol.RunFailed || !strings.Contains(res.Error, "it is the DevTools address of the agent's browser") {
		t.Fatalf("status %s: %q; want the new tab's request refused", res.Status, res.Error)
	}
}
