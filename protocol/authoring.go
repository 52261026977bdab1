package protocol

import "encoding/json"

// Authoring sessions: recording, picking and trying scripts on an agent.
//
// The hub relays what the web app asks (/api/record/..., /api/pick/...,
// /api/scripts/try) to one connected agent of the caller and keeps the
// session's state; the agent drives a browser for it. Unlike run messages,
// authoring messages carry no ID and are never acknowledged nor sent
// again: a session lives on one connection, and when that connection ends
// the hub ends the session as error ("the agent disconnected") and the
// agent closes its browser for it.
//
// The life of a session (Session names it: rec_... or pck_...):
//
//	hub → agent  author.start   AuthorStart: record or pick, the start URL
//	                            (absolute: the hub resolved it against the
//	                            environment's base URL), whether to show a
//	                            window, or the recording whose page a
//	                            picker uses
//	agent → hub  author.status  Status starting → recording (record) or
//	                            ready (pick) once the page is open; stopped
//	                            or closed when it ended on request; error
//	                            with Error when the page cannot open, the
//	                            window was closed, or the browser died. URL
//	                            is the page's address now.
//	agent → hub  author.step    Captured: a recorded step. Captured.Seq
//	                            numbers the steps 1, 2, ...; a Seq sent
//	                            before replaces that step (typing into the
//	                            same field updates its one fill step).
//	agent → hub  author.picked  Picked: the element picked (mode pick)
//	hub → agent  author.mode    Mode: pick, inspect or off (picker)
//	hub → agent  author.preview ReqID: a screenshot of the session's page
//	agent → hub  author.preview ReqID, Artifact (content type, size) then
//	                            the PNG as one binary frame; or Error
//	hub → agent  author.stop    end the session: a recording sends its last
//	                            steps, then author.status stopped (picker:
//	                            closed) and closes its browser context
//
// Trying a script is one request and one answer:
//
//	hub → agent  script.try     ReqID, Try: the code, where to run it (a
//	                            recording's page, or a fresh context at a
//	                            URL), variables and secrets for ${...}, and
//	                            the time limit
//	agent → hub  script.result  ReqID, TryResult: value, console lines,
//	                            error, duration; secrets masked as ***
//
// The hub bounds what it keeps of a session (steps, sizes) and cleans and
// masks every text an agent sends, as for runs.
const (
	MsgAuthorStart   = "author.start"
	MsgAuthorStatus  = "author.status"
	MsgAuthorStep    = "author.step"
	MsgAuthorPicked  = "author.picked"
	MsgAuthorMode    = "author.mode"
	MsgAuthorPreview = "author.preview"
	MsgAuthorStop    = "author.stop"
	MsgScriptTry     = "script.try"
	MsgScriptResult  = "script.result"
	MsgPageGround    = "page.ground"
	MsgPageGrounded  = "page.grounded"
)

// Authoring session kinds.
const (
	AuthorRecord = "record"
	AuthorPick   = "pick"
)

// Session statuses. A recording is starting, then recording, then stopped
// or error; a picker is starting, then ready (picked once an element was
// picked; the hub derives that), then closed or error.
const (
	SessionStarting  = "starting"
	SessionRecording = "recording"
	SessionReady     = "ready"
	SessionPicked    = "picked"
	SessionStopped   = "stopped"
	SessionClosed    = "closed"
	SessionError     = "error"
)

// Picker modes: pick (hovering highlights, the next click picks the
// element and does not reach the page), inspect (highlight only), off (the
// page is used normally).
const (
	ModePick    = "pick"
	ModeInspect = "inspect"
	ModeOff     = "off"
)

// AuthorStart opens a session on the agent.
type AuthorStart struct {
	Kind string `json:"kind"` // record or pick
	// URL is where the page starts; empty for a picker on a recording's
	// page.
	URL string `json:"url,omitempty"`
	// Recording, for a picker: the recording session whose page it picks
	// in (on the same agent).
	Recording string `json:"recording,omitempty"`
	// Mode is the picker's first mode; pick when empty.
	Mode string `json:"mode,omitempty"`
	// Headed asks for a visible window; the agent opens one only when it
	// has a display.
	Headed bool `json:"headed"`
}

// Captured is one step a recording captured.
type Captured struct {
	Seq  int  `json:"seq"`
	Step Step `json:"step"`
	// Removed withdraws the step Seq (two clicks that turned out to be a
	// double-click); Step is empty then.
	Removed bool `json:"removed,omitempty"`
}

// RankedLocator is a candidate locator for a picked element: its
// Playwright-like score (lower is better; see the DSL's locator ranking)
// and how many elements it matched in the live page when it was made.
type RankedLocator struct {
	Locator
	Score   int `json:"score"`
	Matches int `json:"matches"`
}

// PickedElement describes the element a picker picked.
type PickedElement struct {
	Tag        string            `json:"tag"`
	Text       string            `json:"text"`
	Role       string            `json:"role"`
	Name       string            `json:"name"`
	Attributes map[string]string `json:"attributes"`
	Box        *Box              `json:"box,omitempty"`
	Frame      []Locator         `json:"frame"` // the iframes it is in, outermost first
}

// PickedTarget is every candidate locator for the element, best first,
// ready to become a step's target.
type PickedTarget struct {
	Locators    []RankedLocator   `json:"locators"`
	Frame       []Locator         `json:"frame"`
	Fingerprint map[string]string `json:"fingerprint,omitempty"`
}

// Picked is what author.picked carries.
type Picked struct {
	Element PickedElement `json:"element"`
	Target  PickedTarget  `json:"target"`
}

// TryRequest asks an agent to run a snippet of JavaScript in a page: a
// recording's (Session) or a fresh incognito context at URL (about:blank
// when empty). The code is a function body, as a script step's: it may
// use await and return a value.
type TryRequest struct {
	Code      string            `json:"code"`
	URL       string            `json:"url,omitempty"`
	Session   string            `json:"session,omitempty"`
	TimeoutMs int               `json:"timeoutMs"`
	Variables map[string]string `json:"variables,omitempty"`
	Secrets   map[string]string `json:"secrets,omitempty"`
}

// ConsoleLine is one console message a tried script logged.
type ConsoleLine struct {
	Level string `json:"level"` // log, info, warn, error, debug
	Text  string `json:"text"`
}

// TryError says why a tried script failed: it threw, timed out, or the
// page could not open.
type TryError struct {
	Message string `json:"message"`
}

// TryResult is what trying a script gives: the returned value as JSON
// (null when it returned nothing), the console lines it logged, the error
// when it failed, and how long it took.
type TryResult struct {
	Value      json.RawMessage `json:"value"`
	Console    []ConsoleLine   `json:"console"`
	Error      *TryError       `json:"error"`
	DurationMs int64           `json:"durationMs"`
}

// Bounds of authoring messages, checked by the hub.
const (
	// MaxTryCode bounds a tried script's code.
	MaxTryCode = 64 << 10
	// MaxTryTimeoutMs bounds a tried script's time limit; DefaultTryTimeoutMs
	// applies when none is given.
	MaxTryTimeoutMs     = 60_000
	DefaultTryTimeoutMs = 10_000
	// MaxCapturedSteps bounds the steps one recording keeps; the hub ends a
	// recording that captures more with an error saying so.
	MaxCapturedSteps = 2000
	// MaxConsoleLines bounds the console lines of a tried script.
	MaxConsoleLines = 200
)
