package runner

import (
	"context"
	"fmt"

	"github.com/testautomation/ta/protocol"
)

// stepFuncs performs each step type of protocol.Registry.
var stepFuncs = map[string]stepFunc{
	"navigate": navigate, "click": clickN(1), "dblclick": clickN(2), "hover": hover, "fill": fill,
	"press": press, "select": selectOption, "check": checkTo(true), "uncheck": checkTo(false),
	"assertVisible": assertVisible, "assertHidden": assertHidden, "assertText": assertText,
	"assertValue": assertValue, "assertUrl": assertURL, "assertTitle": assertTitle,
	"wait": wait, "waitFor": waitFor, "screenshot": screenshotStep, "setVariable": setVariable,
	"script": script, "callComponent": callComponent,
	"dialog": dialogStep, "switchTab": switchTab, "closeTab": closeTab, "dragTo": dragTo, "mouse": mouseStep,
	"goBack": goBack, "goForward": goForward, "reload": reload, "setViewport": setViewport,
}

func hover(s *stepRun, ctx context.Context, st protocol.Step) error {
	return s.act(ctx, st.Target, hoverChecks, hoverGesture, s.r.move)
}

// fill replaces the content of an input, textarea or editable element:
// it selects what is there and types the value over it (Input.insertText,
// as Playwright does), or deletes it for an empty value. Inputs such as
// date and color get their value set directly.
func fill(s *stepRun, ctx context.Context, st protocol.Step) error {
	value := deref(st.Value)
	var el elem
	var mode string
	err := s.poll(ctx, "for the element", func(ctx context.Context) error {
		e, err := s.resolve(ctx, st.Target)
		if err != nil {
			return err
		}
		if _, err := s.ready(ctx, e, fillChecks); err != nil {
			return err
		}
		s.r.flush()
		v, err := callValue(ctx, s.r.tab.sess, e.obj, fillPrepJS)
		if err != nil {
			return err
		}
		if mode = v.Str(); mode != "type" && mode != "set" {
			return outcomeOf(v)
		}
		el = e
		return nil
	})
	if err != nil {
		return err
	}
	if mode == "set" {
		v, err := callValue(ctx, s.r.tab.sess, el.obj, fillSetJS, value)
		if err != nil {
			return err
		}
		return outcomeOf(v)
	}
	if value == "" {
		return s.r.press(ctx, "Delete")
	}
	return s.r.insertText(ctx, value)
}

// press presses a key on the target, focused first, or on the page.
func press(s *stepRun, ctx context.Context, st protocol.Step) error {
	if st.Key == "" {
		return permanent("press needs a key")
	}
	if _, _, err := parseKey(st.Key); err != nil {
		return err
	}
	if st.Target != nil && len(st.Target.Locators) > 0 {
		err := s.poll(ctx, "for the element", func(ctx context.Context) error {
			el, err := s.resolve(ctx, st.Target)
			if err != nil {
				return err
			}
			if _, err = callValue(ctx, s.r.tab.sess, el.obj, focusJS); err == nil {
				s.mark(ctx, el) // where it is when the key is pressed
			}
			return err
		})
		if err != nil {
			return err
		}
	}
	return s.r.press(ctx, st.Key)
}

func selectOption(s *stepRun, ctx context.Context, st protocol.Step) error {
	value := deref(st.Value)
	return s.poll(ctx, "for the element", func(ctx context.Context) error {
		el, err := s.resolve(ctx, st.Target)
		if err != nil {
			return err
		}
		if _, err := s.ready(ctx, el, selectChecks); err != nil {
			return err
		}
		s.r.flush()
		v, err := callValue(ctx, s.r.tab.sess, el.obj, selectJS, value)
		if err != nil {
			return err
		}
		return outcomeOf(v)
	})
}

// checkTo makes check and uncheck: nothing to do when the element already
// is in the state, else a click (guarded as click's is), after which the
// state must have changed.
func checkTo(want bool) stepFunc {
	verb := map[bool]string{true: "check", false: "uncheck"}[want]
	return func(s *stepRun, ctx context.Context, st protocol.Step) error {
		var el elem
		done := false
		err := s.poll(ctx, "for the element", func(ctx context.Context) error {
			e, err := s.resolve(ctx, st.Target)
			if err != nil {
				return err
			}
			state, err := s.r.checked(ctx, e)
			if err != nil || state == want {
				done = err == nil
				return err
			}
			if !want {
				if v, err := callValue(ctx, s.r.tab.sess, e.obj, isRadioJS); err == nil && v.Bool() {
					return permanent("cannot uncheck a radio button: check another one of its group")
				}
			}
			pt, err := s.ready(ctx, e, clickChecks)
			if err != nil {
				return err
			}
			s.r.flush()
			el = e
			return s.r.guarded(ctx, e, clickGesture, func() error { return s.r.click(ctx, pt, 1) })
		})
		if err != nil || done {
			return err
		}
		if state, err := s.r.checked(ctx, el); err != nil {
			return err
		} else if state != want {
			return fmt.Errorf("clicking the element did not %s it", verb)
		}
		return nil
	}
}

// checked reads a checkbox's state.
func (r *run) checked(ctx context.Context, el elem) (bool, error) {
	v, err := callValue(ctx, r.tab.sess, el.obj, checkedJS)
	if err != nil {
		return false, err
	}
	if b, ok := v.Val().(bool); ok {
		return b, nil
	}
	return false, outcomeOf(v)
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
