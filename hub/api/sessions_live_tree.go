package api

import "github.com/testautomation/ta/protocol"

// The editor's live session and blocks (docs/flow.md, "Live session"):
// the session runs whole top-level steps, so "from" and "to" a step inside
// a block mean from and to the block around it at the top; stepIds may
// name steps at any depth, and a named block runs whole.

// livePlaces maps every step id of a tree to the index of its top-level
// ancestor (its own for a top-level step) and whether it is inside a
// block.
func livePlaces(steps []protocol.Step) map[string]livePlace {
	out := map[string]livePlace{}
	for i := range steps {
		protocol.WalkSteps(steps[i:i+1], func(_ string, depth int, s *protocol.Step) bool {
			out[s.ID] = livePlace{top: i, inner: depth > 0}
			return true
		})
	}
	return out
}

type livePlace struct {
	top   int
	inner bool
}

// pickSteps are the steps want names, in the document's order: a block
// named runs whole (its steps named too run once, in it); a step inside a
// block runs alone, on the page as it is (variables the block would set,
// such as a forEach's item, hold what the session's last run left).
func pickSteps(steps []protocol.Step, want map[string]bool) []protocol.Step {
	var out []protocol.Step
	protocol.WalkSteps(protocol.CloneSteps(steps), func(_ string, _ int, s *protocol.Step) bool {
		if want[s.ID] {
			out = append(out, *s)
			return false
		}
		return true
	})
	return out
}

// stepsBefore are the steps that bring a fresh page to where step id
// happens: the top-level steps before it and, for a step inside blocks,
// the steps before it in each block on the way, as if each block took
// the way to it once (the branch it is in, without the condition; a
// loop's body once, a forEach's item not set). found is false when no
// step has that id.
func stepsBefore(steps []protocol.Step, id string) (before []protocol.Step, found bool) {
	for i := range steps {
		if steps[i].ID == id {
			return protocol.CloneSteps(steps[:i]), true
		}
		for _, list := range steps[i].Children() {
			if inner, ok := stepsBefore(list.Steps, id); ok {
				return append(protocol.CloneSteps(steps[:i]), inner...), true
			}
		}
	}
	return nil, false
}
