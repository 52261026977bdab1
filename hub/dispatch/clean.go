package dispatch

import (
	"maps"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/testautomation/ta/protocol"
)

// What an agent sends is text the hub stores and shows: each one is
// scrubbed (masker.scrub: cleaned, masked, cut). The visitors below reach
// every text an agent chooses in an event or a result, so a field added to
// the protocol is scrubbed by adding it here.

// maxText bounds one text from an agent: a log line, an error message.
const maxText = 8 << 10

// maxResultSteps bounds the step results of one result, counting those
// inside blocks and iterations.
const maxResultSteps = 10000

// pruneResults keeps the first max step results of a result tree, in
// order, and drops the rest (a result that big is refused as a misreport
// by checkResult, but is never stored or walked whole).
func pruneResults(steps []protocol.StepResult, max int) []protocol.StepResult {
	left := max
	var prune func([]protocol.StepResult) []protocol.StepResult
	prune = func(list []protocol.StepResult) []protocol.StepResult {
		if len(list) > left {
			list = list[:left]
		}
		left -= len(list)
		for i := range list {
			list[i].Steps = prune(list[i].Steps)
			its := list[i].Iterations
			for j := range its {
				if left <= 0 {
					its = its[:j]
					break
				}
				its[j].Steps = prune(its[j].Steps)
			}
			list[i].Iterations = its
		}
		return list
	}
	if steps == nil {
		return nil
	}
	return prune(steps)
}

// cut shortens s to maxText bytes on a character boundary, saying how much
// was cut.
func cut(s string) string {
	if len(s) <= maxText {
		return s
	}
	end := maxText
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + " … (" + strconv.Itoa(len(s)-end) + " more bytes cut by the hub)"
}

// eventTexts replaces every text of an event with f of it.
func eventTexts(e *protocol.Event, f func(string) string) {
	for _, p := range []*string{&e.StepID, &e.StepType, &e.Status, &e.Error, &e.Screenshot, &e.Name, &e.ContentType, &e.Level, &e.Message, &e.ScreenshotError, &e.Branch} {
		*p = f(*p)
	}
	e.HealedBy = locatorTexts(e.HealedBy, f)
	e.Used = usedTexts(e.Used, f)
}

// resultTexts replaces every text of a run result with f of it.
func resultTexts(r *protocol.RunResult, f func(string) string) {
	r.Error = f(r.Error)
	r.Status = f(r.Status)
	stepTexts(r.Steps, f)
	for i := range r.Rows {
		row := &r.Rows[i]
		inner := protocol.RunResult{Status: row.Status, Error: row.Error, Steps: row.Steps}
		resultTexts(&inner, f)
		row.Status, row.Error, row.Steps = inner.Status, inner.Error, inner.Steps
	}
}

// maxUsed bounds the values one step reports using.
const maxUsed = 20

// usedTexts replaces a step's used values (names and values) with f of
// them, keeping the first maxUsed by name.
func usedTexts(u protocol.Used, f func(string) string) protocol.Used {
	if len(u) == 0 {
		return nil
	}
	keys := slices.Sorted(maps.Keys(u))
	out := make(protocol.Used, min(len(keys), maxUsed))
	for _, k := range keys[:min(len(keys), maxUsed)] {
		out[f(k)] = f(u[k])
	}
	return out
}

func locatorTexts(l *protocol.Locator, f func(string) string) *protocol.Locator {
	if l == nil {
		return nil
	}
	c := *l
	c.Kind, c.Value, c.Name = f(c.Kind), f(c.Value), f(c.Name)
	return &c
}

// stepTexts replaces every text of a result tree's steps with f of it.
func stepTexts(steps []protocol.StepResult, f func(string) string) {
	for i := range steps {
		st := &steps[i]
		for _, p := range []*string{&st.ID, &st.Type, &st.Status, &st.Error, &st.Screenshot, &st.ScreenshotError, &st.Branch} {
			*p = f(*p)
		}
		st.HealedBy = locatorTexts(st.HealedBy, f)
		st.Used = usedTexts(st.Used, f)
		stepTexts(st.Steps, f)
		for j := range st.Iterations {
			st.Iterations[j].Status = f(st.Iterations[j].Status)
			stepTexts(st.Iterations[j].Steps, f)
		}
	}
}
