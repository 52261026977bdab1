package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// Control flow (DESIGN.md "Control flow"; decisions in docs/flow.md): the
// block steps if, repeat and forEach hold steps of their own, so a
// document's steps are a tree. Step ids are unique through the whole
// tree, and issues inside blocks are named by their path, such as
// steps[3].steps[0].target or steps[1].else[2].url.

// Block step types.
const (
	TypeIf      = "if"
	TypeRepeat  = "repeat"
	TypeForEach = "forEach"
)

// IsBlock reports whether a step type holds steps of its own.
func IsBlock(typ string) bool {
	return typ == TypeIf || typ == TypeRepeat || typ == TypeForEach
}

// Loop bounds: Max defaults to DefaultMax and may be raised to
// MaxIterations; nesting is at most MaxDepth blocks deep.
const (
	DefaultMax    = 1000
	MaxIterations = 100000
	MaxDepth      = 8
)

// Condition kinds.
var conditionKinds = []string{"visible", "hidden", "exists", "text", "value", "variable", "script"}

// ConditionKinds lists the kinds a Condition may have.
func ConditionKinds() []string { return append([]string(nil), conditionKinds...) }

// Condition is what an if tests and a repeat's while checks before each
// iteration. Kind visible, hidden and exists test Target; text and value
// compare Target's text or value with Expected (Match: contains by
// default); variable tests the variable Name: against Expected when
// given, else whether it is set and neither empty, "false" nor "0";
// script evaluates Code, a JavaScript expression, in the page, where
// ${name} stands for the variable's value as a JavaScript value (as in
// Selenium IDE), and the condition holds when the result is truthy.
type Condition struct {
	Kind     string  `json:"kind"`
	Target   *Target `json:"target,omitempty"`
	Name     string  `json:"name,omitempty"`
	Expected *string `json:"expected,omitempty"`
	Match    string  `json:"match,omitempty"`
	Code     string  `json:"code,omitempty"`
}

// MatchOrDefault returns the condition's match mode, "contains" when unset.
func (c Condition) MatchOrDefault() string {
	if c.Match == "" {
		return "contains"
	}
	return c.Match
}

// Items is what a forEach goes through: a reference to a variable holding
// a JSON array (Ref, such as "${rows}" or "${answer.body.items}"), or a
// list written in the step (List). Its JSON is the string or the array.
type Items struct {
	Ref  string
	List []string
}

// MarshalJSON writes the reference as a string, a list as an array.
func (it Items) MarshalJSON() ([]byte, error) {
	if it.List != nil || it.Ref == "" {
		if it.List == nil {
			return []byte("[]"), nil
		}
		return json.Marshal(it.List)
	}
	return json.Marshal(it.Ref)
}

// UnmarshalJSON reads a string (a reference) or an array of strings.
func (it *Items) UnmarshalJSON(data []byte) error {
	*it = Items{}
	data = bytes.TrimSpace(data)
	switch {
	case len(data) > 0 && data[0] == '"':
		return json.Unmarshal(data, &it.Ref)
	case len(data) > 0 && data[0] == '[':
		it.List = []string{}
		return json.Unmarshal(data, &it.List)
	}
	return errors.New("items must be a reference such as \"${rows}\" or an array of strings")
}

// MaxOrDefault is the most iterations a loop may run.
func (s Step) MaxOrDefault() int {
	if s.Max != nil {
		return *s.Max
	}
	return DefaultMax
}

// AsOrDefault is the variable a forEach's item is in, "item" when unset.
func (s Step) AsOrDefault() string {
	if s.As == "" {
		return "item"
	}
	return s.As
}

// Children are a block's steps: an if's then and else branches, a loop's
// body. Each comes with its path part ("steps" or "else").
func (s *Step) Children() []StepList {
	if !IsBlock(s.Type) {
		return nil
	}
	out := []StepList{{Field: "steps", Steps: s.Steps}}
	if s.Type == TypeIf {
		out = append(out, StepList{Field: "else", Steps: s.Else})
	}
	return out
}

// StepList is one list of a block's steps and the member that holds it.
type StepList struct {
	Field string
	Steps []Step
}

// WalkSteps calls fn for every step of the tree, parents before their
// steps, with the step's path (steps[3].else[0]) and its depth (0 for a
// document's own steps). fn may change the step in place; it returns
// false to leave the step's own steps out.
func WalkSteps(steps []Step, fn func(path string, depth int, s *Step) bool) {
	walkSteps("steps", 0, steps, fn)
}

func walkSteps(base string, depth int, steps []Step, fn func(string, int, *Step) bool) {
	for i := range steps {
		p := base + "[" + strconv.Itoa(i) + "]"
		s := &steps[i]
		if !fn(p, depth, s) {
			continue
		}
		walkSteps(p+".steps", depth+1, s.Steps, fn)
		walkSteps(p+".else", depth+1, s.Else, fn)
	}
}

// CountSteps counts the steps of a tree, blocks and their steps alike.
func CountSteps(steps []Step) int {
	n := 0
	WalkSteps(steps, func(string, int, *Step) bool { n++; return true })
	return n
}

// ConditionWaitMs is how long a condition on an element waits for it by
// default: briefly, so an if about a banner that may not come costs
// little.
const ConditionWaitMs = 2000

// flowSteps are the block steps' types.
func flowSteps() []StepType {
	cond := func(name string, required bool, what string) Param {
		return Param{Name: name, Type: ParamCondition, Required: required, Description: what +
			": {kind: visible|hidden|exists|text|value|variable|script, target?, name?, expected?, match?, code?}"}
	}
	steps := func(name, what string) Param {
		return Param{Name: name, Type: ParamSteps, Description: what}
	}
	max := Param{Name: "max", Type: ParamNumber, Default: DefaultMax, Min: intp(1), Max: intp(MaxIterations),
		Description: "the most iterations; the loop fails when it would run more"}
	block := func(typ, desc string, ps ...Param) StepType {
		return StepType{Type: typ, Description: desc, Params: common(ConditionWaitMs, ps...)}
	}
	return []StepType{
		block(TypeIf, "Run steps only when a condition holds, else other steps.",
			cond("condition", true, "what is tested"),
			steps("steps", "the steps run when the condition holds"),
			steps("else", "the steps run when it does not; an else-if is an if here")),
		block(TypeRepeat, "Run steps a number of times, or while a condition holds.",
			Param{Name: "times", Type: ParamNumber, Min: intp(0), Max: intp(MaxIterations), Description: "how many times; with while, at most that many"},
			cond("while", false, "checked before each iteration; the loop ends when it does not hold"),
			steps("steps", "the steps repeated"),
			max),
		block(TypeForEach, "Run steps once for each item of a list.",
			Param{Name: "items", Type: ParamItems, Required: true,
				Description: `a variable holding a JSON array, such as "${rows}" or "${answer.body.items}", or a list of texts`},
			Param{Name: "as", Type: ParamString, Default: "item", Description: "the variable that holds the current item; ${item.field} reads a field of an object"},
			steps("steps", "the steps run for each item"),
			max),
	}
}

// hasFlow answers has for the parameters of block steps.
func (s *Step) hasFlow(name string) bool {
	switch name {
	case "condition":
		return s.Condition != nil
	case "while":
		return s.While != nil
	case "steps":
		return s.Steps != nil
	case "else":
		return s.Else != nil
	case "times":
		return s.Times != nil
	case "max":
		return s.Max != nil
	case "items":
		return s.Items != nil
	case "as":
		return s.As != ""
	}
	return false
}

// AllSteps lists every step of a tree, parents before their steps.
func AllSteps(steps []Step) []Step {
	var out []Step
	WalkSteps(steps, func(_ string, _ int, s *Step) bool { out = append(out, *s); return true })
	return out
}

// CloneSteps copies a tree deep enough that changing a step, its steps
// or its conditions in the copy leaves the original as it was.
func CloneSteps(steps []Step) []Step {
	if steps == nil {
		return nil
	}
	out := make([]Step, len(steps))
	for i, s := range steps {
		if s.Condition != nil {
			c := *s.Condition
			s.Condition = &c
		}
		if s.While != nil {
			c := *s.While
			s.While = &c
		}
		s.Steps, s.Else = CloneSteps(s.Steps), CloneSteps(s.Else)
		out[i] = s
	}
	return out
}

// Conditions are a step's conditions: an if's condition, a repeat's while.
func (s *Step) Conditions() []*Condition {
	var out []*Condition
	for _, c := range []*Condition{s.Condition, s.While} {
		if c != nil {
			out = append(out, c)
		}
	}
	return out
}
