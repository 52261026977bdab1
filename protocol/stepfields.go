package protocol

import "sync"

// stepParams lists, in Step's field order, every parameter some step type
// takes besides the common description and timeoutMs.
var stepParams = []string{"url", "target", "value", "key", "expected", "match", "ms", "state",
	"name", "fullPage", "code", "assign", "component", "version", "inputs",
	"action", "text", "to", "index", "title", "files", "button", "modifiers", "position",
	"width", "height", "message", "checked", "enabled", "editable", "by", "not", "soft",
	"from", "attribute", "method", "headers", "body", "expectStatus",
	"condition", "steps", "else", "times", "while", "max", "items", "as"}

// stepFieldTypes gives the JSON type of every step field, as its first
// step type gives it; "to" and "expected" vary by type (see step_json.go)
// and are read by their step's type.
var stepFieldTypes = sync.OnceValue(func() map[string]string {
	m := map[string]string{"id": ParamString, "type": ParamString}
	for _, t := range buildRegistry() {
		for _, p := range t.Params {
			if m[p.Name] == "" {
				m[p.Name] = p.Type
			}
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
		return s.Expected != nil || s.Count != nil
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
	return s.hasMore(name)
}

// hasMore answers has for the parameters of the steps real suites need.
func (s *Step) hasMore(name string) bool {
	switch name {
	case "action", "title", "button", "message", "by", "from", "attribute", "method":
		return s.str(name) != ""
	case "to":
		return s.To != "" || s.ToTarget != nil
	case "text":
		return s.Text != nil
	case "index":
		return s.Index != nil
	case "files":
		return s.Files != nil
	case "modifiers":
		return s.Modifiers != nil
	case "position":
		return s.Position != nil
	case "width":
		return s.Width != 0
	case "height":
		return s.Height != 0
	case "checked":
		return s.Checked != nil
	case "enabled":
		return s.Enabled != nil
	case "editable":
		return s.Editable != nil
	case "not":
		return s.Not
	case "soft":
		return s.Soft
	case "headers":
		return s.Headers != nil
	case "body":
		return s.Body != nil
	case "expectStatus":
		return s.ExpectStatus != 0
	}
	return s.hasFlow(name)
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
	case "action":
		return s.Action
	case "text":
		return deref(s.Text)
	case "to":
		return s.To
	case "title":
		return s.Title
	case "button":
		return s.Button
	case "message":
		return s.Message
	case "by":
		return s.By
	case "from":
		return s.From
	case "attribute":
		return s.Attribute
	case "method":
		return s.Method
	case "body":
		return deref(s.Body)
	case "as":
		return s.As
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

// ButtonOrDefault returns a click's mouse button, "left" when unset.
func (s Step) ButtonOrDefault() string {
	if s.Button == "" {
		return "left"
	}
	return s.Button
}

// MethodOrDefault returns a request's HTTP method, "GET" when unset.
func (s Step) MethodOrDefault() string {
	if s.Method == "" {
		return "GET"
	}
	return s.Method
}

// ByOrDefault returns how an assertSelected compares, "label" when unset.
func (s Step) ByOrDefault() string {
	if s.By == "" {
		return "label"
	}
	return s.By
}

// Want returns the boolean an assertChecked, assertEnabled or
// assertEditable expects: its own field, true when unset.
func (s Step) Want() bool {
	var b *bool
	switch s.Type {
	case "assertChecked":
		b = s.Checked
	case "assertEnabled":
		b = s.Enabled
	case "assertEditable":
		b = s.Editable
	}
	return b == nil || *b
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
	if IsBlock(s.Type) {
		return ConditionWaitMs
	}
	return DefaultTimeoutMs
}
