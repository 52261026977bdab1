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
