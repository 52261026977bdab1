package runner

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// condition evaluates an if's condition or a repeat's while for the block
// at index i (docs/flow.md). A condition on an element waits as the
// assertion of the same kind does, bounded by the block's timeout (2 s
// by default), and is false when the wait runs out; what waiting cannot
// fix (an invalid regular expression, an unknown variable in a locator, a
// script that throws) fails the block.
func (r *run) condition(ctx context.Context, i int, block protocol.Step, c *protocol.Condition) (bool, error) {
	if c == nil {
		return false, permanent("the %s step has no condition", block.Type)
	}
	st := protocol.Step{ID: block.ID, Type: block.Type, Call: block.Call, Target: c.Target, Expected: c.Expected, Match: c.Match}
	st, err := r.interpolateStep(st)
	if err != nil {
		return false, err
	}
	s := &stepRun{r: r, index: i, step: st, attempts: 1, timeout: time.Duration(block.Timeout()) * time.Millisecond}
	var check stepFunc
	switch c.Kind {
	case "visible":
		check = assertVisible
	case "hidden":
		check = assertHidden
	case "exists":
		check = func(s *stepRun, ctx context.Context, st protocol.Step) error {
			return s.poll(ctx, "for the element to be in the page", func(ctx context.Context) error {
				return s.expectState(ctx, st.Target, "attached")
			})
		}
	case "text":
		check = assertText
	case "value":
		check = assertValue
	case "variable":
		return r.variableHolds(c)
	case "script":
		return s.scriptHolds(ctx, c.Code)
	default:
		return false, permanent("unknown condition kind %q", c.Kind)
	}
	if err := r.pageGone(); err != nil {
		return false, err
	}
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	err = check(s, cctx, st)
	switch {
	case err == nil:
		return true, nil
	case ctx.Err() != nil:
		return false, ctx.Err()
	case isPermanent(err) && !errors.Is(cctx.Err(), context.DeadlineExceeded):
		return false, err
	}
	return false, nil
}

// variableHolds tests a variable: against expected, or whether it is set
// and none of "", "false", "0". An unset variable does not hold.
func (r *run) variableHolds(c *protocol.Condition) (bool, error) {
	base, _, _ := strings.Cut(c.Name, ".")
	if _, ok := r.plain(base); !ok {
		return false, nil
	}
	v, err := r.value(c.Name)
	if err != nil {
		return false, err
	}
	if c.Expected == nil {
		return v != "" && v != "false" && v != "0", nil
	}
	want, err := r.interp(*c.Expected)
	if err != nil {
		return false, err
	}
	m, err := newMatcher(protocol.Step{Expected: &want, Match: c.Match}, r.mask)
	if err != nil {
		return false, err
	}
	return m.check("variable", v) == nil, nil
}

// scriptHolds evaluates a JavaScript expression in the page; ${name} is
// the variable's value, passed as an argument.
func (s *stepRun) scriptHolds(ctx context.Context, code string) (bool, error) {
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	res, err := s.runScript(cctx, "return !!(\n"+code+"\n);")
	if err != nil {
		return false, err
	}
	return res.Type == proto.RuntimeRemoteObjectTypeBoolean && res.Value.Bool(), nil
}
