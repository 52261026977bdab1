package language

import (
	"github.com/testautomation/ta/protocol"
)

// drafted tells whether the model may propose a step type. Components are
// the project's own and named by id, which the model cannot know.
func drafted(t protocol.StepType) bool { return t.Type != "callComponent" }

// Schema is the JSON schema of an answer: {"steps": [step, ...]}, each step
// one of the registry's types with its parameters. It is not strict: the
// validator, not the schema, is what decides whether a step is kept.
func Schema() map[string]any {
	var variants []any
	for _, t := range protocol.Registry() {
		if !drafted(t) {
			continue
		}
		props := map[string]any{
			"type": map[string]any{"type": "string", "enum": []string{t.Type}},
			"id":   map[string]any{"type": "string"},
		}
		required := []string{"type"}
		for _, p := range t.Params {
			props[p.Name] = paramSchema(p)
			if p.Required {
				required = append(required, p.Name)
			}
		}
		variants = append(variants, map[string]any{
			"type": "object", "description": t.Description,
			"properties": props, "required": required, "additionalProperties": false,
		})
	}
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"steps": map[string]any{"type": "array", "items": map[string]any{"anyOf": variants}},
		},
		"required":             []string{"steps"},
		"additionalProperties": false,
	}
}

func paramSchema(p protocol.Param) map[string]any {
	s := map[string]any{"description": p.Description}
	switch p.Type {
	case protocol.ParamNumber:
		s["type"] = "integer"
	case protocol.ParamBoolean:
		s["type"] = "boolean"
	case protocol.ParamEnum:
		s["type"] = "string"
		s["enum"] = p.Values
	case protocol.ParamMap:
		s["type"] = "object"
		s["additionalProperties"] = map[string]any{"type": "string"}
	case protocol.ParamList:
		item := map[string]any{"type": "string"}
		if p.Values != nil {
			item["enum"] = p.Values
		}
		s["type"] = "array"
		s["items"] = item
	case protocol.ParamPosition:
		s["type"] = "object"
		s["properties"] = map[string]any{"x": map[string]any{"type": "number"}, "y": map[string]any{"type": "number"}}
		s["required"] = []string{"x", "y"}
		s["additionalProperties"] = false
	case protocol.ParamTarget:
		loc := map[string]any{
			"type": "object",
			"properties": map[string]any{
				"kind":  map[string]any{"type": "string", "enum": protocol.LocatorKinds()},
				"value": map[string]any{"type": "string"},
				"name":  map[string]any{"type": "string", "description": "the accessible name, for kind role"},
				"exact": map[string]any{"type": "boolean"},
			},
			"required":             []string{"kind", "value"},
			"additionalProperties": false,
		}
		s["type"] = "object"
		s["properties"] = map[string]any{
			"locators": map[string]any{"type": "array", "items": loc, "minItems": 1},
			"frame":    map[string]any{"type": "array", "items": loc},
		}
		s["required"] = []string{"locators"}
		s["additionalProperties"] = false
	case protocol.ParamCondition:
		s["type"] = "object"
		s["properties"] = map[string]any{
			"kind":     map[string]any{"type": "string", "enum": protocol.ConditionKinds()},
			"target":   paramSchema(protocol.Param{Type: protocol.ParamTarget}),
			"name":     map[string]any{"type": "string"},
			"expected": map[string]any{"type": "string"},
			"match":    map[string]any{"type": "string"},
			"code":     map[string]any{"type": "string"},
		}
		s["required"] = []string{"kind"}
		s["additionalProperties"] = false
	case protocol.ParamSteps:
		// Steps of the same kinds as the top level's: the schema is not
		// strict (see Schema), the validator checks them.
		s["type"] = "array"
		s["items"] = map[string]any{"type": "object"}
	case protocol.ParamItems:
		s["anyOf"] = []any{map[string]any{"type": "string"}, map[string]any{"type": "array", "items": map[string]any{"type": "string"}}}
	default:
		s["type"] = "string"
	}
	return s
}
