package protocol

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

var (
	stepIDRe    = regexp.MustCompile(`^[A-Za-z0-9_.:-]+$`)
	roleRe      = regexp.MustCompile(`^[A-Za-z]+$`)
	componentRe = regexp.MustCompile(`^cmp_[a-z0-9]+$`)
)

// validateSteps checks every step of a tree: ids are unique through it.
func validateSteps(l *issueList, steps []Step) {
	seen := map[string]string{}
	WalkSteps(steps, func(p string, depth int, s *Step) bool {
		if depth > MaxDepth {
			l.add(p, CodeRange, "blocks may be nested at most %d deep", MaxDepth)
			return false
		}
		validateStep(l, p, *s, seen)
		return true
	})
}

// validateStep checks one step at path p (not the steps of a block:
// validateSteps walks to them); seen maps ids to their step's path.
func validateStep(l *issueList, p string, s Step, seen map[string]string) {
	switch {
	case s.ID == "":
		l.add(p+".id", CodeRequired, "id is required")
	case len(s.ID) > maxStepIDLen:
		l.add(p+".id", CodeTooLong, "a step id has at most %d characters", maxStepIDLen)
	case !stepIDRe.MatchString(s.ID):
		l.add(p+".id", CodeFormat, "a step id is letters, digits and _ . : -, not %q", clip(s.ID, 40))
	}
	if other, dup := seen[s.ID]; dup && s.ID != "" {
		l.add(p+".id", CodeDuplicate, "step id %q is already used by %s", clip(s.ID, 64), other)
	} else if s.ID != "" {
		seen[s.ID] = p
	}
	if utf8.RuneCountInString(s.Description) > maxStepDescription {
		l.add(p+".description", CodeTooLong, "a step description has at most %d characters", maxStepDescription)
	}
	checkMultiline(l, p+".description", "a step description", s.Description)
	if s.TimeoutMs != 0 && (s.TimeoutMs < 1 || s.TimeoutMs > MaxTimeoutMs) {
		l.add(p+".timeoutMs", CodeRange, "timeoutMs must be between 1 and %d", MaxTimeoutMs)
	}
	if s.Type == "" {
		l.add(p+".type", CodeRequired, "type is required")
		return
	}
	st, ok := stepType(s.Type)
	if !ok {
		l.add(p+".type", CodeUnknown, "unknown step type %q%s", clip(s.Type, 40), suggest(s.Type, typeNames()))
		return
	}
	for _, name := range stepParams {
		param, takes := st.Param(name)
		switch {
		case !takes && s.has(name):
			l.add(p+"."+name, CodeUnknown, "%s is not a parameter of %s steps", name, s.Type)
		case takes && !s.has(name) && param.Required:
			l.add(p+"."+name, CodeRequired, "%s is required for %s %s step", name, article(s.Type), s.Type)
		case takes && s.has(name):
			checkParam(l, p, &s, param)
		}
	}
	checkStepRules(l, p, &s)
}

// checkParam checks the value of a parameter the step sets.
func checkParam(l *issueList, p string, s *Step, param Param) {
	path := p + "." + param.Name
	switch param.Type {
	case ParamEnum:
		if v := s.str(param.Name); !slices.Contains(param.Values, v) {
			l.add(path, CodeEnum, "%s must be one of %s, not %q", param.Name, strings.Join(param.Values, ", "), clip(v, 40))
		}
	case ParamNumber:
		n := s.number(param.Name)
		if (param.Min != nil && n < *param.Min) || (param.Max != nil && n > *param.Max) {
			l.add(path, CodeRange, "%s must be %s", param.Name, bounds(param))
		}
	case ParamTarget:
		if param.Name == "to" {
			validateTarget(l, path, s.ToTarget)
		} else {
			validateTarget(l, path, s.Target)
		}
	case ParamMap:
		if param.Name == "headers" {
			validateHeaders(l, path, s.Headers)
		} else {
			validateVariables(l, path, s.Inputs, maxVariables)
		}
	case ParamList:
		checkList(l, path, s, param)
	case ParamString:
		checkStringParam(l, path, s, param)
	case ParamCondition:
		if param.Name == "while" {
			validateCondition(l, path, s.While)
		} else {
			validateCondition(l, path, s.Condition)
		}
	case ParamItems:
		checkItems(l, path, s)
	}
}

func checkStringParam(l *issueList, path string, s *Step, param Param) {
	v := s.str(param.Name)
	switch {
	case param.Name == "code":
		if n := utf8.RuneCountInString(v); n > maxCodeLen {
			l.add(path, CodeTooLong, "code has %d characters, at most %d are allowed", n, maxCodeLen)
		}
		checkMultiline(l, path, "code", v)
	case param.Name == "assign" || (param.Name == "name" && s.Type == "setVariable"):
		if !identRe.MatchString(v) || v == "secrets" || len(v) > maxStepIDLen {
			l.add(path, CodeFormat, "%q is not a variable name: letters, digits and _, not starting with a digit", clip(v, 40))
		}
	case param.Name == "as":
		checkVariableName(l, path, v)
	case param.Name == "name" && s.Type == "assertVariable":
		if !fieldRefRe.MatchString(v) || strings.HasPrefix(v, SecretPrefix) || v == "secrets" || len(v) > maxNameLen {
			l.add(path, CodeFormat, "%q is not a variable name: letters, digits and _, then optionally .field parts such as answer.body.id", clip(v, 40))
		}
	case param.Name == "name" && s.Type == "assertAttribute" || param.Name == "attribute":
		if strings.TrimSpace(v) == "" || strings.ContainsAny(v, " \t\n\"'>/=") || len(v) > maxNameLen {
			l.add(path, CodeFormat, "%q is not an attribute name", clip(v, 40))
		}
	case param.Name == "name":
		if strings.ContainsAny(v, `/\`) || hasControl(v) || utf8.RuneCountInString(v) > 100 {
			l.add(path, CodeFormat, "a screenshot name is at most 100 characters without / \\ or control characters")
		}
	case param.Name == "component":
		if !componentRe.MatchString(v) {
			l.add(path, CodeFormat, "component must be a component id such as cmp_abc123, not %q", clip(v, 40))
		}
	case param.Name == "key" && strings.TrimSpace(v) == "":
		l.add(path, CodeRequired, "key may not be blank")
	case param.Name == "url" && s.Type == "switchTab":
		checkText(l, path, param.Name, v, maxTextLen)
	case param.Name == "url":
		checkText(l, path, param.Name, v, maxTextLen)
		checkOpenable(l, path, v)
	case param.Name == "body":
		if n := utf8.RuneCountInString(v); n > maxCodeLen {
			l.add(path, CodeTooLong, "body has %d characters, at most %d are allowed", n, maxCodeLen)
		}
		checkNoNUL(l, path, "body", v)
	case param.Name == "message" || param.Name == "text":
		checkText(l, path, param.Name, v, maxTextLen)
		checkMultiline(l, path, param.Name, v)
	default:
		checkText(l, path, param.Name, v, maxTextLen)
	}
}

// checkOpenable refuses a URL the browser is sent to when its literal text
// starts with a scheme a test may not open (see RefusedScheme); what a
// reference holds is checked by the agent when the step runs.
func checkOpenable(l *issueList, path, u string) {
	if scheme := RefusedScheme(u); scheme != "" {
		l.add(path, CodeURLScheme, "%s: addresses are refused: %s; give an http(s) address, or one relative to the base URL such as ${baseUrl}/login",
			clip(scheme, 40), OpenRule)
	}
}

// checkStepRules checks what involves several parameters.
func checkStepRules(l *issueList, p string, s *Step) {
	if s.Match == "regex" && s.Expected != nil {
		if _, err := regexp.Compile(withoutRefs(*s.Expected)); err != nil {
			l.add(p+".expected", CodeFormat, "expected is not a valid regular expression: %s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
		}
	}
	switch s.Type {
	case "setVariable":
		checkSetVariable(l, p, s)
	case "screenshot":
		if s.FullPage && s.Target != nil {
			l.add(p+".fullPage", CodeConflict, "fullPage does not apply to a screenshot of an element")
		}
	}
	checkMoreRules(l, p, s)
	checkFlowRules(l, p, s)
}

// withoutRefs drops well-formed references, so a regular expression can
// be checked before interpolation.
func withoutRefs(s string) string {
	return Interpolate(s, func(string) (string, bool) { return "", true })
}

func bounds(p Param) string {
	switch {
	case p.Min != nil && p.Max != nil:
		return "between " + itoa(*p.Min) + " and " + itoa(*p.Max)
	case p.Min != nil:
		return "at least " + itoa(*p.Min)
	case p.Max != nil:
		return "at most " + itoa(*p.Max)
	}
	return "a number"
}

func article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an"
	}
	return "a"
}

// typeNames lists the step types, for suggestions.
var typeNames = sync.OnceValue(func() []string {
	var out []string
	for _, t := range buildRegistry() {
		out = append(out, t.Type)
	}
	return out
})
