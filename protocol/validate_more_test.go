package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

// moreStepsJSON is a document using every step real suites need, as a
// person writes it: "to" and "expected" in their per-type shapes.
const moreStepsJSON = `{"dsl": 2, "name": "More steps", "steps": [
 {"id": "d", "type": "dialog", "action": "accept", "text": "Bob", "expected": "Your name?", "match": "equals"},
 {"id": "c", "type": "click", "target": {"locators": [{"kind": "css", "value": "#open"}]}, "button": "right", "modifiers": ["Shift", "Control"], "position": {"x": 3, "y": 4.5}},
 {"id": "t", "type": "switchTab", "to": "new"},
 {"id": "t2", "type": "switchTab", "to": "index", "index": 0},
 {"id": "t3", "type": "switchTab", "to": "match", "url": "/checkout", "title": "Pay", "match": "contains"},
 {"id": "x", "type": "closeTab"},
 {"id": "u", "type": "upload", "target": {"locators": [{"kind": "label", "value": "Attachment"}]}, "files": ["fil_abc", "fil_def"]},
 {"id": "g", "type": "dragTo", "target": {"locators": [{"kind": "text", "value": "Card"}]}, "to": {"locators": [{"kind": "text", "value": "Done"}]}},
 {"id": "m", "type": "mouse", "action": "move", "position": {"x": 10, "y": 20}},
 {"id": "m2", "type": "mouse", "action": "down"},
 {"id": "b", "type": "goBack"}, {"id": "f", "type": "goForward"}, {"id": "r", "type": "reload"},
 {"id": "v", "type": "setViewport", "width": 390, "height": 844},
 {"id": "l", "type": "log", "message": "user is ${user}"},
 {"id": "a1", "type": "assertChecked", "target": {"locators": [{"kind": "label", "value": "Terms"}]}, "checked": false, "soft": true},
 {"id": "a2", "type": "assertEnabled", "target": {"locators": [{"kind": "css", "value": "#go"}]}, "enabled": true},
 {"id": "a3", "type": "assertEditable", "target": {"locators": [{"kind": "css", "value": "#go"}]}, "editable": false},
 {"id": "a4", "type": "assertAttribute", "target": {"locators": [{"kind": "css", "value": "a"}]}, "name": "href", "expected": "/x", "not": true},
 {"id": "a5", "type": "assertCount", "target": {"locators": [{"kind": "css", "value": "li"}]}, "expected": 3},
 {"id": "a6", "type": "assertSelected", "target": {"locators": [{"kind": "css", "value": "select"}]}, "expected": "Red", "by": "label"},
 {"id": "a7", "type": "assertVariable", "name": "answer.body.items.0.id", "expected": "7", "match": "equals"},
 {"id": "a8", "type": "assertText", "target": {"locators": [{"kind": "css", "value": "h1"}]}, "expected": "Draft", "not": true},
 {"id": "s1", "type": "setVariable", "name": "href", "target": {"locators": [{"kind": "css", "value": "a"}]}, "from": "attribute", "attribute": "href"},
 {"id": "s2", "type": "setVariable", "name": "title", "from": "title"},
 {"id": "w", "type": "waitFor", "target": {"locators": [{"kind": "css", "value": "#go"}]}, "state": "enabled"},
 {"id": "q", "type": "request", "method": "POST", "url": "/api/items", "headers": {"Authorization": "Bearer ${secrets.TOKEN}"}, "body": "{\"n\": 1}", "expectStatus": 201, "assign": "answer"}
]}`

func TestMoreStepsParseAndRoundTrip(t *testing.T) {
	doc, _, issues := Parse([]byte(moreStepsJSON))
	wantIssues(t, issues)
	byID := map[string]Step{}
	for _, s := range doc.Steps {
		byID[s.ID] = s
	}
	if s := byID["t"]; s.To != "new" || s.ToTarget != nil {
		t.Errorf("switchTab to = %q %v", s.To, s.ToTarget)
	}
	if s := byID["g"]; s.To != "" || s.ToTarget == nil || s.ToTarget.Locators[0].Value != "Done" {
		t.Errorf("dragTo to = %q %+v", s.To, s.ToTarget)
	}
	if s := byID["a5"]; s.Count == nil || *s.Count != 3 || s.Expected != nil {
		t.Errorf("assertCount expected = %v %v", s.Count, s.Expected)
	}
	if s := byID["c"]; s.Position == nil || s.Position.Y != 4.5 || s.Button != "right" || len(s.Modifiers) != 2 {
		t.Errorf("click = %+v", s)
	}
	if s := byID["a1"]; s.Want() || !s.Soft {
		t.Errorf("assertChecked checked false soft: want %v soft %v", s.Want(), s.Soft)
	}
	if s := byID["a2"]; !s.Want() {
		t.Error("assertEnabled enabled true")
	}
	// Marshalled and parsed again (the agent reads the document with
	// encoding/json), the document is the same.
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"to":"new"`, `"to":{"locators":[{"kind":"text","value":"Done"}]}`, `"expected":3`, `"expected":"Red"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("marshalled document lacks %s", want)
		}
	}
	var again Document
	if err := json.Unmarshal(data, &again); err != nil {
		t.Fatal(err)
	}
	data2, _ := json.Marshal(again)
	if string(data) != string(data2) {
		t.Errorf("round trip differs:\n%s\n%s", data, data2)
	}
	doc2, _, issues := Parse(data)
	wantIssues(t, issues)
	if len(doc2.Steps) != len(doc.Steps) {
		t.Error("steps lost")
	}
}

func TestMoreStepsIssues(t *testing.T) {
	tests := []struct {
		name, steps string
		want        []string
	}{
		{"dialog text with dismiss", `{"id":"a","type":"dialog","action":"dismiss","text":"x"}`, []string{"steps[0].text conflict"}},
		{"dialog action", `{"id":"a","type":"dialog","action":"ok"}`, []string{"steps[0].action enum"}},
		{"dialog match without expected", `{"id":"a","type":"dialog","action":"accept","match":"regex"}`, []string{"steps[0].match conflict"}},
		{"switchTab index missing", `{"id":"a","type":"switchTab","to":"index"}`, []string{"steps[0].index required"}},
		{"switchTab index out of range", `{"id":"a","type":"switchTab","to":"index","index":-1}`, []string{"steps[0].index range"}},
		{"switchTab match without url", `{"id":"a","type":"switchTab","to":"match"}`, []string{"steps[0].url required"}},
		{"switchTab url with new", `{"id":"a","type":"switchTab","to":"new","url":"x"}`, []string{"steps[0].to conflict"}},
		{"switchTab to a target", `{"id":"a","type":"switchTab","to":{"locators":[]}}`, []string{"steps[0].to type"}},
		{"switchTab bad regex", `{"id":"a","type":"switchTab","to":"match","title":"(","match":"regex"}`, []string{"steps[0].title format"}},
		{"upload files", `{"id":"a","type":"upload","target":{"locators":[{"kind":"css","value":"input"}]},"files":["/etc/passwd","fil_a","fil_a"]}`,
			[]string{"steps[0].files[0] format", "steps[0].files[2] duplicate"}},
		{"upload no files", `{"id":"a","type":"upload","target":{"locators":[{"kind":"css","value":"input"}]},"files":[]}`, []string{"steps[0].files required"}},
		{"dragTo to string", `{"id":"a","type":"dragTo","target":{"locators":[{"kind":"css","value":"a"}]},"to":"new"}`, []string{"steps[0].to type"}},
		{"dragTo to missing", `{"id":"a","type":"dragTo","target":{"locators":[{"kind":"css","value":"a"}]}}`, []string{"steps[0].to required"}},
		{"dragTo to empty", `{"id":"a","type":"dragTo","target":{"locators":[{"kind":"css","value":"a"}]},"to":{"locators":[]}}`, []string{"steps[0].to.locators required"}},
		{"click options", `{"id":"a","type":"click","target":{"locators":[{"kind":"css","value":"a"}]},"button":"back","modifiers":["Ctrl","Shift","Shift"],"position":{"x":"1"}}`,
			[]string{"steps[0].button enum", "steps[0].modifiers[0] enum", "steps[0].modifiers[2] duplicate", "steps[0].position.x type", "steps[0].position.y required"}},
		{"mouse move nowhere", `{"id":"a","type":"mouse","action":"move"}`, []string{"steps[0].position required"}},
		{"viewport", `{"id":"a","type":"setViewport","width":0,"height":20000}`, []string{"steps[0].height range", "steps[0].width range"}},
		{"log needs message", `{"id":"a","type":"log"}`, []string{"steps[0].message required"}},
		{"log bad reference", `{"id":"a","type":"log","message":"${"}`, []string{"steps[0].message format"}},
		{"assertCount string", `{"id":"a","type":"assertCount","target":{"locators":[{"kind":"css","value":"a"}]},"expected":"3"}`, []string{"steps[0].expected type"}},
		{"assertCount negative", `{"id":"a","type":"assertCount","target":{"locators":[{"kind":"css","value":"a"}]},"expected":-1}`, []string{"steps[0].expected range"}},
		{"not on assertVisible", `{"id":"a","type":"assertVisible","target":{"locators":[{"kind":"css","value":"a"}]},"not":true}`, []string{"steps[0].not unknown"}},
		{"soft on click", `{"id":"a","type":"click","target":{"locators":[{"kind":"css","value":"a"}]},"soft":true}`, []string{"steps[0].soft unknown"}},
		{"assertVariable secret", `{"id":"a","type":"assertVariable","name":"secrets.PW","expected":"x"}`, []string{"steps[0].name format"}},
		{"assertAttribute name", `{"id":"a","type":"assertAttribute","target":{"locators":[{"kind":"css","value":"a"}]},"name":"a b","expected":"x"}`, []string{"steps[0].name format"}},
		{"setVariable from without target", `{"id":"a","type":"setVariable","name":"v","from":"value"}`, []string{"steps[0].target required"}},
		{"setVariable title with target", `{"id":"a","type":"setVariable","name":"v","from":"title","target":{"locators":[{"kind":"css","value":"a"}]}}`, []string{"steps[0].target conflict"}},
		{"setVariable attribute missing", `{"id":"a","type":"setVariable","name":"v","from":"attribute","target":{"locators":[{"kind":"css","value":"a"}]}}`, []string{"steps[0].attribute required"}},
		{"setVariable value and from", `{"id":"a","type":"setVariable","name":"v","value":"x","from":"url"}`, []string{"steps[0] conflict"}},
		{"waitFor state", `{"id":"a","type":"waitFor","target":{"locators":[{"kind":"css","value":"a"}]},"state":"checked"}`, []string{"steps[0].state enum"}},
		{"request scheme", `{"id":"a","type":"request","url":"file:///etc/passwd"}`, []string{"steps[0].url url_scheme"}},
		{"request details", `{"id":"a","type":"request","method":"TRACE","url":"/x","headers":{"Bad Name":"x","X":"a\nb"},"expectStatus":700,"assign":"1a"}`,
			[]string{"steps[0].assign format", "steps[0].expectStatus range", "steps[0].headers.X format", `steps[0].headers["Bad Name"] format`, "steps[0].method enum"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, issues := Parse([]byte(`{"dsl":2,"name":"x","steps":[` + tc.steps + `]}`))
			wantIssues(t, issues, tc.want...)
		})
	}
}

func TestFieldReferences(t *testing.T) {
	got := References("${answer.body.items.0.id} ${secrets.PW} ${secrets.A.B} ${a..b}")
	if strings.Join(got, "|") != "answer.body.items.0.id|secrets.PW" {
		t.Errorf("references = %v", got)
	}
}
