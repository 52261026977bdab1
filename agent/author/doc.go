// Package author is the agent's authoring side: recording a test from a
// browser session, picking an element and getting its locators, and trying
// scripts. client.Author is its interface to the hub connection; Manager
// implements it.
//
// Layout of the package (two halves that meet in the contract below):
//   - manager.go, session*.go, frames.go, try.go, recorder.js: a browser
//     of its own (headed when the machine has a display, with
//     --remote-debugging-port when asked), a fresh incognito context per
//     session, the in-page script installed in an isolated world of every
//     frame, the binding it reports through, turning reports into captured
//     steps (fills merged, navigations attached, dblclick, hover, right
//     clicks, drags; dialogs in session_dialog.go, tabs the pages open in
//     session_tabs.go, chosen files in session_upload.go), picker
//     modes, previews, and scripts tried; in the page, recorder.js
//     captures what the user does, shows the overlay toolbar for
//     assertions, and in the picker's modes intercepts the pointer.
//   - locators.js and target.go: in the page, locator candidates with
//     Playwright-like scores, the element's description, and the picker's
//     highlight with the best locator; in Go, every candidate verified with
//     the runner's own locator engine and ranked into a
//     protocol.PickedTarget.
//
// inpage.go embeds recorder.js followed by locators.js as inpageJS; both
// are each one IIFE, `(() => { const A = (globalThis.__taAuthor ||= {}); ... })();`,
// adding to that object.
//
// Frames. The authoring browser runs with site isolation off
// (--disable-site-isolation-trials, --disable-features=
// IsolateOrigins,site-per-process), so every frame, cross-origin ones
// included, lives in the page's renderer and one CDP session on the page
// reaches them all; the runner's browser does the same so that recorded
// frame paths replay.
//
// The contract between the halves:
//
//   - inpageJS (inpage.go) is a script evaluated at document start in the
//     isolated world named worldName of every frame. It defines
//     globalThis.__taAuthor and reports by calling
//     globalThis[bindingName](jsonString) with a report.
//   - __taAuthor.setMode(mode): "record" (capture actions; the top frame
//     shows the overlay toolbar), "pick", "inspect" or "off" (see
//     protocol.ModePick...). Go calls it in every frame's world when the
//     mode changes and after a frame's world is created.
//   - __taAuthor.element(handle) returns the element a report named
//     (recorder.js keeps the handles).
//   - __taAuthor.candidates(el) -> [{kind, value, name?, exact?, score}],
//     best first, counted in the page only approximately;
//     __taAuthor.describe(el) -> {tag, text, role, name, attributes,
//     box: {x, y, width, height}, fingerprint: {...}};
//     __taAuthor.highlight(el | null) draws (or removes) the picker's
//     highlight with the best candidate as its label, bestLabel(el) is that
//     label, and retarget(el) turns an element inside a control (an icon's
//     <svg> in a button) into the control, as Playwright's selector
//     generator does (locators.js).
//   - describeTarget (target.go) turns an element into its verified,
//     ranked target and its description; frameLocator gives the locator of
//     an iframe element in its parent document (for Target.Frame).
package author

// worldName names the isolated world the in-page script runs in.
const worldName = "__ta_author"

// bindingName is the binding the in-page script reports through.
const bindingName = "__taAuthorReport"

// report is one message of the in-page script. Kind "action" is something
// the user did (Type: click, dblclick, fill, select, check, uncheck, press,
// hover, dragTo, assertVisible, assertText, assertValue; Value for fill and
// select, Key for press, Expected for assertions); kind "pick" is the
// element picked in mode pick. Handle names the element
// (__taAuthor.element(handle)); 0 for a press on the page. T is the page's
// Date.now() when it happened.
type report struct {
	Kind     string `json:"kind"`
	Type     string `json:"type,omitempty"`
	Handle   int    `json:"handle,omitempty"`
	Value    string `json:"value,omitempty"`
	Key      string `json:"key,omitempty"`
	Expected string `json:"expected,omitempty"`
	T        int64  `json:"t,omitempty"`
	// A click's button (right, middle; empty for left) and the modifier
	// keys held; a dragTo's drop element, with its snapshot.
	Button     string    `json:"button,omitempty"`
	Modifiers  []string  `json:"modifiers,omitempty"`
	To         int       `json:"to,omitempty"`
	Names      []string  `json:"names,omitempty"` // an upload's chosen files
	ToFallback *snapshot `json:"toFallback,omitempty"`
}
