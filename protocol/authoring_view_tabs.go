package protocol

// Drags and tabs in the live view (authoring_view.go). A person recording
// through the picture of a headless agent's page can neither hold a mouse
// button across several inputs nor see the browser's tab strip, so:
//
//   - kind drag is one whole gesture: the agent moves to X, Y, presses the
//     left button, moves in steps to ToX, ToY and releases there, as a
//     person's hand would (an HTML5 drag carried on with drag events, as
//     the runner's dragTo does). Both points are frame pixels.
//   - every frame carries the session's open tabs (Tabs, in opening order,
//     the one the view shows Current); kind tab shows tab Index in the view
//     (the next action there is recorded after a switchTab), kind closeTab
//     closes it (recorded as closeTab; the view goes to its opener). These
//     two come with a ReqID, answered by author.input.done: Error when the
//     tab is not there any more.

// MsgAuthorInputDone answers an author.input that carried a ReqID.
const MsgAuthorInputDone = "author.input.done"

// Bounds of a frame's tabs.
const (
	// MaxViewTabs bounds the tabs a frame lists and an index.
	MaxViewTabs = 50
	// MaxTabTitle and MaxTabURL bound a listed tab's title and address,
	// in characters.
	MaxTabTitle = 200
	MaxTabURL   = 500
)

// ViewTab is one open tab of a watched session.
type ViewTab struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Current bool   `json:"current"`
}

// Clip shortens a tab's title and address to their bounds.
func (t ViewTab) Clip() ViewTab {
	t.Title, t.URL = clipRunes(t.Title, MaxTabTitle), clipRunes(t.URL, MaxTabURL)
	return t
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// checkMore checks the kinds drag, tab and closeTab.
func (in ViewInput) checkMore(width, height int) []Issue {
	var l issueList
	switch in.Kind {
	case InputDrag:
		if width <= 0 || height <= 0 {
			l.add("", CodeConflict, "the view has no picture yet: open it (GET .../view) and wait for its first frame")
			break
		}
		point := func(path string, v *float64, size int, what string) {
			switch {
			case v == nil:
				l.add(path, CodeRequired, "%s is required: where the drag %s", path, what)
			case !finite(*v) || *v < 0 || *v > float64(size):
				l.add(path, CodeRange, "%s must be a number from 0 to the frame's %s (%d)", path, map[bool]string{true: "width", false: "height"}[path == "x" || path == "toX"], size)
			}
		}
		point("x", &in.X, width, "starts")
		point("y", &in.Y, height, "starts")
		point("toX", in.ToX, width, "ends")
		point("toY", in.ToY, height, "ends")
	case InputTab, InputCloseTab:
		switch {
		case in.Index == nil:
			l.add("index", CodeRequired, "index is required: the tab's place in the frame's tabs, from 0")
		case *in.Index < 0 || *in.Index >= MaxViewTabs:
			l.add("index", CodeRange, "index must be from 0 to %d", MaxViewTabs-1)
		}
	}
	return l
}
