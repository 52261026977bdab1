package protocol

import (
	"slices"
	"sync"
)

// StepType describes one kind of step and the parameters it takes.
type StepType struct {
	Type        string  `json:"type"`
	Description string  `json:"description"`
	Params      []Param `json:"params"`
}

// Param describes one parameter of a step type. The common parameters
// description and timeoutMs are listed for every type; id and type are not.
type Param struct {
	Name        string   `json:"name"`
	Type        string   `json:"type" enum:"string|number|boolean|target|enum|map|list|position|condition|steps|items"` // string, number, boolean, target, enum, map (string->string), list (of strings), position ({x, y}); for blocks condition, steps and items (flow.go)
	Required    bool     `json:"required"`
	Description string   `json:"description"`
	Values      []string `json:"values,omitempty"` // allowed values for enum, allowed items of a list
	Default     any      `json:"default,omitempty"`
	Min         *int     `json:"min,omitempty"` // bounds of a number, inclusive
	Max         *int     `json:"max,omitempty"`
}

// Parameter types.
const (
	ParamString   = "string"
	ParamNumber   = "number"
	ParamBoolean  = "boolean"
	ParamTarget   = "target"
	ParamEnum     = "enum"
	ParamMap      = "map"
	ParamList     = "list"
	ParamPosition = "position"
	// The parameters of block steps (flow.go): a Condition, a list of
	// steps, a forEach's Items.
	ParamCondition = "condition"
	ParamSteps     = "steps"
	ParamItems     = "items"
)

// Timeouts in milliseconds, and the number of steps a test may have.
const (
	DefaultTimeoutMs  = 10000
	NavigateTimeoutMs = 30000
	MaxTimeoutMs      = 600000
	MaxSteps          = 1000
)

// Limits of the other fields.
const (
	maxNameLen          = 200
	maxSuiteLen         = 100
	maxTags             = 50
	maxTagLen           = 50
	maxStepIDLen        = 64
	maxTextLen          = 10000  // string parameters, descriptions of documents
	maxCodeLen          = 100000 // script code
	maxStepDescription  = 1000
	maxVariables        = 500
	maxFingerprintItems = 50
	maxFiles            = 10 // files of one upload step
	maxHeaders          = 50 // headers of one request step
	maxViewport         = 10000
)

// Values of the enums of the steps real suites need.
var (
	dialogActions = []string{"accept", "dismiss"}
	tabTargets    = []string{"new", "opener", "index", "match"}
	mouseButtons  = []string{"left", "right", "middle"}
	modifierKeys  = []string{"Alt", "Control", "Meta", "Shift"}
	mouseActions  = []string{"down", "up", "move"}
	selectedBy    = []string{"label", "value"}
	variableFrom  = []string{"text", "value", "attribute", "count", "title", "url", "selectedLabel"}
	httpMethods   = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}
)

// Match values for assertions.
var matchValues = []string{"equals", "contains", "regex"}

// LocatorKinds lists the locator kinds, best first as DESIGN.md ranks them
// (Playwright's scores: test id, role+name, placeholder, label, alt, text,
// title, then css and xpath).
func LocatorKinds() []string {
	return []string{"testId", "role", "placeholder", "label", "alt", "text", "title", "css", "xpath"}
}

// locatorRank orders kinds for sorting fallbacks; unknown kinds sort last.
func locatorRank(kind string) int {
	for i, k := range LocatorKinds() {
		if k == kind {
			return i
		}
	}
	return len(LocatorKinds())
}

// Registry returns every step type with its parameters: the single source
// for validation, GET /api/registry, the web editor and the agent. The
// result is a fresh copy; callers may change it.
func Registry() []StepType { return buildRegistry() }

// stepTypes indexes a registry built once, for lookups by the validator.
var stepTypes = sync.OnceValue(func() map[string]StepType {
	m := map[string]StepType{}
	for _, t := range buildRegistry() {
		m[t.Type] = t
	}
	return m
})

// LookupStepType returns the step type named t; the result is a copy.
func LookupStepType(t string) (StepType, bool) {
	st, ok := stepType(t)
	st.Params = slices.Clone(st.Params)
	for i := range st.Params {
		st.Params[i].Values = slices.Clone(st.Params[i].Values)
	}
	return st, ok
}

// stepType returns the shared step type named t, for reading only.
func stepType(t string) (StepType, bool) {
	st, ok := stepTypes()[t]
	return st, ok
}

// Param returns the parameter named name, if the type has it.
func (t StepType) Param(name string) (Param, bool) {
	for _, p := range t.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

func intp(n int) *int { return &n }

func target(required bool, what string) Param {
	return Param{Name: "target", Type: ParamTarget, Required: required, Description: what}
}

func match() Param {
	return Param{Name: "match", Type: ParamEnum, Values: matchValues, Default: "contains",
		Description: "how expected is compared: equals (whole text, whitespace normalised), contains, or regex (Go regexp syntax)"}
}

func expected(what string) Param {
	return Param{Name: "expected", Type: ParamString, Required: true, Description: what}
}

// common appends the parameters every step takes.
func common(def int, ps ...Param) []Param {
	return append(ps,
		Param{Name: "description", Type: ParamString, Description: "what the step is for, in words; shown in results and scripts"},
		Param{Name: "timeoutMs", Type: ParamNumber, Default: def, Min: intp(1), Max: intp(MaxTimeoutMs),
			Description: "how long the step may wait for its element or condition, in milliseconds"},
	)
}

func action(typ, desc string, ps ...Param) StepType {
	return StepType{Type: typ, Description: desc, Params: common(DefaultTimeoutMs, ps...)}
}

// assertion is an action whose failure may be soft.
func assertion(typ, desc string, ps ...Param) StepType {
	return action(typ, desc, append(ps, Param{Name: "soft", Type: ParamBoolean, Default: false,
		Description: "on failure, record it and go on with the next step; the run still fails"})...)
}

// negatable is an assertion that not: true turns around.
func negatable(typ, desc string, ps ...Param) StepType {
	return assertion(typ, desc, append(ps, Param{Name: "not", Type: ParamBoolean, Default: false,
		Description: "assert the opposite: the value must not match"})...)
}

// clickParams are the options of click and dblclick.
func clickParams() []Param {
	return []Param{
		{Name: "button", Type: ParamEnum, Values: mouseButtons, Default: "left", Description: "the mouse button: left, right (a context menu) or middle"},
		{Name: "modifiers", Type: ParamList, Values: modifierKeys, Description: "keys held during the click: Alt, Control, Meta, Shift"},
		position("where to click inside the element, from its top-left corner; its centre when absent"),
	}
}

func position(what string) Param {
	return Param{Name: "position", Type: ParamPosition, Description: what}
}

func boolParam(name, what string) Param {
	return Param{Name: name, Type: ParamBoolean, Default: true, Description: what}
}

func variable(what string) Param {
	return Param{Name: "name", Type: ParamString, Required: true, Description: what}
}

func buildRegistry() []StepType {
	el := target(true, "the element to act on")
	return append([]StepType{
		{Type: "navigate", Description: "Open a URL in the page.", Params: common(NavigateTimeoutMs,
			Param{Name: "url", Type: ParamString, Required: true, Description: "the address: absolute http: or https: (or about:blank), or relative to the environment's base URL; other schemes such as file: are refused"})},
		action("click", "Click an element.", append([]Param{el}, clickParams()...)...),
		action("dblclick", "Double-click an element.", append([]Param{el}, clickParams()...)...),
		action("hover", "Move the mouse over an element.", el),
		action("fill", "Replace the content of an input, textarea or editable element.", el,
			Param{Name: "value", Type: ParamString, Required: true, Description: "the text to enter; empty clears the field"}),
		action("press", "Press a key or key combination, on an element or on the page.",
			Param{Name: "key", Type: ParamString, Required: true, Description: "a key name as Playwright writes it: Enter, Tab, ArrowDown, Control+A, a"},
			target(false, "the element to focus first; without it the key goes to the page")),
		action("select", "Choose an option of a select element.", el,
			Param{Name: "value", Type: ParamString, Required: true, Description: "the option's value or its label"}),
		action("check", "Check a checkbox or radio button.", el),
		action("uncheck", "Uncheck a checkbox.", el),
		assertion("assertVisible", "Assert that an element is visible.", el),
		assertion("assertHidden", "Assert that an element is hidden or absent.", el),
		negatable("assertText", "Assert an element's text.", el, expected("the text to compare with"), match()),
		negatable("assertValue", "Assert the value of an input, textarea or select.", el, expected("the value to compare with"), match()),
		negatable("assertUrl", "Assert the page's URL.", expected("the URL to compare with"), match()),
		negatable("assertTitle", "Assert the page's title.", expected("the title to compare with"), match()),
		action("wait", "Pause for a fixed time; prefer waitFor or an assertion.",
			Param{Name: "ms", Type: ParamNumber, Required: true, Min: intp(0), Max: intp(MaxTimeoutMs), Description: "milliseconds to wait"}),
		action("waitFor", "Wait until an element reaches a state.", el,
			Param{Name: "state", Type: ParamEnum, Values: []string{"visible", "hidden", "attached", "detached", "enabled", "disabled", "editable", "readonly"}, Default: "visible",
				Description: "visible, hidden, attached (in the DOM), detached (gone from the DOM), enabled, disabled, editable or readonly"}),
		action("screenshot", "Take a screenshot of the page or of one element.",
			Param{Name: "name", Type: ParamString, Description: "the artifact's name; the step id when empty"},
			Param{Name: "fullPage", Type: ParamBoolean, Default: false, Description: "capture the whole scrollable page, not only the viewport"},
			target(false, "an element to capture instead of the page")),
		action("setVariable", "Set a test variable from a value, an element or the page.",
			Param{Name: "name", Type: ParamString, Required: true, Description: "the variable's name: letters, digits and _, not starting with a digit"},
			Param{Name: "value", Type: ParamString, Description: "the value; give value, or a target, or from"},
			target(false, "the element the value is read from (its text unless from says otherwise)"),
			Param{Name: "from", Type: ParamEnum, Values: variableFrom, Default: "text",
				Description: "what is read: the target's text, value, attribute, count (of matching elements) or selectedLabel, or the page's title or url"},
			Param{Name: "attribute", Type: ParamString, Description: "the attribute read when from is attribute"}),
		action("script", "Run JavaScript in the page.",
			Param{Name: "code", Type: ParamString, Required: true,
				Description: "the body of an async function run in the page (await may be used); return a value to keep it. ${name} stands for the variable's value, passed as vars.name (secrets as vars.secrets.NAME)"},
			Param{Name: "assign", Type: ParamString, Description: "a variable that receives the returned value as a string"}),
		action("callComponent", "Run the steps of a reusable component.",
			Param{Name: "component", Type: ParamString, Required: true, Description: "the component's id, cmp_..."},
			Param{Name: "version", Type: ParamNumber, Min: intp(1), Description: "the component version to run; the latest when absent"},
			Param{Name: "inputs", Type: ParamMap, Description: "values for the component's variables, by name"}),
	}, append(moreSteps(el), flowSteps()...)...)
}

// moreSteps are the steps real suites need (DESIGN.md).
func moreSteps(el Param) []StepType {
	return []StepType{
		action("dialog", "Answer the next JavaScript dialog (alert, confirm, prompt, beforeunload) that a later step opens.",
			Param{Name: "action", Type: ParamEnum, Values: dialogActions, Required: true, Description: "accept (OK) or dismiss (Cancel)"},
			Param{Name: "text", Type: ParamString, Description: "the answer typed into a prompt; only with accept"},
			Param{Name: "expected", Type: ParamString, Description: "the message the dialog must show"},
			match()),
		action("switchTab", "Act in another tab or popup from now on.",
			Param{Name: "to", Type: ParamEnum, Values: tabTargets, Required: true,
				Description: "new (a tab an earlier step opened; waits for it), opener (the tab that opened this one), index (by position) or match (by url or title)"},
			Param{Name: "index", Type: ParamNumber, Min: intp(0), Max: intp(99), Description: "the tab's position, 0 for the first, in the order the tabs opened; with to: index"},
			Param{Name: "url", Type: ParamString, Description: "the tab's URL, compared by match; with to: match"},
			Param{Name: "title", Type: ParamString, Description: "the tab's title, compared by match; with to: match"},
			match()),
		action("closeTab", "Close the current tab and go back to the tab that opened it."),
		action("upload", "Choose files in a file input.", target(true, "the file input"),
			Param{Name: "files", Type: ParamList, Required: true, Description: "project files (fil_...) to choose, from the Files page"}),
		action("dragTo", "Drag an element and drop it on another.", target(true, "the element to drag"),
			Param{Name: "to", Type: ParamTarget, Required: true, Description: "the element to drop it on"}),
		action("mouse", "Press, release or move the mouse.",
			Param{Name: "action", Type: ParamEnum, Values: mouseActions, Required: true, Description: "down (press the left button), up (release it) or move"},
			target(false, "the element the mouse goes to first"),
			position("a point inside the target from its top-left corner, or in the page's viewport without a target")),
		action("goBack", "Go back to the previous page of the tab's history."),
		action("goForward", "Go forward in the tab's history."),
		action("reload", "Reload the page."),
		action("setViewport", "Resize the page's viewport.",
			Param{Name: "width", Type: ParamNumber, Required: true, Min: intp(1), Max: intp(maxViewport), Description: "width in CSS pixels"},
			Param{Name: "height", Type: ParamNumber, Required: true, Min: intp(1), Max: intp(maxViewport), Description: "height in CSS pixels"}),
		action("log", "Show a message on the step, with variables filled in.",
			Param{Name: "message", Type: ParamString, Required: true, Description: "the text; ${name} is filled in and secrets are masked"}),
		assertion("assertChecked", "Assert that a checkbox or radio button is checked, or not.", el,
			boolParam("checked", "true: must be checked; false: must not be")),
		assertion("assertEnabled", "Assert that an element is enabled, or disabled.", el,
			boolParam("enabled", "true: must be enabled; false: must be disabled")),
		assertion("assertEditable", "Assert that a field can be typed in (enabled, not read-only), or not.", el,
			boolParam("editable", "true: must be editable; false: must not be")),
		negatable("assertAttribute", "Assert an attribute of an element.", el,
			Param{Name: "name", Type: ParamString, Required: true, Description: "the attribute's name, such as href or aria-expanded"},
			expected("the value to compare with"), match()),
		assertion("assertCount", "Assert how many elements match the target.", el,
			Param{Name: "expected", Type: ParamNumber, Required: true, Min: intp(0), Max: intp(100000), Description: "the number of matching elements"}),
		assertion("assertSelected", "Assert the chosen option of a select element.", el,
			expected("the option's label or value"),
			Param{Name: "by", Type: ParamEnum, Values: selectedBy, Default: "label", Description: "compare the option's label or its value"}),
		assertion("assertVariable", "Assert a variable's value.",
			variable("the variable, or a field of a request's answer such as answer.body.id"),
			expected("the value to compare with"), match()),
		action("request", "Send an HTTP request from the agent, with the page's cookies.",
			Param{Name: "method", Type: ParamEnum, Values: httpMethods, Default: "GET", Description: "the HTTP method"},
			Param{Name: "url", Type: ParamString, Required: true, Description: "the address: absolute http: or https:, or relative to the environment's base URL"},
			Param{Name: "headers", Type: ParamMap, Description: "request headers, by name"},
			Param{Name: "body", Type: ParamString, Description: "the request body, such as JSON text"},
			Param{Name: "expectStatus", Type: ParamNumber, Min: intp(100), Max: intp(599), Description: "the status the answer must have"},
			Param{Name: "assign", Type: ParamString, Description: "a variable that receives the answer: ${name.status}, ${name.headers.x}, ${name.body.path}"}),
	}
}
