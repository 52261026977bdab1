package protocol

import (
	"regexp"
	"strconv"
	"strings"
)

// statement writes the Playwright code of a step of a known type; loc is
// its target's locator expression, "" when it has none.
func (r *renderer) statement(s Step, loc string) {
	value := r.str(deref(s.Value))
	if r.suiteStatement(s, loc) || r.flowStatement(s) {
		return
	}
	switch s.Type {
	case "navigate":
		r.line("await page.goto(" + args(r.str(s.URL), opts(s)) + ");")
	case "click", "dblclick":
		r.line("await " + loc + "." + s.Type + "(" + opts(s, clickPairs(s)...) + ");")
	case "hover", "check", "uncheck":
		r.line("await " + loc + "." + s.Type + "(" + opts(s) + ");")
	case "fill":
		r.line("await " + loc + ".fill(" + args(value, opts(s)) + ");")
	case "select":
		r.line("await " + loc + ".selectOption(" + args(value, opts(s)) + ");")
	case "press":
		if loc == "" {
			r.line("await page.keyboard.press(" + r.str(s.Key) + ");")
		} else {
			r.line("await " + loc + ".press(" + args(r.str(s.Key), opts(s)) + ");")
		}
	case "assertVisible":
		r.line("await " + expectOf(s, loc) + ".toBeVisible(" + opts(s) + ");")
	case "assertHidden":
		r.line("await " + expectOf(s, loc) + ".toBeHidden(" + opts(s) + ");")
	case "assertText", "assertValue", "assertUrl", "assertTitle":
		r.assertion(s, loc)
	case "wait":
		ms := 0
		if s.Ms != nil {
			ms = *s.Ms
		}
		r.line("await page.waitForTimeout(" + strconv.Itoa(ms) + ");")
	case "waitFor":
		// Playwright waits for the states of actionability through expect.
		switch st := s.StateOrDefault(); st {
		case "enabled", "disabled", "editable":
			r.line("await expect(" + loc + ").toBe" + strings.ToUpper(st[:1]) + st[1:] + "(" + opts(s) + ");")
		case "readonly":
			r.line("await expect(" + loc + ").not.toBeEditable(" + opts(s) + ");")
		default:
			r.line("await " + loc + ".waitFor(" + opts(s, "state: "+jsQuote(st)) + ");")
		}
	case "screenshot":
		r.screenshot(s, loc)
	case "setVariable":
		r.setVariable(s, loc)
	case "script":
		r.script(s)
	case "callComponent":
		r.component(s)
	}
}

// assertion writes assertText, assertValue, assertUrl and assertTitle.
func (r *renderer) assertion(s Step, loc string) {
	subject, method := "page", map[string]string{"assertText": "toHaveText", "assertValue": "toHaveValue",
		"assertUrl": "toHaveURL", "assertTitle": "toHaveTitle"}[s.Type]
	if s.Type == "assertText" || s.Type == "assertValue" {
		subject = loc
	}
	expected := deref(s.Expected)
	var want string
	switch s.MatchOrDefault() {
	case "equals":
		want = r.str(expected)
	case "regex":
		want = r.regex(expected)
	default: // contains
		if s.Type == "assertText" {
			method, want = "toContainText", r.str(expected)
		} else if len(References(expected)) > 0 {
			want = "new RegExp(escapeRegExp(" + r.str(expected) + "))"
		} else {
			want = jsRegexLiteral(regexQuote(expected))
		}
	}
	r.line("await " + expectOf(s, subject) + "." + method + "(" + args(want, opts(s)) + ");")
}

// regex renders a regular expression; one with references is built at
// run time from a template literal.
func (r *renderer) regex(pattern string) string {
	if len(References(pattern)) == 0 {
		return jsRegexLiteral(pattern)
	}
	flags := ""
	if m := goFlagsRe.FindStringSubmatch(pattern); m != nil {
		for _, f := range "ims" {
			if strings.ContainsRune(m[1], f) {
				flags += string(f)
			}
		}
		pattern = pattern[len(m[0]):]
	}
	out := "new RegExp(" + r.str(strings.ReplaceAll(pattern, "(?P<", "(?<"))
	if flags != "" {
		out += ", " + jsQuote(flags)
	}
	return out + ")"
}

func (r *renderer) screenshot(s Step, loc string) {
	name := s.Name
	if name == "" {
		name = s.ID
	}
	pairs := []string{"path: " + r.str(name+".png")}
	if loc != "" {
		r.line("await " + loc + ".screenshot(" + opts(s, pairs...) + ");")
		return
	}
	if s.FullPage {
		pairs = append(pairs, "fullPage: true")
	}
	r.line("await page.screenshot(" + opts(s, pairs...) + ");")
}

func (r *renderer) setVariable(s Step, loc string) {
	if s.From != "count" && r.needs.typed[s.Name] {
		defer r.line("typed.delete(" + jsQuote(s.Name) + "); // text again")
	}
	v := r.ident(s.Name) + " = "
	switch s.From {
	case "title":
		r.line(v + "await page.title();")
		return
	case "url":
		r.line(v + "page.url();")
		return
	}
	if loc == "" {
		r.line(v + r.str(deref(s.Value)) + ";")
		return
	}
	switch s.From {
	case "value":
		r.line(v + "await " + loc + ".inputValue(" + opts(s) + ");")
	case "attribute":
		r.line(v + "(await " + loc + ".getAttribute(" + args(r.str(s.Attribute), opts(s)) + ")) ?? '';")
	case "count":
		r.line(v + "stored(" + jsQuote(s.Name) + ", await " + loc + ".count());")
		return
	case "selectedLabel":
		r.line(v + "await " + loc + ".locator('option:checked').innerText(" + opts(s) + ");")
	default: // text
		r.line(v + "await " + loc + ".innerText(" + opts(s) + ");")
	}
}

// script writes page.evaluate with the code as a function body; the
// references it uses travel in the vars argument (see ScriptSource).
func (r *renderer) script(s Step) {
	body, refs := scriptBody(s.Code)
	lhs := "await "
	if s.Assign != "" {
		lhs = r.ident(s.Assign) + " = stored(" + jsQuote(s.Assign) + ", await "
	}
	param, arg := "()", ""
	if len(refs) > 0 {
		param, arg = "(vars)", ", "+r.varsObject(refs)
	}
	if awaitRe.MatchString(body) {
		param = "async " + param // the code may await
	}
	r.line(lhs + "page.evaluate(" + param + " => {")
	lines := strings.Split(strings.ReplaceAll(strings.TrimSpace(body), "\r\n", "\n"), "\n")
	indent := !strings.Contains(body, "`") // re-indenting would change multi-line template strings
	for _, l := range lines {
		if indent && l != "" {
			r.line("  " + l)
		} else {
			r.raw(l)
		}
	}
	closing := "}" + arg + ")"
	if s.Assign != "" {
		closing += ")"
	}
	r.line(closing + ";")
}

var awaitRe = regexp.MustCompile(`\bawait\b`)

// memberPath writes a reference as JavaScript member access:
// resp.body.items.0.content-type is .resp.body.items['0']['content-type'].
func memberPath(ref string) string {
	if strings.HasPrefix(ref, SecretPrefix) {
		return "." + ref
	}
	var b strings.Builder
	for _, seg := range strings.Split(ref, ".") {
		if identRe.MatchString(seg) {
			b.WriteString("." + seg)
		} else {
			b.WriteString("[" + jsQuote(seg) + "]")
		}
	}
	return b.String()
}

// varsObject renders { user, secrets: { PW: process.env.PW } }.
func (r *renderer) varsObject(refs []string) string {
	var plain, secrets []string
	parsed := map[string]bool{}
	for _, ref := range refs {
		if base, _, dotted := strings.Cut(ref, "."); dotted && !strings.HasPrefix(ref, SecretPrefix) {
			// ${resp.body.id} is vars.resp.body.id in the code: vars.resp is
			// the variable's JSON, parsed.
			if !parsed[base] {
				parsed[base] = true
				plain = append(plain, base+": JSON.parse("+r.ident(base)+")")
			}
			continue
		}
		if name, ok := strings.CutPrefix(ref, SecretPrefix); ok {
			secrets = append(secrets, name+": process.env."+name)
		} else if id := r.ident(ref); r.needs.typed[ref] {
			key := ref
			if !identRe.MatchString(ref) {
				key = jsQuote(ref)
			}
			plain = append(plain, key+": valueOf("+jsQuote(ref)+", "+id+")")
		} else if id == ref {
			plain = append(plain, ref)
		} else {
			plain = append(plain, ref+": "+id)
		}
	}
	if len(secrets) > 0 {
		plain = append(plain, "secrets: { "+strings.Join(secrets, ", ")+" }")
	}
	return "{ " + strings.Join(plain, ", ") + " }"
}

func (r *renderer) component(s Step) {
	if r.call(s) {
		return
	}
	v := "latest version"
	if s.Version > 0 {
		v = "v" + strconv.Itoa(s.Version)
	}
	r.comment("component " + s.Component + " " + v + ": inline it or call your own helper")
	if len(s.Inputs) > 0 {
		keys := sortedKeys(s.Inputs)
		in := make([]string, len(keys))
		for i, k := range keys {
			in[i] = k + " = " + r.str(s.Inputs[k])
		}
		r.comment("inputs: " + strings.Join(in, ", "))
	}
}

// ScriptSource returns a script step's code as the source of a JavaScript
// arrow function of one argument, vars, to run in the page: each ${name}
// in the code becomes vars.name and each ${secrets.NAME} vars.secrets.NAME,
// so values travel as arguments rather than being pasted into the code.
// The code may also write vars.secrets.NAME itself (how the registry and
// the README say a script reads a secret). refs lists the references the
// code uses, in order, such a secret as "secrets.NAME".
func ScriptSource(code string) (fn string, refs []string) {
	body, refs := scriptBody(code)
	return "(vars) => {\n" + body + "\n}", refs
}

// varsSecretRe finds vars.secrets.NAME written in a script's code, not as
// the end of a longer name (myvars.secrets.X, a.vars.secrets.X).
var varsSecretRe = regexp.MustCompile(`(^|[^A-Za-z0-9_$.])vars\.secrets\.([A-Za-z_][A-Za-z0-9_]*)`)

func scriptBody(code string) (string, []string) {
	segs, _ := splitRefs(code, false)
	var b strings.Builder
	var refs []string
	seen := map[string]bool{}
	use := func(ref string) {
		if !seen[ref] {
			seen[ref] = true
			refs = append(refs, ref)
		}
	}
	for _, g := range segs {
		if !g.IsRef {
			b.WriteString(g.Text)
			for _, m := range varsSecretRe.FindAllStringSubmatch(g.Text, -1) {
				use(SecretPrefix + m[2])
			}
			continue
		}
		b.WriteString("vars" + memberPath(g.Ref))
		use(g.Ref)
	}
	return b.String(), refs
}

// ExplicitSecretRefs returns d with each script's vars.secrets.NAME
// written ${secrets.NAME}: the same code once ScriptSource hands it to the
// page, and a reference that whoever looks for ${secrets.NAME} sees (the
// hub sends a run only the secrets its document refers to that way).
func ExplicitSecretRefs(d Document) Document {
	explicit := func(code *string) {
		if strings.Contains(*code, "vars.secrets.") {
			*code = varsSecretRe.ReplaceAllString(*code, "${1}$${"+SecretPrefix+"${2}}")
		}
	}
	d.Steps = CloneSteps(d.Steps)
	WalkSteps(d.Steps, func(_ string, _ int, st *Step) bool {
		if st.Type == "script" {
			explicit(&st.Code)
		}
		for _, c := range st.Conditions() {
			if c.Kind == "script" {
				explicit(&c.Code)
			}
		}
		return true
	})
	return d
}
