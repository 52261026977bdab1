package protocol

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// roundTrip checks Parse -> json.Marshal -> Parse gives the same document.
func roundTrip(t *testing.T, doc Document) {
	t.Helper()
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	again, from, issues := Parse(data)
	if len(issues) > 0 || from != 2 {
		t.Fatalf("reparse: from %d, issues %v\n%s", from, issues, data)
	}
	if !reflect.DeepEqual(doc, again) {
		t.Fatalf("round trip changed the document:\n%+v\n%+v\n%s", doc, again, data)
	}
}

func TestParseRoundTrip(t *testing.T) {
	data, _ := json.Marshal(validDoc())
	doc, from, issues := Parse(data)
	wantIssues(t, issues)
	if from != 2 || !reflect.DeepEqual(doc, validDoc()) {
		t.Fatalf("from %d\n%+v\n%+v", from, doc, validDoc())
	}
	roundTrip(t, doc)
}

func TestStepJSONIsFlat(t *testing.T) {
	data, _ := json.Marshal(Step{ID: "s1", Type: "navigate", URL: "https://x"})
	if string(data) != `{"id":"s1","type":"navigate","url":"https://x"}` {
		t.Errorf("got %s", data)
	}
	data, _ = json.Marshal(Step{ID: "s2", Type: "fill", Target: el("#a"), Value: Ptr("")})
	if string(data) != `{"id":"s2","type":"fill","target":{"locators":[{"kind":"css","value":"#a"}]},"value":""}` {
		t.Errorf("got %s", data)
	}
	data, _ = json.Marshal(Document{DSL: 2, Name: "x"})
	if string(data) != `{"dsl":2,"name":"x","steps":[]}` {
		t.Errorf("got %s", data)
	}
}

func TestParseNormalises(t *testing.T) {
	doc, _, issues := Parse([]byte(`{"name":"  Trim me ","suite":" S ","tags":[" a "],"variables":{},
		"steps":[{"type":"wait","ms":1},{"id":"s1","type":"wait","ms":1},{"type":"wait","ms":1},{"id":"","type":"wait","ms":1},{"id":"s4","type":"wait","ms":1}],
		"description":"keeps  spaces "}`))
	wantIssues(t, issues)
	if doc.DSL != 2 || doc.Name != "Trim me" || doc.Suite != "S" || doc.Tags[0] != "a" || doc.Variables != nil || doc.Description != "keeps  spaces " {
		t.Errorf("got %+v", doc)
	}
	var ids []string
	for _, s := range doc.Steps {
		ids = append(ids, s.ID)
	}
	if strings.Join(ids, ",") != "s2,s1,s3,s5,s4" {
		t.Errorf("ids = %v", ids)
	}
	roundTrip(t, doc)
}

func TestParseEmptySteps(t *testing.T) {
	for _, in := range []string{`{"dsl":2,"name":"x"}`, `{"dsl":2,"name":"x","steps":[]}`, `{"dsl":2,"name":"x","steps":null}`} {
		doc, from, issues := Parse([]byte(in))
		wantIssues(t, issues)
		if from != 2 || doc.Steps == nil || len(doc.Steps) != 0 {
			t.Errorf("%s: %+v", in, doc)
		}
		roundTrip(t, doc)
	}
}

func TestParseIssues(t *testing.T) {
	tests := []struct {
		name, in string
		from     int
		want     []string
	}{
		{"malformed", `{"name":`, 0, []string{" json"}},
		{"empty", ``, 0, []string{" json"}},
		{"trailing", `{"name":"x"} {}`, 0, []string{" json"}},
		{"not an object", `[1,2]`, 0, []string{" type"}},
		{"string", `"doc"`, 0, []string{" type"}},
		{"dsl 3", `{"dsl":3,"name":"x"}`, 0, []string{"dsl unsupported"}},
		{"dsl 2.0", `{"dsl":2.0,"name":"x"}`, 2, nil},
		{"dsl 2.5", `{"dsl":2.5,"name":"x"}`, 0, []string{"dsl unsupported"}},
		{"dsl 1 is version 1", `{"dsl":1,"name":"x","steps":[{"command":"open","target":"/"}]}`, 1, nil},
		{"version 1.0", `{"version":1.0,"name":"x","steps":[]}`, 1, nil},
		{"dsl string", `{"dsl":"2","name":"x"}`, 0, []string{"dsl type"}},
		{"version 7", `{"version":7,"name":"x"}`, 0, []string{"version unsupported"}},
		{"side", `{"version":"2.0","name":"x","tests":[]}`, 0, []string{"version unsupported"}},
		{"unknown fields", `{"dsl":2,"name":"x","extra":1,"version":1,"steps":[{"type":"click","color":"red",
			"target":{"locators":[{"kind":"css","value":"#a","weight":3}],"shadow":true}}]}`, 2,
			[]string{"extra unknown", "steps[0].color unknown", "steps[0].target.locators[0].weight unknown",
				"steps[0].target.shadow unknown", "version unknown"}},
		{"param of another type", `{"dsl":2,"name":"x","steps":[{"type":"click","url":"http://x","target":{"locators":[{"kind":"css","value":"#a"}]}}]}`, 2,
			[]string{"steps[0].url unknown"}},
		{"wrong types", `{"dsl":2,"name":5,"tags":"t","variables":{"a":1},"steps":[
			{"type":"wait","ms":"5"},
			{"type":"fill","value":3,"target":"#a"},
			{"type":"screenshot","fullPage":"yes","timeoutMs":1.5},
			{"type":"callComponent","component":"cmp_a","inputs":[]},
			{"type":"click","target":{"locators":{"kind":"css"}}},
			{"type":"click","target":{"locators":[{"kind":1,"value":true,"exact":"no"}]}},
			7]}`, 2,
			[]string{"name type", "steps[0].ms type", "steps[1].target type", "steps[1].value type",
				"steps[2].fullPage type", "steps[2].timeoutMs type", "steps[3].inputs type", "steps[4].target.locators type",
				"steps[5].target.locators[0].exact type", "steps[5].target.locators[0].kind type",
				"steps[5].target.locators[0].value type", "steps[6] type", "tags type", "variables.a type"}},
		{"explicit zeros", `{"dsl":2,"name":"x","steps":[{"type":"click","timeoutMs":0,"target":{"locators":[{"kind":"css","value":"a"}]}},
			{"type":"callComponent","component":"cmp_a","version":0},{"type":"wait","ms":1e3},{"type":"wait","ms":1e300}]}`, 2,
			[]string{"steps[0].timeoutMs range", "steps[1].version range", "steps[3].ms range"}},
		{"missing type", `{"dsl":2,"name":"x","steps":[{"url":"x"}]}`, 2, []string{"steps[0].type required"}},
		{"unknown type", `{"dsl":2,"name":"x","steps":[{"type":"clik","target":{"locators":[]}}]}`, 2, []string{"steps[0].type unknown"}},
		{"v1 unknown commands", `{"version":1,"name":"x","steps":[{"command":"frob","target":"a"},{"command":"click","target":"id=a"}]}`, 1,
			[]string{"steps[0].command unsupported"}},
		{"v1 guessed without version", `{"name":"x","steps":[{"command":"frob"}]}`, 1, []string{"steps[0].command unsupported"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, from, issues := Parse([]byte(tc.in))
			wantIssues(t, issues, tc.want...)
			if from != tc.from {
				t.Errorf("from = %d, want %d", from, tc.from)
			}
		})
	}
}

func TestParseMessages(t *testing.T) {
	_, _, is := Parse([]byte(`{"name": 1, "steps": [{"type": "click", "colour": 1, "target": {"locators": [{"kind": "css", "value": "a"}]}}]}`))
	wantIssues(t, is, "name type", "steps[0].colour unknown")
	if is[0].Message != "name must be a string, not a number" || is[1].Message != `unknown field "colour"` {
		t.Errorf("messages: %s", messages(is))
	}
	_, _, is = Parse([]byte(`{"name": "x", "steps": [}`))
	if len(is) != 1 || !strings.HasPrefix(is[0].Message, "invalid JSON at byte 25") {
		t.Errorf("messages: %s", messages(is))
	}
}

func TestReferences(t *testing.T) {
	if got := References("${a} and ${secrets.B} ${a} ${bad name} ${c"); strings.Join(got, ",") != "a,secrets.B" {
		t.Errorf("References = %v", got)
	}
	got := Interpolate("${a}-${b}-${secrets.C}-${", func(n string) (string, bool) {
		return map[string]string{"a": "1", "secrets.C": "3"}[n], n != "b"
	})
	if got != "1-${b}-3-${" {
		t.Errorf("Interpolate = %q", got)
	}
}
