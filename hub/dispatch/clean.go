package dispatch

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/testautomation/ta/protocol"
)

// What an agent sends is text the hub stores and shows: it is cut to a
// size and cleaned of characters PostgreSQL refuses (NUL) or that only
// confuse a reader (other control characters).

// maxText bounds one text from an agent: a log line, an error message.
const maxText = 8 << 10

// maxResultSteps bounds the steps of one result.
const maxResultSteps = 10000

// cleanText cuts s to maxText bytes (on a character boundary, saying how
// much was cut) and removes NUL and control characters other than tab and
// newline; invalid UTF-8 becomes U+FFFD.
func cleanText(s string) string {
	cut := 0
	if len(s) > maxText {
		end := maxText
		for end > 0 && !utf8.RuneStart(s[end]) {
			end--
		}
		cut = len(s) - end
		s = s[:end]
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || !unicode.IsControl(r) {
			return r
		}
		return -1
	}, s)
	if cut > 0 {
		s += " … (" + strconv.Itoa(cut) + " more bytes cut by the hub)"
	}
	return s
}

func cleanEvent(e *protocol.Event) {
	for _, p := range []*string{&e.StepID, &e.StepType, &e.Status, &e.Error, &e.Screenshot, &e.Name, &e.Level, &e.Message} {
		*p = cleanText(*p)
	}
	if e.HealedBy != nil {
		e.HealedBy.Value, e.HealedBy.Name = cleanText(e.HealedBy.Value), cleanText(e.HealedBy.Name)
	}
}

func cleanResult(r *protocol.RunResult) {
	r.Error = cleanText(r.Error)
	if len(r.Steps) > maxResultSteps {
		r.Steps = r.Steps[:maxResultSteps]
	}
	for i := range r.Steps {
		st := &r.Steps[i]
		for _, p := range []*string{&st.ID, &st.Type, &st.Status, &st.Error, &st.Screenshot} {
			*p = cleanText(*p)
		}
		if st.HealedBy != nil {
			st.HealedBy.Value, st.HealedBy.Name = cleanText(st.HealedBy.Value), cleanText(st.HealedBy.Name)
		}
	}
}
