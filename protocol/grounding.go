package protocol

// PageSnapshot is what an agent saw on a page, for drafting steps from
// plain language: the page's interactive and labelled elements, as the
// accessibility tree names them.
type PageSnapshot struct {
	URL      string        `json:"url"`
	Title    string        `json:"title"`
	Elements []PageElement `json:"elements"`
}

// PageElement is one element of a PageSnapshot. Frame is the iframe path
// (outermost first) when the element is inside frames.
type PageElement struct {
	Role        string    `json:"role,omitempty"`
	Name        string    `json:"name,omitempty"`
	Label       string    `json:"label,omitempty"`
	Placeholder string    `json:"placeholder,omitempty"`
	TestID      string    `json:"testId,omitempty"`
	Text        string    `json:"text,omitempty"`
	Tag         string    `json:"tag,omitempty"`
	Frame       []Locator `json:"frame,omitempty"`
	// Hidden: on the page but not shown now (an empty message area, a
	// closed menu); listed when it has a test id or a role.
	Hidden bool `json:"hidden,omitempty"`
}

// TargetCheck says how many elements of the live page a step's target
// matched, locator by locator (the first that matches exactly one element
// is what a run would use).
type TargetCheck struct {
	StepID  string `json:"stepId"`
	Found   bool   `json:"found"`   // some locator matched exactly one element
	Matches int    `json:"matches"` // elements the first matching locator found (0: none did)
	Error   string `json:"error,omitempty"`
}

// Grounding a draft in a live page is one request and one answer each
// time, on a fresh page of the agent's authoring browser:
//
//	hub → agent  page.ground    ReqID, Ground: the URL, and the targets
//	                            to check (none: the page's snapshot)
//	agent → hub  page.grounded  ReqID, Grounded: the snapshot or the
//	                            checks; Error when the page cannot open
type GroundRequest struct {
	URL     string         `json:"url"`
	Targets []GroundTarget `json:"targets,omitempty"`
}

// GroundTarget is one drafted step's target to check.
type GroundTarget struct {
	StepID string `json:"stepId"`
	Target Target `json:"target"`
}

// GroundResult answers a GroundRequest.
type GroundResult struct {
	Snapshot *PageSnapshot `json:"snapshot,omitempty"`
	Checks   []TargetCheck `json:"checks,omitempty"`
}

// Bounds of a snapshot.
const (
	MaxSnapshotElements = 300
	MaxSnapshotText     = 120
	MaxGroundTargets    = 200
)
