package authoring

import (
	"sort"
	"strings"

	"github.com/testautomation/ta/protocol"
)

// Substitution turns what a recording captured into a test document's
// words: a value equal to a secret of the session's environment becomes
// ${secrets.NAME} (and a secret inside a longer text too), an address
// under the environment's base URL becomes ${baseUrl}/...; a locator or
// fingerprint entry that contains a secret is dropped, since a locator
// cannot say ${secrets.NAME}. Every text is cleaned and cut first.
type Substitution struct {
	BaseURL string
	Secrets map[string]string // name → value
	scrub   func(string) string
}

// minSubst is the shortest secret replaced inside a longer text; a
// shorter one is replaced only when it is the whole value.
const minSubst = 3

// names lists the secrets longest value first, so a secret containing
// another is replaced whole.
func (sub Substitution) names() []string {
	out := make([]string, 0, len(sub.Secrets))
	for n, v := range sub.Secrets {
		if v != "" {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if len(sub.Secrets[out[i]]) != len(sub.Secrets[out[j]]) {
			return len(sub.Secrets[out[i]]) > len(sub.Secrets[out[j]])
		}
		return out[i] < out[j]
	})
	return out
}

// text writes secrets in s as ${secrets.NAME}.
func (sub Substitution) text(s string) string {
	s = clean(s)
	for _, n := range sub.names() {
		v := sub.Secrets[n]
		if s == v {
			return "${secrets." + n + "}"
		}
		if len(v) >= minSubst && strings.Contains(s, v) {
			s = strings.ReplaceAll(s, v, "${secrets."+n+"}")
		}
	}
	return s
}

// holdsSecret reports whether s contains a secret value.
func (sub Substitution) holdsSecret(s string) bool {
	for _, v := range sub.Secrets {
		if v != "" && (s == v || len(v) >= minSubst && strings.Contains(s, v)) {
			return true
		}
	}
	return false
}

// url writes an address under the base URL as ${baseUrl}/...
func (sub Substitution) url(u string) string {
	u = sub.text(u)
	base := strings.TrimRight(sub.BaseURL, "/")
	if base == "" || !strings.HasPrefix(u, base) {
		return u
	}
	rest := u[len(base):]
	if rest == "" || strings.ContainsRune("/?#", rune(rest[0])) {
		return "${baseUrl}" + rest
	}
	return u
}

// Step rewrites a captured step in place.
func (sub Substitution) Step(st *protocol.Step) {
	st.ID = clean(st.ID)
	st.Type = clean(st.Type)
	st.Description = sub.text(st.Description)
	st.URL = sub.url(st.URL)
	st.Key = clean(st.Key)
	if st.Value != nil {
		v := sub.text(*st.Value)
		st.Value = &v
	}
	if st.Expected != nil {
		v := sub.text(*st.Expected)
		st.Expected = &v
	}
	if st.Type == "assertUrl" && st.Expected != nil {
		v := sub.url(*st.Expected)
		st.Expected = &v
	}
	st.Code, st.Name, st.Assign = clean(st.Code), clean(st.Name), clean(st.Assign)
	if st.Target != nil {
		t := sub.target(*st.Target)
		st.Target = &t
	}
}

func (sub Substitution) locators(ls []protocol.Locator) []protocol.Locator {
	out := make([]protocol.Locator, 0, len(ls))
	for _, l := range ls {
		l.Kind, l.Value, l.Name = clean(l.Kind), clean(l.Value), clean(l.Name)
		if sub.holdsSecret(l.Value) || sub.holdsSecret(l.Name) {
			continue
		}
		out = append(out, l)
	}
	return out
}

func (sub Substitution) fingerprint(fp map[string]string) map[string]string {
	if fp == nil {
		return nil
	}
	out := make(map[string]string, len(fp))
	for k, v := range fp {
		k, v = clean(k), clean(v)
		if k == "" || sub.holdsSecret(v) {
			continue
		}
		out[k] = v
	}
	return out
}

func (sub Substitution) target(t protocol.Target) protocol.Target {
	return protocol.Target{Locators: sub.locators(t.Locators), Frame: sub.locators(t.Frame), Fingerprint: sub.fingerprint(t.Fingerprint)}
}

// Picked rewrites what a picker reports: candidates holding a secret are
// dropped, the element's texts masked.
func (sub Substitution) Picked(p *protocol.Picked) {
	mask := sub.scrub
	if mask == nil {
		mask = clean
	}
	e := &p.Element
	e.Tag, e.Text, e.Role, e.Name = mask(e.Tag), mask(e.Text), mask(e.Role), mask(e.Name)
	attrs := make(map[string]string, len(e.Attributes))
	for k, v := range e.Attributes {
		if k = clean(k); k != "" && len(attrs) < 64 {
			attrs[k] = mask(v)
		}
	}
	e.Attributes = attrs
	e.Frame = sub.locators(e.Frame)
	t := &p.Target
	out := make([]protocol.RankedLocator, 0, len(t.Locators))
	for _, l := range t.Locators {
		kept := sub.locators([]protocol.Locator{l.Locator})
		if len(kept) == 1 && len(out) < 64 {
			l.Locator = kept[0]
			out = append(out, l)
		}
	}
	t.Locators = out
	t.Frame = sub.locators(t.Frame)
	t.Fingerprint = sub.fingerprint(t.Fingerprint)
}

// maxField bounds one text of a captured step or pick.
const maxField = 8 << 10

// clean makes a text from an agent safe to keep and show.
func clean(s string) string {
	s = protocol.CleanText(s)
	if len(s) > maxField {
		s = strings.ToValidUTF8(s[:maxField], "")
	}
	return s
}
