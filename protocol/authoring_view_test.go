package protocol

import (
	"math"
	"strings"
	"testing"
)

func TestViewInputCheck(t *testing.T) {
	for _, c := range []struct {
		in   ViewInput
		w, h int
		path string // the first issue's path; "" when valid
	}{
		{ViewInput{Kind: InputClick, X: 0, Y: 400}, 640, 400, ""},
		{ViewInput{Kind: InputClick, X: 640, Y: 0, Clicks: 2, Button: "right"}, 640, 400, ""},
		{ViewInput{Kind: InputWheel, X: 1, Y: 1, DeltaY: -300}, 640, 400, ""},
		{ViewInput{Kind: InputKey, Key: "Enter", Modifiers: []string{"Shift"}}, 0, 0, ""},
		{ViewInput{Kind: InputKey, Key: "a", Modifiers: []string{"Control"}}, 0, 0, ""},
		{ViewInput{Kind: InputText, Text: "ann@example.com\twith a tab"}, 0, 0, ""},
		{ViewInput{Kind: InputClick, X: 1, Y: 1}, 0, 0, ""}, // no frame yet: the issue has no path
		{ViewInput{Kind: InputClick, X: math.NaN(), Y: 1}, 640, 400, "x"},
		{ViewInput{Kind: InputMove, X: 1, Y: math.Inf(1)}, 640, 400, "y"},
		{ViewInput{Kind: InputKey, Key: "a"}, 0, 0, "key"},
		{ViewInput{Kind: InputKey, Key: "Meta"}, 0, 0, "key"},
		{ViewInput{Kind: InputText, Text: strings.Repeat("x", MaxInputText+1)}, 0, 0, "text"},
		{ViewInput{Kind: InputText, Text: "line\nbreak"}, 0, 0, "text"},
		{ViewInput{Kind: "swipe"}, 640, 400, "kind"},
		// A dialog's answer needs no frame; an empty prompt answer is one.
		{ViewInput{Kind: InputDialog, Accept: true, Text: "Ann"}, 0, 0, ""},
		{ViewInput{Kind: InputDialog, Accept: true}, 0, 0, ""},
		{ViewInput{Kind: InputDialog}, 640, 400, ""},
		{ViewInput{Kind: InputDialog, Accept: true, Text: "two\nlines"}, 0, 0, "text"},
		{ViewInput{Kind: InputDialog, Text: strings.Repeat("x", MaxInputText+1)}, 0, 0, "text"},
		{ViewInput{Kind: InputKey, Key: "Enter", Modifiers: []string{"Alt", "Alt", "Alt", "Alt", "Alt"}}, 0, 0, "modifiers"},
		// A file choice needs no frame; no files cancels it.
		{ViewInput{Kind: InputFiles, Files: []string{"fil_abc123", "fil_def"}}, 0, 0, ""},
		{ViewInput{Kind: InputFiles}, 640, 400, ""},
		{ViewInput{Kind: InputFiles, Files: []string{"fil_abc", "../etc/passwd"}}, 0, 0, "files[1]"},
		{ViewInput{Kind: InputFiles, Files: []string{"fil_ABC"}}, 0, 0, "files[0]"},
		{ViewInput{Kind: InputFiles, Files: make([]string, MaxInputFiles+1)}, 0, 0, "files"},
		{ViewInput{Kind: InputDialog, Files: []string{"fil_abc"}}, 0, 0, "files"},
	} {
		issues := c.in.Check(c.w, c.h)
		switch {
		case c.in.Kind == InputClick && c.w == 0:
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

// FuzzViewInputCheck: any input is judged without a panic, and one judged
// valid is inside the frame.
func FuzzViewInputCheck(f *testing.F) {
	f.Add("click", 10.0, 10.0, "", "Enter", 640, 400)
	f.Add("text", 0.0, 0.0, "héllo", "", 0, 0)
	f.Fuzz(func(t *testing.T, kind string, x, y float64, text, key string, w, h int) {
		in := ViewInput{Kind: kind, X: x, Y: y, Text: text, Key: key}
		if len(in.Check(w, h)) == 0 && (kind == InputClick || kind == InputMove || kind == InputWheel) {
			if !(x >= 0 && x <= float64(w) && y >= 0 && y <= float64(h)) {
				t.Fatalf("accepted %v,%v outside %dx%d", x, y, w, h)
			}
		}
	})
}
