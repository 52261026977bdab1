package protocol

import (
	"encoding/json"
	"fmt"
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
	root, bad := readJSON(data)
	if bad != nil {
		return nil, nil, []Issue{*bad}
	}
	d := &decoder{}
	m, ok := d.object("", root)
	if !ok {
		return nil, nil, d.issues
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
	for i, t := range tests {
		p := index("tests", i)
		tm, ok := d.object(p, t)
		if !ok {
			continue
		}
		doc, sk, vi := sideTest(d, p, tm, base, suites)
		docs = append(docs, doc)
		skipped = append(skipped, sk...)
		issues = append(issues, prefixed(p+".", vi)...)
	}
	return docs, skipped, sortIssues(append(d.issues, issues...))
}

// sideTest converts one test, leaving out the commands it cannot convert;
// it returns the validation issues of the document apart, to be prefixed
// with the test's path.
func sideTest(d *decoder, p string, tm map[string]any, base string, suites map[string]string) (Document, []Skipped, []Issue) {
	var name, id string
	if v := tm["name"]; v != nil {
		name, _ = d.str(p+".name", v)
	}
	if v, ok := tm["id"].(string); ok {
		id = v
	}
	c := newConverter(base)
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
	from := c.from
	steps := c.finish() // before describe: it may leave words for the document
	doc := Document{DSL: DSLVersion, Name: name, Suite: suites[id], Steps: steps, Description: c.describe("")}
	doc.normalise()
	vi := doc.validate()
	if refused := refusedOpens(vi, from); len(refused) > 0 {
		// An address the browser may not open is not left out as a
		// command we cannot convert: the import is refused, as saving it
		// would be.
		return doc, skipped, refused
	}
	// A step that would not be valid goes too, with the command that made it.
	bad := map[int]string{}
	for _, is := range vi {
		var k int
		if _, err := fmt.Sscanf(is.Path, "steps[%d]", &k); err == nil && k >= 0 && k < len(from) && bad[from[k]] == "" {
			bad[from[k]] = is.Message
		}
	}
	if len(bad) == 0 {
		return doc, skipped, vi
	}
	kept := doc.Steps[:0:0]
	for k, st := range doc.Steps {
		if _, drop := bad[from[k]]; !drop {
			kept = append(kept, st)
		}
	}
	for j := range cmds {
		if reason, ok := bad[j]; ok {
			skip(j, names[j], reason)
		}
	}
	slices.SortFunc(skipped, func(a, b Skipped) int { return a.Index - b.Index })
	doc.Steps = kept
	return doc, skipped, doc.validate()
}

// refusedOpens returns, at the path of the command that made it, each
// issue of a step whose address the browser may not open (see
// RefusedScheme).
func refusedOpens(vi []Issue, from []int) []Issue {
	var out []Issue
	for _, is := range vi {
		var k int
		if is.Code != CodeURLScheme {
			continue
		}
		if _, err := fmt.Sscanf(is.Path, "steps[%d]", &k); err == nil && k >= 0 && k < len(from) {
			is.Path = index("commands", from[k]) + ".target"
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
