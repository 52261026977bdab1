package runner

import (
	"slices"
	"strings"

	"github.com/testautomation/ta/protocol"
)

// Mask replaces secret values.
const Mask = "***"

// masker replaces every secret value in a string with ***. Besides the raw
// value it masks every form protocol.SecretForms lists (Go and JSON string
// escapes, URL and HTML escapes, base64), since error messages from the
// runner and the browser quote what they echo, and a script may encode
// what it returns.
type masker struct {
	r     *strings.Replacer // nil when there is nothing to mask
	forms []string          // what r masks, longest first
}

func newMasker(secrets map[string]string) *masker {
	seen := map[string]bool{}
	var forms []string
	for _, v := range secrets {
		for _, f := range protocol.SecretForms(v) {
			if !seen[f] {
				seen[f] = true
				forms = append(forms, f)
			}
		}
	}
	if len(forms) == 0 {
		return &masker{}
	}
	// Longer forms first, so a secret containing another is masked whole.
	slices.SortFunc(forms, func(a, b string) int { return len(b) - len(a) })
	pairs := make([]string, 0, 2*len(forms))
	for _, f := range forms {
		pairs = append(pairs, f, Mask)
	}
	return &masker{r: strings.NewReplacer(pairs...), forms: forms}
}

// Masker returns a function replacing every secret value, in each form
// newMasker knows, with ***: the authoring side masks tried scripts' output
// with it as runs are masked.
func Masker(secrets map[string]string) func(string) string {
	return newMasker(secrets).String
}

// String masks s.
func (m *masker) String(s string) string {
	if m.r == nil || s == "" {
		return s
	}
	return m.cutEnds(m.r.Replace(s))
}

// cutEnds masks the first part of a secret that a message cut off with
// "…" (clip, clipURL) before it was masked: the part is no whole secret,
// so Replace left it. Only text right before an ellipsis is looked at.
func (m *masker) cutEnds(s string) string {
	const ellipsis = "…"
	if !strings.Contains(s, ellipsis) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, ellipsis)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		before := s[:i]
		for _, f := range m.forms {
			if cut := partEnding(before, f); cut > 0 {
				before = before[:len(before)-cut] + Mask
				break
			}
		}
		b.WriteString(before + ellipsis)
		s = s[i+len(ellipsis):]
	}
}

// partEnding is the length of the longest start of secret, three bytes or
// more and shorter than the whole, that text ends with (0 when none).
func partEnding(text, secret string) int {
	for k := len(secret) - 1; k >= 3; k-- {
		if strings.HasSuffix(text, secret[:k]) {
			return k
		}
	}
	return 0
}

// locator masks a copy of l.
func (m *masker) locator(l *protocol.Locator) *protocol.Locator {
	if l == nil {
		return nil
	}
	c := *l
	c.Value, c.Name = m.String(c.Value), m.String(c.Name)
	return &c
}

// used masks a copy of a step's used values.
func (m *masker) used(u protocol.Used) protocol.Used {
	if u == nil {
		return nil
	}
	out := make(protocol.Used, len(u))
	for k, v := range u {
		out[m.String(k)] = m.String(v)
	}
	return out
}

// event masks every string field of e.
func (m *masker) event(e protocol.Event) protocol.Event {
	e.StepID = m.String(e.StepID)
	e.Error = m.String(e.Error)
	e.Screenshot = m.String(e.Screenshot)
	e.ScreenshotError = m.String(e.ScreenshotError)
	e.Name = m.String(e.Name)
	e.Message = m.String(e.Message)
	e.HealedBy = m.locator(e.HealedBy)
	e.Used = m.used(e.Used)
	return e
}

// result masks every string field of r.
func (m *masker) result(r protocol.RunResult) protocol.RunResult {
	r.Error = m.String(r.Error)
	r.Steps = m.steps(r.Steps)
	return r
}

// steps masks a result tree: the steps of blocks and iterations too.
func (m *masker) steps(list []protocol.StepResult) []protocol.StepResult {
	if list == nil {
		return nil
	}
	steps := make([]protocol.StepResult, len(list))
	for i, s := range list {
		s.ID = m.String(s.ID)
		s.Error = m.String(s.Error)
		s.Screenshot = m.String(s.Screenshot)
		s.ScreenshotError = m.String(s.ScreenshotError)
		s.HealedBy = m.locator(s.HealedBy)
		s.Used = m.used(s.Used)
		s.Steps = m.steps(s.Steps)
		if s.Iterations != nil {
			its := make([]protocol.IterationResult, len(s.Iterations))
			for j, it := range s.Iterations {
				it.Steps = m.steps(it.Steps)
				its[j] = it
			}
			s.Iterations = its
		}
		steps[i] = s
	}
	return steps
}
