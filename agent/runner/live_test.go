package runner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// TestLivePageKeepsThePageAndTheGuard: runs on a live page (the editor's
// live session) go on from where the last one left the page, keep the
// variables it set, and have a run's guard: a script sending the page to a
// file: address fails its step, saying it was refused.
func TestLivePageKeepsThePageAndTheGuard(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// The page belongs to another connection, as the authoring browser's do.
	owner, err := Attach(ctx, testBrowser.url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = owner.Close() }) // after the live page's (cleanups run last first)
	p, _, _ := livePageOf(t, ctx, owner)
	run := func(steps ...protocol.Step) (protocol.RunResult, *recorder) {
		rec := &recorder{}
		return p.Run(ctx, protocol.Job{RunID: "ses_test", Document: document(t, steps...), Screenshots: true}, rec), rec
	}

	res, _ := run(nav("/login.html"), fillStep(css("#email"), "ann@example.com"),
		protocol.Step{Type: "setVariable", Name: "who", Target: css("h1")})
	mustPass(t, res)
	// "Run from here": no navigate, the page as the last run left it.
	res, rec := run(valueIs(css("#email"), "ann@example.com"), fillStep(css("#password"), "${who}"))
	mustPass(t, res)
	if len(rec.infos) == 0 {
		t.Error("no screenshot of the steps")
	}
	res, _ = run(protocol.Step{Type: "script", Code: "location = 'file:///etc/passwd'"})
	if res.Status != protocol.RunFailed || !strings.Contains(res.Steps[0].Error, "refused") {
		t.Fatalf("a script opening a file: page: %s %q", res.Status, res.Error)
	}
	// The page is still there, where it was.
	res, _ = run(valueIs(css("#email"), "ann@example.com"))
	mustPass(t, res)
}

// livePageOf is a live page on a blank tab that owner's connection makes
// in a context of its own, attached from a second connection to the same
// browser, as the editor's live session attaches to the authoring
// browser's page; both go when the test ends.
// Its context and target are answered too.
func livePageOf(t *testing.T, ctx context.Context, owner *Browser) (*LivePage, proto.BrowserBrowserContextID, proto.TargetTargetID) {
	t.Helper()
	bc, err := proto.TargetCreateBrowserContext{DisposeOnDetach: true}.Call(owner.root.with(ctx))
	if err != nil {
		t.Fatal(err)
	}
	tg, err := proto.TargetCreateTarget{URL: "about:blank", BrowserContextID: bc.BrowserContextID}.Call(owner.root.with(ctx))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Attach(ctx, owner.url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	p, err := b.AttachPage(ctx, string(tg.TargetID))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p, bc.BrowserContextID, tg.TargetID
}
