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
	Type        string   `json:"type" enum:"string|number|boolean|target|enum|map"` // string, number, boolean, target, enum, map (string->string)
	Required    bool     `json:"required"`
	Description string   `json:"description"`
	Values      []string `json:"values,omitempty"` // allowed values for enum
	Default     any      `json:"default,omitempty"`
	Min         *int     `json:"min,omitempty"` // bounds of a number, inclusive
	Max         *int     `json:"max,omitempty"`
}

// Parameter types.
const (
	ParamString  = "string"
	ParamNumber  = "number"
	ParamBoolean = "boolean"
	ParamTarget  = "target"
	ParamEnum    = "enum"
	ParamMap     = "map"
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

func buildRegistry() []StepType {
	el := target(true, "the element to act on")
	return []StepType{
		{Type: "navigate", Description: "Open a URL in the page.", Params: common(NavigateTimeoutMs,
			Param{Name: "url", Type: ParamString, Required: true, Description: "the address: absolute http: or https: (or about:blank), or relative to the environment's base URL; other schemes such as file: are refused"})},
		action("click", "Click an element.", el),
		action("dblclick", "Double-click an element.", el),
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
		action("assertVisible", "Assert that an element is visible.", el),
		action("assertHidden", "Assert that an element is hidden or absent.", el),
		action("assertText", "Assert an element's text.", el, expected("the text to compare with"), match()),
		action("assertValue", "Assert the value of an input, textarea or select.", el, expected("the value to compare with"), match()),
		action("assertUrl", "Assert the page's URL.", expected("the URL to compare with"), match()),
		action("assertTitle", "Assert the page's title.", expected("the title to compare with"), match()),
		action("wait", "Pause for a fixed time; prefer waitFor or an assertion.",
			Param{Name: "ms", Type: ParamNumber, Required: true, Min: intp(0), Max: intp(MaxTimeoutMs), Description: "milliseconds to wait"}),
		action("waitFor", "Wait until an element reaches a state.", el,
			Param{Name: "state", Type: ParamEnum, Values: []string{"visible", "hidden", "attached", "detached"}, Default: "visible",
				Description: "visible, hidden, attached (in the DOM) or detached (gone from the DOM)"}),
		action("screenshot", "Take a screenshot of the page or of one element.",
			Param{Name: "name", Type: ParamString, Description: "the artifact's name; the step id when empty"},
			Param{Name: "fullPage", Type: ParamBoolean, Default: false, Description: "capture the whole scrollable page, not only the viewport"},
			target(false, "an element to capture instead of the page")),
		action("setVariable", "Set a test variable from a value or from an element's text.",
			Param{Name: "name", Type: ParamString, Required: true, Description: "the variable's name: letters, digits and _, not starting with a digit"},
			Param{Name: "value", Type: ParamString, Description: "the value; give either value or target"},
			target(false, "an element whose text (innerText) becomes the value; give either value or target")),
		action("script", "Run JavaScript in the page.",
			Param{Name: "code", Type: ParamString, Required: true,
				Description: "the body of a function run in the page; return a value to keep it. ${name} stands for the variable's value, passed as vars.name (secrets as vars.secrets.NAME)"},
			Param{Name: "assign", Type: ParamString, Description: "a variable that receives the returned value as a string"}),
		action("callComponent", "Run the steps of a reusable component.",
			Param{Name: "component", Type: ParamString, Required: true, Description: "the component's id, cmp_..."},
			Param{Name: "version", Type: ParamNumber, Min: intp(1), Description: "the component version to run; the latest when absent"},
			Param{Name: "inputs", Type: ParamMap, Description: "values for the component's variables, by name"}),
	}
}
