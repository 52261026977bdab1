package protocol

import (
	"regexp"
	"slices"
	"strings"
)

// Validation of the steps real suites need (DESIGN.md "Steps that real
// suites need"): what involves several of their parameters.

var (
	fileIDRe = regexp.MustCompile(`^fil_[a-z0-9]+$`)
	// fieldRefRe is a variable, optionally with .field parts: a request's
	// answer is read as answer.status or answer.body.items.0.id.
	fieldRefRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_-]+)*$`)
	// headerNameRe is an HTTP header name (RFC 9110 token).
	headerNameRe = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
)

// number returns a number parameter's value (0 when unset).
func (s *Step) number(name string) int {
	var p *int
	switch name {
	case "ms":
		p = s.Ms
	case "index":
		p = s.Index
	case "expected":
		p = s.Count
	case "version":
		return s.Version
	case "width":
		return s.Width
	case "height":
		return s.Height
	case "expectStatus":
		return s.ExpectStatus
	case "timeoutMs":
		return s.TimeoutMs
	case "times":
		p = s.Times
	case "max":
		p = s.Max
	}
	if p == nil {
		return 0
	}
	return *p
}

// checkList checks a list parameter: files or modifiers.
func checkList(l *issueList, path string, s *Step, param Param) {
	items := s.Modifiers
	if param.Name == "files" {
		items = s.Files
		switch {
		case len(items) == 0:
			l.add(path, CodeRequired, "files needs at least one project file (fil_...)")
		case len(items) > maxFiles:
			l.add(path, CodeTooLong, "an upload step takes at most %d files, not %d", maxFiles, len(items))
		}
	}
	for i, v := range items {
		ip := index(path, i)
		switch {
		case param.Values != nil && !slices.Contains(param.Values, v):
			l.add(ip, CodeEnum, "%s must each be one of %s, not %q", param.Name, strings.Join(param.Values, ", "), clip(v, 40))
		case param.Name == "files" && !fileIDRe.MatchString(v):
			l.add(ip, CodeFormat, "a file is a project file id such as fil_abc123, not %q", clip(v, 40))
		case slices.Index(items, v) < i:
			l.add(ip, CodeDuplicate, "%q is listed twice", clip(v, 40))
		}
	}
}

// validateHeaders checks a request's headers: names are HTTP tokens,
// values single lines (they may hold references, a secret token say).
func validateHeaders(l *issueList, base string, h map[string]string) {
	if len(h) > maxHeaders {
		l.add(base, CodeTooLong, "at most %d headers are allowed, there are %d", maxHeaders, len(h))
	}
	for _, k := range sortedKeys(h) {
		p := keyPath(base, k)
		if !headerNameRe.MatchString(k) || len(k) > maxNameLen {
			l.add(p, CodeFormat, "%q is not a header name", clip(k, 40))
		}
		checkText(l, p, "a header value", h[k], maxTextLen)
		if strings.ContainsAny(h[k], "\r\n") {
			l.add(p, CodeFormat, "a header value is one line")
		}
	}
}

// checkSetVariable: a value, a target (its text unless from says what),
// or from the page (title, url).
func checkSetVariable(l *issueList, p string, s *Step) {
	page := s.From == "title" || s.From == "url"
	switch {
	case s.Value != nil && (s.Target != nil || s.From != ""):
		l.add(p, CodeConflict, "a setVariable step takes value, or target and from, not both")
	case page && s.Target != nil:
		l.add(p+".target", CodeConflict, "from %s reads the page; it takes no target", s.From)
	case s.Value == nil && s.Target == nil && !page:
		if s.From != "" {
			l.add(p+".target", CodeRequired, "target is required to read %s", s.From)
		} else {
			l.add(p+".value", CodeRequired, "value or target is required for a setVariable step")
		}
	}
	switch {
	case s.From == "attribute" && s.Attribute == "":
		l.add(p+".attribute", CodeRequired, "attribute is required with from attribute")
	case s.From != "attribute" && s.Attribute != "":
		l.add(p+".attribute", CodeConflict, "attribute is read only with from attribute")
	}
}

func checkMoreRules(l *issueList, p string, s *Step) {
	switch s.Type {
	case "dialog":
		if s.Text != nil && s.Action != "accept" {
			l.add(p+".text", CodeConflict, "text answers a prompt, so it goes with action accept")
		}
		if s.Match != "" && s.Expected == nil {
			l.add(p+".match", CodeConflict, "match compares expected; give the message in expected")
		}
	case "switchTab":
		checkSwitchTab(l, p, s)
	case "mouse":
		if s.Action == "move" && s.Target == nil && s.Position == nil {
			l.add(p+".position", CodeRequired, "a mouse move needs a target or a position")
		}
	}
}

func checkSwitchTab(l *issueList, p string, s *Step) {
	if s.To == "index" && s.Index == nil {
		l.add(p+".index", CodeRequired, "index is required with to index")
	}
	if s.To != "index" && s.Index != nil {
		l.add(p+".index", CodeConflict, "index is used only with to index")
	}
	match := s.URL != "" || s.Title != ""
	if s.To == "match" && !match {
		l.add(p+".url", CodeRequired, "url or title is required with to match")
	}
	if s.To != "match" && match {
		l.add(p+".to", CodeConflict, "url and title are compared only with to match")
	}
	if s.To != "match" && s.Match != "" {
		l.add(p+".match", CodeConflict, "match is used only with to match")
	}
	if s.Match == "regex" && s.To == "match" {
		for name, v := range map[string]string{"url": s.URL, "title": s.Title} {
			if _, err := regexp.Compile(withoutRefs(v)); v != "" && err != nil {
				l.add(p+"."+name, CodeFormat, "%s is not a valid regular expression: %s", name, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
			}
		}
	}
}
