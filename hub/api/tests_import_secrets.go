package api

import (
	"net/http"
	"sort"

	"github.com/testautomation/ta/protocol"
)

// minSecretLiteral is the shortest secret value an import writes as
// ${secrets.NAME}: a shorter one ("1", "ok") matches ordinary values by chance.
const minSecretLiteral = 3

// importSecrets resolves the optional ?environmentId= of an import: the
// secrets of that environment of the project whose values, met as a
// step's literal text, are written as ${secrets.NAME}. The same rule as a
// recording's (substituted), so the import is no better oracle for
// guessing a protected environment's secrets than recording is. nil (and
// ok) without an environment; ok is false when an answer was written.
func (s *Server) importSecrets(w http.ResponseWriter, r *http.Request, sc scope) (map[string]string, bool) {
	id := r.URL.Query().Get("environmentId")
	if id == "" {
		return nil, true
	}
	env, ok := s.loadAuthorEnv(w, r, sc, id, s.substituted(sc))
	return env.secrets, ok
}

// replaceSecretLiterals writes every step value, expected text and
// component input that equals a secret's value (of at least
// minSecretLiteral characters) as ${secrets.NAME}, in place, and returns
// how many it replaced. Two secrets with one value: the first name in
// order wins, so an import is repeatable.
func replaceSecretLiterals(docs []protocol.Document, secrets map[string]string) int {
	byValue := map[string]string{}
	names := make([]string, 0, len(secrets))
	for n := range secrets {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if v := secrets[n]; len(v) >= minSecretLiteral {
			if _, taken := byValue[v]; !taken {
				byValue[v] = n
			}
		}
	}
	if len(byValue) == 0 {
		return 0
	}
	replaced := 0
	swap := func(p *string) {
		if n, ok := byValue[*p]; ok {
			*p = "${" + protocol.SecretPrefix + n + "}"
			replaced++
		}
	}
	for i := range docs {
		// The steps inside blocks too (a .side import's if and loops).
		protocol.WalkSteps(docs[i].Steps, func(_ string, _ int, st *protocol.Step) bool {
			if st.Value != nil {
				swap(st.Value)
			}
			if st.Expected != nil {
				swap(st.Expected)
			}
			for k, v := range st.Inputs {
				swap(&v)
				st.Inputs[k] = v
			}
			return true
		})
	}
	return replaced
}
