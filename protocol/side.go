package protocol

import (
	"encoding/json"
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

// ImportSide converts a Selenium IDE project: each test becomes one
// document named after the test, in the suite of the first Selenium suite
// that lists it, with a step per command (see ParseSeleniumLocator for the
// locators; a command's targets become ranked fallbacks after its target).
// open with a relative URL is resolved against the project's url.
//
// Unsupported commands are issues at "tests[i].commands[j].command", and
// their tests come back without them. Disabled commands (// prefix) and
// comment-only rows are skipped as Selenium IDE skips them, and kept in the
// description of the next step. Every document is validated; its issues
// carry the prefix "tests[i].". It never panics.
func ImportSide(data []byte) (docs []Document, issues []Issue) {
	root, bad := readJSON(data)
	if bad != nil {
		return nil, []Issue{*bad}
	}
	d := &decoder{}
	m, ok := d.object("", root)
	if !ok {
		return nil, d.issues
	}
	var base string
	if v := m["url"]; v != nil {
		base, _ = d.str("url", v)
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
		doc, vi := sideTest(d, p, tm, base, suites)
		docs = append(docs, doc)
		issues = append(issues, prefixed(p+".", vi)...)
	}
	return docs, sortIssues(append(d.issues, issues...))
}

// sideTest converts one test; it returns the validation issues of the
// document apart, to be prefixed with the test's path.
func sideTest(d *decoder, p string, tm map[string]any, base string, suites map[string]string) (Document, []Issue) {
	var name, id string
	if v := tm["name"]; v != nil {
		name, _ = d.str(p+".name", v)
	}
	if v, ok := tm["id"].(string); ok {
		id = v
	}
	c := &converter{baseURL: base}
	if v := tm["commands"]; v != nil {
		if cmds, ok := d.array(p+".commands", v); ok {
			for j, x := range cmds {
				if cmd, ok := d.seCommand(index(p+".commands", j), x, false); ok {
					c.command(cmd)
				}
			}
		}
	}
	d.issues = merge(d.issues, c.issues)
	steps := c.finish() // before describe: it may leave words for the document
	doc := Document{DSL: DSLVersion, Name: name, Suite: suites[id], Steps: steps, Description: c.describe("")}
	doc.normalise()
	return doc, doc.validate()
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
