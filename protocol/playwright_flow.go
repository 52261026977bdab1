package protocol

import (
	"strconv"
	"strings"
)

// Block steps in the Playwright export: real if, for and while that run
// unchanged. A condition on an element waits as the agent does (the
// block's timeout, ConditionWaitMs by default) and is false when the wait
// runs out; a loop throws at its max, as the agent fails it.

// flowStatement writes an if, repeat or forEach; false when s is none.
func (r *renderer) flowStatement(s Step) bool {
	switch s.Type {
	case TypeIf:
		r.line("if (" + r.condition(s, s.Condition) + ") {")
		r.block(s.Steps)
		for len(s.Else) == 1 && s.Else[0].Type == TypeIf && s.Else[0].Description == "" {
			// An else holding only an if is an else if.
			s = s.Else[0]
			r.line("} else if (" + r.condition(s, s.Condition) + ") {")
			r.block(s.Steps)
		}
		if len(s.Else) > 0 {
			r.line("} else {")
			r.block(s.Else)
		}
		r.line("}")
	case TypeRepeat:
		r.repeat(s)
	case TypeForEach:
		r.forEach(s)
	default:
		return false
	}
	return true
}

// block writes a block's steps one level in.
func (r *renderer) block(steps []Step) {
	r.depth++
	r.steps(steps)
	r.depth--
}

func (r *renderer) repeat(s Step) {
	i := r.fresh("i")
	max := s.MaxOrDefault()
	var test []string
	if s.Times != nil {
		test = append(test, i+" < "+strconv.Itoa(*s.Times))
	}
	if s.While != nil {
		test = append(test, r.condition(s, s.While))
	}
	r.line("for (let " + i + " = 0; " + strings.Join(test, " && ") + "; " + i + "++) {")
	if s.While != nil && (s.Times == nil || *s.Times > max) {
		r.line("  if (" + i + " >= " + strconv.Itoa(max) + ") throw new Error(" + jsQuote("repeat "+s.ID+" stopped: its condition still held after max "+strconv.Itoa(max)+" iterations") + ");")
	}
	r.block(s.Steps)
	r.line("}")
}

func (r *renderer) forEach(s Step) {
	item := r.ident(s.AsOrDefault())
	if s.Items == nil {
		r.comment("step " + s.ID + " (forEach) has no items")
		return
	}
	if s.Items.Ref == "" {
		list := make([]string, len(s.Items.List))
		for i, v := range s.Items.List {
			list[i] = r.str(v)
		}
		r.line("for (const " + item + " of [" + strings.Join(list, ", ") + "]) {")
		r.block(s.Steps)
		r.line("}")
		return
	}
	list := r.fresh("items")
	r.line("const " + list + " = listItems(" + r.str(s.Items.Ref) + ");")
	max := s.MaxOrDefault()
	r.line("if (" + list + ".length > " + strconv.Itoa(max) + ") throw new Error(" + jsQuote("forEach "+s.ID+": the list has more than max "+strconv.Itoa(max)+" items") + ");")
	r.line("for (const " + item + " of " + list + ") {")
	r.block(s.Steps)
	r.line("}")
}

// condition is a boolean expression (awaited where it must be) for c.
func (r *renderer) condition(s Step, c *Condition) string {
	if c == nil {
		return "false"
	}
	wait := s.TimeoutMs
	if wait == 0 {
		wait = ConditionWaitMs
	}
	timeout := "timeout: " + strconv.Itoa(wait)
	held := ".then(() => true, () => false)"
	loc := ""
	if c.Target != nil && len(c.Target.Locators) > 0 {
		loc = r.locator(c.Target)
	}
	switch c.Kind {
	case "visible", "hidden":
		return "await " + loc + ".waitFor({ state: '" + c.Kind + "', " + timeout + " })" + held
	case "exists":
		return "await " + loc + ".waitFor({ state: 'attached', " + timeout + " })" + held
	case "text", "value":
		method, want := "toHaveText", ""
		if c.Kind == "value" {
			method = "toHaveValue"
		}
		switch c.MatchOrDefault() {
		case "equals":
			want = r.str(deref(c.Expected))
		case "regex":
			want = r.regex(deref(c.Expected))
		default:
			if c.Kind == "text" {
				method, want = "toContainText", r.str(deref(c.Expected))
			} else {
				want = "new RegExp(escapeRegExp(" + r.str(deref(c.Expected)) + "))"
			}
		}
		return "await expect(" + loc + ")." + method + "(" + want + ", { " + timeout + " })" + held
	case "variable":
		v := r.refExpr(c.Name)
		if c.Expected == nil {
			return "!['', 'false', '0'].includes(" + v + ")"
		}
		return r.textMatches(v, *c.Expected, c.MatchOrDefault())
	case "script":
		body, refs := scriptBody(c.Code)
		param, arg := "()", ""
		if len(refs) > 0 {
			param, arg = "(vars)", ", "+r.varsObject(refs)
		}
		return "!!(await page.evaluate(" + param + " => (" + strings.TrimSpace(body) + ")" + arg + "))"
	}
	return "false"
}

// loopNames are the variables forEach steps hold their items in and that
// no step outside such a loop reads: the loop declares them, so the test
// does not.
func loopNames(steps []Step) map[string]bool {
	out := map[string]bool{}
	for _, s := range AllSteps(steps) {
		if s.Type == TypeForEach {
			out[s.AsOrDefault()] = true
		}
	}
	var outside func(steps []Step, in map[string]bool)
	outside = func(steps []Step, in map[string]bool) {
		for _, s := range steps {
			for _, text := range stepTexts(s) {
				for _, ref := range References(text) {
					if !in[refBase(ref)] {
						delete(out, refBase(ref))
					}
				}
			}
			inner := in
			if s.Type == TypeForEach {
				inner = map[string]bool{s.AsOrDefault(): true}
				for k := range in {
					inner[k] = true
				}
			}
			outside(s.Steps, inner)
			outside(s.Else, in)
		}
	}
	outside(steps, map[string]bool{})
	return out
}
