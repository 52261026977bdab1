package protocol

// Selenium IDE's control flow (docs/flow.md ".side import"): if, elseIf,
// else, end, times, while, do, repeatIf and forEach become the blocks if,
// repeat and forEach. A command converts into a marker in the flat list
// of steps (so what the converter keeps by step index, the dialogs, keeps
// working); tree builds the blocks from the markers at the end.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Markers of the flat list that are no steps of their own: they close or
// split the block an if, repeat or forEach marker opened.
const (
	markElse     = "else"
	markElseIf   = "elseIf"
	markEnd      = "end"
	markDo       = "do"
	markRepeatIf = "repeatIf"
)

// flowMark reports whether a step of the flat list is a control flow
// marker rather than a step a command made.
func flowMark(typ string) bool {
	switch typ {
	case TypeIf, TypeRepeat, TypeForEach, markElse, markElseIf, markEnd, markDo, markRepeatIf:
		return true
	}
	return false
}

// wordless markers take no description: a comment on them goes to the
// next step.
func wordless(typ string) bool { return typ == markElse || typ == markEnd || typ == markDo }

// script condition: Selenium IDE evaluates its target as a JavaScript
// expression in the page, ${name} being the variable's value, as our
// script condition does.
func (c *converter) seCondition(cmd seCommand) *Condition {
	code := strings.TrimSpace(cmd.Target)
	if code == "" {
		c.dropBlock(cmd, "%s needs a condition in target, a JavaScript expression such as ${count} > 3", cmd.Command)
	}
	return &Condition{Kind: "script", Code: code}
}

// dropBlock records why a block command cannot be imported: its block is
// left out whole, with the commands in it (the markers stay, so that the
// blocks after it still pair their ends).
func (c *converter) dropBlock(cmd seCommand, format string, args ...any) {
	if c.dropped == nil {
		c.dropped = map[int]string{}
	}
	if _, ok := c.dropped[c.at]; !ok {
		c.dropped[c.at] = fmt.Sprintf(format, args...)
	}
}

// loopLimit reads a loop command's value, Selenium IDE's loop limit (1000
// when empty), as the block's max.
func (c *converter) loopLimit(cmd seCommand) *int {
	v := strings.TrimSpace(cmd.Value)
	if v == "" {
		return nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 1 || f > MaxIterations {
		c.dropBlock(cmd, "the loop limit in value must be a number from 1 to %d", MaxIterations)
		return nil
	}
	return Ptr(int(math.Floor(f)))
}

func seIf(c *converter, cmd seCommand) []Step {
	return []Step{{Type: TypeIf, Condition: c.seCondition(cmd)}}
}

func seElseIf(c *converter, cmd seCommand) []Step {
	return []Step{{Type: markElseIf, Condition: c.seCondition(cmd)}}
}

func seMark(typ string) commandFunc {
	return func(*converter, seCommand) []Step { return []Step{{Type: typ}} }
}

func seWhile(c *converter, cmd seCommand) []Step {
	return []Step{{Type: TypeRepeat, While: c.seCondition(cmd), Max: c.loopLimit(cmd)}}
}

func seRepeatIf(c *converter, cmd seCommand) []Step {
	return []Step{{Type: markRepeatIf, While: c.seCondition(cmd), Max: c.loopLimit(cmd)}}
}

// seTimes: a number is a repeat's times (Selenium IDE rounds it down); a
// ${variable} is known only when the test runs, so a script step first
// makes the list 1..n from it and a forEach goes through that list (the
// loop's steps stay as they were; the variable times<N>, N the command's
// number, holds the iteration, from 1). The list is JSON text, which a
// forEach reads the same in a run and in the Playwright export.
func seTimes(c *converter, cmd seCommand) []Step {
	t := strings.TrimSpace(cmd.Target)
	max := c.loopLimit(cmd)
	if refs := References(t); len(refs) > 0 {
		name := "times" + strconv.Itoa(c.at+1)
		code := "const t = " + seText(t) + ";\n" +
			"const n = Math.floor(Number(t));\n" +
			"if (Number.isNaN(n)) throw new Error('times needs a number, not ' + JSON.stringify(t));\n" +
			"return JSON.stringify(Array.from({ length: Math.max(n, 0) }, (_, i) => i + 1));"
		return []Step{
			{Type: "script", Code: code, Assign: name + "list", Description: "times " + clip(t, 60) + ": the iterations to go through"},
			{Type: TypeForEach, Items: &Items{Ref: "${" + name + "list}"}, As: name, Max: max},
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		c.dropBlock(cmd, "times needs a number or a ${variable} in target")
		return []Step{{Type: TypeRepeat, Times: Ptr(0)}}
	}
	n := max0(int(math.Min(math.Floor(f), MaxIterations+1)))
	limit := DefaultMax
	if max != nil {
		limit = *max
	}
	if n > limit {
		c.dropBlock(cmd, "times %d is above the loop limit %d: Selenium IDE stops such a loop with an error", n, limit)
	}
	return []Step{{Type: TypeRepeat, Times: Ptr(n), Max: max}}
}

// seText is the JavaScript expression of a text with references, as
// Selenium IDE interpolates it: "${n}" is String(${n}), the variable's
// value as text.
func seText(t string) string {
	segs, _ := splitRefs(t, false)
	parts := []string{"''"}
	for _, g := range segs {
		if g.IsRef {
			parts = append(parts, "String(${"+g.Ref+"})")
		} else {
			parts = append(parts, jsQuote(g.Text))
		}
	}
	return strings.Join(parts, " + ")
}

func max0(n int) int {
	if n < 0 {
		return 0
	}
	return n
}

// seForEach: the target names the variable holding the list (with or
// without ${}), the value the variable each item goes in.
func seForEach(c *converter, cmd seCommand) []Step {
	list := strings.TrimSpace(cmd.Target)
	if strings.HasPrefix(list, "${") && strings.HasSuffix(list, "}") {
		list = strings.TrimSpace(list[2 : len(list)-1])
	}
	as := strings.TrimSpace(cmd.Value)
	switch {
	case !identRe.MatchString(list):
		c.dropBlock(cmd, "forEach needs the name of the variable holding the list in target")
	case !identRe.MatchString(as):
		c.dropBlock(cmd, "forEach needs the name of the variable for each item in value")
	}
	return []Step{{Type: TypeForEach, Items: &Items{Ref: "${" + list + "}"}, As: as}}
}
