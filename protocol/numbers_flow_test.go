package protocol

import (
	"slices"
	"testing"
)

// TestDocumentStepNumbers: a tree is numbered as an outline, then-steps
// before else-steps, a call's steps inside a block as calls are. The web's
// run page numbers the same document the same way (web/src/pages/runs/
// outline.test.ts has this case).
func TestDocumentStepNumbers(t *testing.T) {
	doc := []Step{
		{ID: "open", Type: "navigate"},
		{ID: "banner", Type: TypeIf,
			Steps: []Step{{ID: "accept", Type: "click"}},
			Else: []Step{{ID: "other", Type: TypeIf,
				Steps: []Step{{ID: "x", Type: "click"}},
				Else:  []Step{{ID: "y", Type: "click"}}}}},
		{ID: "three", Type: TypeRepeat, Steps: []Step{{ID: "row.click", Type: "click", Call: "row"}, {ID: "row.say", Type: "log", Call: "row"}}},
		{ID: "each", Type: TypeForEach, Steps: []Step{{ID: "name", Type: "fill"}, {ID: "save", Type: "click"}}},
		{ID: "c.a", Type: "click", Call: "c"},
		{ID: "c.b", Type: "click", Call: "c"},
		{ID: "end", Type: "log"},
	}
	want := []string{"1", "2", "2.1", "2.2", "2.2.1", "2.2.2", "3", "3.1.1", "3.1.2", "4", "4.1", "4.2", "5.1", "5.2", "6"}
	if got := DocumentStepNumbers(doc); !slices.Equal(got, want) {
		t.Errorf("DocumentStepNumbers = %q, want %q", got, want)
	}
	// Without blocks, as StepNumbers.
	flat := []Step{{ID: "a"}, {ID: "b", Call: "s2"}, {ID: "c", Call: "s2"}, {ID: "d"}}
	if got := DocumentStepNumbers(flat); !slices.Equal(got, []string{"1", "2.1", "2.2", "3"}) {
		t.Errorf("DocumentStepNumbers(flat) = %q", got)
	}
}
