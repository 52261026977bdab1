package dispatch

import (
	"strconv"
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
// much was cut) and cleans it with protocol.CleanText.
func cleanText(s string) string {
	if len(s) <= maxText {
		return protocol.CleanText(s)
	}
	end := maxText
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return protocol.CleanText(s[:end]) + " … (" + strconv.Itoa(len(s)-end) + " more bytes cut by the hub)"
}

func cleanEvent(e *protocol.Event) {
	for _, p := range []*string{&e.StepID, &e.StepType, &e.Status, &e.Error, &e.Screenshot, &e.Name, &e.Level, &e.Message} {
		*p = cleanText(*p)
	}
	if e.HealedBy != nil {
		e.HealedBy.Value, e.HealedBy.Name = cleanText(e.HealedBy.Value), cleanText(e.HealedBy.Name)
	}
	e.Used = cleanUsed(e.Used)
}

// maxUsed bounds the values one step reports using.
const maxUsed = 20

// cleanUsed cleans a step's used values, keeping at most maxUsed of them.
func cleanUsed(u protocol.Used) protocol.Used {
	if len(u) == 0 {
		return nil
	}
	out := protocol.Used{}
	for k, v := range u {
		if len(out) == maxUsed {
			break
		}
		out[cleanText(k)] = cleanText(v)
	}
	return out
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
		st.Used = cleanUsed(st.Used)
	}
}
