package components

import (
	"encoding/json"

	"github.com/testautomation/ta/protocol"
)

// Change is one row of a step-level diff.
type Change struct {
	Op     string         `json:"op"` // same, add, remove, change
	Before *protocol.Step `json:"before,omitempty"`
	After  *protocol.Step `json:"after,omitempty"`
}

// Diff compares two step lists by content: the longest common
// subsequence of equal steps is "same"; between those, a removed and an
// added step with the same id or type pair up as "change", the rest are
// "remove" and "add".
func Diff(before, after []protocol.Step) []Change {
	key := func(s protocol.Step) string {
		b, _ := json.Marshal(s)
		return string(b)
	}
	a, b := make([]string, len(before)), make([]string, len(after))
	for i, s := range before {
		a[i] = key(s)
	}
	for i, s := range after {
		b[i] = key(s)
	}
	// lcs[i][j]: length of the LCS of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []Change
	var removed, added []protocol.Step
	flush := func() {
		for len(removed) > 0 || len(added) > 0 {
			switch {
			case len(removed) > 0 && len(added) > 0 && (removed[0].ID == added[0].ID || removed[0].Type == added[0].Type):
				out = append(out, Change{Op: "change", Before: ptr(removed[0]), After: ptr(added[0])})
				removed, added = removed[1:], added[1:]
			case len(removed) > 0:
				out = append(out, Change{Op: "remove", Before: ptr(removed[0])})
				removed = removed[1:]
			default:
				out = append(out, Change{Op: "add", After: ptr(added[0])})
				added = added[1:]
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			flush()
			out = append(out, Change{Op: "same", Before: ptr(before[i]), After: ptr(after[j])})
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			added = append(added, after[j])
			j++
		default:
			removed = append(removed, before[i])
			i++
		}
	}
	flush()
	if out == nil {
		out = []Change{}
	}
	return out
}

func ptr(s protocol.Step) *protocol.Step { return &s }

// Changed tells whether a diff changes anything.
func Changed(d []Change) bool {
	for _, c := range d {
		if c.Op != "same" {
			return true
		}
	}
	return false
}
