package language

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/testautomation/ta/protocol"
)

// MaxDraftSteps is how many steps one draft may propose; the rest are
// dropped with an issue.
const MaxDraftSteps = 100

// Issue is a problem with the model's answer: a step that was dropped
// (Path "steps[i]..."), or the answer as a whole (Path ""). Text is what
// the model wrote for that step, shortened.
type Issue struct {
	Path    string `json:"path"`
	Message string `json:"message"`
	Code    string `json:"code"`
	Text    string `json:"text,omitempty"`
}

// Draft is a checked answer: only valid steps, and what was dropped.
type Draft struct {
	Steps  []protocol.Step `json:"steps"`
	Issues []Issue         `json:"issues"`
}

// ErrNotJSON is the answer of a model that wrote no JSON at all.
type ErrNotJSON struct{ Text string }

func (e *ErrNotJSON) Error() string {
	return "the language model's answer is not JSON: " + clip(strings.TrimSpace(e.Text), 200)
}

// Check reads the model's answer and keeps the steps that pass the same
// validation as saving a test, plus the rule that a secret may only be
// typed into a field. existing are the test's steps: new ids never collide
// with theirs.
func Check(answer string, existing []protocol.Step) (Draft, error) {
	raw, err := answerSteps(answer)
	if err != nil {
		return Draft{}, err
	}
	d := Draft{Steps: []protocol.Step{}, Issues: []Issue{}}
	if len(raw) > MaxDraftSteps {
		d.Issues = append(d.Issues, Issue{Path: "steps", Code: "too_many",
			Message: fmt.Sprintf("the model proposed %d steps; the first %d are kept", len(raw), MaxDraftSteps)})
		raw = raw[:MaxDraftSteps]
	}
	used := map[string]bool{}
	for _, s := range existing {
		used[s.ID] = true
	}
	next := len(existing) + 1
	for i, r := range raw {
		step, issues := checkStep(i, r)
		if len(issues) > 0 {
			d.Issues = append(d.Issues, issues...)
			continue
		}
		for used["s"+strconv.Itoa(next)] {
			next++
		}
		step.ID = "s" + strconv.Itoa(next)
		used[step.ID] = true
		d.Steps = append(d.Steps, step)
	}
	return d, nil
}

// answerSteps finds the steps in an answer: {"steps": [...]} or a bare
// array, perhaps inside a Markdown code fence or after some prose.
func answerSteps(answer string) ([]json.RawMessage, error) {
	s := strings.TrimSpace(answer)
	start := strings.IndexAny(s, "{[")
	if start < 0 {
		return nil, &ErrNotJSON{Text: answer}
	}
	dec := json.NewDecoder(strings.NewReader(s[start:]))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return nil, &ErrNotJSON{Text: answer}
	}
	v = bytes.TrimSpace(v)
	var steps []json.RawMessage
	if v[0] == '[' {
		if json.Unmarshal(v, &steps) != nil {
			return nil, &ErrNotJSON{Text: answer}
		}
		return steps, nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(v, &obj) != nil {
		return nil, &ErrNotJSON{Text: answer}
	}
	st, ok := obj["steps"]
	if !ok {
		if _, typed := obj["type"]; typed { // one step on its own
			return []json.RawMessage{v}, nil
		}
		return nil, &ErrNotJSON{Text: answer}
	}
	if json.Unmarshal(st, &steps) != nil {
		return nil, &ErrNotJSON{Text: answer}
	}
	return steps, nil
}

// checkStep validates one proposed step as the only step of a document.
func checkStep(i int, r json.RawMessage) (protocol.Step, []Issue) {
	text := clip(string(r), 500)
	at := fmt.Sprintf("steps[%d]", i)
	var probe map[string]any
	if json.Unmarshal(r, &probe) != nil {
		return protocol.Step{}, []Issue{{Path: at, Code: "type", Message: "the step is not a JSON object", Text: text}}
	}
	if probe["type"] == "callComponent" {
		return protocol.Step{}, []Issue{{Path: at + ".type", Code: "unsupported",
			Message: "drafts cannot call components; add the call yourself", Text: text}}
	}
	delete(probe, "id") // ids are given by the hub
	one, _ := json.Marshal(map[string]any{"dsl": protocol.DSLVersion, "name": "draft", "steps": []any{probe}})
	doc, _, issues := protocol.Parse(one)
	if len(issues) > 0 {
		out := make([]Issue, 0, len(issues))
		for _, is := range issues {
			p := is.Path
			if rest, ok := strings.CutPrefix(p, "steps[0]"); ok {
				p = at + rest
			} else {
				p = at
			}
			out = append(out, Issue{Path: p, Code: is.Code, Message: is.Message, Text: text})
		}
		return protocol.Step{}, out
	}
	step := doc.Steps[0]
	if where := secretMisuse(step); where != "" {
		return protocol.Step{}, []Issue{{Path: at + "." + where, Code: "secret_use",
			Message: "a drafted step may use a secret only as the value of a fill step; this one puts it in " + where, Text: text}}
	}
	return step, nil
}

// secretMisuse names the field of s that references a secret anywhere but
// a fill step's value, or "" when there is none. This holds even when a
// page or a request talked the model into it.
func secretMisuse(s protocol.Step) string {
	fields := map[string]string{"url": s.URL, "key": s.Key, "name": s.Name, "code": s.Code, "assign": s.Assign, "description": s.Description}
	if s.Expected != nil {
		fields["expected"] = *s.Expected
	}
	if s.Value != nil && s.Type != "fill" {
		fields["value"] = *s.Value
	}
	if s.Target != nil {
		for j, l := range append(append([]protocol.Locator(nil), s.Target.Locators...), s.Target.Frame...) {
			fields[fmt.Sprintf("target.locators[%d]", j)] = l.Value + " " + l.Name
		}
	}
	for _, k := range []string{"url", "key", "name", "code", "assign", "description", "expected", "value"} {
		if usesSecret(fields[k]) {
			return k
		}
	}
	for k, v := range fields {
		if strings.HasPrefix(k, "target") && usesSecret(v) {
			return "target"
		}
	}
	return ""
}

func usesSecret(s string) bool {
	for _, r := range protocol.References(s) {
		if strings.HasPrefix(r, "secrets.") {
			return true
		}
	}
	// A script reads secrets as vars.secrets.NAME as well.
	return strings.Contains(s, "secrets.") && strings.Contains(s, "vars")
}
