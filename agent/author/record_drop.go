package author

import (
	"slices"
	"strings"

	"github.com/testautomation/ta/protocol"
)

// stableDrop orders a drop target's locators so that one naming the
// element by its id comes before those naming it by its text: a drop
// zone's text is what the drop changes (the card dropped into "Done"
// makes its text "Done Write report"), so the second card dragged there
// would no longer find it by "Done". Without an id the order stays.
func stableDrop(t *protocol.Target) {
	if t == nil {
		return
	}
	byID := slices.IndexFunc(t.Locators, func(l protocol.Locator) bool {
		return l.Kind == "testId" || l.Kind == "css" && strings.HasPrefix(l.Value, "#") && !strings.ContainsAny(l.Value, " >.:[")
	})
	if byID <= 0 {
		return
	}
	byText := func(l protocol.Locator) bool {
		return l.Kind == "text" || l.Kind == "xpath" && strings.Contains(l.Value, "normalize-space()")
	}
	if !slices.ContainsFunc(t.Locators[:byID], byText) {
		return
	}
	id := t.Locators[byID]
	rest := slices.Delete(slices.Clone(t.Locators), byID, byID+1)
	first := slices.IndexFunc(rest, byText)
	t.Locators = slices.Insert(rest, first, id)
}
