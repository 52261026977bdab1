package runner

import (
	"context"
	"fmt"
	"strconv"

	"github.com/testautomation/ta/protocol"
)

// The assertions issue 28 added (DESIGN.md, "Steps that real suites
// need"), polling like the others until they hold or the step times out.
// init registers them with log (steps_vars.go) and request
// (steps_request.go), so the step table of steps_action.go stays as it is.

func init() {
	for typ, fn := range map[string]stepFunc{
		"assertChecked": assertChecked, "assertEnabled": assertEnabled, "assertEditable": assertEditable,
		"assertAttribute": assertAttribute, "assertCount": assertCount, "assertSelected": assertSelected,
		"assertVariable": assertVariable, "log": logStep, "request": request,
	} {
		stepFuncs[typ] = fn
	}
}

// flagOr reads an optional boolean parameter that defaults to true.
func flagOr(p *bool) bool { return p == nil || *p }

func assertChecked(s *stepRun, ctx context.Context, st protocol.Step) error {
	want := flagOr(st.Checked)
	words := map[bool]string{true: "checked", false: "not checked"}
	return s.poll(ctx, "for the element", func(ctx context.Context) error {
		el, err := s.resolve(ctx, st.Target)
		if err != nil {
			return err
		}
		v, err := callValue(ctx, s.r.tab.sess, el.obj, checkedJS)
		if err != nil {
			return err
		}
		got, ok := v.Val().(bool)
		if !ok {
			return outcomeOf(v)
		}
		if got != want {
			return fmt.Errorf("expected the element to be %s, but it is %s", words[want], words[got])
		}
		return nil
	})
}

func assertEnabled(s *stepRun, ctx context.Context, st protocol.Step) error {
	state := map[bool]string{true: "enabled", false: "disabled"}[flagOr(st.Enabled)]
	return s.poll(ctx, "for the element to be "+state, func(ctx context.Context) error {
		return s.expectState(ctx, st.Target, state)
	})
}

// assertEditable follows Playwright's toBeEditable: editable is enabled
// and not read-only; editable: false holds for either.
func assertEditable(s *stepRun, ctx context.Context, st protocol.Step) error {
	state := map[bool]string{true: "editable", false: "readonly"}[flagOr(st.Editable)]
	return s.poll(ctx, "for the element to be "+stateWords[state], func(ctx context.Context) error {
		return s.expectState(ctx, st.Target, state)
	})
}

// stateWords says the states stateJS reads in words, and the opposite of
// each is what the element is when it is not in it.
var stateWords = map[string]string{"enabled": "enabled", "disabled": "disabled", "editable": "editable", "readonly": "read-only (not editable)"}
var stateOpposite = map[string]string{"enabled": "disabled", "disabled": "enabled", "editable": "readonly", "readonly": "editable"}

// expectFlag checks once that el is enabled, disabled, editable or
// readonly (see stateJS).
func (s *stepRun) expectFlag(ctx context.Context, el elem, state string) error {
	v, err := callValue(ctx, s.r.tab.sess, el.obj, stateJS, state)
	if err != nil {
		return err
	}
	got, ok := v.Val().(bool)
	if !ok {
		return outcomeOf(v)
	}
	if !got {
		return fmt.Errorf("expected the element to be %s, but it is %s", stateWords[state], stateWords[stateOpposite[state]])
	}
	return nil
}

// assertAttribute compares an attribute's value. An element without the
// attribute keeps the step waiting, and satisfies not: true (its value is
// not the expected one), as Playwright's not.toHaveAttribute does.
func assertAttribute(s *stepRun, ctx context.Context, st protocol.Step) error {
	m, err := newMatcher(st, s.r.mask)
	if err != nil {
		return err
	}
	what := "attribute " + strconv.Quote(st.Name)
	return s.poll(ctx, "for the element", func(ctx context.Context) error {
		el, err := s.resolve(ctx, st.Target)
		if err != nil {
			return err
		}
		v, err := callValue(ctx, s.r.tab.sess, el.obj, attributeJS, st.Name)
		if err != nil {
			return err
		}
		if v.Nil() {
			if m.not {
				return nil
			}
			return fmt.Errorf("expected the %s %s %s, but the element has no such attribute", what, m.verb(), strconv.Quote(m.mask.String(m.expected)))
		}
		return m.check(what, v.Str())
	})
}

// assertCount counts the elements the target matches. A count is a fact
// about a locator, not about one element, so fallbacks heal differently:
// the first locator that matches any element counts (a later one is
// reported as healing, as for other steps), and the count is 0 only when
// none matches anything. Expecting 0 therefore waits until no locator
// matches.
func assertCount(s *stepRun, ctx context.Context, st protocol.Step) error {
	if st.Count == nil || *st.Count < 0 {
		return permanent("the assertCount step needs expected: a count of 0 or more")
	}
	want := *st.Count
	return s.poll(ctx, "for the count", func(ctx context.Context) error {
		n, err := s.count(ctx, st.Target)
		if err != nil {
			return err
		}
		if n != want {
			return fmt.Errorf("expected %s, but %s", elements(want), matchesWords(n))
		}
		return nil
	})
}

func elements(n int) string {
	if n == 1 {
		return "1 element to match"
	}
	return fmt.Sprintf("%d elements to match", n)
}

func matchesWords(n int) string {
	switch n {
	case 0:
		return "none does"
	case 1:
		return "1 does"
	}
	return fmt.Sprintf("%d do", n)
}

// count answers how many elements the target matches, as assertCount
// says: the first locator matching any counts; 0 when none does.
func (s *stepRun) count(ctx context.Context, t *protocol.Target) (int, error) {
	if t == nil || len(t.Locators) == 0 {
		return 0, permanent("the step has no target to count")
	}
	fr, err := s.r.enterFrames(ctx, t.Frame)
	if err != nil {
		return 0, err
	}
	s.healed, s.healNote = 0, ""
	var bad error
	for i, l := range t.Locators {
		_, n, err := s.r.query(ctx, fr, l)
		if err != nil {
			if !isPermanent(err) {
				return 0, err
			}
			bad = err
			continue
		}
		if n > 0 {
			if i > 0 {
				s.healed, s.healNote = i, "the first locator, "+describe(t.Locators[0])+", matches no element"
			}
			return n, nil
		}
		bad = nil
	}
	if bad != nil && len(t.Locators) == 1 {
		return 0, bad // the only locator is malformed: there is nothing to count
	}
	return 0, nil
}

// assertSelected compares the selected option of a <select> by its label
// (default) or value; several selected options read as "a, b".
func assertSelected(s *stepRun, ctx context.Context, st protocol.Step) error {
	if st.Match == "" {
		st.Match = "equals" // a label is compared whole unless the step says otherwise
	}
	m, err := newMatcher(st, s.r.mask)
	if err != nil {
		return err
	}
	by := st.By
	if by == "" {
		by = "label"
	}
	if by != "label" && by != "value" {
		return permanent("unknown by %q: use label or value", by)
	}
	return s.poll(ctx, "for the element", func(ctx context.Context) error {
		v, err := s.selected(ctx, st.Target, by)
		if err != nil {
			return err
		}
		return m.check("selected option's "+by, v)
	})
}

// selected reads the labels (or values) of the selected options of the
// target, a <select>.
func (s *stepRun) selected(ctx context.Context, t *protocol.Target, by string) (string, error) {
	el, err := s.resolve(ctx, t)
	if err != nil {
		return "", err
	}
	v, err := callValue(ctx, s.r.tab.sess, el.obj, selectedJS, by)
	if err != nil {
		return "", err
	}
	if v.Nil() {
		return "", permanent("the element is not a <select>")
	}
	return v.Str(), nil
}

// assertVariable compares a variable's value, or a field of one holding
// JSON (resp.body.id). Nothing on the page changes it, so it is checked
// once.
func assertVariable(s *stepRun, ctx context.Context, st protocol.Step) error {
	m, err := newMatcher(st, s.r.mask)
	if err != nil {
		return err
	}
	v, err := s.r.value(st.Name)
	if err != nil {
		return err
	}
	s.use("value", v)
	if err := m.check("variable "+st.Name, v); err != nil {
		return permanent("%s", err.Error())
	}
	return nil
}

// verb is the matcher's comparison in words: "to equal", "not to contain".
func (m *matcher) verb() string {
	v := "to " + map[string]string{"equals": "equal", "contains": "contain", "regex": "match"}[m.mode]
	if m.not {
		v = "not " + v
	}
	return v
}
