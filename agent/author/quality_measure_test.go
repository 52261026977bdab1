package author

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/agent/runner"
	"github.com/testautomation/ta/protocol"
)

// qAuthor is what the measure needs of the authoring side: record a
// session (the page opened at url; play performs the scripted actions in
// it with trusted input; the captured steps once stopped) and pick an
// elements (a picker at url; each element of ws clicked in turn with
// trusted input; what the picker reported for each, with the tag name of
// the element clicked, to check the picker reported that one).
type qAuthor interface {
	Record(ctx context.Context, url string, play func(*rod.Page) error) ([]protocol.Step, error)
	// Toolbar says the recorded page has the overlay toolbar, whose
	// Assert text the session uses for its final check.
	Toolbar() bool
	Pick(ctx context.Context, url string, ws []qWhere) ([]qPicked, error)
}

// qPicked is what a picker reported for one click.
type qPicked struct {
	protocol.Picked
	Tag string // of the element clicked
	// Control is the tag of the control or link the clicked element is
	// part of (an icon in a button, an image in a link), which a picker
	// reports instead, as Playwright's does.
	Control string
	Err     error // nothing was reported for it
}

// qFigures are the counts behind the three figures, with a line per miss.
type qFigures struct {
	Sessions, Green     int
	Picks, Unique       int
	Mutations, Survived int
	Unmapped            int // recorded targets not matched to a scripted action (left out of Mutations)
	// Asserted counts sessions whose final check was recorded through the
	// toolbar (the rest, results inside iframes, get it appended);
	// BadAssert those where the toolbar gave no right assertText.
	Asserted, BadAssert int
	Misses              []string
	// Time spent recording, replaying, mutating and picking.
	Record, Replay, Mutate, Pick time.Duration
}

func pct(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}

func (f qFigures) GreenPct() float64    { return pct(f.Green, f.Sessions) }
func (f qFigures) UniquePct() float64   { return pct(f.Unique, f.Picks) }
func (f qFigures) SurvivalPct() float64 { return pct(f.Survived, f.Mutations) }
func (f *qFigures) miss(format string, args ...any) {
	f.Misses = append(f.Misses, fmt.Sprintf(format, args...))
}

func (f qFigures) String() string {
	r := func(d time.Duration) time.Duration { return d.Round(100 * time.Millisecond) }
	return fmt.Sprintf("replay green %.1f%% (%d/%d), first pick locator unique %.1f%% (%d/%d), fallbacks survive a mutation %.1f%% (%d/%d, %d targets unmapped); final check recorded with the toolbar %d, toolbar misses %d; time: record %v, replay %v, mutate %v, pick %v",
		f.GreenPct(), f.Green, f.Sessions, f.UniquePct(), f.Unique, f.Picks, f.SurvivalPct(), f.Survived, f.Mutations, f.Unmapped, f.Asserted, f.BadAssert,
		r(f.Record), r(f.Replay), r(f.Mutate), r(f.Pick))
}

// qOptions choose how much to measure: every mutation kind on every
// target and every pick (Full, for make bench), or within the test's time
// budget one kind per target in turn, which covers the five kinds evenly,
// on at most MaxTargets targets per session, and the first Picks picks.
type qOptions struct {
	Full       bool
	MaxTargets int
	Picks      int
}

// qMeasure records every session with au, replays it, picks, and mutates.
func qMeasure(t testing.TB, au qAuthor, site *corpusSite, rb *runner.Browser, o qOptions) qFigures {
	var f qFigures
	turn := 0
	for _, s := range qSessions {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		f.Sessions++
		t0 := time.Now()
		toolbar := au.Toolbar() && s.Result.Frame == ""
		steps, err := au.Record(ctx, site.url(s.Page), func(p *rod.Page) error {
			if err := qPlay(ctx, p, s); err != nil {
				return err
			}
			if !toolbar {
				return nil
			}
			// The tester's last move: Assert text in the toolbar, then a
			// click on the result.
			if err := qToolbarClick(ctx, p, "Assert text"); err != nil {
				return err
			}
			el, err := qElement(ctx, p, s.Result)
			if err != nil {
				return err
			}
			return el.Click(proto.InputMouseButtonLeft, 1)
		})
		if err != nil {
			f.miss("%s: recording: %v", s.Page, err)
			cancel()
			continue
		}
		all := steps
		if toolbar {
			last := len(steps) - 1
			if last >= 0 && steps[last].Type == "assertText" && steps[last].Expected != nil && strings.Contains(*steps[last].Expected, s.Want) {
				f.Asserted++
				steps = steps[:last] // the actions, for the mutations
			} else {
				f.BadAssert++
				f.miss("%s: the toolbar's Assert text on %s did not record assertText %q: %s", s.Page, s.Result.Sel, s.Want, qStepsText(steps))
				all = append(steps, qAssert(s))
			}
		} else {
			all = append(steps, qAssert(s))
		}
		doc, err := qDocument("recorded "+s.Page, all)
		if err != nil {
			f.miss("%s: %v", s.Page, err)
			cancel()
			continue
		}
		t1 := time.Now()
		f.Record += t1.Sub(t0)
		res := qReplay(ctx, rb, doc)
		t2 := time.Now()
		f.Replay += t2.Sub(t1)
		if res.Status == protocol.RunPassed {
			f.Green++
		} else {
			f.miss("%s: replay: %s; recorded %s", s.Page, qFailure(res), qStepsText(steps))
		}
		// Mutations: each recorded target matched to its scripted action.
		owners := qAlign(steps, s.Acts)
		mutated := 0
		for i, st := range steps {
			if st.Target == nil {
				continue
			}
			if owners[i] < 0 {
				f.Unmapped++
				f.miss("%s: step %d (%s %s) matches no scripted action: left out of the mutations", s.Page, i+1, st.Type, qLocators(st.Target))
				continue
			}
			if !o.Full && mutated >= o.MaxTargets {
				break
			}
			mutated++
			a := s.Acts[owners[i]]
			kinds := mutationKinds
			if !o.Full {
				kinds = []string{mutationKinds[turn%len(mutationKinds)]}
				turn++
			}
			for _, k := range kinds {
				f.Mutations++
				if ok, why := qSurvives(ctx, site, rb, steps[:i+1], &mutation{Kind: k, Sel: a.Sel, Frame: a.Frame != ""}); ok {
					f.Survived++
				} else {
					f.miss("%s: step %d (%s %s) after mutation %s: %s; locators %s", s.Page, i+1, st.Type, a.Sel, k, why, qLocators(st.Target))
				}
			}
		}
		t3 := time.Now()
		f.Mutate += t3.Sub(t2)
		picks := s.Picks
		if !o.Full && len(picks) > o.Picks {
			picks = picks[:o.Picks]
		}
		if len(picks) > 0 {
			got, err := au.Pick(ctx, site.url(s.Page), picks)
			for i, w := range picks {
				f.Picks++
				why := ""
				switch {
				case err != nil:
					why = err.Error()
				case i >= len(got):
					why = "no pick reported"
				default:
					_, why = qPickUnique(ctx, rb, site.url(s.Page), w, got[i])
				}
				if why == "" {
					f.Unique++
				} else {
					f.miss("%s: pick %s: %s", s.Page, w.Sel, why)
				}
			}
		}
		f.Pick += time.Since(t3)
		cancel()
	}
	return f
}

// qHitCheck is a script step after an action on the mutated element: the
// action must have reached that element (the mutation script saw one of
// its events), not another that the locators found instead.
var qHitCheck = protocol.Step{Type: "script", Code: `const hit = () => window.__taHit || sessionStorage.getItem('__taHit');
// An iframe's message comes a moment later: wait up to a second for it.
return new Promise((ok, fail) => {
  let n = 0;
  const look = () => hit() ? ok(true) : ++n > 20 ? fail(new Error('the step acted on another element than the recorded one')) : setTimeout(look, 50);
  look();
});`}

// qSurvives replays steps (the last one is the mutated target's) on pages
// carrying the mutation; the last step must pass, on the recorded element.
func qSurvives(ctx context.Context, site *corpusSite, rb *runner.Browser, steps []protocol.Step, m *mutation) (bool, string) {
	steps = append([]protocol.Step(nil), steps...)
	for i := range steps {
		steps[i].TimeoutMs = 2000
	}
	last := len(steps) - 1
	if !strings.HasPrefix(steps[last].Type, "assert") {
		steps = append(steps, qHitCheck)
	}
	doc, err := qDocument("mutated", steps)
	if err != nil {
		return false, err.Error()
	}
	site.arm(m)
	defer site.arm(nil)
	res := qReplay(ctx, rb, doc)
	if res.Status == protocol.RunPassed {
		return true, ""
	}
	return false, qFailure(res)
}

// qPickUnique picks w and checks the first locator: it matched exactly
// one element when made, the picker described the element clicked, and
// the runner, given only that locator (in the picked frames), finds one
// visible element on a fresh page.
func qPickUnique(ctx context.Context, rb *runner.Browser, url string, w qWhere, p qPicked) (bool, string) {
	if p.Err != nil {
		return false, p.Err.Error()
	}
	if !strings.EqualFold(p.Element.Tag, p.Tag) && !strings.EqualFold(p.Element.Tag, p.Control) {
		return false, fmt.Sprintf("picked a <%s>, clicked a <%s>", p.Element.Tag, p.Tag)
	}
	if len(p.Target.Locators) == 0 {
		return false, "no locator"
	}
	first := p.Target.Locators[0]
	if first.Matches != 1 {
		return false, fmt.Sprintf("first locator %s %q matches %d elements", first.Kind, first.Value, first.Matches)
	}
	if len(p.Target.Frame) != len(qTarget(w).Frame) {
		return false, fmt.Sprintf("frame path %v for an element in %q", p.Target.Frame, w.Frame)
	}
	doc, err := qDocument("pick", []protocol.Step{{Type: "navigate", URL: url},
		{Type: "assertVisible", TimeoutMs: 3000, Target: &protocol.Target{Locators: []protocol.Locator{first.Locator}, Frame: p.Target.Frame}}})
	if err != nil {
		return false, err.Error()
	}
	if res := qReplay(ctx, rb, doc); res.Status != protocol.RunPassed {
		return false, fmt.Sprintf("first locator %s %q: %s", first.Kind, first.Value, qFailure(res))
	}
	return true, ""
}

// qAlign matches each recorded step with a target to the scripted action
// it came from: in order, by compatible type (a typed field may give a
// click then a fill; a click on a checkbox a check; a press goes to the
// field typed last). -1 when none (a hover the recorder added, a press on
// the page).
func qAlign(steps []protocol.Step, acts []qAct) []int {
	fits := map[string][]string{
		"click":    {"click", "check", "uncheck"},
		"check":    {"check", "uncheck", "click"},
		"dblclick": {"dblclick", "click"},
		"type":     {"fill", "click"},
		"select":   {"select", "click"},
		"hover":    {"hover"},
	}
	owners := make([]int, len(steps))
	j := 0
	for i, st := range steps {
		owners[i] = -1
		if st.Type == "press" {
			for k := j; k < len(acts); k++ {
				if acts[k].Do != "press" {
					continue
				}
				if st.Target != nil && k > 0 && acts[k-1].Do == "type" {
					owners[i] = k - 1
				}
				j = k + 1
				break
			}
			continue
		}
		if st.Target == nil {
			continue
		}
		for k := j; k < len(acts); k++ {
			a := acts[k]
			if a.Sel == "" || !contains(fits[a.Do], st.Type) {
				continue
			}
			owners[i] = k
			j = k + 1
			// A typed field's click comes before its fill: stay on it.
			if st.Type == "click" && (a.Do == "type" || a.Do == "dblclick") {
				j = k
			}
			break
		}
	}
	return owners
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// qStepsText words recorded steps: type and locators.
func qStepsText(steps []protocol.Step) string {
	var ts []string
	for _, s := range steps {
		w := s.Type
		if s.Target != nil {
			w += "(" + qLocators(s.Target) + ")"
		}
		ts = append(ts, w)
	}
	return strings.Join(ts, ", ")
}

func qLocators(t *protocol.Target) string {
	var ls []string
	for _, l := range t.Locators {
		s := l.Kind + "=" + l.Value
		if l.Name != "" {
			s += "[" + l.Name + "]"
		}
		ls = append(ls, s)
	}
	return strings.Join(ls, " | ")
}
