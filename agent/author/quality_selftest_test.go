package author

import (
	"context"
	"os"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// expectedAuthor stands in for the recorder to check the measure itself:
// it plays the session in a plain Chromium and "records" the hand-written
// CSS document; it "picks" with the session's own CSS selector.
type expectedAuthor struct {
	b    *rod.Browser
	site *corpusSite
}

func (e expectedAuthor) Record(ctx context.Context, url string, play func(*rod.Page) error) ([]protocol.Step, error) {
	page, err := e.b.Context(ctx).Page(proto.TargetCreateTarget{URL: url})
	if err != nil {
		return nil, err
	}
	defer page.Close() //nolint:errcheck
	if err := play(page); err != nil {
		return nil, err
	}
	for _, s := range qSessions {
		if e.site.url(s.Page) == url {
			steps := qExpected(e.site, s)
			return steps[:len(steps)-1], nil // without the final assertion, as a recorder gives
		}
	}
	return nil, nil
}

func (e expectedAuthor) Toolbar() bool { return false }

func (e expectedAuthor) Pick(ctx context.Context, url string, ws []qWhere) ([]qPicked, error) {
	page, err := e.b.Context(ctx).Page(proto.TargetCreateTarget{URL: url})
	if err != nil {
		return nil, err
	}
	defer page.Close() //nolint:errcheck
	var out []qPicked
	for _, w := range ws {
		el, err := qElement(ctx, page, w)
		if err != nil {
			out = append(out, qPicked{Err: err})
			continue
		}
		tag := el.MustEval(`() => this.tagName.toLowerCase()`).Str()
		t := qTarget(w)
		out = append(out, qPicked{Tag: tag, Picked: protocol.Picked{Element: protocol.PickedElement{Tag: tag},
			Target: protocol.PickedTarget{Locators: []protocol.RankedLocator{{Locator: t.Locators[0], Score: 500, Matches: 1}}, Frame: t.Frame}}})
	}
	return out, nil
}

// TestQualityMeasure runs the measure with expectedAuthor: every session
// replays green and every pick is unique (the corpus and the measure
// work); the survival of CSS-only targets shows what fallbacks must do
// better. Slow (a minute or two): run with TA_QUALITY_SELFTEST=1.
func TestQualityMeasure(t *testing.T) {
	if os.Getenv("TA_QUALITY_SELFTEST") == "" {
		t.Skip("set TA_QUALITY_SELFTEST=1 to check the measure with hand-written documents")
	}
	site := newCorpusSite(t)
	au := expectedAuthor{b: qLaunchChromium(t), site: site}
	f := qMeasure(t, au, site, qLaunchRunner(t), qOptions{MaxTargets: 2, Picks: 2})
	for _, m := range f.Misses {
		t.Log(m)
	}
	t.Logf("CSS-only documents: %s", f)
	if f.Green != f.Sessions || f.Unique != f.Picks || f.Unmapped != 0 {
		t.Errorf("the measure is off: %s", f)
	}
}
