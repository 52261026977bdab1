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
	for _, s := range protocol.AllSteps(existing) { // ids are unique through the tree
		used[s.ID] = true
	}
	next, total := protocol.CountSteps(existing)+1, 0
	for i, r := range raw {
		step, issues := checkStep(i, r)
		if len(issues) > 0 {
			d.Issues = append(d.Issues, issues...)
			continue
		}
		// A block's steps count: a draft stays within MaxDraftSteps.
		if total += protocol.CountSteps([]protocol.Step{step}); total > MaxDraftSteps {
			d.Issues = append(d.Issues, Issue{Path: fmt.Sprintf("steps[%d]", i), Code: "too_many",
				Message: fmt.Sprintf("a draft has at most %d steps, blocks' steps included; the rest are dropped", MaxDraftSteps)})
			break
		}
		// The hub gives every step of the tree its id.
		tree := []protocol.Step{step}
		protocol.WalkSteps(tree, func(_ string, _ int, st *protocol.Step) bool {
			for used["s"+strconv.Itoa(next)] {
				next++
			}
			st.ID = "s" + strconv.Itoa(next)
			used[st.ID] = true
			return true
		})
		d.Steps = append(d.Steps, tree[0])
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
	if where := callInside(probe, at); where != "" {
		return protocol.Step{}, []Issue{{Path: where + ".type", Code: "unsupported",
			Message: "drafts cannot call components; add the call yourself", Text: text}}
	}
	dropIDs(probe) // ids are given by the hub
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
	if where := secretMisuseTree(step); where != "" {
		return protocol.Step{}, []Issue{{Path: at + "." + where, Code: "secret_use",
			Message: "a drafted step may use a secret only as the value of a fill step; this one puts it in " + where, Text: text}}
	}
	return step, nil
}

// blockLists are the members of a block that hold steps.
var blockLists = []string{"steps", "else"}

// callInside is the path of a callComponent in a proposed step or the
// blocks in it, "" when there is none.
func callInside(step map[string]any, at string) string {
	if step["type"] == "callComponent" {
		return at
	}
	for _, k := range blockLists {
		list, _ := step[k].([]any)
		for j, v := range list {
			if m, ok := v.(map[string]any); ok {
				if p := callInside(m, fmt.Sprintf("%s.%s[%d]", at, k, j)); p != "" {
					return p
				}
			}
		}
	}
	return ""
}

// dropIDs removes the ids of a proposed step and of the steps in it.
func dropIDs(step map[string]any) {
	delete(step, "id")
	for _, k := range blockLists {
		list, _ := step[k].([]any)
		for _, v := range list {
			if m, ok := v.(map[string]any); ok {
				dropIDs(m)
			}
		}
	}
}

// secretMisuseTree is secretMisuse for a step and every step inside it:
// the path of the field, relative to s ("steps[0].url").
func secretMisuseTree(s protocol.Step) string {
	if where := secretMisuse(s); where != "" {
		return where
	}
	for _, list := range s.Children() {
		for j, inner := range list.Steps {
			if where := secretMisuseTree(inner); where != "" {
				return fmt.Sprintf("%s[%d].%s", list.Field, j, where)
			}
		}
	}
	return ""
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
	// A block's condition and a forEach's items: a secret there would be
	// compared, evaluated or handed on to steps that show it.
	for k, c := range map[string]*protocol.Condition{"condition": s.Condition, "while": s.While} {
		if c == nil {
			continue
		}
		texts := []string{c.Code, c.Name}
		if c.Expected != nil {
			texts = append(texts, *c.Expected)
		}
		if c.Target != nil {
			for _, l := range append(append([]protocol.Locator(nil), c.Target.Locators...), c.Target.Frame...) {
				texts = append(texts, l.Value+" "+l.Name)
			}
		}
		for _, t := range texts {
			if usesSecret(t) {
				return k
			}
		}
	}
	if it := s.Items; it != nil {
		for _, t := range append([]string{it.Ref}, it.List...) {
			if usesSecret(t) {
				return "items"
			}
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
