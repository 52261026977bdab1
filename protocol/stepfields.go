package protocol

import "sync"

// stepParams lists, in Step's field order, every parameter some step type
// takes besides the common description and timeoutMs.
var stepParams = []string{"url", "target", "value", "key", "expected", "match", "ms", "state",
	"name", "fullPage", "code", "assign", "component", "version", "inputs"}

// stepFieldTypes gives the JSON type of every step field; a field has the
// same type in every step type that takes it.
var stepFieldTypes = sync.OnceValue(func() map[string]string {
	m := map[string]string{"id": ParamString, "type": ParamString}
	for _, t := range buildRegistry() {
		for _, p := range t.Params {
			m[p.Name] = p.Type
		}
	}
	return m
})

// has reports whether the step sets the parameter named name.
func (s *Step) has(name string) bool {
	switch name {
	case "description":
		return s.Description != ""
	case "timeoutMs":
		return s.TimeoutMs != 0
	case "url":
		return s.URL != ""
	case "target":
		return s.Target != nil
	case "value":
		return s.Value != nil
	case "key":
		return s.Key != ""
	case "expected":
		return s.Expected != nil
	case "match":
		return s.Match != ""
	case "ms":
		return s.Ms != nil
	case "state":
		return s.State != ""
	case "name":
		return s.Name != ""
	case "fullPage":
		return s.FullPage
	case "code":
		return s.Code != ""
	case "assign":
		return s.Assign != ""
	case "component":
		return s.Component != ""
	case "version":
		return s.Version != 0
	case "inputs":
		return s.Inputs != nil
	}
	return false
}

// str returns a string parameter's value ("" when unset or not a string).
func (s *Step) str(name string) string {
	switch name {
	case "description":
		return s.Description
	case "url":
		return s.URL
	case "value":
		return deref(s.Value)
	case "key":
		return s.Key
	case "expected":
		return deref(s.Expected)
	case "match":
		return s.Match
	case "state":
		return s.State
	case "name":
		return s.Name
	case "code":
		return s.Code
	case "assign":
		return s.Assign
	case "component":
		return s.Component
	}
	return ""
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// MatchOrDefault returns the step's match mode, "contains" when unset.
func (s Step) MatchOrDefault() string {
	if s.Match == "" {
		return "contains"
	}
	return s.Match
}

// StateOrDefault returns a waitFor step's state, "visible" when unset.
func (s Step) StateOrDefault() string {
	if s.State == "" {
		return "visible"
	}
	return s.State
}

// Timeout returns the step's timeout in milliseconds: its own, or its
// type's default.
func (s Step) Timeout() int {
	if s.TimeoutMs > 0 {
		return s.TimeoutMs
	}
	if s.Type == "navigate" {
		return NavigateTimeoutMs
	}
	return DefaultTimeoutMs
}
