package api

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/protocol"
)

// schema is one JSON Schema (2020-12, as OpenAPI 3.1 uses) object.
type schema = map[string]any

// jsonObj describes a response the handler builds as a map (map[string]any{...}):
// every key is present, each value's Go type gives its schema.
type jsonObj map[string]any

// schemaGen turns the handlers' Go request and response types into the
// document's component schemas, so the document follows the code: json
// tags name properties, omitempty makes them optional, a pointer without
// omitempty may be null, time.Time is a date-time string, json.RawMessage
// and any are any JSON value. Objects are closed (additionalProperties:
// false): a field the document lacks is drift the response check catches.
// Struct tags refine a field where Go's type cannot say it: `enum:"a|b"`
// lists a string's values, `openapi:"nullable"` marks a slice or map the
// handler may leave nil.
type schemaGen struct {
	defs  map[string]schema
	names map[reflect.Type]string
	// request is set while request bodies are described: a type met
	// first there is read by a decoder that ignores unknown fields and
	// takes absent ones as zero, so it is open and requires only the
	// fields tagged openapi:"required". Responses are described first.
	request bool
}

// oneOf is a body that is exactly one of several shapes.
type oneOf []any

// orNull is a body that may also be null.
type orNull struct{ v any }

func newSchemaGen() *schemaGen {
	return &schemaGen{defs: map[string]schema{}, names: map[reflect.Type]string{}}
}

var (
	timeType = reflect.TypeFor[time.Time]()
	rawType  = reflect.TypeFor[json.RawMessage]()
	stepType = reflect.TypeFor[protocol.Step]()
)

// componentNames renames Go types whose names would read badly in the
// document; any other struct type T or tJSON becomes component T.
var componentNames = map[reflect.Type]string{
	reflect.TypeFor[errorBody]():         "Error",
	reflect.TypeFor[protocol.Document](): "TestDocument",
}

// stringEnums are named string types with a fixed set of values.
var stringEnums = map[reflect.Type][]string{
	reflect.TypeFor[access.Role](): roleNames(),
}

func roleNames() []string {
	out := make([]string, len(access.Roles))
	for i, r := range access.Roles {
		out[i] = string(r)
	}
	return out
}

func schemaRef(name string) schema { return schema{"$ref": "#/components/schemas/" + name} }

// of is the schema of a Go value's type; nil means no body.
func (g *schemaGen) of(v any) schema {
	switch v := v.(type) {
	case nil:
		return nil
	case jsonObj:
		out := schema{"type": "object", "additionalProperties": false}
		props, req := schema{}, []string{}
		for k := range v {
			req = append(req, k)
		}
		slices.Sort(req)
		for _, k := range req {
			props[k] = schema{}
			if fv := v[k]; fv != nil {
				props[k] = g.of(fv)
			}
		}
		out["properties"], out["required"] = props, req
		return out
	case oneOf:
		var alts []any
		for _, a := range v {
			alts = append(alts, g.of(a))
		}
		return schema{"oneOf": alts}
	case orNull:
		return nullable(g.of(v.v))
	case schema:
		if v["x-document-body"] == true {
			return g.docBody(v)
		}
		return v
	}
	return g.typ(reflect.TypeOf(v))
}

func (g *schemaGen) typ(t reflect.Type) schema {
	switch t {
	case timeType:
		return schema{"type": "string", "format": "date-time"}
	case rawType:
		return schema{}
	case stepType:
		return g.named(t, "Step", g.step)
	}
	if vals, ok := stringEnums[t]; ok {
		return schema{"type": "string", "enum": vals}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return g.typ(t.Elem())
	case reflect.Interface:
		return schema{}
	case reflect.String:
		return schema{"type": "string"}
	case reflect.Bool:
		return schema{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return schema{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return schema{"type": "number"}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return schema{"type": "string", "contentEncoding": "base64"}
		}
		return schema{"type": "array", "items": g.elem(t.Elem())}
	case reflect.Map:
		return schema{"type": "object", "additionalProperties": g.elem(t.Elem())}
	case reflect.Struct:
		if t.Name() == "" {
			return g.object(t)
		}
		return g.named(t, g.name(t), func() schema { return g.object(t) })
	}
	panic("openapi: no schema for Go type " + t.String())
}

// elem is the schema of a slice's or map's element: a nil pointer there
// is written as null.
func (g *schemaGen) elem(t reflect.Type) schema {
	if t.Kind() == reflect.Pointer {
		return nullable(g.typ(t))
	}
	return g.typ(t)
}

// named registers a component once and answers a reference to it.
func (g *schemaGen) named(t reflect.Type, name string, build func() schema) schema {
	if n, ok := g.names[t]; ok {
		return schemaRef(n)
	}
	g.names[t] = name
	g.defs[name] = schema{} // a placeholder, so recursive types end
	g.defs[name] = build()
	return schemaRef(name)
}

// name is a type's component name, unique in the document.
func (g *schemaGen) name(t reflect.Type) string {
	n, ok := componentNames[t]
	if !ok {
		n = strings.TrimSuffix(t.Name(), "JSON")
		n = string(unicode.ToUpper(rune(n[0]))) + n[1:]
	}
	if _, taken := g.defs[n]; taken {
		pkg := t.PkgPath()[strings.LastIndex(t.PkgPath(), "/")+1:]
		n = string(unicode.ToUpper(rune(pkg[0]))) + pkg[1:] + n
	}
	return n
}

// object is a struct's schema: its JSON fields, closed.
func (g *schemaGen) object(t reflect.Type) schema {
	props, req := schema{}, []string{}
	g.fields(t, props, &req)
	out := schema{"type": "object", "properties": props}
	if !g.request {
		out["additionalProperties"] = false
	}
	if len(req) > 0 {
		out["required"] = req
	}
	return out
}

func (g *schemaGen) fields(t reflect.Type, props schema, req *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			g.fields(ft, props, req)
			continue
		}
		if name == "" {
			name = f.Name
		}
		s := g.typ(f.Type)
		if vals := f.Tag.Get("enum"); vals != "" {
			s = schema{"type": "string", "enum": strings.Split(vals, "|")}
		}
		optional := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
		if strings.Contains(opts, "string") {
			s = schema{"type": "string"}
		}
		if !optional && f.Type.Kind() == reflect.Pointer || f.Tag.Get("openapi") == "nullable" {
			s = nullable(s)
		}
		if d := f.Tag.Get("doc"); d != "" {
			s["description"] = d
		}
		props[name] = s
		if g.request && !strings.Contains(f.Tag.Get("openapi"), "required") {
			optional = true
		}
		if !optional {
			*req = append(*req, name)
		}
	}
}

// nullable lets a schema also be null.
func nullable(s schema) schema {
	if t, ok := s["type"].(string); ok {
		c := schema{}
		for k, v := range s {
			c[k] = v
		}
		c["type"] = []string{t, "null"}
		if e, ok := c["enum"].([]string); ok {
			c["enum"] = append(anySlice(e), nil)
		}
		return c
	}
	return schema{"anyOf": []any{s, schema{"type": "null"}}}
}

func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// step is the schema of a test step, from protocol's step registry (the one
// source validation, the editor and the agent use): the fields of
// protocol.Step, the type one of the registry's, and each type's required
// parameters required when the type is that one.
func (g *schemaGen) step() schema {
	s := g.object(stepType)
	props := s["properties"].(schema)
	// "to" and "expected" change type with the step's type (see
	// protocol/step_json.go): a switchTab's string or a dragTo's target; an
	// assertCount's number or every other type's string.
	props["to"] = schema{"oneOf": []any{schema{"type": "string"}, g.typ(reflect.TypeFor[protocol.Target]())},
		"description": "switchTab: new, opener, index or match; dragTo: the target to drop on"}
	props["expected"] = schema{"oneOf": []any{schema{"type": "string"}, schema{"type": "integer"}},
		"description": "the expected text or value; a number for assertCount"}
	// A forEach's items: a reference to a JSON array, or a list (flow.go).
	props["items"] = schema{"oneOf": []any{schema{"type": "string"}, schema{"type": "array", "items": schema{"type": "string"}}},
		"description": `forEach: a variable holding a JSON array, "${rows}", or a list of texts`}
	var types, conds []any
	for _, st := range protocol.Registry() {
		types = append(types, st.Type)
		req := []string{}
		for _, p := range st.Params {
			if p.Required {
				req = append(req, p.Name)
			}
			if p.Type == protocol.ParamEnum {
				if ps, ok := props[p.Name].(schema); ok && ps["type"] == "string" {
					// one list per name across types (match, state, ...)
					vals, _ := ps["enum"].([]string)
					for _, v := range p.Values {
						if !slices.Contains(vals, v) {
							vals = append(vals, v)
						}
					}
					ps["enum"] = vals
				}
			}
		}
		conds = append(conds, schema{
			"if":   schema{"properties": schema{"type": schema{"const": st.Type}}, "required": []string{"type"}},
			"then": schema{"required": req},
		})
	}
	// The type's values are checked in allOf rather than declared on the
	// property, so generated clients keep type a string (an editor builds
	// steps of any registered type).
	props["type"] = schema{"type": "string", "description": "a step type of GET /api/registry"}
	known := schema{"if": schema{"properties": schema{"type": schema{"enum": types}}}, "else": false}
	s["allOf"] = append([]any{known}, conds...)
	s["description"] = "A step: id and type beside the parameters of its type (GET /api/registry lists them)."
	return s
}
