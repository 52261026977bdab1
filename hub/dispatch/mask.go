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

// scrub makes one text from an agent safe to store and show: cleaned of
// characters PostgreSQL refuses or that only confuse (protocol.CleanText),
// then masked, then cut to maxText. Cleaning comes first: taking out NULs
// or control characters can join the pieces of a secret ("h\x00u\x00n..."
// from a UTF-16 text), which must be masked whole; cutting comes last, so
// no cut leaves half a secret.
func (m *masker) scrub(s string) string { return cut(m.str(protocol.CleanText(s))) }

// event scrubs every text of an agent's event.
func (m *masker) event(e *protocol.Event) { eventTexts(e, m.scrub) }

// result scrubs every text of an agent's run result.
func (m *masker) result(r *protocol.RunResult) {
	r.Steps = pruneResults(r.Steps, maxResultSteps)
	if len(r.Rows) > maxRow {
		r.Rows = r.Rows[:maxRow]
	}
	for i := range r.Rows {
		r.Rows[i].Steps = pruneResults(r.Rows[i].Steps, maxResultSteps)
		if !protocol.Final(r.Rows[i].Status) {
			r.Rows[i].Status = protocol.RunError
		}
	}
	resultTexts(r, m.scrub)
	maskAttempts(r, m.scrub)
}

// Scrubber returns the scrub of a masker for secrets: what authoring
// sessions use on every text an agent sends them.
func Scrubber(secrets map[string]string) func(string) string { return newMasker(secrets).scrub }

// Masker returns only the masking of a masker for secrets, for texts that
// must stay whole (a JSON value).
func Masker(secrets map[string]string) func(string) string { return newMasker(secrets).str }

// MaskEvent scrubs every text of an event for secrets, as a run's events
// are: what the editor's live session does with its agent's events.
func MaskEvent(e *protocol.Event, secrets map[string]string) { newMasker(secrets).event(e) }
