package protocol

import (
	"encoding/json"
	"slices"
	"strings"
)

// IsSide reports whether data looks like a Selenium IDE project (.side
// JSON): an object with a "tests" array and no "steps" or "dsl".
func IsSide(data []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return false
	}
	_, steps := m["steps"]
	_, dsl := m["dsl"]
	tests := strings.TrimSpace(string(m["tests"]))
	return !steps && !dsl && strings.HasPrefix(tests, "[")
}

// Skipped is a .side command the import left out: the test's name, the
// command's index in it (from 0), the command and why.
type Skipped struct {
	Test    string `json:"test"`
	Index   int    `json:"index"`
	Command string `json:"command"`
	Reason  string `json:"reason"`
}

// ImportSide converts a Selenium IDE project: each test becomes one
// document named after the test, in the suite of the first Selenium suite
// that lists it, with a step per command (see ParseSeleniumLocator for the
// locators; a command's targets become ranked fallbacks after its target).
// open with a relative URL is resolved against the project's url.
//
// It imports what it can: a command that cannot be converted (unsupported,
// a locator kind we lack, a value out of range) or whose step would not be
// valid is left out and listed in skipped with its test and index, and the
// rest of its test comes through; a test whose every command is skipped
// comes back without steps. Issues are what stops the whole import: input
// that is not a project, a test or command that is not an object, a test
// without a name, an address the browser may not open (an open command's,
// or the project's url; see RefusedScheme). Disabled commands (// prefix) and comment-only rows are
// skipped as Selenium IDE skips them (not listed), and kept in the
// description of the next step. Issues carry the prefix "tests[i].". It
// never panics.
func ImportSide(data []byte) (docs []Document, skipped []Skipped, issues []Issue) {
	imp := ImportSideProject(data)
	return imp.Docs, imp.Skipped, imp.Issues
}

// ImportSideProject is ImportSide with the components the project's run
// commands need (see SideImport): a test that another runs becomes a
// component too, and each run a call of it.
func ImportSideProject(data []byte) SideImport {
	root, bad := readJSON(data)
	if bad != nil {
		return SideImport{Issues: []Issue{*bad}}
	}
	d := &decoder{}
	m, ok := d.object("", root)
	if !ok {
		return SideImport{Issues: d.issues}
	}
	var base string
	if v := m["url"]; v != nil {
		base, _ = d.str("url", v)
		checkOpenable(&d.issues, "url", base)
	}
	suites := sideSuites(m["suites"])
	var tests []any
	if v := m["tests"]; v != nil {
		tests, _ = d.array("tests", v)
	}
	if len(tests) == 0 && len(d.issues) == 0 {
		d.issues.add("tests", CodeRequired, "the project has no tests")
	}
	runs := newSideRuns(tests)
	var imp SideImport
	var issues []Issue
	for i, t := range tests {
		p := index("tests", i)
		tm, ok := d.object(p, t)
		if !ok {
			continue // an issue: there are no components to make then
		}
		doc, sk, vi := sideTest(d, p, tm, base, suites, runs.resolver(i))
		imp.Docs = append(imp.Docs, doc)
		imp.Skipped = append(imp.Skipped, sk...)
		issues = append(issues, prefixed(p+".", vi)...)
	}
	imp.Issues = sortIssues(append(d.issues, issues...))
	if len(imp.Issues) == 0 { // then Docs[i] is the test i
		imp.Components = runs.components(imp.Docs)
	}
	return imp
}

// sideTest converts one test, leaving out the commands it cannot convert;
// it returns the validation issues of the document apart, to be prefixed
// with the test's path. Blocks that do not pair are issues of d.
func sideTest(d *decoder, p string, tm map[string]any, base string, suites map[string]string, runTest func(string) (string, error)) (Document, []Skipped, []Issue) {
	var name, id string
	if v := tm["name"]; v != nil {
		name, _ = d.str(p+".name", v)
	}
	if v, ok := tm["id"].(string); ok {
		id = v
	}
	c := newConverter(base)
	c.runTest = runTest
	var skipped []Skipped
	skip := func(j int, cmd, reason string) {
		// Shown to people as they came: cleaned, as a label is.
		skipped = append(skipped, Skipped{Test: CleanLabel(strings.TrimSpace(name)), Index: j,
			Command: clip(CleanLabel(strings.TrimSpace(cmd)), 40), Reason: CleanText(reason)})
	}
	var cmds []any
	if v := tm["commands"]; v != nil {
		cmds, _ = d.array(p+".commands", v)
	}
	names := make([]string, len(cmds))
	for j, x := range cmds {
		cmd, ok := d.seCommand(index(p+".commands", j), x, false)
		if !ok {
			continue
		}
		names[j] = cmd.Command
		// A command that fails adds an issue before it changes anything
		// but the steps it would add at the end.
		issues, steps := len(c.issues), len(c.steps)
		c.at = j
		c.command(cmd)
		if len(c.issues) > issues {
			skip(j, cmd.Command, c.issues[issues].Message)
			c.issues, c.steps, c.from = c.issues[:issues], c.steps[:steps], c.from[:steps]
		}
	}
	c.finish() // before describe: it may leave words for the document
	doc := Document{DSL: DSLVersion, Name: name, Suite: suites[id], Description: c.describe("")}
	nodes, unpaired := c.tree()
	for _, u := range unpaired {
		d.issues.add(index(p+".commands", u.at)+".command", CodeFormat, "%s", u.msg)
	}
	if len(unpaired) > 0 {
		doc.normalise()
		return doc, skipped, nil
	}
	// A step that would not be valid goes too, with the command that made
	// it; so does a block whose command could not be converted, with the
	// steps in it.
	bad := map[int]string{}
	for j, why := range c.dropped {
		bad[j] = why
	}
	doc.Steps = nodeSteps(nodes)
	doc.normalise()
	vi := doc.validate()
	paths := nodePaths(nodes, "steps", map[string]int{})
	if refused := refusedOpens(vi, paths); len(refused) > 0 {
		// An address the browser may not open is not left out as a
		// command we cannot convert: the import is refused, as saving it
		// would be.
		return doc, skipped, refused
	}
	for _, is := range vi {
		if j, ok := commandOf(paths, is.Path); ok && bad[j] == "" {
			bad[j] = is.Message
		}
	}
	if len(bad) == 0 {
		return doc, skipped, vi
	}
	nodes = dropNodes(nodes, bad)
	for j := range cmds {
		if reason, ok := bad[j]; ok {
			skip(j, names[j], reason)
		}
	}
	slices.SortStableFunc(skipped, func(a, b Skipped) int { return a.Index - b.Index })
	doc.Steps = nodeSteps(nodes)
	doc.normalise()
	return doc, skipped, doc.validate()
}

// refusedOpens returns, at the path of the command that made it, each
// issue of a step whose address the browser may not open (see
// RefusedScheme).
func refusedOpens(vi []Issue, paths map[string]int) []Issue {
	var out []Issue
	for _, is := range vi {
		if is.Code != CodeURLScheme {
			continue
		}
		if j, ok := commandOf(paths, is.Path); ok {
			is.Path = index("commands", j) + ".target"
		}
		out = append(out, is)
	}
	return out
}

// sideSuites maps test ids to the name of the first suite listing them;
// "/" is not allowed in our suite names, so it becomes "-".
func sideSuites(v any) map[string]string {
	out := map[string]string{}
	list, _ := v.([]any)
	for _, s := range list {
		sm, _ := s.(map[string]any)
		name, _ := sm["name"].(string)
		name = strings.TrimSpace(strings.ReplaceAll(name, "/", "-"))
		tests, _ := sm["tests"].([]any)
		for _, t := range tests {
			if id, ok := t.(string); ok && name != "" && out[id] == "" {
				out[id] = name
			}
		}
	}
	return out
}
