package protocol

import (
	"encoding/json"
	"maps"
	"strings"
)

// WithInputs returns a copy of s, a step inside a component, with each
// ${name} whose name is in values replaced by that value: in every text
// field, locator, fingerprint and nested call input. Other references
// (test and environment variables, secrets) stay for the runner. In script
// code, where ${name} is an expression (vars.name, see ScriptSource), the
// reference becomes an expression of the same value: a string literal, or
// a concatenation when the value itself holds references.
func (s Step) WithInputs(values map[string]string) Step {
	if len(values) == 0 {
		return s.clone()
	}
	lookup := func(ref string) (string, bool) {
		v, ok := values[ref]
		return v, ok
	}
	sub := func(t string) string { return Interpolate(t, lookup) }
	out := s.clone()
	out.Description = sub(s.Description)
	out.URL = sub(s.URL)
	out.Key = sub(s.Key)
	out.Name = sub(s.Name)
	out.Assign = sub(s.Assign)
	if s.Value != nil {
		out.Value = Ptr(sub(*s.Value))
	}
	if s.Expected != nil {
		out.Expected = Ptr(sub(*s.Expected))
	}
	if s.Code != "" {
		out.Code = codeWithInputs(s.Code, values)
	}
	for k, v := range s.Inputs {
		out.Inputs[k] = sub(v)
	}
	if s.Target != nil {
		for i := range out.Target.Locators {
			out.Target.Locators[i].Value = sub(out.Target.Locators[i].Value)
			out.Target.Locators[i].Name = sub(out.Target.Locators[i].Name)
		}
		for i := range out.Target.Frame {
			out.Target.Frame[i].Value = sub(out.Target.Frame[i].Value)
			out.Target.Frame[i].Name = sub(out.Target.Frame[i].Name)
		}
		for k, v := range out.Target.Fingerprint {
			out.Target.Fingerprint[k] = sub(v)
		}
	}
	return out
}

// clone copies s deeply enough that changing the copy's pointers, maps
// and locators leaves s alone.
func (s Step) clone() Step {
	c := s
	if s.Value != nil {
		c.Value = Ptr(*s.Value)
	}
	if s.Expected != nil {
		c.Expected = Ptr(*s.Expected)
	}
	if s.Ms != nil {
		c.Ms = Ptr(*s.Ms)
	}
	if s.Inputs != nil {
		c.Inputs = maps.Clone(s.Inputs)
	}
	if s.Target != nil {
		t := *s.Target
		t.Locators = append([]Locator(nil), s.Target.Locators...)
		t.Frame = append([]Locator(nil), s.Target.Frame...)
		t.Fingerprint = maps.Clone(s.Target.Fingerprint)
		c.Target = &t
	}
	return c
}

func codeWithInputs(code string, values map[string]string) string {
	segs, _ := splitRefs(code, false)
	var b strings.Builder
	for _, g := range segs {
		switch {
		case !g.IsRef:
			b.WriteString(g.Text)
		case hasKey(values, g.Ref):
			b.WriteString(jsExpression(values[g.Ref]))
		default:
			b.WriteString("${" + g.Ref + "}")
		}
	}
	return b.String()
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// jsExpression is a JavaScript expression whose value is v with its
// references still read from vars: "text" or ("a" + ${x} + "b").
func jsExpression(v string) string {
	segs, _ := splitRefs(v, false)
	if len(segs) == 1 && segs[0].IsRef {
		return "${" + segs[0].Ref + "}"
	}
	var parts []string
	for _, g := range segs {
		if g.IsRef {
			parts = append(parts, "${"+g.Ref+"}")
		} else {
			lit, _ := json.Marshal(g.Text)
			parts = append(parts, string(lit))
		}
	}
	switch len(parts) {
	case 0:
		return `""`
	case 1:
		return parts[0]
	}
	return "(" + strings.Join(parts, " + ") + ")"
}
