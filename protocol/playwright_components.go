package protocol

import (
	"strconv"
	"strings"
	"unicode"
)

// PlaywrightComponent is one version of a component a rendered script
// calls: its declared inputs, with their defaults, and its steps.
type PlaywrightComponent struct {
	Name    string
	Version int
	Inputs  []PlaywrightInput
	Steps   []Step
}

// PlaywrightInput is a component's input; Default nil when it has none.
type PlaywrightInput struct {
	Name    string
	Default *string
}

// ComponentLookup finds a component's version (0: its latest) for a
// rendered script; false when it cannot.
type ComponentLookup func(id string, version int) (PlaywrightComponent, bool)

// helper is a component version rendered as a helper function.
type helper struct {
	ident string
	comp  PlaywrightComponent
}

type helperKey struct {
	id      string
	version int
}

// RenderPlaywrightWith renders d as RenderPlaywright does, with each
// component version its calls reach (through lookup, also from inside
// other components) rendered once as an async helper function at the top
// of the test, taking the call's inputs; each call awaits its helper.
// Calls lookup cannot resolve stay comments.
func RenderPlaywrightWith(d Document, lookup ComponentLookup) string {
	return RenderPlaywrightOptions(d, PlaywrightOptions{Components: lookup})
}

// collectHelpers resolves every reachable call, callees before callers,
// each component version once; cycles end where they loop.
func collectHelpers(d Document, lookup ComponentLookup) *helperSet {
	hs := &helperSet{byKey: map[helperKey]int{}}
	if lookup == nil {
		return hs
	}
	visiting := map[helperKey]bool{}
	var walk func(steps []Step)
	walk = func(steps []Step) {
		for _, s := range AllSteps(steps) {
			if s.Type != "callComponent" || s.Component == "" {
				continue
			}
			k := helperKey{s.Component, s.Version}
			if _, done := hs.byKey[k]; done || visiting[k] {
				continue
			}
			c, ok := lookup(s.Component, s.Version)
			if !ok {
				continue
			}
			// The latest version and the same version asked by number are one helper.
			exact := helperKey{s.Component, c.Version}
			if i, done := hs.byKey[exact]; done {
				hs.byKey[k] = i
				continue
			}
			visiting[k], visiting[exact] = true, true
			walk(c.Steps)
			hs.list = append(hs.list, helper{comp: c})
			hs.byKey[k], hs.byKey[exact] = len(hs.list)-1, len(hs.list)-1
		}
	}
	walk(d.Steps)
	return hs
}

type helperSet struct {
	list  []helper
	byKey map[helperKey]int
}

// steps lists every component step the helpers hold.
func (hs *helperSet) steps() []Step {
	var out []Step
	for _, h := range hs.list {
		out = append(out, h.comp.Steps...)
	}
	return out
}

// inputNames is the set of a component's input names.
func (c PlaywrightComponent) inputNames() map[string]bool {
	out := map[string]bool{}
	for _, in := range c.Inputs {
		out[in.Name] = true
	}
	return out
}

// outerNames lists the names the helpers' steps use that are not their
// own inputs: the test's and the environment's variables, and those the
// steps set.
func (hs *helperSet) outerNames() []string {
	var out []string
	for _, h := range hs.list {
		own := h.comp.inputNames()
		for _, n := range variableNames(Document{Steps: h.comp.Steps}) {
			if !own[n] {
				out = append(out, n)
			}
		}
		for _, in := range h.comp.Inputs { // defaults read the caller's names
			if in.Default != nil {
				for _, n := range References(*in.Default) {
					if !own[n] && !strings.HasPrefix(n, SecretPrefix) {
						out = append(out, n)
					}
				}
			}
		}
	}
	return out
}

// nameHelpers gives each helper a JavaScript name from its component's
// name and version (signInV2), clear of the variables' identifiers.
func (r *renderer) nameHelpers(hs *helperSet) {
	taken := map[string]bool{}
	for _, id := range r.idents {
		taken[id] = true
	}
	for i := range hs.list {
		c := hs.list[i].comp
		base := camelIdent(c.Name) + "V" + strconv.Itoa(c.Version)
		id := base
		for n := 2; taken[id] || jsReserved[id]; n++ {
			id = base + "_" + strconv.Itoa(n)
		}
		taken[id] = true
		hs.list[i].ident = id
	}
	r.helpers = hs
}

// camelIdent makes "Sign in (SSO)" signInSso; never empty, never a digit first.
func camelIdent(name string) string {
	var b strings.Builder
	upper := false
	for _, c := range name {
		switch {
		case c < unicode.MaxASCII && (unicode.IsLetter(c) || unicode.IsDigit(c)):
			if b.Len() == 0 {
				if unicode.IsDigit(c) {
					b.WriteString("component")
					b.WriteRune(c)
				} else {
					b.WriteRune(unicode.ToLower(c))
				}
			} else if upper {
				b.WriteRune(unicode.ToUpper(c))
			} else {
				b.WriteRune(c)
			}
			upper = false
		default:
			upper = true
		}
	}
	if b.Len() == 0 {
		return "component"
	}
	return b.String()
}

// declareHelpers writes each helper: its inputs, from the call or their
// defaults, then its steps.
func (r *renderer) declareHelpers() {
	for _, h := range r.helpers.list {
		c := h.comp
		r.comment("component " + jsQuote(c.Name) + " v" + strconv.Itoa(c.Version))
		if len(c.Inputs) == 0 {
			r.line("const " + h.ident + " = async () => {")
		} else {
			r.line("const " + h.ident + " = async (inputs: Record<string, string> = {}) => {")
		}
		r.depth++
		for _, in := range c.Inputs {
			def := "''"
			if in.Default != nil {
				def = r.str(*in.Default)
			}
			r.line("const " + r.ident(in.Name) + " = inputs[" + jsQuote(in.Name) + "] ?? " + def + ";")
		}
		r.steps(c.Steps)
		r.depth--
		r.line("};")
		r.raw("")
	}
}

// call writes a call of a component's helper; false when there is none.
func (r *renderer) call(s Step) bool {
	if r.helpers == nil {
		return false
	}
	i, ok := r.helpers.byKey[helperKey{s.Component, s.Version}]
	if !ok {
		return false
	}
	h := r.helpers.list[i]
	if len(h.comp.Inputs) == 0 {
		r.line("await " + h.ident + "();")
		return true
	}
	var args []string
	for _, k := range sortedKeys(s.Inputs) {
		key := jsQuote(k)
		if identRe.MatchString(k) {
			key = k
		}
		args = append(args, key+": "+r.str(s.Inputs[k]))
	}
	if len(args) == 0 {
		r.line("await " + h.ident + "();")
	} else {
		r.line("await " + h.ident + "({ " + strings.Join(args, ", ") + " });")
	}
	return true
}
