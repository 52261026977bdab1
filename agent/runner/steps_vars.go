package runner

import (
	"context"
	"fmt"
	"strconv"

	"github.com/testautomation/ta/protocol"
)

// setFrom reads what a setVariable step's from names: the target's text,
// value, attribute, match count or selected option's label, or the page's
// title or URL.
func (s *stepRun) setFrom(ctx context.Context, st protocol.Step, from string) (string, error) {
	switch from {
	case "title":
		v, err := evalValue(ctx, s.r.tab.sess, "document.title")
		return v.Str(), err
	case "url":
		v, err := evalValue(ctx, s.r.tab.sess, "location.href")
		return v.Str(), err
	case "count":
		n, err := s.count(ctx, st.Target)
		return strconv.Itoa(n), err
	case "selectedLabel":
		return s.selected(ctx, st.Target, "label")
	}
	read, args := "", []any(nil)
	switch from {
	case "text":
		read = textJS
	case "value":
		read = valueJS
	case "attribute":
		read, args = attributeJS, []any{st.Attribute}
	default:
		return "", permanent("unknown from %q: use text, value, attribute, count, title, url or selectedLabel", from)
	}
	el, err := s.resolve(ctx, st.Target)
	if err != nil {
		return "", err
	}
	v, err := callValue(ctx, s.r.tab.sess, el.obj, read, args...)
	if err != nil {
		return "", err
	}
	if v.Nil() {
		if from == "value" {
			return "", permanent("the element has no value: it is not an input, textarea or select")
		}
		return "", fmt.Errorf("the element has no attribute %q", st.Attribute)
	}
	return v.Str(), nil
}

// logStep shows its message (interpolated, masked like every used value)
// on the step: Selenium IDE's echo.
func logStep(s *stepRun, ctx context.Context, st protocol.Step) error {
	s.use("message", st.Message)
	return nil
}
