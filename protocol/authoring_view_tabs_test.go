package protocol

import (
	"math"
	"strings"
	"testing"
)

// TestViewInputCheckDragAndTabs: a drag needs both of its points inside
// the frame it was read on; a tab input needs an index from 0 to 49.
func TestViewInputCheckDragAndTabs(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	n := func(v int) *int { return &v }
	for _, c := range []struct {
		in   ViewInput
		w, h int
		path string // the first issue's path; "" when valid
	}{
		{ViewInput{Kind: InputDrag, X: 10, Y: 20, ToX: f(640), ToY: f(0)}, 640, 400, ""},
		{ViewInput{Kind: InputDrag, X: 0, Y: 400, ToX: f(0), ToY: f(400)}, 640, 400, ""},
		{ViewInput{Kind: InputDrag, X: 10, Y: 20}, 640, 400, "toX"},
		{ViewInput{Kind: InputDrag, X: 10, Y: 20, ToX: f(5)}, 640, 400, "toY"},
		{ViewInput{Kind: InputDrag, X: 641, Y: 20, ToX: f(5), ToY: f(5)}, 640, 400, "x"},
		{ViewInput{Kind: InputDrag, X: 1, Y: -1, ToX: f(5), ToY: f(5)}, 640, 400, "y"},
		{ViewInput{Kind: InputDrag, X: 1, Y: 1, ToX: f(640.5), ToY: f(5)}, 640, 400, "toX"},
		{ViewInput{Kind: InputDrag, X: 1, Y: 1, ToX: f(5), ToY: f(math.NaN())}, 640, 400, "toY"},
		{ViewInput{Kind: InputDrag, X: 1, Y: 1, ToX: f(5), ToY: f(math.Inf(-1))}, 640, 400, "toY"},
		{ViewInput{Kind: InputDrag, X: 1, Y: 1, ToX: f(5), ToY: f(5)}, 0, 0, "-"}, // no frame yet
		{ViewInput{Kind: InputTab, Index: n(0)}, 0, 0, ""},
		{ViewInput{Kind: InputTab, Index: n(MaxViewTabs - 1)}, 640, 400, ""},
		{ViewInput{Kind: InputCloseTab, Index: n(1)}, 0, 0, ""},
		{ViewInput{Kind: InputTab}, 0, 0, "index"},
		{ViewInput{Kind: InputCloseTab}, 0, 0, "index"},
		{ViewInput{Kind: InputTab, Index: n(-1)}, 0, 0, "index"},
		{ViewInput{Kind: InputCloseTab, Index: n(MaxViewTabs)}, 0, 0, "index"},
		{ViewInput{Kind: InputTab, Index: n(1), Modifiers: []string{"Hyper"}}, 0, 0, "modifiers"},
	} {
		issues := c.in.Check(c.w, c.h)
		switch {
		case c.path == "-":
			if len(issues) != 1 || issues[0].Code != CodeConflict {
				t.Errorf("%+v without a frame: %v", c.in, issues)
			}
		case c.path == "" && len(issues) > 0:
			t.Errorf("%+v: %v", c.in, issues)
		case c.path != "" && (len(issues) == 0 || issues[0].Path != c.path):
			t.Errorf("%+v: %v, want an issue at %s", c.in, issues, c.path)
		}
	}
}

func TestViewTabClip(t *testing.T) {
	tab := ViewTab{Title: strings.Repeat("é", MaxTabTitle+5), URL: "https://example.com/" + strings.Repeat("a", MaxTabURL)}.Clip()
	if n := len([]rune(tab.Title)); n != MaxTabTitle || !strings.HasSuffix(tab.Title, "…") {
		t.Errorf("title of %d characters: %q", n, tab.Title)
	}
	if n := len([]rune(tab.URL)); n != MaxTabURL {
		t.Errorf("url of %d characters", n)
	}
	if short := (ViewTab{Title: "Board", URL: "http://x/"}); short.Clip() != short {
		t.Errorf("a short tab changed: %+v", short.Clip())
	}
}
