package protocol

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Validate checks an already-typed document and returns every issue, each
// named by its JSON path, ordered by path; nil when the document is valid.
func (d Document) Validate() []Issue { return sortIssues(d.validate()) }

// validate returns the issues unsorted and unbounded, for merging.
func (d Document) validate() []Issue {
	var l issueList
	d.validateHeader(&l)
	validateVariables(&l, "variables", d.Variables, maxVariables)
	validateData(&l, d.Data)
	if n := CountSteps(d.Steps); n > MaxSteps {
		l.add("steps", CodeTooLong, "a test has at most %d steps, counting those inside blocks; this one has %d", MaxSteps, n)
	}
	validateSteps(&l, d.Steps)
	return l
}

func (d Document) validateHeader(l *issueList) {
	switch d.DSL {
	case DSLVersion:
	case 0:
		l.add("dsl", CodeRequired, "dsl is required: the current version is %d", DSLVersion)
	default:
		l.add("dsl", CodeUnsupported, "dsl must be %d, not %d", DSLVersion, d.DSL)
	}
	if strings.TrimSpace(d.Name) == "" {
		l.add("name", CodeRequired, "name is required")
	} else {
		checkLine(l, "name", "name", d.Name, maxNameLen)
	}
	if d.Suite != "" {
		checkLine(l, "suite", "suite", d.Suite, maxSuiteLen)
		if strings.Contains(d.Suite, "/") {
			l.add("suite", CodeFormat, "suite may not contain \"/\"")
		}
	}
	if len(d.Tags) > maxTags {
		l.add("tags", CodeTooLong, "a test has at most %d tags, this one has %d", maxTags, len(d.Tags))
	}
	seen := map[string]int{}
	for i, t := range d.Tags {
		p := index("tags", i)
		if strings.TrimSpace(t) == "" {
			l.add(p, CodeRequired, "a tag may not be empty")
			continue
		}
		checkLine(l, p, "a tag", t, maxTagLen)
		if j, dup := seen[t]; dup {
			l.add(p, CodeDuplicate, "tag %q is already tags[%d]", clip(t, 50), j)
		} else {
			seen[t] = i
		}
	}
	if utf8.RuneCountInString(d.Description) > maxTextLen {
		l.add("description", CodeTooLong, "description has more than %d characters", maxTextLen)
	}
	checkMultiline(l, "description", "description", d.Description)
}

// checkLine checks a one-line text: its length and no control characters.
func checkLine(l *issueList, path, what, s string, max int) {
	if n := utf8.RuneCountInString(s); n > max {
		l.add(path, CodeTooLong, "%s has %d characters, at most %d are allowed", what, n, max)
	}
	if hasControl(s) {
		l.add(path, CodeFormat, "%s may not contain control or invisible formatting characters such as line breaks", what)
	}
}

// hasControl reports characters a one-line text may not hold (see
// CleanLabel): controls, line breaks and invisible formatting characters.
func hasControl(s string) bool { return strings.ContainsFunc(s, badInLabel) }

// validateVariables checks a map of variable names to values.
func validateVariables(l *issueList, base string, vars map[string]string, max int) {
	if len(vars) > max {
		l.add(base, CodeTooLong, "at most %d variables are allowed, there are %d", max, len(vars))
	}
	for _, k := range sortedKeys(vars) {
		p := keyPath(base, k)
		switch {
		case !identRe.MatchString(k):
			l.add(p, CodeFormat, "variable name %q must be letters, digits and _, not starting with a digit", clip(k, 40))
		case k == "secrets":
			l.add(p, CodeFormat, "\"secrets\" is reserved for ${secrets.NAME}")
		case len(k) > maxStepIDLen:
			l.add(p, CodeTooLong, "a variable name has at most %d characters", maxStepIDLen)
		}
		checkText(l, p, "a value", vars[k], maxTextLen)
	}
}

// checkText checks a text that may hold references: length and ${...}.
func checkText(l *issueList, path, what, s string, max int) {
	if n := utf8.RuneCountInString(s); n > max {
		l.add(path, CodeTooLong, "%s has %d characters, at most %d are allowed", what, n, max)
	}
	if err := checkRefs(s); err != nil {
		l.add(path, CodeFormat, "%s", err.Error())
	}
	checkNoNUL(l, path, what, s)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// validateTarget checks a target's locators, frames and fingerprint.
func validateTarget(l *issueList, p string, t *Target) {
	if len(t.Locators) == 0 {
		l.add(p+".locators", CodeRequired, "a target needs at least one locator")
	}
	for i, loc := range t.Locators {
		validateLocator(l, index(p+".locators", i), loc)
	}
	for i, loc := range t.Frame {
		validateLocator(l, index(p+".frame", i), loc)
	}
	if len(t.Fingerprint) > maxFingerprintItems {
		l.add(p+".fingerprint", CodeTooLong, "a fingerprint has at most %d entries", maxFingerprintItems)
	}
	for _, k := range sortedKeys(t.Fingerprint) {
		v, kp := t.Fingerprint[k], keyPath(p+".fingerprint", k)
		switch {
		case k == "":
			l.add(p+".fingerprint", CodeFormat, "fingerprint keys may not be empty")
		case hasControl(k):
			l.add(kp, CodeFormat, "a fingerprint key may not contain control characters")
		case utf8.RuneCountInString(v) > maxTextLen:
			l.add(kp, CodeTooLong, "a fingerprint value has at most %d characters", maxTextLen)
		default:
			checkNoNUL(l, kp, "a fingerprint value", v)
		}
	}
}

func validateLocator(l *issueList, p string, loc Locator) {
	switch {
	case loc.Kind == "":
		l.add(p+".kind", CodeRequired, "kind is required: one of %s", strings.Join(LocatorKinds(), ", "))
	case locatorRank(loc.Kind) == len(LocatorKinds()):
		l.add(p+".kind", CodeUnknown, "unknown locator kind %q%s; use one of %s", clip(loc.Kind, 40),
			suggest(loc.Kind, LocatorKinds()), strings.Join(LocatorKinds(), ", "))
	}
	if strings.TrimSpace(loc.Value) == "" {
		l.add(p+".value", CodeRequired, "value is required for a locator")
	} else {
		checkText(l, p+".value", "a locator value", loc.Value, maxTextLen)
		if loc.Kind == "role" && !roleRe.MatchString(loc.Value) {
			l.add(p+".value", CodeFormat, "a role locator's value is an ARIA role such as button or link, not %q", clip(loc.Value, 40))
		}
	}
	if loc.Name != "" {
		if loc.Kind != "role" {
			l.add(p+".name", CodeUnsupported, "name is only for role locators")
		}
		checkText(l, p+".name", "a name", loc.Name, maxTextLen)
	}
	if loc.Exact && (loc.Kind == "css" || loc.Kind == "xpath" || loc.Kind == "testId") {
		l.add(p+".exact", CodeUnsupported, "exact does not apply to %s locators", loc.Kind)
	}
}

var separators = strings.NewReplacer("_", "", "-", "", " ", "")

// suggest returns ` (did you mean "x"?)` for the known word closest to
// w, or "" when none is close.
func suggest(w string, known []string) string {
	norm := func(s string) string { return strings.ToLower(separators.Replace(s)) }
	best, bestD := "", 3
	for _, k := range known {
		if d := distance(norm(w), norm(k)); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// distance is the Levenshtein distance between short strings; long ones
// count as far apart.
func distance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 20
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
