package protocol

import "encoding/json"

// DSLVersion is the current version of the test document format.
const DSLVersion = 2

// Issue is one problem with a document, named by its JSON path, for example
// "steps[2].target.locators[0].kind", "name" or "tests[0].commands[3].command".
type Issue struct {
	Path    string `json:"path"`
	Message string `json:"message"` // a sentence for people: "url is required for a navigate step"
	Code    string `json:"code"`    // a word for programs: required, unknown, type, enum, range, too_long, duplicate, format, conflict, unsupported, url_scheme, json
}

// Document is a test: the DSL, version 2.
type Document struct {
	DSL         int               `json:"dsl"`
	Name        string            `json:"name"`
	Suite       string            `json:"suite,omitempty"`
	Tags        []string          `json:"tags,omitempty"`
	Description string            `json:"description,omitempty"`
	Variables   map[string]string `json:"variables,omitempty"`
	// Data binds a test data set (the test runs once per row) and/or a
	// data pool (each run takes one record); ${column} reads the row or
	// record.
	Data  *DataBinding `json:"data,omitempty"`
	Steps []Step       `json:"steps"` // marshals as [] when empty
}

// Pool modes of a DataBinding.
const (
	PoolLease   = "lease"   // the record goes back to the pool when the run ends
	PoolConsume = "consume" // the record is used up until the pool is reset
)

// DataBinding is a document's data: Set is a test data set id (tds_...),
// Pool a data pool id (dpl_...), Mode PoolLease (the default when Pool is
// set) or PoolConsume. The hub checks that the ids exist in the test's
// project when it saves the document.
type DataBinding struct {
	Set  string `json:"set,omitempty"`
	Pool string `json:"pool,omitempty"`
	Mode string `json:"mode,omitempty" enum:"lease|consume"`
}

// MarshalJSON writes steps as [] rather than null when there are none.
func (d Document) MarshalJSON() ([]byte, error) {
	type plain Document
	if d.Steps == nil {
		d.Steps = []Step{}
	}
	return json.Marshal(plain(d))
}

// Step is one step of a test. Its JSON is flat: the common fields (id,
// type, description, timeoutMs) sit beside the parameters of its type, as in
// {"id":"s1","type":"navigate","url":"https://example.com"}. Which
// parameters a type takes is in Registry; a field that is not a parameter of
// the step's type stays at its zero value. Pointer fields are parameters
// whose empty value is meaningful (fill with "" empties a field; wait 0 ms).
type Step struct {
	ID          string  `json:"id"`
	Type        string  `json:"type"`
	Description string  `json:"description,omitempty"`
	URL         string  `json:"url,omitempty"`
	Target      *Target `json:"target,omitempty"`
	Value       *string `json:"value,omitempty"`
	Key         string  `json:"key,omitempty"`
	Expected    *string `json:"expected,omitempty"`
	Match       string  `json:"match,omitempty"`
	Ms          *int    `json:"ms,omitempty"`
	State       string  `json:"state,omitempty"`
	// Name is the screenshot's name, or the variable a setVariable step sets.
	Name      string            `json:"name,omitempty"`
	FullPage  bool              `json:"fullPage,omitempty"`
	Code      string            `json:"code,omitempty"`
	Assign    string            `json:"assign,omitempty"`
	Component string            `json:"component,omitempty"`
	Version   int               `json:"version,omitempty"`
	Inputs    map[string]string `json:"inputs,omitempty"`
	// The parameters of the steps real suites need (DESIGN.md "Steps that
	// real suites need"). Action is a dialog's accept|dismiss or a mouse
	// step's down|up|move; Text answers a prompt.
	Action string  `json:"action,omitempty"`
	Text   *string `json:"text,omitempty"`
	// JSON "to" is a switchTab's string (To) or a dragTo's target
	// (ToTarget); Step's MarshalJSON and UnmarshalJSON pick by type.
	To        string   `json:"-"`
	ToTarget  *Target  `json:"-"`
	Index     *int     `json:"index,omitempty"` // switchTab to index, 0-based in opening order
	Title     string   `json:"title,omitempty"` // switchTab to match
	Files     []string `json:"files,omitempty"` // upload: project file ids, fil_...
	Button    string   `json:"button,omitempty"`
	Modifiers []string `json:"modifiers,omitempty"`
	// Position is an offset inside the target, or viewport coordinates
	// for a mouse step without one.
	Position *Position `json:"position,omitempty"`
	Width    int       `json:"width,omitempty"`
	Height   int       `json:"height,omitempty"`
	Message  string    `json:"message,omitempty"`
	Checked  *bool     `json:"checked,omitempty"`
	Enabled  *bool     `json:"enabled,omitempty"`
	Editable *bool     `json:"editable,omitempty"`
	// Count is an assertCount's expected number: its JSON "expected" is a
	// number, where every other type's is a string (Expected).
	Count     *int   `json:"-"`
	By        string `json:"by,omitempty"`
	Not       bool   `json:"not,omitempty"`
	Soft      bool   `json:"soft,omitempty"`
	From      string `json:"from,omitempty"`
	Attribute string `json:"attribute,omitempty"`
	// A request step's method, headers, body and expected status; its
	// url is URL and its answer goes to Assign.
	Method       string            `json:"method,omitempty"`
	Headers      map[string]string `json:"headers,omitempty"`
	Body         *string           `json:"body,omitempty"`
	ExpectStatus int               `json:"expectStatus,omitempty"`
	// Control flow (DESIGN.md "Control flow", docs/flow.md): an if's
	// Condition, Steps (then) and Else; a repeat's Times, While and Max;
	// a forEach's Items, As and Max. Steps is also the body of a loop.
	Condition *Condition `json:"condition,omitempty"`
	Steps     []Step     `json:"steps,omitempty"`
	Else      []Step     `json:"else,omitempty"`
	Times     *int       `json:"times,omitempty"`
	While     *Condition `json:"while,omitempty"`
	Max       *int       `json:"max,omitempty"`
	Items     *Items     `json:"items,omitempty"`
	As        string     `json:"as,omitempty"`
	// TimeoutMs bounds the step; 0 means the type's default (see Registry).
	TimeoutMs int `json:"timeoutMs,omitempty"`
	// Call is set only in documents the hub expanded for a run: the id of
	// the test's callComponent step this step came from. Saved documents
	// never have it.
	Call string `json:"call,omitempty"`
}

// Position is a point in CSS pixels.
type Position struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Target is the element a step acts on: ranked locators, best first; the
// rest are fallbacks tried when the first fails (self-healing).
type Target struct {
	Locators    []Locator         `json:"locators"`
	Frame       []Locator         `json:"frame,omitempty"`       // iframes to enter, outermost first
	Fingerprint map[string]string `json:"fingerprint,omitempty"` // tag, id, ... recorded facts about the element
}

// MarshalJSON writes locators as [] rather than null when there are none.
func (t Target) MarshalJSON() ([]byte, error) {
	type plain Target
	if t.Locators == nil {
		t.Locators = []Locator{}
	}
	return json.Marshal(plain(t))
}

// Locator is one way to find an element.
type Locator struct {
	Kind  string `json:"kind"` // testId, role, label, placeholder, alt, title, text, css, xpath
	Value string `json:"value"`
	Name  string `json:"name,omitempty"` // accessible name, for kind role
	Exact bool   `json:"exact,omitempty"`
}

// Ptr returns a pointer to v, for the optional pointer fields of Step.
func Ptr[T any](v T) *T { return &v }
