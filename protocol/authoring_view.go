package protocol

import (
	"fmt"
	"math"
	"regexp"
	"strings"
)

// The live view of an authoring session (any kind: record, pick, the
// editor's live session): the agent streams its page as JPEG frames while
// someone watches, and takes mouse and keyboard input sent through it.
//
//	hub → agent  author.view   Session, View.On: start (true) or stop
//	                           (false) the page's screencast. The hub sends
//	                           true when the first watcher comes and false
//	                           when the last one leaves.
//	agent → hub  author.frame  Session, Frame: one JPEG of the page, base64
//	                           in the JSON, with the size and the page's
//	                           CSS size it maps to. At most ViewMaxFPS a
//	                           second, only while the view is on. While a
//	                           JavaScript dialog is open on the page, its
//	                           frames carry it (Dialog): the picture does
//	                           not show it, and a headless page has nobody
//	                           else to answer it. When one opens, the
//	                           agent sends the last picture again with it
//	                           at once; when it closes, without it.
//	                           Likewise while a page asks for a file (an
//	                           <input type=file> clicked: FileChooser):
//	                           the browser's chooser is not shown while the
//	                           view is on (nobody could see it).
//	hub → agent  author.input  Session, Input: a click, move, wheel, key or
//	                           text, with coordinates in the frame's pixels
//	                           (the hub checked them against the last frame
//	                           it relayed). The agent sends it as real
//	                           input (CDP Input.dispatch*), in CSS pixels.
//	                           Kind dialog answers the open dialog instead
//	                           (Accept, Text for a prompt; no coordinates):
//	                           a recording records the answer as its step.
//	                           Kind files answers the page's file chooser
//	                           with project files (Files, fil_...; none:
//	                           cancel): the hub checked they are of the
//	                           session's project and lets the agent fetch
//	                           them for the session (GET /api/agent/files/
//	                           :id?session=); a recording records an
//	                           upload of those ids without offering them.
//	                           Nothing answers it: what it does shows in
//	                           the next frames, the steps and the picks.
//	                           Kind drag presses at X, Y and releases at
//	                           ToX, ToY (authoring_view_tabs.go).
//	                           Kinds tab and closeTab come with a ReqID:
//	agent → hub  author.input.done  the same ReqID once done, Error when
//	                           the tab is not there (closed meanwhile).
const (
	MsgAuthorView  = "author.view"
	MsgAuthorFrame = "author.frame"
	MsgAuthorInput = "author.input"
)

// Bounds of the live view.
const (
	// ViewMaxFPS bounds the frames a second the agent sends.
	ViewMaxFPS = 5
	// ViewQuality is the JPEG quality of a frame (0-100).
	ViewQuality = 60
	// ViewMaxWidth and ViewMaxHeight bound a frame's size in pixels.
	ViewMaxWidth  = 1280
	ViewMaxHeight = 1280
	// MaxViewFrame bounds one frame's JPEG in bytes; the hub drops bigger
	// ones.
	MaxViewFrame = 1 << 20
	// MaxInputText bounds the text of one text input.
	MaxInputText = 1000
)

// ViewToggle is what author.view carries.
type ViewToggle struct {
	On bool `json:"on"`
}

// ViewFrame is one picture of the page. Width and Height are the JPEG's
// pixels; PageWidth and PageHeight the CSS pixels of the viewport it
// shows (input at frame pixel x maps to CSS x*PageWidth/Width);
// ScrollX/ScrollY where the page is scrolled to.
type ViewFrame struct {
	Data       []byte  `json:"data"` // the JPEG (base64 in JSON)
	Width      int     `json:"width"`
	Height     int     `json:"height"`
	PageWidth  float64 `json:"pageWidth"`
	PageHeight float64 `json:"pageHeight"`
	ScrollX    float64 `json:"scrollX"`
	ScrollY    float64 `json:"scrollY"`
	// Dialog is the JavaScript dialog open on the page, nil when none.
	Dialog *ViewDialog `json:"dialog,omitempty"`
	// Tabs are the session's open tabs (authoring_view_tabs.go).
	Tabs []ViewTab `json:"tabs,omitempty"`
	// FileChooser is the file choice the page waits for, nil when none.
	FileChooser *ViewFileChooser `json:"fileChooser,omitempty"`
}

// ViewFileChooser is a file choice a watched page waits for (its
// <input type=file> was clicked); Multiple when it takes several files.
type ViewFileChooser struct {
	Multiple bool `json:"multiple"`
}

// MaxInputFiles bounds the files one files input chooses.
const MaxInputFiles = 20

// viewFileIDRe is a project file id (fil_...).
var viewFileIDRe = regexp.MustCompile(`^fil_[a-z0-9]{1,64}$`)

// ViewDialog is a JavaScript dialog open on a watched page. Type is alert,
// confirm, prompt or beforeunload (CDP's names); DefaultPrompt is what a
// prompt's box holds at first.
type ViewDialog struct {
	Type          string `json:"type"`
	Message       string `json:"message"`
	DefaultPrompt string `json:"defaultPrompt,omitempty"`
}

// DialogTypes are the types a ViewDialog may have.
var DialogTypes = map[string]bool{"alert": true, "confirm": true, "prompt": true, "beforeunload": true}

// Input kinds.
const (
	InputClick = "click"
	InputMove  = "move"
	InputWheel = "wheel"
	InputKey   = "key"
	InputText  = "text"
	// InputDialog answers the page's open dialog: Accept (OK) or not
	// (Cancel), Text the prompt's answer.
	InputDialog = "dialog"
	// InputDrag, InputTab and InputCloseTab: authoring_view_tabs.go.
	InputDrag     = "drag"
	InputTab      = "tab"
	InputCloseTab = "closeTab"
	// InputFiles answers the page's file chooser with project files
	// (Files); none cancels the choice.
	InputFiles = "files"
)

// ViewInput is one input sent through the view. X and Y are in the
// frame's pixels (for key and text: ignored). Button is left (default),
// middle or right; Clicks is the click's count, as a DOM event's detail:
// a double click is a click with 1, then one with 2. Key is one of InputKeys;
// Modifiers any of Alt, Control, Meta, Shift.
type ViewInput struct {
	Kind      string   `json:"kind"`
	X         float64  `json:"x"`
	Y         float64  `json:"y"`
	Button    string   `json:"button,omitempty"`
	Clicks    int      `json:"clicks,omitempty"`
	DeltaX    float64  `json:"deltaX,omitempty"`
	DeltaY    float64  `json:"deltaY,omitempty"`
	Key       string   `json:"key,omitempty"`
	Text      string   `json:"text,omitempty"`
	Accept    bool     `json:"accept,omitempty"` // kind dialog: OK (true) or Cancel
	Files     []string `json:"files,omitempty"`  // kind files: project file ids; none: cancel
	Modifiers []string `json:"modifiers,omitempty"`
	// PageWidth and PageHeight, set by the hub from the frame the
	// coordinates were read on, with FrameWidth and FrameHeight: the agent
	// maps X and Y to CSS pixels with them.
	FrameWidth  int     `json:"frameWidth,omitempty"`
	FrameHeight int     `json:"frameHeight,omitempty"`
	PageWidth   float64 `json:"pageWidth,omitempty"`
	PageHeight  float64 `json:"pageHeight,omitempty"`
	// ToX and ToY: where a drag ends; Index: the tab of kinds tab and
	// closeTab (authoring_view_tabs.go).
	ToX   *float64 `json:"toX,omitempty"`
	ToY   *float64 `json:"toY,omitempty"`
	Index *int     `json:"index,omitempty"`
}

// InputKeys are the key names a key input may send (the DOM's KeyboardEvent
// key values); printable text goes as a text input.
var InputKeys = map[string]bool{
	"Enter": true, "Tab": true, "Escape": true, "Backspace": true, "Delete": true, "Space": true,
	"ArrowUp": true, "ArrowDown": true, "ArrowLeft": true, "ArrowRight": true,
	"Home": true, "End": true, "PageUp": true, "PageDown": true, "Insert": true,
	"F1": true, "F2": true, "F3": true, "F4": true, "F5": true, "F6": true,
	"F7": true, "F8": true, "F9": true, "F10": true, "F11": true, "F12": true,
}

// InputModifiers are the modifier names an input may hold.
var InputModifiers = map[string]bool{"Alt": true, "Control": true, "Meta": true, "Shift": true}

// InputButtons are the mouse buttons a click may use.
var InputButtons = map[string]bool{"": true, "left": true, "middle": true, "right": true}

// Check validates an input against the frame it was read on (width and
// height in pixels; 0 when no frame was sent yet) and returns every issue.
func (in ViewInput) Check(width, height int) []Issue {
	var l issueList
	switch in.Kind {
	case InputDrag, InputTab, InputCloseTab:
		l = append(l, in.checkMore(width, height)...)
	case InputClick, InputMove, InputWheel:
		if width <= 0 || height <= 0 {
			l.add("", CodeConflict, "the view has no picture yet: open it (GET .../view) and wait for its first frame")
			break
		}
		if !finite(in.X) || in.X < 0 || in.X > float64(width) {
			l.add("x", CodeRange, "x must be a number from 0 to the frame's width (%d)", width)
		}
		if !finite(in.Y) || in.Y < 0 || in.Y > float64(height) {
			l.add("y", CodeRange, "y must be a number from 0 to the frame's height (%d)", height)
		}
	case InputKey:
		if !InputKeys[in.Key] && !shortcut(in) {
			l.add("key", CodeEnum, "key must be a key name such as Enter, Tab, Escape, Backspace, ArrowDown or F5 (or a letter or digit with Control, Alt or Meta); type text as kind text")
		}
	case InputText:
		switch {
		case in.Text == "":
			l.add("text", CodeRequired, "text is required")
		case len([]rune(in.Text)) > MaxInputText:
			l.add("text", CodeTooLong, "text is longer than %d characters", MaxInputText)
		case strings.ContainsFunc(in.Text, control):
			l.add("text", CodeFormat, "text must not hold control characters: send Enter and the like as kind key")
		}
	case InputDialog:
		// An empty answer is an answer: a prompt accepted with its box
		// emptied.
		switch {
		case len([]rune(in.Text)) > MaxInputText:
			l.add("text", CodeTooLong, "text is longer than %d characters", MaxInputText)
		case strings.ContainsFunc(in.Text, control):
			l.add("text", CodeFormat, "text must not hold control characters: a prompt's answer is one line")
		}
	case InputFiles:
		if len(in.Files) > MaxInputFiles {
			l.add("files", CodeTooLong, "files lists at most %d project files", MaxInputFiles)
			break
		}
		for i, id := range in.Files {
			if !viewFileIDRe.MatchString(id) {
				l.add(fmt.Sprintf("files[%d]", i), CodeFormat, "a file is a project file id such as fil_abc123")
			}
		}
	default:
		l.add("kind", CodeEnum, "kind must be click, move, wheel, drag, key, text, dialog, files, tab or closeTab")
	}
	if in.Kind != InputFiles && len(in.Files) > 0 {
		l.add("files", CodeFormat, "files goes only with kind files")
	}
	if !InputButtons[in.Button] {
		l.add("button", CodeEnum, "button must be left, middle or right")
	}
	if in.Clicks < 0 || in.Clicks > 3 {
		l.add("clicks", CodeRange, "clicks must be 1, 2 or 3")
	}
	const maxDelta = 10000
	if !finite(in.DeltaX) || math.Abs(in.DeltaX) > maxDelta || !finite(in.DeltaY) || math.Abs(in.DeltaY) > maxDelta {
		l.add("deltaX", CodeRange, "deltaX and deltaY must be numbers from -%d to %d", maxDelta, maxDelta)
	}
	if len(in.Modifiers) > len(InputModifiers) {
		l.add("modifiers", CodeTooLong, "modifiers lists at most Alt, Control, Meta and Shift")
	} else {
		for _, m := range in.Modifiers {
			if !InputModifiers[m] {
				l.add("modifiers", CodeEnum, "modifiers must be among Alt, Control, Meta and Shift")
				break
			}
		}
	}
	return l
}

// shortcut reports whether a key input is a letter or digit pressed with
// Control, Alt or Meta (select all, copy, a page's shortcuts).
func shortcut(in ViewInput) bool {
	if len(in.Key) != 1 || !(in.Key[0] >= 'a' && in.Key[0] <= 'z' || in.Key[0] >= 'A' && in.Key[0] <= 'Z' || in.Key[0] >= '0' && in.Key[0] <= '9') {
		return false
	}
	for _, m := range in.Modifiers {
		if m == "Control" || m == "Alt" || m == "Meta" {
			return true
		}
	}
	return false
}

func control(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
