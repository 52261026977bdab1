package runner

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/testautomation/ta/protocol"
)

// lookup resolves a reference as written between ${ and }: a secret, or a
// variable set by the run, else job.Variables (environment, data row),
// else the document's variables; a dotted reference (resp.body.id) reads a
// field of a variable holding JSON (see field).
func (r *run) lookup(ref string) (string, bool) {
	v, err := r.value(ref)
	return v, err == nil
}

// value is lookup saying why a reference has no value.
func (r *run) value(ref string) (string, error) {
	if name, ok := strings.CutPrefix(ref, protocol.SecretPrefix); ok {
		if v, ok := r.job.Secrets[name]; ok {
			return v, nil
		}
		return "", unknownRef(ref)
	}
	base, path, dotted := strings.Cut(ref, ".")
	v, ok := r.plain(base)
	switch {
	case !ok:
		return "", unknownRef(base)
	case !dotted:
		return v, nil
	}
	return field(base, v, path)
}

// jsonMark prefixes, in the run's variables, the mark of a variable that
// holds a JSON value rather than text: what a script returned that was
// not a string, or a request's answer. No variable name has a colon.
const jsonMark = "json:"

// setVar sets a variable the run computed; typed says its text is the
// JSON of a value (an array, a number...), which a script receives as
// that value, as Selenium IDE hands stored values to executeScript.
func (r *run) setVar(name, v string, typed bool) {
	r.vars[name] = v
	if typed {
		r.vars[jsonMark+name] = "1"
	} else {
		delete(r.vars, jsonMark+name)
	}
}

// typed reports whether the run's variable name holds a JSON value.
func (r *run) typed(name string) bool {
	_, ok := r.vars[jsonMark+name]
	return ok
}

// plain looks up a variable by its whole name.
func (r *run) plain(name string) (string, bool) {
	if v, ok := r.vars[name]; ok {
		return v, true
	}
	if v, ok := r.job.Variables[name]; ok {
		return v, true
	}
	v, ok := r.job.Document.Variables[name]
	return v, ok
}

// field reads path (dot-separated object keys and array indexes) in the
// JSON text v of the variable base, as a request step's assign stores its
// answer: ${resp.status}, ${resp.body.items.0.id}. A string field is
// its text, null is "", anything else its JSON. A path the value does not
// have fails the step: waiting cannot make it appear.
func field(base, v, path string) (string, error) {
	var cur any
	d := json.NewDecoder(strings.NewReader(v))
	d.UseNumber() // ids beyond 2^53 stay as written
	if err := d.Decode(&cur); err != nil {
		// clip cuts with "…", and the run's masker masks a secret's start
		// left before one (masker.cutEnds).
		return "", permanent("${%s.%s}: the variable %s does not hold JSON, so it has no fields (it is %s)", base, path, base, strconv.Quote(clip(v, 80)))
	}
	walked := base
	for _, key := range strings.Split(path, ".") {
		switch c := cur.(type) {
		case map[string]any:
			next, ok := c[key]
			if !ok {
				return "", permanent("${%s.%s}: %s has no field %q (it has %s)", base, path, walked, key, keysOf(c))
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(c) {
				return "", permanent("${%s.%s}: %s is a list of %d items, and %q is not an index of it (0 to %d)", base, path, walked, len(c), key, len(c)-1)
			}
			cur = c[i]
		default:
			return "", permanent("${%s.%s}: %s is %s, which has no field %q", base, path, walked, kindOf(cur), key)
		}
		walked += "." + key
	}
	switch c := cur.(type) {
	case nil:
		return "", nil
	case string:
		return c, nil
	case json.Number:
		return c.String(), nil
	}
	b, _ := json.Marshal(cur)
	return string(b), nil
}

// Field is field for the editor's Try (agent/author), which resolves a
// script's dotted references as a run does.
func Field(base, v, path string) (string, error) { return field(base, v, path) }

// keysOf lists an object's keys for a message, sorted, at most ten.
func keysOf(m map[string]any) string {
	if len(m) == 0 {
		return "no fields"
	}
	keys := slices.Sorted(maps.Keys(m))
	more := ""
	if len(keys) > 10 {
		keys, more = keys[:10], fmt.Sprintf(" and %d more", len(keys)-10)
	}
	return strings.Join(keys, ", ") + more
}

// kindOf words a JSON value's kind for messages.
func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	}
	return "a value"
}

// unknownRef is the error for a reference nothing defines.
func unknownRef(ref string) error {
	if name, ok := strings.CutPrefix(ref, protocol.SecretPrefix); ok {
		return permanent("unknown secret ${%s}: the run's environment has no secret named %s", ref, name)
	}
	return permanent("unknown variable ${%s}: define it in the test's variables, the environment or an earlier setVariable step", ref)
}

// interp replaces the references in s, failing on the first unknown one.
func (r *run) interp(s string) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	for _, ref := range protocol.References(s) {
		if _, err := r.value(ref); err != nil {
			return "", err
		}
	}
	return protocol.Interpolate(s, r.lookup), nil
}

// interpolateStep returns a copy of st with its string parameters
// interpolated: url, value, key, expected, a screenshot's name, the
// locators of target and frames, inputs, and a request's body and header
// values and a log's message. A script's code is not: its
// references travel as arguments (protocol.ScriptSource).
func (r *run) interpolateStep(st protocol.Step) (protocol.Step, error) {
	var err error
	str := func(p *string) {
		if err == nil && p != nil {
			*p, err = r.interp(*p)
		}
	}
	opt := func(p **string) {
		if *p != nil {
			v := **p
			str(&v)
			*p = &v
		}
	}
	str(&st.URL)
	opt(&st.Value)
	str(&st.Key)
	opt(&st.Expected)
	if st.Type == "screenshot" {
		str(&st.Name)
	}
	opt(&st.Text)  // dialog: a prompt's answer
	str(&st.Title) // switchTab
	target := func(p **protocol.Target) {
		if *p == nil {
			return
		}
		t := **p
		locs := func(ls []protocol.Locator) []protocol.Locator {
			out := make([]protocol.Locator, len(ls))
			for i, l := range ls {
				str(&l.Value)
				str(&l.Name)
				out[i] = l
			}
			return out
		}
		t.Locators, t.Frame = locs(t.Locators), locs(t.Frame)
		*p = &t
	}
	target(&st.Target)
	target(&st.ToTarget) // dragTo's drop target
	opt(&st.Body)
	str(&st.Message)
	if st.Headers != nil {
		h := maps.Clone(st.Headers)
		for k, v := range h {
			str(&v)
			h[k] = v
		}
		st.Headers = h
	}
	if st.Inputs != nil {
		in := maps.Clone(st.Inputs)
		for k, v := range in {
			str(&v)
			in[k] = v
		}
		st.Inputs = in
	}
	return st, err
}
