package protocol

import (
	"regexp"
	"strconv"
	"strings"
)

// RenderPlaywright renders a document as a readable Playwright Test script
// in TypeScript. Test variables become constants at the top of the test
// (let when a step sets them), other references read process.env, and
// ${secrets.NAME} becomes process.env.NAME. Each target uses its first
// locator; the fallbacks follow in a comment. It renders any document,
// valid or not, without panicking; what it cannot render it says in a
// comment.
func RenderPlaywright(d Document) string {
	return renderPlaywright(d, &helperSet{byKey: map[helperKey]int{}})
}

func renderPlaywright(d Document, hs *helperSet) string {
	return renderPlaywrightOpts(d, hs, PlaywrightOptions{})
}

func renderPlaywrightOpts(d Document, hs *helperSet, o PlaywrightOptions) string {
	r := newRenderer(d, hs)
	r.opts = o
	r.needs = needsOf(append(append([]Step(nil), d.Steps...), hs.steps()...))
	r.raw(r.importLine())
	r.raw("")
	r.declareModuleHelpers()
	if r.needsEscape {
		r.raw("// escapeRegExp makes a text match literally inside a regular expression.")
		r.raw(`const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');`)
		r.raw("")
	}
	r.comment(d.Description)
	if d.Suite != "" {
		r.line("test.describe(" + jsQuote(d.Suite) + ", () => {")
		r.depth++
	}
	opts := ""
	if len(d.Tags) > 0 {
		tags := make([]string, len(d.Tags))
		for i, t := range d.Tags {
			if !strings.HasPrefix(t, "@") {
				t = "@" + t
			}
			tags[i] = jsQuote(t)
		}
		opts = "{ tag: [" + strings.Join(tags, ", ") + "] }, "
	}
	fixtures := "page"
	if r.needs.context {
		fixtures = "page, context"
	}
	r.line("test(" + jsQuote(d.Name) + ", " + opts + "async ({ " + fixtures + " }) => {")
	r.depth++
	if r.declare(d) {
		r.raw("")
	}
	r.declareTestHelpers()
	r.declareHelpers()
	r.steps(d.Steps)
	r.depth--
	r.line("});")
	if d.Suite != "" {
		r.depth--
		r.line("});")
	}
	return r.b.String()
}

// renderer writes the script; idents maps every variable name a reference
// or a step uses to a JavaScript identifier.
type renderer struct {
	b           strings.Builder
	depth       int
	idents      map[string]string
	needsEscape bool
	helpers     *helperSet
	extra       []string // names only the helpers' steps use
	opts        PlaywrightOptions
	needs       suiteNeeds
	after       []string        // lines the next step is followed by (a dialog's check)
	taken       map[string]bool // identifiers in use, for fresh
	seq         map[string]int  // last number fresh gave, by base
}

func newRenderer(d Document, hs *helperSet) *renderer {
	r := &renderer{idents: map[string]string{}, extra: hs.outerNames()}
	// Names that are fine identifiers keep them; the others are renamed
	// around them.
	taken := map[string]bool{}
	names := append(variableNames(d), r.extra...)
	for _, h := range hs.list {
		for _, in := range h.comp.Inputs {
			names = append(names, in.Name)
		}
	}
	for _, name := range names {
		if jsIdent(name) == name {
			taken[name] = true
			r.idents[name] = name
		}
	}
	for _, name := range names {
		if _, done := r.idents[name]; done {
			continue
		}
		id := jsIdent(name)
		for base, n := id, 2; taken[id]; n++ {
			id = base + "_" + strconv.Itoa(n)
		}
		taken[id] = true
		r.idents[name] = id
	}
	for _, s := range AllSteps(append(append([]Step(nil), d.Steps...), hs.steps()...)) {
		for _, c := range s.Conditions() {
			if c.Kind == "value" && c.MatchOrDefault() == "contains" {
				r.needsEscape = true
			}
		}
		if s.Type == "assertValue" || s.Type == "assertUrl" || s.Type == "assertTitle" || s.Type == "assertAttribute" {
			if s.MatchOrDefault() == "contains" && s.Expected != nil && len(References(*s.Expected)) > 0 {
				r.needsEscape = true
			}
		}
	}
	r.nameHelpers(hs)
	r.taken, r.seq = map[string]bool{}, map[string]int{}
	for _, id := range r.idents {
		r.taken[id] = true
	}
	for _, h := range hs.list {
		r.taken[h.ident] = true
	}
	return r
}

// variableNames lists the document's variables, then the variables steps
// set, then the other names references use, each once.
func variableNames(d Document) []string {
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] && !strings.HasPrefix(n, SecretPrefix) {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, k := range sortedKeys(d.Variables) {
		add(k)
	}
	for _, s := range AllSteps(d.Steps) {
		if s.Type == "setVariable" && s.Name != "" {
			add(s.Name)
		}
		if (s.Type == "script" || s.Type == "request") && s.Assign != "" {
			add(s.Assign)
		}
		if s.Type == "assertVariable" && s.Name != "" {
			add(refBase(s.Name))
		}
	}
	for _, text := range documentTexts(d) {
		for _, ref := range References(text) {
			add(refBase(ref))
		}
	}
	return out
}

// documentTexts returns every string of a document that may hold references.
func documentTexts(d Document) []string {
	var out []string
	for _, k := range sortedKeys(d.Variables) {
		out = append(out, d.Variables[k])
	}
	for _, s := range AllSteps(d.Steps) {
		out = append(out, stepTexts(s)...)
	}
	return out
}

// refBase is the variable a reference reads: resp for ${resp.body.id};
// a secret's reference stays whole.
func refBase(ref string) string {
	if strings.HasPrefix(ref, SecretPrefix) {
		return ref
	}
	base, _, _ := strings.Cut(ref, ".")
	return base
}

var nonIdentRe = regexp.MustCompile(`[^A-Za-z0-9_$]`)

// jsIdent makes a JavaScript identifier of a variable name.
func jsIdent(name string) string {
	id := nonIdentRe.ReplaceAllString(name, "_")
	if id == "" || (id[0] >= '0' && id[0] <= '9') {
		id = "_" + id
	}
	if jsReserved[id] {
		id = "v_" + id
	}
	return id
}

// declare writes the variable declarations; it reports whether it wrote any.
func (r *renderer) declare(d Document) bool {
	assigned := map[string]bool{}
	for _, s := range AllSteps(append(append([]Step(nil), d.Steps...), r.helpers.steps()...)) {
		switch {
		case s.Type == "setVariable" && s.Name != "":
			assigned[s.Name] = true
		case (s.Type == "script" || s.Type == "request") && s.Assign != "":
			assigned[s.Assign] = true
		}
	}
	keyword := func(n string) string {
		if assigned[n] {
			return "let "
		}
		return "const "
	}
	// Values of the environment first, as the test's variables may use them.
	var env, set []string
	seen := map[string]bool{}
	loops := loopNames(d.Steps)
	for _, n := range append(variableNames(d), r.extra...) {
		if _, own := d.Variables[n]; own || seen[n] || strings.HasPrefix(n, SecretPrefix) || (loops[n] && !assigned[n]) {
			continue
		}
		seen[n] = true
		if assigned[n] {
			set = append(set, n)
		} else {
			env = append(env, n)
		}
	}
	if len(env) > 0 {
		r.line("// from the environment or a data set")
	}
	for _, n := range env {
		r.line("const " + r.idents[n] + " = process.env" + envMember(n) + " ?? '';")
	}
	for _, n := range set {
		r.line("let " + r.idents[n] + " = '';")
	}
	vars := orderVariables(d.Variables)
	for _, n := range vars {
		r.line(keyword(n) + r.idents[n] + " = " + r.str(d.Variables[n]) + ";")
	}
	return len(env)+len(set)+len(vars) > 0
}

// envMember writes the member of process.env holding a name: .name, or
// ['odd name'].
func envMember(n string) string {
	if identRe.MatchString(n) {
		return "." + n
	}
	return "[" + jsQuote(n) + "]"
}

// orderVariables sorts the variables so one whose value uses another
// comes after it; cycles keep name order.
func orderVariables(vars map[string]string) []string {
	var out []string
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(n string)
	visit = func(n string) {
		if state[n] != 0 {
			return
		}
		state[n] = 1
		for _, ref := range References(vars[n]) {
			if _, ok := vars[ref]; ok {
				visit(ref)
			}
		}
		state[n] = 2
		out = append(out, n)
	}
	for _, n := range sortedKeys(vars) {
		visit(n)
	}
	return out
}
