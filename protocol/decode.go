package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// decoder reads a generic JSON tree (objects as map[string]any, numbers
// as json.Number) into typed values, noting each problem as an issue
// rather than stopping at the first.
type decoder struct {
	issues issueList
	depth  int // blocks entered while reading steps (flow_decode.go)
}

// readJSON parses data as exactly one JSON value.
func readJSON(data []byte) (any, *Issue) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, &Issue{Path: "", Code: CodeJSON, Message: jsonMessage(err)}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &Issue{Path: "", Code: CodeJSON, Message: fmt.Sprintf("invalid JSON: unexpected data after the document at byte %d", dec.InputOffset())}
	}
	return v, nil
}

func jsonMessage(err error) string {
	var syn *json.SyntaxError
	switch {
	case errors.Is(err, io.EOF):
		return "invalid JSON: the input is empty"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "invalid JSON: the input ends too early"
	case errors.As(err, &syn):
		return fmt.Sprintf("invalid JSON at byte %d: %s", syn.Offset, strings.TrimPrefix(syn.Error(), "json: "))
	}
	return "invalid JSON: " + err.Error()
}

// jsonType names the JSON type of a decoded value for messages.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "a value"
}

func (d *decoder) wrong(path, want string, v any) {
	d.issues.add(path, CodeType, "%s must be %s, not %s", nameOf(path), want, jsonType(v))
}

// nameOf names a path in messages; the whole path says which of several
// same-named members is meant.
func nameOf(path string) string {
	if path == "" {
		return "the document"
	}
	return path
}

func (d *decoder) str(path string, v any) (string, bool) {
	s, ok := v.(string)
	if !ok {
		d.wrong(path, "a string", v)
	}
	return s, ok
}

func (d *decoder) boolean(path string, v any) (bool, bool) {
	b, ok := v.(bool)
	if !ok {
		d.wrong(path, "true or false", v)
	}
	return b, ok
}

// integer reads a whole number; 1e3 and 2.0 count, 2.5 does not.
func (d *decoder) integer(path string, v any) (int, bool) {
	num, ok := v.(json.Number)
	if !ok {
		d.wrong(path, "a number", v)
		return 0, false
	}
	if n, err := strconv.ParseInt(string(num), 10, 64); err == nil && n >= -1<<40 && n <= 1<<40 {
		return int(n), true
	}
	f, err := strconv.ParseFloat(string(num), 64)
	switch {
	case err == nil && f == math.Trunc(f) && math.Abs(f) <= 1<<40:
		return int(f), true
	case err == nil && f != math.Trunc(f):
		d.issues.add(path, CodeType, "%s must be a whole number, not %s", nameOf(path), clip(string(num), 30))
	default:
		d.issues.add(path, CodeRange, "%s is out of range: %s", nameOf(path), clip(string(num), 30))
	}
	return 0, false
}

func (d *decoder) object(path string, v any) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		d.wrong(path, "an object", v)
	}
	return m, ok
}

func (d *decoder) array(path string, v any) ([]any, bool) {
	a, ok := v.([]any)
	if !ok {
		d.wrong(path, "an array", v)
	}
	return a, ok
}

// strings reads an array of strings; an element of another type becomes
// "" so later elements keep their index.
func (d *decoder) strings(path string, v any) []string {
	a, ok := d.array(path, v)
	if !ok {
		return nil
	}
	out := make([]string, len(a))
	for i, x := range a {
		out[i], _ = d.str(index(path, i), x)
	}
	return out
}

// stringMap reads an object whose members are strings.
func (d *decoder) stringMap(path string, v any) map[string]string {
	m, ok := d.object(path, v)
	if !ok {
		return nil
	}
	out := make(map[string]string, len(m))
	for _, k := range sortedKeys(m) {
		if m[k] == nil {
			continue
		}
		if s, ok := d.str(keyPath(path, k), m[k]); ok {
			out[k] = s
		}
	}
	return out
}

func (d *decoder) unknown(path, field string) {
	d.issues.add(keyPath(path, field), CodeUnknown, "unknown field %q", clip(field, 40))
}
