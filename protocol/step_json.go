package protocol

import (
	"bytes"
	"encoding/json"
)

// JSON "to" and "expected" change type with the step's type: "to" is a
// switchTab's string and a dragTo's target, "expected" is an assertCount's
// number and every other type's string. These methods keep the Go fields
// typed (To/ToTarget, Expected/Count) and the JSON as DESIGN.md shows it.

// stepPlain is Step without its methods.
type stepPlain Step

// stepWire overrides the two members whose type varies; the outer fields
// win over the embedded ones of the same JSON name.
type stepWire struct {
	stepPlain
	To       any `json:"to,omitempty"`
	Expected any `json:"expected,omitempty"`
}

// MarshalJSON writes "to" and "expected" in the shape of the step's type.
func (s Step) MarshalJSON() ([]byte, error) {
	if s.Count == nil && s.ToTarget == nil {
		// The common case keeps "expected" in its place among the fields.
		return json.Marshal(struct {
			stepPlain
			To string `json:"to,omitempty"`
		}{stepPlain(s), s.To})
	}
	w := stepWire{stepPlain: stepPlain(s)}
	switch {
	case s.ToTarget != nil:
		w.To = s.ToTarget
	case s.To != "":
		w.To = s.To
	}
	switch {
	case s.Count != nil:
		w.Expected = *s.Count
	case s.Expected != nil:
		w.Expected = *s.Expected
	}
	return json.Marshal(w)
}

// stepWireIn reads the two members raw, to decide by type.
type stepWireIn struct {
	*stepPlain
	To       json.RawMessage `json:"to,omitempty"`
	Expected json.RawMessage `json:"expected,omitempty"`
}

// UnmarshalJSON reads a step written by MarshalJSON (or by hand): "to" as
// a string or a target object, "expected" as a string or a number.
func (s *Step) UnmarshalJSON(data []byte) error {
	*s = Step{}
	in := stepWireIn{stepPlain: (*stepPlain)(s)}
	if err := json.Unmarshal(data, &in); err != nil {
		return err
	}
	if to := bytes.TrimSpace(in.To); len(to) > 0 && !bytes.Equal(to, []byte("null")) {
		if to[0] == '{' {
			s.ToTarget = &Target{}
			if err := json.Unmarshal(to, s.ToTarget); err != nil {
				return err
			}
		} else if err := json.Unmarshal(to, &s.To); err != nil {
			return err
		}
	}
	if e := bytes.TrimSpace(in.Expected); len(e) > 0 && !bytes.Equal(e, []byte("null")) {
		if e[0] == '"' {
			var str string
			if err := json.Unmarshal(e, &str); err != nil {
				return err
			}
			s.Expected = &str
		} else {
			var n int
			if err := json.Unmarshal(e, &n); err != nil {
				return err
			}
			s.Count = &n
		}
	}
	return nil
}
