package protocol

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// A document with every block kind, nested two deep: an if whose else is
// an else-if, a repeat by times and by while, a forEach over a variable
// and over a list.
const flowDoc = `{"dsl":2,"name":"Blocks","steps":[
 {"id":"open","type":"navigate","url":"https://shop.test/"},
 {"id":"banner","type":"if","condition":{"kind":"visible","target":{"locators":[{"kind":"role","value":"button","name":"Accept cookies"}]}},
  "steps":[{"id":"accept","type":"click","target":{"locators":[{"kind":"role","value":"button","name":"Accept cookies"}]}}],
  "else":[{"id":"other","type":"if","condition":{"kind":"variable","name":"region","expected":"eu","match":"equals"},
    "steps":[{"id":"eu","type":"log","message":"EU"}],"else":[{"id":"row","type":"log","message":"rest"}]}]},
 {"id":"five","type":"repeat","times":5,"steps":[
   {"id":"add","type":"click","target":{"locators":[{"kind":"text","value":"Add"}]}},
   {"id":"more","type":"repeat","while":{"kind":"script","code":"${count} < 3"},"max":10,"steps":[{"id":"load","type":"click","target":{"locators":[{"kind":"text","value":"Load more"}]}}]}]},
 {"id":"each","type":"forEach","items":"${rows}","as":"row","steps":[{"id":"name","type":"fill","target":{"locators":[{"kind":"label","value":"Name"}]},"value":"${row.name}"}]},
 {"id":"list","type":"forEach","items":["a","b"],"steps":[{"id":"say","type":"log","message":"${item}"}]}
]}`

func TestFlowParsesAndRoundTrips(t *testing.T) {
	doc, _, issues := Parse([]byte(flowDoc))
	wantIssues(t, issues)
	if n := CountSteps(doc.Steps); n != 14 {
		t.Errorf("CountSteps = %d, want 14", n)
	}
	banner := doc.Steps[1]
	if banner.Condition.Kind != "visible" || banner.Steps[0].ID != "accept" || banner.Else[0].Else[0].ID != "row" {
		t.Errorf("if = %+v", banner)
	}
	more := doc.Steps[2].Steps[1]
	if *doc.Steps[2].Times != 5 || more.While.Code != "${count} < 3" || more.MaxOrDefault() != 10 || doc.Steps[2].MaxOrDefault() != DefaultMax {
		t.Errorf("repeat = %+v / %+v", doc.Steps[2], more)
	}
	if doc.Steps[3].Items.Ref != "${rows}" || doc.Steps[3].AsOrDefault() != "row" ||
		!reflect.DeepEqual(doc.Steps[4].Items.List, []string{"a", "b"}) || doc.Steps[4].AsOrDefault() != "item" {
		t.Errorf("forEach = %+v / %+v", doc.Steps[3].Items, doc.Steps[4].Items)
	}
	// The typed document's JSON parses back to the same document, through
	// Parse and through encoding/json.
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	again, _, issues := Parse(data)
	wantIssues(t, issues)
	if !reflect.DeepEqual(again, doc) {
		t.Errorf("round trip through Parse changed the document:\n%s", data)
	}
	var plain Document
	if err := json.Unmarshal(data, &plain); err != nil {
		t.Fatal(err)
	}
	plain.normalise()
	if !reflect.DeepEqual(plain, doc) {
		t.Errorf("round trip through encoding/json changed the document:\n%s", data)
	}
	if !strings.Contains(string(data), `"items":"${rows}"`) || !strings.Contains(string(data), `"items":["a","b"]`) {
		t.Errorf("items not written as DESIGN.md shows them: %s", data)
	}
}

func TestWalkStepsPathsInOrder(t *testing.T) {
	doc, _, _ := Parse([]byte(flowDoc))
	var got []string
	WalkSteps(doc.Steps, func(p string, depth int, s *Step) bool {
		got = append(got, p+"="+s.ID+"@"+itoa(depth))
		return s.ID != "five" // leave the repeat's steps out
	})
	want := "steps[0]=open@0 steps[1]=banner@0 steps[1].steps[0]=accept@1 steps[1].else[0]=other@1 " +
		"steps[1].else[0].steps[0]=eu@2 steps[1].else[0].else[0]=row@2 steps[2]=five@0 steps[3]=each@0 " +
		"steps[3].steps[0]=name@1 steps[4]=list@0 steps[4].steps[0]=say@1"
	if strings.Join(got, " ") != want {
		t.Errorf("walk =\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
}

func TestFlowIssuesNameTheirPath(t *testing.T) {
	el := `{"locators":[{"kind":"css","value":"a"}]}`
	tests := []struct {
		name, steps string
		want        []string
	}{
		{"inside a block", `{"id":"a","type":"if","condition":{"kind":"exists","target":` + el + `},"steps":[{"id":"b","type":"click"}],"else":[{"id":"c","type":"navigate","url":"file:///etc/passwd"}]}`,
			[]string{"steps[0].else[0].url url_scheme", "steps[0].steps[0].target required"}},
		{"two deep", `{"id":"a","type":"repeat","times":2,"steps":[{"id":"b","type":"forEach","items":["x"],"steps":[{"id":"c","type":"fill","target":` + el + `}]}]}`,
			[]string{"steps[0].steps[0].steps[0].value required"}},
		{"ids unique through the tree", `{"id":"a","type":"repeat","times":2,"steps":[{"id":"b","type":"log","message":"x"}]},{"id":"b","type":"log","message":"y"}`,
			[]string{"steps[1].id duplicate"}},
		{"if needs a condition", `{"id":"a","type":"if","steps":[]}`, []string{"steps[0].condition required"}},
		{"condition kind", `{"id":"a","type":"if","condition":{"kind":"visibel"}}`, []string{"steps[0].condition.kind enum"}},
		{"condition kind missing", `{"id":"a","type":"if","condition":{}}`, []string{"steps[0].condition.kind required"}},
		{"condition fields", `{"id":"a","type":"if","condition":{"kind":"visible","code":"1"}}`,
			[]string{"steps[0].condition.code unknown", "steps[0].condition.target required"}},
		{"text condition", `{"id":"a","type":"if","condition":{"kind":"text","target":` + el + `,"match":"regex","expected":"("}}`,
			[]string{"steps[0].condition.expected format"}},
		{"variable condition", `{"id":"a","type":"if","condition":{"kind":"variable","name":"secrets.PW"}}`, []string{"steps[0].condition.name format"}},
		{"script condition", `{"id":"a","type":"if","condition":{"kind":"script"}}`, []string{"steps[0].condition.code required"}},
		{"unknown condition member", `{"id":"a","type":"if","condition":{"kind":"script","code":"1","wait":3}}`, []string{"steps[0].condition.wait unknown"}},
		{"repeat needs times or while", `{"id":"a","type":"repeat","steps":[]}`, []string{"steps[0].times required"}},
		{"times above max", `{"id":"a","type":"repeat","times":20,"max":10}`, []string{"steps[0].times conflict"}},
		{"max range", `{"id":"a","type":"repeat","times":1,"max":0}`, []string{"steps[0].max range"}},
		{"while condition", `{"id":"a","type":"repeat","while":{"kind":"hidden"}}`, []string{"steps[0].while.target required"}},
		{"items reference", `{"id":"a","type":"forEach","items":"rows"}`, []string{"steps[0].items format"}},
		{"items secret", `{"id":"a","type":"forEach","items":"${secrets.PW}"}`, []string{"steps[0].items format"}},
		{"items type", `{"id":"a","type":"forEach","items":3}`, []string{"steps[0].items type"}},
		{"items list", `{"id":"a","type":"forEach","items":["${",2]}`, []string{"steps[0].items[0] format", "steps[0].items[1] type"}},
		{"as", `{"id":"a","type":"forEach","items":["x"],"as":"1a"}`, []string{"steps[0].as format"}},
		{"steps on a click", `{"id":"a","type":"click","target":` + el + `,"steps":[]}`, []string{"steps[0].steps unknown"}},
		{"else on a repeat", `{"id":"a","type":"repeat","times":1,"else":[]}`, []string{"steps[0].else unknown"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, issues := Parse([]byte(`{"dsl":2,"name":"x","steps":[` + tc.steps + `]}`))
			wantIssues(t, issues, tc.want...)
		})
	}
}

// A hostile document nesting blocks thousands deep is refused at
// MaxDepth without reading further, and steps inside blocks count
// towards MaxSteps.
func TestFlowLimits(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		b.WriteString(`{"id":"x` + itoa(i) + `","type":"repeat","times":1,"steps":[`)
	}
	deep := b.String() + strings.Repeat(`]}`, 1000)
	_, _, issues := Parse([]byte(`{"dsl":2,"name":"x","steps":[` + deep + `]}`))
	path := "steps[0]" + strings.Repeat(".steps[0]", MaxDepth) + ".steps"
	found := false
	for _, is := range issues {
		if is.Path == path && is.Code == CodeRange {
			found = true
		}
	}
	if !found {
		t.Errorf("no range issue at %s: %v", path, issues[:min(len(issues), 5)])
	}

	var inner []Step
	for i := range MaxSteps {
		inner = append(inner, Step{ID: "w" + itoa(i), Type: "wait", Ms: Ptr(1)})
	}
	doc := validDoc()
	doc.Steps = []Step{{ID: "r", Type: TypeRepeat, Times: Ptr(1), Steps: inner}}
	wantIssues(t, doc.Validate(), "steps too_long")

	// A document built in Go is held to the same depth.
	var s Step
	for i := range MaxDepth + 2 {
		s = Step{ID: "d" + itoa(i), Type: TypeRepeat, Times: Ptr(1), Steps: []Step{s}}
	}
	s.Steps[0].Steps[0].Steps[0].Steps[0].Steps[0].Steps[0].Steps[0].Steps[0].Steps[0].Steps = nil
	doc.Steps = []Step{s}
	got := doc.Validate()
	if len(got) == 0 || got[0].Code != CodeRange {
		t.Errorf("issues = %v", got)
	}
}

// Missing ids are given through the whole tree, unique.
func TestFlowNormaliseGivesIDs(t *testing.T) {
	doc, _, issues := Parse([]byte(`{"dsl":2,"name":"x","steps":[{"type":"repeat","times":2,"steps":[{"type":"log","message":"a"},{"id":"s4","type":"log","message":"b"}]},{"type":"log","message":"c"}]}`))
	wantIssues(t, issues)
	var ids []string
	WalkSteps(doc.Steps, func(_ string, _ int, s *Step) bool { ids = append(ids, s.ID); return true })
	if strings.Join(ids, ",") != "s1,s2,s4,s5" {
		t.Errorf("ids = %v", ids)
	}
}
