package runner

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/testautomation/ta/protocol"
)

// Assertions poll like Playwright's auto-waiting expect: each attempt
// reads the page afresh until the expectation holds or the step times out.

func assertVisible(s *stepRun, ctx context.Context, st protocol.Step) error {
	return s.poll(ctx, "for the element to be visible", func(ctx context.Context) error {
		return s.expectState(ctx, st.Target, "visible")
	})
}

// assertHidden passes when the element is hidden or no locator matches
// anything.
func assertHidden(s *stepRun, ctx context.Context, st protocol.Step) error {
	return s.poll(ctx, "for the element to be hidden", func(ctx context.Context) error {
		return s.expectState(ctx, st.Target, "hidden")
	})
}

func waitFor(s *stepRun, ctx context.Context, st protocol.Step) error {
	state := st.StateOrDefault()
	return s.poll(ctx, "for the element to be "+state, func(ctx context.Context) error {
		return s.expectState(ctx, st.Target, state)
	})
}

// expectState checks once that the target is visible, hidden, attached,
// detached, enabled, disabled, editable or readonly.
func (s *stepRun) expectState(ctx context.Context, t *protocol.Target, state string) error {
	el, err := s.resolve(ctx, t)
	var nf *notFound
	if errors.As(err, &nf) && nf.absent() {
		if state == "hidden" || state == "detached" {
			return nil
		}
		return fmt.Errorf("expected the element to be %s, but %s", state, nf.Error())
	}
	if err != nil {
		return err
	}
	switch state {
	case "attached":
		return nil
	case "detached":
		return errors.New("expected the element to be detached, but it is still in the page")
	case "enabled", "disabled", "editable", "readonly":
		return s.expectFlag(ctx, el, state)
	}
	v, err := callValue(ctx, s.r.tab.sess, el.obj, visibleJS)
	if err != nil {
		return err
	}
	if v.Bool() == (state == "visible") {
		return nil
	}
	if state == "visible" {
		return errors.New("expected the element to be visible, but it is hidden")
	}
	return errors.New("expected the element to be hidden, but it is visible")
}

func assertText(s *stepRun, ctx context.Context, st protocol.Step) error {
	return s.expectElement(ctx, st, "text", textJS)
}

func assertValue(s *stepRun, ctx context.Context, st protocol.Step) error {
	return s.expectElement(ctx, st, "value", valueJS)
}

// expectElement polls a string read from the target (read is a page
// function answering the string, or null when the element has none).
func (s *stepRun) expectElement(ctx context.Context, st protocol.Step, what, read string) error {
	m, err := newMatcher(st, s.r.mask)
	if err != nil {
		return err
	}
	return s.poll(ctx, "for the element", func(ctx context.Context) error {
		el, err := s.resolve(ctx, st.Target)
		if err != nil {
			return err
		}
		v, err := callValue(ctx, s.r.tab.sess, el.obj, read)
		if err != nil {
			return err
		}
		if v.Nil() {
			return permanent("the element has no %s: it is not an input, textarea or select", what)
		}
		return m.check(what, v.Str())
	})
}

func assertURL(s *stepRun, ctx context.Context, st protocol.Step) error {
	return s.expectPage(ctx, st, "URL", "location.href")
}

func assertTitle(s *stepRun, ctx context.Context, st protocol.Step) error {
	return s.expectPage(ctx, st, "title", "document.title")
}

// expectPage polls a string read from the page by expr.
func (s *stepRun) expectPage(ctx context.Context, st protocol.Step, what, expr string) error {
	m, err := newMatcher(st, s.r.mask)
	if err != nil {
		return err
	}
	return s.poll(ctx, "for the page", func(ctx context.Context) error {
		v, err := evalValue(ctx, s.r.tab.sess, expr)
		if err != nil {
			return err
		}
		return m.check(what, v.Str())
	})
}

// matcher compares a string with a step's expected value as its match
// mode says: equals (whole text, whitespace normalised), contains (also
// normalised) or regex (Go syntax, on the text as read); with not (the
// step's not: true) it holds when that comparison does not.
type matcher struct {
	mode, expected string
	not            bool
	re             *regexp.Regexp
	mask           *masker // masks the expected value and what the page shows before they are quoted for a message
}

func newMatcher(st protocol.Step, mask *masker) (*matcher, error) {
	if st.Expected == nil {
		return nil, permanent("the step has no expected value")
	}
	m := &matcher{mode: st.MatchOrDefault(), expected: *st.Expected, not: st.Not, mask: mask}
	switch m.mode {
	case "equals", "contains":
	case "regex":
		re, err := regexp.Compile(m.expected)
		if err != nil {
			return nil, permanent("invalid regular expression %s: %v", strconv.Quote(m.expected), err)
		}
		m.re = re
	default:
		return nil, permanent("unknown match %q: use equals, contains or regex", m.mode)
	}
	return m, nil
}

// check returns nil when actual matches, else an error saying how not.
func (m *matcher) check(what, actual string) error {
	var ok bool
	switch m.mode {
	case "equals":
		ok = normSpace(actual) == normSpace(m.expected)
	case "contains":
		ok = strings.Contains(normSpace(actual), normSpace(m.expected))
	case "regex":
		ok = m.re.MatchString(actual)
	}
	if ok != m.not {
		return nil
	}
	// Both sides are masked before they are quoted: a quoted escape of an
	// escaped form (a script's JSON.stringify of a secret) is no form the
	// masker knows.
	return fmt.Errorf("expected the %s %s %s, but it is %s", what, m.verb(), strconv.Quote(m.mask.String(m.expected)), strconv.Quote(clip(m.mask.String(actual), 300)))
}

// clip shortens s to n runes for messages.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
