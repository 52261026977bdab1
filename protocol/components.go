package protocol

import (
	"encoding/json"
	"strings"
)

// WithInputs returns a copy of s, a step inside a component, with each
// ${name} whose name is in values replaced by that value: in every text
// of the step (its parameters, locators, fingerprints, headers, nested
// call inputs), whatever its type. Other references (test and environment
// variables, secrets) stay for the runner. In script code, where ${name}
// is an expression (vars.name, see ScriptSource), the reference becomes an
// expression of the same value: a string literal, or a concatenation when
// the value itself holds references.
//
// It works on the step's JSON, so a parameter added later is filled in
// too without being listed here.
func (s Step) WithInputs(values map[string]string) Step {
	data, err := json.Marshal(s)
	if err != nil {
		return s
	}
	var tree any
	if json.Unmarshal(data, &tree) != nil {
		return s
	}
	if len(values) > 0 {
		tree = withInputs(tree, "", values)
	}
	if data, err = json.Marshal(tree); err != nil {
		return s
	}
	var out Step
	if json.Unmarshal(data, &out) != nil {
		return s
	}
	return out
}

// withInputs fills inputs into the strings of a step's JSON; key is the
// member v is the value of.
func withInputs(v any, key string, values map[string]string) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = withInputs(e, k, values)
		}
	case []any:
		for i, e := range x {
			x[i] = withInputs(e, key, values)
		}
	case string:
		switch key {
		case "id", "type", "component", "call":
			return x // names, not texts
		case "code":
			return codeWithInputs(x, values)
		}
		return Interpolate(x, func(ref string) (string, bool) {
			v, ok := values[ref]
			return v, ok
		})
	}
	return v
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
