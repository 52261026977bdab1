package protocol

import (
	"strconv"
	"strings"
)

func (r *renderer) raw(s string) { r.b.WriteString(s + "\n") }

func (r *renderer) line(s string) {
	r.b.WriteString(strings.Repeat("  ", r.depth) + s + "\n")
}

// comment writes text as // lines, split at every line terminator.
func (r *renderer) comment(text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	for _, l := range splitLines(text) {
		r.line(strings.TrimRight("// "+l, " "))
	}
}

func splitLines(s string) []string {
	return strings.FieldsFunc(strings.ReplaceAll(s, "\r\n", "\n"), func(r rune) bool {
		return r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029
	})
}

// str renders a string parameter: a plain literal, the variable itself when
// the string is one reference, else a template literal.
func (r *renderer) str(s string) string {
	segs, _ := splitRefs(s, false)
	if len(segs) == 1 && segs[0].IsRef {
		return r.refExpr(segs[0].Ref)
	}
	if len(segs) <= 1 {
		return jsQuote(s)
	}
	var b strings.Builder
	b.WriteByte('`')
	for _, g := range segs {
		switch {
		case !g.IsRef:
			b.WriteString(templateText(g.Text))
		case strings.HasPrefix(g.Ref, SecretPrefix):
			b.WriteString("${process.env." + strings.TrimPrefix(g.Ref, SecretPrefix) + "}")
		default:
			b.WriteString("${" + r.refExpr(g.Ref) + "}")
		}
	}
	b.WriteByte('`')
	return b.String()
}

func (r *renderer) ident(name string) string {
	if id, ok := r.idents[name]; ok {
		return id
	}
	return jsIdent(name)
}

// locator renders the first locator of a target, inside its frames.
func (r *renderer) locator(t *Target) string {
	base := "page"
	for _, f := range t.Frame {
		if f.Kind == "css" || f.Kind == "xpath" {
			base += ".frameLocator(" + r.str(f.Kind+"="+f.Value) + ")"
		} else {
			base = r.locatorOn(base, f) + ".contentFrame()"
		}
	}
	return r.locatorOn(base, t.Locators[0])
}

var getBy = map[string]string{"testId": "getByTestId", "label": "getByLabel", "placeholder": "getByPlaceholder",
	"alt": "getByAltText", "title": "getByTitle", "text": "getByText"}

func (r *renderer) locatorOn(base string, l Locator) string {
	exact := ""
	if l.Exact {
		exact = ", exact: true"
	}
	switch l.Kind {
	case "role":
		opts := ""
		if l.Name != "" {
			opts = ", { name: " + r.str(l.Name) + exact + " }"
		}
		return base + ".getByRole(" + r.str(l.Value) + opts + ")"
	case "css", "xpath":
		return base + ".locator(" + r.str(l.Kind+"="+l.Value) + ")"
	case "testId":
		return base + ".getByTestId(" + r.str(l.Value) + ")"
	}
	if m, ok := getBy[l.Kind]; ok {
		if exact != "" {
			return base + "." + m + "(" + r.str(l.Value) + ", { exact: true })"
		}
		return base + "." + m + "(" + r.str(l.Value) + ")"
	}
	return base + ".locator(" + r.str(l.Value) + ")"
}

// opts renders an options object from "key: value" pairs, with the step's
// timeout when it has one; "" when empty.
func opts(s Step, pairs ...string) string {
	if s.TimeoutMs > 0 {
		pairs = append(pairs, "timeout: "+strconv.Itoa(s.TimeoutMs))
	}
	if len(pairs) == 0 {
		return ""
	}
	return "{ " + strings.Join(pairs, ", ") + " }"
}

// args joins call arguments, leaving out empty ones.
func args(as ...string) string {
	var out []string
	for _, a := range as {
		if a != "" {
			out = append(out, a)
		}
	}
	return strings.Join(out, ", ")
}

// step writes one step: its description, its fallbacks, its statement.
func (r *renderer) step(s Step) {
	// What the step before left to check (a dialog it armed has opened)
	// follows this step; what this step leaves waits for the next.
	pending := r.after
	r.after = nil
	defer func() {
		for _, l := range pending {
			r.line(l)
		}
	}()
	r.comment(s.Description)
	st, known := stepType(s.Type)
	if !known {
		r.comment("step " + s.ID + ": unknown step type " + jsQuote(s.Type))
		return
	}
	loc := ""
	if s.Target != nil && len(s.Target.Locators) > 0 {
		loc = r.locator(s.Target)
		if len(s.Target.Locators) > 1 {
			fb := make([]string, 0, len(s.Target.Locators)-1)
			for _, l := range s.Target.Locators[1:] {
				fb = append(fb, r.locatorOn("page", l))
			}
			r.comment("fallbacks: " + strings.Join(fb, ", "))
		}
	} else if p, _ := st.Param("target"); p.Required {
		r.comment("step " + s.ID + " (" + s.Type + ") has no target")
		return
	}
	r.statement(s, loc)
}

// steps writes a list of steps; what the last one left to check follows it.
func (r *renderer) steps(steps []Step) {
	for _, s := range steps {
		r.step(s)
	}
	for _, l := range r.after {
		r.line(l)
	}
	r.after = nil
}
