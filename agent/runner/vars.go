package runner

import (
	"maps"
	"strings"

	"github.com/testautomation/ta/protocol"
)

// lookup resolves a reference as written between ${ and }: a secret, or a
// variable set by the run, else job.Variables (environment, data row),
// else the document's variables.
func (r *run) lookup(ref string) (string, bool) {
	if name, ok := strings.CutPrefix(ref, protocol.SecretPrefix); ok {
		v, ok := r.job.Secrets[name]
		return v, ok
	}
	if v, ok := r.vars[ref]; ok {
		return v, true
	}
	if v, ok := r.job.Variables[ref]; ok {
		return v, true
	}
	v, ok := r.job.Document.Variables[ref]
	return v, ok
}

// unknownRef is the error for a reference nothing defines.
func unknownRef(ref string) error {
	if name, ok := strings.CutPrefix(ref, protocol.SecretPrefix); ok {
		return permanent("unknown secret ${%s}: the run's environment has no secret named %s", ref, name)
	}
	return permanent("unknown variable ${%s}: define it in the test's variables, the environment or an earlier setVariable step", ref)
}

// interp replaces the references in s, failing on the first unknown one.
func (r *run) interp(s string) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	for _, ref := range protocol.References(s) {
		if _, ok := r.lookup(ref); !ok {
			return "", unknownRef(ref)
		}
	}
	return protocol.Interpolate(s, r.lookup), nil
}

// interpolateStep returns a copy of st with its string parameters
// interpolated: url, value, key, expected, a screenshot's name, the
// locators of target and frames, and inputs. A script's code is not: its
// references travel as arguments (protocol.ScriptSource).
func (r *run) interpolateStep(st protocol.Step) (protocol.Step, error) {
	var err error
	str := func(p *string) {
		if err == nil && p != nil {
			*p, err = r.interp(*p)
		}
	}
	opt := func(p **string) {
		if *p != nil {
			v := **p
			str(&v)
			*p = &v
		}
	}
	str(&st.URL)
	opt(&st.Value)
	str(&st.Key)
	opt(&st.Expected)
	if st.Type == "screenshot" {
		str(&st.Name)
	}
	opt(&st.Text)  // dialog: a prompt's answer
	str(&st.Title) // switchTab
	target := func(p **protocol.Target) {
		if *p == nil {
			return
		}
		t := **p
		locs := func(ls []protocol.Locator) []protocol.Locator {
			out := make([]protocol.Locator, len(ls))
			for i, l := range ls {
				str(&l.Value)
				str(&l.Name)
				out[i] = l
			}
			return out
		}
		t.Locators, t.Frame = locs(t.Locators), locs(t.Frame)
		*p = &t
	}
	target(&st.Target)
	target(&st.ToTarget) // dragTo's drop target
	if st.Inputs != nil {
		in := maps.Clone(st.Inputs)
		for k, v := range in {
			str(&v)
			in[k] = v
		}
		st.Inputs = in
	}
	return st, err
}
