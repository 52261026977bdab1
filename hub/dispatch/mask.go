package dispatch

import (
	"sort"
	"strings"

	"github.com/testautomation/ta/protocol"
)

// masker replaces secret values with *** in what an agent sends back: the
// agent masks too, the hub makes sure. Each value is masked in every form
// protocol.SecretForms lists (escaped, URL-encoded, base64 ...), as the
// agent's masker does.
type masker struct{ r *strings.Replacer }

// minSecret is the shortest value masked: shorter ones would mangle every
// text they happen to appear in.
const minSecret = 3

func newMasker(secrets map[string]string) *masker {
	seen := map[string]bool{}
	var forms []string
	for _, v := range secrets {
		if len(v) < minSecret {
			continue
		}
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
	// Longest first, so a secret containing another is masked whole.
	sort.Slice(forms, func(i, j int) bool { return len(forms[i]) > len(forms[j]) })
	pairs := make([]string, 0, 2*len(forms))
	for _, f := range forms {
		pairs = append(pairs, f, "***")
	}
	return &masker{r: strings.NewReplacer(pairs...)}
}

func (m *masker) str(s string) string {
	if m == nil || m.r == nil || s == "" {
		return s
	}
	return m.r.Replace(s)
}

func (m *masker) event(e *protocol.Event) {
	e.Error = m.str(e.Error)
	e.Message = m.str(e.Message)
	e.Name = m.str(e.Name)
	e.Screenshot = m.str(e.Screenshot)
	if e.HealedBy != nil {
		l := *e.HealedBy
		l.Value, l.Name = m.str(l.Value), m.str(l.Name)
		e.HealedBy = &l
	}
	e.Used = m.used(e.Used)
}

// used masks a copy of a step's used values.
func (m *masker) used(u protocol.Used) protocol.Used {
	if m == nil || m.r == nil || u == nil {
		return u
	}
	out := make(protocol.Used, len(u))
	for k, v := range u {
		out[m.str(k)] = m.str(v)
	}
	return out
}

func (m *masker) result(r *protocol.RunResult) {
	r.Error = m.str(r.Error)
	for i := range r.Steps {
		s := &r.Steps[i]
		s.Error = m.str(s.Error)
		s.Screenshot = m.str(s.Screenshot)
		if s.HealedBy != nil {
			l := *s.HealedBy
			l.Value, l.Name = m.str(l.Value), m.str(l.Name)
			s.HealedBy = &l
		}
		s.Used = m.used(s.Used)
	}
}
