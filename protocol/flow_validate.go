package protocol

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Validation of block steps and their conditions (flow.go).

// wholeRefRe is an items reference: one ${name} or ${name.field.0}.
var wholeRefRe = regexp.MustCompile(`^\$\{[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_-]+)*\}$`)

// checkVariableName checks a variable a step sets (assign, a forEach's as).
func checkVariableName(l *issueList, path, v string) {
	if !identRe.MatchString(v) || v == "secrets" || len(v) > maxStepIDLen {
		l.add(path, CodeFormat, "%q is not a variable name: letters, digits and _, not starting with a digit", clip(v, 40))
	}
}

// checkFlowRules checks what involves several parameters of a block.
func checkFlowRules(l *issueList, p string, s *Step) {
	switch s.Type {
	case TypeRepeat:
		switch {
		case s.Times == nil && s.While == nil:
			l.add(p+".times", CodeRequired, "a repeat step needs times, while, or both")
		case s.Times != nil && s.MaxOrDefault() >= 1 && *s.Times > s.MaxOrDefault():
			l.add(p+".times", CodeConflict, "times (%d) is more than max (%d): raise max to repeat more", *s.Times, s.MaxOrDefault())
		}
	case TypeForEach:
		if s.Items != nil && s.Items.Ref == "" && len(s.Items.List) > s.MaxOrDefault() {
			l.add(p+".items", CodeConflict, "the list has %d items, more than max (%d)", len(s.Items.List), s.MaxOrDefault())
		}
	}
}

// checkItems checks a forEach's items: one reference, or a list of texts.
func checkItems(l *issueList, path string, s *Step) {
	it := s.Items
	if it.List == nil {
		if !wholeRefRe.MatchString(it.Ref) || strings.HasPrefix(it.Ref, "${"+SecretPrefix) {
			l.add(path, CodeFormat, `items is a variable holding a JSON array, written as "${rows}" or "${answer.body.items}", or a list; not %q`, clip(it.Ref, 40))
		}
		return
	}
	if len(it.List) > MaxIterations {
		l.add(path, CodeTooLong, "a list has at most %d items", MaxIterations)
		return
	}
	for i, v := range it.List {
		checkText(l, index(path, i), "an item", v, maxTextLen)
	}
}

// validateCondition checks an if's condition or a repeat's while.
func validateCondition(l *issueList, p string, c *Condition) {
	switch {
	case c.Kind == "":
		l.add(p+".kind", CodeRequired, "kind is required: one of %s", strings.Join(conditionKinds, ", "))
		return
	case !slices.Contains(conditionKinds, c.Kind):
		l.add(p+".kind", CodeEnum, "unknown condition kind %q%s; use one of %s", clip(c.Kind, 40),
			suggest(c.Kind, conditionKinds), strings.Join(conditionKinds, ", "))
		return
	}
	uses := conditionFields[c.Kind]
	has := map[string]bool{"target": c.Target != nil, "name": c.Name != "", "expected": c.Expected != nil,
		"match": c.Match != "", "code": c.Code != ""}
	for _, f := range []string{"target", "name", "expected", "match", "code"} {
		switch {
		case has[f] && !strings.Contains(uses, f):
			l.add(p+"."+f, CodeUnknown, "%s does not apply to a %s condition", f, c.Kind)
		case !has[f] && strings.Contains(uses, f+"!"):
			l.add(p+"."+f, CodeRequired, "%s is required for a %s condition", f, c.Kind)
		}
	}
	if c.Target != nil {
		validateTarget(l, p+".target", c.Target)
	}
	if c.Name != "" && (!fieldRefRe.MatchString(c.Name) || strings.HasPrefix(c.Name, SecretPrefix) || len(c.Name) > maxNameLen) {
		l.add(p+".name", CodeFormat, "%q is not a variable name: letters, digits and _, then optionally .field parts such as answer.body.id", clip(c.Name, 40))
	}
	if c.Expected != nil {
		checkText(l, p+".expected", "expected", *c.Expected, maxTextLen)
	}
	if c.Match != "" && !slices.Contains(matchValues, c.Match) {
		l.add(p+".match", CodeEnum, "match must be one of %s, not %q", strings.Join(matchValues, ", "), clip(c.Match, 40))
	}
	if c.Match == "regex" && c.Expected != nil {
		if _, err := regexp.Compile(withoutRefs(*c.Expected)); err != nil {
			l.add(p+".expected", CodeFormat, "expected is not a valid regular expression: %s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
		}
	}
	if c.Code != "" {
		if n := utf8.RuneCountInString(c.Code); n > maxCodeLen {
			l.add(p+".code", CodeTooLong, "code has %d characters, at most %d are allowed", n, maxCodeLen)
		}
		checkMultiline(l, p+".code", "code", c.Code)
	}
}

// conditionFields lists, per kind, the fields a condition may have; "!"
// marks the required ones.
var conditionFields = map[string]string{
	"visible":  "target!",
	"hidden":   "target!",
	"exists":   "target!",
	"text":     "target! expected! match",
	"value":    "target! expected! match",
	"variable": "name! expected match",
	"script":   "code!",
}
