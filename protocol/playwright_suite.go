package protocol

import (
	"strconv"
	"strings"
)

// Playwright code of the steps real suites need (issue 28): dialogs, tabs,
// uploads, drag and drop, the mouse, history, the viewport, log, the new
// assertions and request.

// PlaywrightOptions are what a rendered script may know beyond its document.
type PlaywrightOptions struct {
	// Components resolves component calls into helpers (see RenderPlaywrightWith).
	Components ComponentLookup
	// FileName names a project file (fil_...) an upload step sends; without
	// it, or when it answers false, the file is named by its id.
	FileName func(id string) (string, bool)
	// Device is the run option device: a profile of Playwright's devices
	// ("iPhone 15"), used by the whole file.
	Device string
}

// RenderPlaywrightOptions renders d as RenderPlaywright does, with what
// opts adds.
func RenderPlaywrightOptions(d Document, opts PlaywrightOptions) string {
	hs := &helperSet{byKey: map[helperKey]int{}}
	if opts.Components != nil {
		hs = collectHelpers(d, opts.Components)
	}
	return renderPlaywrightOpts(d, hs, opts)
}

// suiteNeeds says which shared pieces the steps need.
type suiteNeeds struct {
	context, newTab, findTab, request, jsonPath, files, listItems bool
	// typed are the variables that may hold a JSON value rather than
	// text (a script's result, a count, a request's answer): scripts get
	// them back as that value, as on the agent (see stored).
	typed map[string]bool
}

func needsOf(steps []Step) suiteNeeds {
	n := suiteNeeds{typed: map[string]bool{}}
	for _, s := range AllSteps(steps) {
		switch {
		case (s.Type == "script" || s.Type == "request") && s.Assign != "":
			n.typed[s.Assign] = true
		case s.Type == "setVariable" && s.From == "count":
			n.typed[s.Name] = true
		}
		switch s.Type {
		case "switchTab":
			n.context = true
			n.newTab = n.newTab || s.To == "new"
			n.findTab = n.findTab || s.To == "match"
		case "closeTab":
			n.context = true
		case "request":
			n.request = n.request || s.Assign != ""
		case "upload":
			n.files = true
		case TypeForEach:
			n.listItems = n.listItems || (s.Items != nil && s.Items.Ref != "")
		case "assertVariable":
			n.jsonPath = n.jsonPath || strings.Contains(s.Name, ".")
		}
		for _, text := range stepTexts(s) {
			for _, ref := range References(text) {
				if !strings.HasPrefix(ref, SecretPrefix) && strings.Contains(ref, ".") {
					n.jsonPath = true
				}
			}
		}
	}
	return n
}

// importLine imports what the script uses from Playwright and Node.
func (r *renderer) importLine() string {
	names := []string{"test", "expect"}
	if r.opts.Device != "" {
		names = append(names, "devices")
	}
	if r.needs.findTab {
		names = append(names, "type Page")
	}
	if r.needs.request {
		names = append(names, "type APIResponse")
	}
	line := "import { " + strings.Join(names, ", ") + " } from '@playwright/test';"
	if r.needs.files {
		line += "\nimport * as path from 'node:path';"
	}
	return line
}

// declareModuleHelpers writes the helpers that need no page, above the test.
func (r *renderer) declareModuleHelpers() {
	if r.needs.jsonPath {
		r.raw("// jsonAt reads a field of a variable holding JSON text, as ${name.a.b} does.")
		r.raw("const jsonAt = (json: string, ...path: string[]) => {")
		r.raw("  let v: any = JSON.parse(json);")
		r.raw("  for (const k of path) v = v?.[k];")
		r.raw("  return typeof v === 'string' ? v : JSON.stringify(v) ?? '';")
		r.raw("};")
		r.raw("")
	}
	if len(r.needs.typed) > 0 {
		r.raw("// Variables hold text. What a script returned that is not text is kept as its JSON (nothing as ''),")
		r.raw("// and scripts get such a variable back as that value, as the agent runs them.")
		r.raw("const typed = new Set<string>();")
		r.raw("const stored = (name: string, v: unknown): string => {")
		r.raw("  const json = typeof v === 'string' || v === null ? undefined : JSON.stringify(v);")
		r.raw("  if (json === undefined) {")
		r.raw("    typed.delete(name);")
		r.raw("    return typeof v === 'string' ? v : '';")
		r.raw("  }")
		r.raw("  typed.add(name);")
		r.raw("  return json;")
		r.raw("};")
		r.raw("const valueOf = (name: string, text: string): unknown => (typed.has(name) ? JSON.parse(text) : text);")
		r.raw("")
	}
	if r.needs.listItems {
		r.raw("// listItems reads a variable holding a JSON array, as forEach does: each item as text, objects as JSON.")
		r.raw("const listItems = (json: string): string[] => {")
		r.raw("  const list: unknown = JSON.parse(json);")
		r.raw("  if (!Array.isArray(list)) throw new Error('forEach needs a JSON array, not ' + json.slice(0, 40));")
		r.raw("  return list.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));")
		r.raw("};")
		r.raw("")
	}
	if r.needs.request {
		r.raw("// answerOf keeps a response as the {status, headers, body} JSON text a request step assigns.")
		r.raw("const answerOf = async (res: APIResponse) => {")
		r.raw("  const text = await res.text();")
		r.raw("  let body: unknown = text;")
		r.raw("  try {")
		r.raw("    body = JSON.parse(text);")
		r.raw("  } catch {")
		r.raw("    // not JSON: the body is the text")
		r.raw("  }")
		r.raw("  return JSON.stringify({ status: res.status(), headers: res.headers(), body });")
		r.raw("};")
		r.raw("")
	}
	if r.opts.Device != "" {
		r.line("test.use({ ...devices[" + jsQuote(r.opts.Device) + "] });")
		r.raw("")
	}
}

// declareTestHelpers writes the helpers that need the test's page.
func (r *renderer) declareTestHelpers() {
	wrote := false
	if r.needs.newTab {
		// The listener is armed before any step, so a tab a step opens is
		// never missed, however many steps later switchTab asks for it.
		r.line("// every tab in opening order: switchTab new takes the next one a step opened")
		r.line("const tabs = [page];")
		r.line("context.on('page', (p) => tabs.push(p));")
		r.line("let tabsSeen = 1;")
		r.line("const newTab = async (timeout: number) => {")
		r.line("  const next = tabs[tabsSeen] ?? (await context.waitForEvent('page', { timeout }));")
		r.line("  tabsSeen++;")
		r.line("  await next.waitForLoadState();")
		r.line("  return next;")
		r.line("};")
		wrote = true
	}
	if r.needs.findTab {
		r.line("// findTab waits until one of the open tabs passes ok")
		r.line("const findTab = async (ok: (p: Page) => Promise<boolean>, timeout: number) => {")
		r.line("  for (const end = Date.now() + timeout; ; await new Promise((done) => setTimeout(done, 100))) {")
		r.line("    for (const p of context.pages()) if (await ok(p)) return p;")
		r.line("    if (Date.now() > end) throw new Error('no open tab matches');")
		r.line("  }")
		r.line("};")
		wrote = true
	}
	if r.needs.files {
		r.line("// upload steps send project files: put them in files/ beside this spec")
		r.line("const specFiles = path.join(path.dirname(test.info().file), 'files');")
		wrote = true
	}
	if wrote {
		r.raw("")
	}
}

// fresh returns an identifier no variable or helper uses: dialog1, dialog2...
func (r *renderer) fresh(base string) string {
	for {
		r.seq[base]++
		id := base + strconv.Itoa(r.seq[base])
		if !r.taken[id] {
			r.taken[id] = true
			return id
		}
	}
}

// expectOf is expect, or expect.soft for a soft assertion, with .not for
// a negated one: expect.soft(x).not.
func expectOf(s Step, subject string) string {
	e := "expect"
	if s.Soft {
		e = "expect.soft"
	}
	e += "(" + subject + ")"
	if s.Not {
		e += ".not"
	}
	return e
}

// suiteStatement writes the steps of issue 28; false when s is not one.
func (r *renderer) suiteStatement(s Step, loc string) bool {
	switch s.Type {
	case "dialog":
		r.dialog(s)
	case "switchTab":
		r.switchTab(s)
	case "closeTab":
		closing := r.fresh("opener")
		r.line("const " + closing + " = await page.opener();")
		r.line("await page.close();")
		r.line("page = " + closing + " ?? context.pages()[0];")
	case "upload":
		paths := make([]string, len(s.Files))
		for i, id := range s.Files {
			name := id
			if r.opts.FileName != nil {
				if n, ok := r.opts.FileName(id); ok {
					name = n
				}
			}
			paths[i] = "path.join(specFiles, " + jsQuote(name) + ")"
		}
		r.line("await " + loc + ".setInputFiles(" + args("["+strings.Join(paths, ", ")+"]", opts(s)) + ");")
	case "dragTo":
		if s.ToTarget == nil || len(s.ToTarget.Locators) == 0 {
			r.comment("step " + s.ID + " (dragTo) has no drop target")
			return true
		}
		r.line("await " + loc + ".dragTo(" + args(r.locator(s.ToTarget), opts(s)) + ");")
	case "mouse":
		r.mouse(s, loc)
	case "goBack", "goForward", "reload":
		r.line("await page." + s.Type + "(" + opts(s) + ");")
	case "setViewport":
		r.line("await page.setViewportSize({ width: " + strconv.Itoa(s.Width) + ", height: " + strconv.Itoa(s.Height) + " });")
	case "log":
		r.line("console.log(" + r.str(s.Message) + ");")
	case "assertChecked":
		var pairs []string
		if s.Checked != nil && !*s.Checked {
			pairs = append(pairs, "checked: false")
		}
		r.line("await " + expectOf(s, loc) + ".toBeChecked(" + opts(s, pairs...) + ");")
	case "assertEnabled":
		m := "toBeEnabled"
		if s.Enabled != nil && !*s.Enabled {
			m = "toBeDisabled"
		}
		r.line("await " + expectOf(s, loc) + "." + m + "(" + opts(s) + ");")
	case "assertEditable":
		var pairs []string
		if s.Editable != nil && !*s.Editable {
			pairs = append(pairs, "editable: false")
		}
		r.line("await " + expectOf(s, loc) + ".toBeEditable(" + opts(s, pairs...) + ");")
	case "assertAttribute":
		r.line("await " + expectOf(s, loc) + ".toHaveAttribute(" + args(r.str(s.Name), r.locatorWant(s), opts(s)) + ");")
	case "assertCount":
		n := 0
		if s.Count != nil {
			n = *s.Count
		}
		r.line("await " + expectOf(s, loc) + ".toHaveCount(" + args(strconv.Itoa(n), opts(s)) + ");")
	case "assertSelected":
		if s.By == "value" {
			r.line("await " + expectOf(s, loc) + ".toHaveValue(" + args(r.str(deref(s.Expected)), opts(s)) + ");")
		} else {
			r.line("await " + expectOf(s, loc+".locator('option:checked')") + ".toHaveText(" + args(r.str(deref(s.Expected)), opts(s)) + ");")
		}
	case "assertVariable":
		r.line(r.valueCheck(s, r.refExpr(s.Name)) + ";")
	case "request":
		r.request(s)
	default:
		return false
	}
	return true
}

// dialog arms the answer to the next dialog; the step after the next one
// checks that it opened, and its message.
func (r *renderer) dialog(s Step) {
	id := r.fresh("dialog")
	answer := "dismiss()"
	if s.Action == "accept" {
		answer = "accept()"
		if s.Text != nil {
			answer = "accept(" + r.str(*s.Text) + ")"
		}
	}
	r.line("const " + id + " = new Promise((resolve) => {")
	r.line("  page.once('dialog', async (dialog) => {")
	r.line("    resolve(dialog.message());")
	r.line("    await dialog." + answer + ";")
	r.line("  });")
	r.line("});")
	check := "await " + id + ";"
	if s.Expected != nil {
		check = r.valueCheck(Step{Expected: s.Expected, Match: s.Match}, "await "+id) + ";"
	}
	r.after = append(r.after, "// the dialog opened", check)
}

// valueCheck compares a JavaScript value with a step's expected and match.
func (r *renderer) valueCheck(s Step, subject string) string {
	e := expectOf(s, subject)
	expected := deref(s.Expected)
	switch s.MatchOrDefault() {
	case "equals":
		return e + ".toBe(" + r.str(expected) + ")"
	case "regex":
		return e + ".toMatch(" + r.regex(expected) + ")"
	}
	return e + ".toContain(" + r.str(expected) + ")"
}

// locatorWant renders what a locator assertion compares with: a string
// for equals, a regular expression otherwise.
func (r *renderer) locatorWant(s Step) string {
	expected := deref(s.Expected)
	switch s.MatchOrDefault() {
	case "equals":
		return r.str(expected)
	case "regex":
		return r.regex(expected)
	}
	if len(References(expected)) > 0 {
		return "new RegExp(escapeRegExp(" + r.str(expected) + "))"
	}
	return jsRegexLiteral(regexQuote(expected))
}

func (r *renderer) switchTab(s Step) {
	timeout := strconv.Itoa(s.Timeout())
	switch s.To {
	case "new":
		r.line("page = await newTab(" + timeout + ");")
	case "opener":
		r.line("page = (await page.opener()) ?? page;")
	case "index":
		i := 0
		if s.Index != nil {
			i = *s.Index
		}
		r.line("page = context.pages()[" + strconv.Itoa(i) + "];")
	case "match":
		var conds []string
		if s.URL != "" {
			conds = append(conds, r.textMatches("p.url()", s.URL, s.MatchOrDefault()))
		}
		if s.Title != "" {
			conds = append(conds, r.textMatches("(await p.title())", s.Title, s.MatchOrDefault()))
		}
		if len(conds) == 0 {
			conds = []string{"true"}
		}
		r.line("page = await findTab(async (p) => " + strings.Join(conds, " && ") + ", " + timeout + ");")
	default:
		r.comment("step " + s.ID + " (switchTab) has no valid to")
		return
	}
	r.line("await page.bringToFront();")
}

// textMatches is a boolean expression: subject compared with want.
func (r *renderer) textMatches(subject, want, match string) string {
	switch match {
	case "equals":
		return subject + " === " + r.str(want)
	case "regex":
		return r.regex(want) + ".test(" + subject + ")"
	}
	return subject + ".includes(" + r.str(want) + ")"
}

func (r *renderer) mouse(s Step, loc string) {
	var pos string
	if s.Position != nil {
		pos = "position: { x: " + num(s.Position.X) + ", y: " + num(s.Position.Y) + " }"
	}
	switch {
	case loc != "":
		// Moving onto the element waits for it as a click would.
		if pos != "" {
			r.line("await " + loc + ".hover(" + opts(s, pos) + ");")
		} else {
			r.line("await " + loc + ".hover(" + opts(s) + ");")
		}
	case s.Position != nil:
		r.line("await page.mouse.move(" + num(s.Position.X) + ", " + num(s.Position.Y) + ");")
	}
	switch s.Action {
	case "down", "up":
		r.line("await page.mouse." + s.Action + "();")
	case "move":
		if loc == "" && s.Position == nil {
			r.comment("step " + s.ID + " (mouse move) has no target or position")
		}
	}
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// clickPairs renders click and dblclick options: button, modifiers, position.
func clickPairs(s Step) []string {
	var pairs []string
	if s.Button != "" && s.Button != "left" {
		pairs = append(pairs, "button: "+jsQuote(s.Button))
	}
	if len(s.Modifiers) > 0 {
		ms := make([]string, len(s.Modifiers))
		for i, m := range s.Modifiers {
			ms[i] = jsQuote(m)
		}
		pairs = append(pairs, "modifiers: ["+strings.Join(ms, ", ")+"]")
	}
	if s.Position != nil {
		pairs = append(pairs, "position: { x: "+num(s.Position.X)+", y: "+num(s.Position.Y)+" }")
	}
	return pairs
}

// request sends an HTTP request with the page's cookies (page.request
// shares its context's cookie jar), checks its status and keeps the answer.
func (r *renderer) request(s Step) {
	method := s.Method
	if method == "" {
		method = "GET"
	}
	pairs := []string{"method: " + jsQuote(method)}
	if len(s.Headers) > 0 {
		var hs []string
		for _, k := range sortedKeys(s.Headers) {
			hs = append(hs, jsQuote(k)+": "+r.str(s.Headers[k]))
		}
		pairs = append(pairs, "headers: { "+strings.Join(hs, ", ")+" }")
	}
	if s.Body != nil {
		pairs = append(pairs, "data: "+r.str(*s.Body))
	}
	call := "await page.request.fetch(" + args(r.str(s.URL), opts(s, pairs...)) + ")"
	if s.ExpectStatus == 0 && s.Assign == "" {
		r.line(call + ";")
		return
	}
	res := r.fresh("response")
	r.line("const " + res + " = " + call + ";")
	if s.ExpectStatus != 0 {
		r.line("expect(" + res + ".status()).toBe(" + strconv.Itoa(s.ExpectStatus) + ");")
	}
	if s.Assign != "" {
		r.line(r.ident(s.Assign) + " = await answerOf(" + res + ");")
		r.line("typed.add(" + jsQuote(s.Assign) + ");")
	}
}

// refExpr renders a reference's value: the variable, or for name.a.b the
// field of its JSON text.
func (r *renderer) refExpr(ref string) string {
	if name, ok := strings.CutPrefix(ref, SecretPrefix); ok {
		return "process.env." + name + " ?? ''"
	}
	base, path, dotted := strings.Cut(ref, ".")
	if !dotted {
		return r.ident(ref)
	}
	parts := strings.Split(path, ".")
	for i, p := range parts {
		parts[i] = jsQuote(p)
	}
	return "jsonAt(" + r.ident(base) + ", " + strings.Join(parts, ", ") + ")"
}

// stepTexts lists the strings of a step that may hold references.
func stepTexts(s Step) []string {
	out := []string{s.URL, deref(s.Value), s.Key, deref(s.Expected), s.Name, s.Code, s.Message, deref(s.Text),
		s.Title, deref(s.Body)}
	for _, k := range sortedKeys(s.Inputs) {
		out = append(out, s.Inputs[k])
	}
	for _, k := range sortedKeys(s.Headers) {
		out = append(out, s.Headers[k])
	}
	targets := []*Target{s.Target, s.ToTarget}
	for _, c := range s.Conditions() {
		out = append(out, deref(c.Expected), c.Code)
		if c.Name != "" {
			out = append(out, "${"+c.Name+"}")
		}
		targets = append(targets, c.Target)
	}
	if s.Items != nil {
		out = append(out, s.Items.Ref)
		out = append(out, s.Items.List...)
	}
	for _, t := range targets {
		if t != nil {
			for _, l := range append(append([]Locator(nil), t.Frame...), t.Locators...) {
				out = append(out, l.Value, l.Name)
			}
		}
	}
	return out
}
