package protocol

// The blocks of an imported Selenium IDE test: the markers the control
// flow commands leave in the flat list of steps (selenium_flow.go) are
// paired into if, repeat and forEach blocks, each step keeping the
// command it came from.

import (
	"fmt"
	"strings"
)

// node is a step of the tree being built, with the index of the command
// that made it and, for a block, its steps (an if's then and else).
type node struct {
	step      Step
	from      int
	body, els []node
}

// flowIssue is a command whose block does not pair: at is its index.
type flowIssue struct {
	at  int
	msg string
}

// treeBuilder pairs the markers of a flat list into blocks.
type treeBuilder struct {
	steps  []Step
	from   []int
	i      int
	count  int // steps made so far, do's copies included
	issues []flowIssue
	// dropped are the block commands left out (converter.dropped): a do
	// whose repeatIf is adds its steps' commands.
	dropped map[int]string
}

// tree builds the blocks of the converter's steps. Unpaired markers (an
// end without a block, a block without its end, an else outside an if)
// are issues at their command: Selenium IDE does not play such a test
// either.
func (c *converter) tree() ([]node, []flowIssue) {
	if c.dropped == nil {
		c.dropped = map[int]string{}
	}
	b := &treeBuilder{steps: c.steps, from: c.from, dropped: c.dropped}
	var out []node
	for {
		out = append(out, b.list(0)...)
		if b.i >= len(b.steps) || len(b.issues) > 0 {
			break
		}
		s := b.steps[b.i]
		b.fail(b.i, "%s without %s", s.Type, map[string]string{
			markEnd: "an if, times, while or forEach before it to end", markElse: "an if before it",
			markElseIf: "an if before it", markRepeatIf: "a do before it"}[s.Type])
		b.i++
	}
	return out, b.issues
}

func (b *treeBuilder) fail(k int, format string, args ...any) {
	b.issues = append(b.issues, flowIssue{at: b.from[k], msg: fmt.Sprintf(format, args...)})
}

// list reads steps until a marker that closes or splits a block (left
// for the caller) or the end of the list.
func (b *treeBuilder) list(depth int) []node {
	var out []node
	for b.i < len(b.steps) && len(b.issues) == 0 {
		s, k := b.steps[b.i], b.i
		switch s.Type {
		case markEnd, markElse, markElseIf, markRepeatIf:
			return out
		}
		b.i++
		b.count++
		if !flowMark(s.Type) {
			out = append(out, node{step: s, from: b.from[k]})
			continue
		}
		if depth >= MaxDepth {
			b.fail(k, "blocks nest more than %d deep", MaxDepth)
			return out
		}
		switch s.Type {
		case TypeIf:
			out = append(out, b.ifBlock(s, k, depth))
		case TypeRepeat, TypeForEach:
			n := node{step: s, from: b.from[k], body: b.list(depth + 1)}
			if b.closer(k, markEnd) {
				out = append(out, n)
			}
		case markDo:
			out = append(out, b.doBlock(k, depth)...)
		}
	}
	return out
}

// closer consumes the marker that must close the block opened at k.
func (b *treeBuilder) closer(k int, want string) bool {
	if len(b.issues) > 0 {
		return false
	}
	name := b.steps[k].Type
	if name == TypeRepeat || name == TypeForEach {
		name = "the loop"
	}
	switch {
	case b.i >= len(b.steps):
		b.fail(k, "%s has no %s", name, want)
		return false
	case b.steps[b.i].Type != want:
		b.fail(b.i, "%s where %s of command %d needs %s", b.steps[b.i].Type, name, b.from[k]+1, want)
		return false
	}
	b.i++
	return true
}

// ifBlock reads an if's then steps and what follows them: end, else and
// its steps, or an elseIf, which is an if alone in else.
func (b *treeBuilder) ifBlock(s Step, k, depth int) node {
	n := node{step: s, from: b.from[k], body: b.list(depth + 1)}
	if len(b.issues) > 0 {
		return n
	}
	if b.i >= len(b.steps) {
		b.fail(k, "if has no end")
		return n
	}
	switch m := b.steps[b.i]; m.Type {
	case markEnd:
		b.i++
	case markElse:
		b.i++
		n.els = b.list(depth + 1)
		if b.i < len(b.steps) && (b.steps[b.i].Type == markElse || b.steps[b.i].Type == markElseIf) {
			b.fail(b.i, "%s after else: else comes last in an if", b.steps[b.i].Type)
			return n
		}
		b.closer(k, markEnd)
	case markElseIf:
		k2 := b.i
		if depth+1 >= MaxDepth {
			b.fail(k2, "blocks nest more than %d deep: an elseIf is an if inside the else before it", MaxDepth)
			return n
		}
		b.i++
		b.count++
		m.Type = TypeIf
		n.els = []node{b.ifBlock(m, k2, depth+1)}
	default:
		b.fail(b.i, "%s inside an if: the if of command %d needs end first", m.Type, b.from[k]+1)
	}
	return n
}

// doBlock reads do ... repeatIf: the steps run once, then again while
// the condition holds, so they come once and then inside a repeat with
// the condition (a copy: its steps get ids of their own).
func (b *treeBuilder) doBlock(k, depth int) []node {
	body := b.list(depth + 1)
	if len(b.issues) > 0 {
		return nil
	}
	if b.i >= len(b.steps) || b.steps[b.i].Type != markRepeatIf {
		if b.i < len(b.steps) {
			b.fail(b.i, "%s inside a do: the do of command %d needs repeatIf first", b.steps[b.i].Type, b.from[k]+1)
		} else {
			b.fail(k, "do has no repeatIf")
		}
		return nil
	}
	r := b.steps[b.i]
	rk := b.i
	b.i++
	if why, ok := b.dropped[b.from[rk]]; ok {
		// Without its repeatIf the do is not what the test meant: its
		// steps go with it.
		inside(body, b.dropped, b.from[k], "do", why)
		return nil
	}
	b.count += nodeCount(body) + 1
	if b.count > MaxSteps {
		b.fail(rk, "the test has more than %d steps once the steps of do are written twice", MaxSteps)
		return nil
	}
	r.Type = TypeRepeat
	return append(body, node{step: r, from: b.from[rk], body: copyNodes(body)})
}

func nodeCount(ns []node) int {
	n := len(ns)
	for _, x := range ns {
		n += nodeCount(x.body) + nodeCount(x.els)
	}
	return n
}

// copyNodes copies steps for a second place in the tree, without their
// ids (each gets its own when the document is normalised).
func copyNodes(ns []node) []node {
	if ns == nil {
		return nil
	}
	out := make([]node, len(ns))
	for i, n := range ns {
		n.step = CloneSteps([]Step{n.step})[0]
		n.step.ID = ""
		n.body, n.els = copyNodes(n.body), copyNodes(n.els)
		out[i] = n
	}
	return out
}

// nodeSteps makes the tree's steps.
func nodeSteps(ns []node) []Step {
	out := make([]Step, len(ns))
	for i, n := range ns {
		s := n.step
		if IsBlock(s.Type) {
			s.Steps = nodeSteps(n.body)
			s.Else = nil
			if s.Type == TypeIf {
				s.Else = nodeSteps(n.els)
			}
		}
		out[i] = s
	}
	return out
}

// nodePaths maps each step's path in the document (steps[3].else[0]) to
// the command that made it.
func nodePaths(ns []node, base string, m map[string]int) map[string]int {
	for i, n := range ns {
		p := index(base, i)
		m[p] = n.from
		nodePaths(n.body, p+".steps", m)
		nodePaths(n.els, p+".else", m)
	}
	return m
}

// commandOf finds the command that made the step an issue's path is in:
// the longest prefix of the path that names a step.
func commandOf(paths map[string]int, path string) (int, bool) {
	for p := path; p != ""; {
		if j, ok := paths[p]; ok {
			return j, true
		}
		k := strings.LastIndexByte(p, '.')
		if k < 0 {
			break
		}
		p = p[:k]
	}
	return 0, false
}

// dropNodes leaves out the steps of the commands in bad; a block left out
// takes its steps along, and their commands are added to bad with the
// reason.
func dropNodes(ns []node, bad map[int]string) []node {
	var out []node
	for _, n := range ns {
		if why, ok := bad[n.from]; ok {
			if IsBlock(n.step.Type) {
				inside(n.body, bad, n.from, n.step.Type, why)
				inside(n.els, bad, n.from, n.step.Type, why)
			}
			continue
		}
		n.body, n.els = dropNodes(n.body, bad), dropNodes(n.els, bad)
		out = append(out, n)
	}
	return out
}

func inside(ns []node, bad map[int]string, at int, typ, why string) {
	for _, n := range ns {
		if _, ok := bad[n.from]; !ok && n.from != at {
			bad[n.from] = fmt.Sprintf("inside the %s of command %d, which was left out: %s", typ, at+1, why)
		}
		inside(n.body, bad, at, typ, why)
		inside(n.els, bad, at, typ, why)
	}
}
