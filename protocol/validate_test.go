package protocol

import (
	"os"
	"strings"
	"testing"
)

func TestValidateValid(t *testing.T) {
	wantIssues(t, validDoc().Validate())
	if validDoc().Validate() != nil {
		t.Error("a valid document gives a nil slice")
	}
}

func TestDesignExample(t *testing.T) {
	data, err := os.ReadFile("testdata/design.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, from, issues := Parse(data)
	wantIssues(t, issues)
	if from != 2 || len(doc.Steps) != 4 || doc.Steps[1].Target.Fingerprint["tag"] != "input" {
		t.Errorf("from %d, doc %+v", from, doc)
	}
}

func TestValidateIssues(t *testing.T) {
	tests := []struct {
		name   string
		change func(d *Document)
		want   []string
	}{
		{"dsl missing", func(d *Document) { d.DSL = 0 }, []string{"dsl required"}},
		{"dsl other", func(d *Document) { d.DSL = 3 }, []string{"dsl unsupported"}},
		{"name blank", func(d *Document) { d.Name = "  " }, []string{"name required"}},
		{"name long", func(d *Document) { d.Name = strings.Repeat("é", 201) }, []string{"name too_long"}},
		{"name control", func(d *Document) { d.Name = "a\nb" }, []string{"name format"}},
		{"suite slash", func(d *Document) { d.Suite = "a/b" }, []string{"suite format"}},
		{"suite long", func(d *Document) { d.Suite = strings.Repeat("s", 101) }, []string{"suite too_long"}},
		{"tags", func(d *Document) { d.Tags = []string{"a", "", "a", strings.Repeat("t", 51)} },
			[]string{"tags[1] required", "tags[2] duplicate", "tags[3] too_long"}},
		{"too many tags", func(d *Document) { d.Tags = make([]string, 51); fill(d.Tags) }, []string{"tags too_long"}},
		{"variable names", func(d *Document) { d.Variables = map[string]string{"1x": "", "a b": "", "secrets": "", "ok": "${"} },
			[]string{`variables.ok format`, `variables.secrets format`, `variables["1x"] format`, `variables["a b"] format`}},
		{"too many steps", func(d *Document) {
			d.Steps = make([]Step, MaxSteps+1)
			for i := range d.Steps {
				d.Steps[i] = Step{ID: "x" + itoa(i), Type: "wait", Ms: Ptr(1)}
			}
		}, []string{"steps too_long"}},
		{"step id", func(d *Document) {
			d.Steps[0].ID = ""
			d.Steps[4].ID = "s2"
			d.Steps[2].ID = "a b"
			d.Steps[3].ID = strings.Repeat("i", 65)
		},
			[]string{"steps[0].id required", "steps[2].id format", "steps[3].id too_long", "steps[4].id duplicate"}},
		{"type", func(d *Document) { d.Steps[0].Type = ""; d.Steps[1].Type = "clik" },
			[]string{"steps[0].type required", "steps[1].type unknown"}},
		{"required params", func(d *Document) {
			d.Steps[0].URL = ""
			d.Steps[1].Target = nil
			d.Steps[4].Value = nil
			d.Steps[5].Key = ""
			d.Steps[11].Expected = nil
			d.Steps[15].Ms = nil
			d.Steps[18].Name = ""
			d.Steps[19].Code = ""
			d.Steps[20].Component = ""
		}, []string{"steps[0].url required", "steps[1].target required", "steps[4].value required", "steps[5].key required",
			"steps[11].expected required", "steps[15].ms required", "steps[18].name required", "steps[19].code required",
			"steps[20].component required"}},
		{"params of another type", func(d *Document) { d.Steps[1].URL = "x"; d.Steps[0].Target = el("#a"); d.Steps[2].FullPage = true },
			[]string{"steps[0].target unknown", "steps[1].url unknown", "steps[2].fullPage unknown"}},
		{"enums", func(d *Document) { d.Steps[11].Match = "like"; d.Steps[16].State = "gone" },
			[]string{"steps[11].match enum", "steps[16].state enum"}},
		{"ranges", func(d *Document) {
			d.Steps[15].Ms = Ptr(600001)
			d.Steps[1].TimeoutMs = -1
			d.Steps[2].TimeoutMs = MaxTimeoutMs + 1
			d.Steps[20].Version = -2
		}, []string{"steps[1].timeoutMs range", "steps[2].timeoutMs range", "steps[15].ms range", "steps[20].version range"}},
		{"locators", func(d *Document) {
			d.Steps[1].Target = &Target{}
			d.Steps[2].Target = &Target{Locators: []Locator{{Kind: "bogus", Value: "x"}, {Kind: "", Value: " "}, {Kind: "role", Value: "two words"}}}
			d.Steps[3].Target = &Target{Locators: []Locator{{Kind: "css", Value: "#a", Name: "n", Exact: true}}, Frame: []Locator{{Kind: "css"}}}
			d.Steps[4].Target = &Target{Locators: []Locator{{Kind: "text", Value: "${x"}}, Fingerprint: map[string]string{"": "x"}}
		}, []string{"steps[1].target.locators required",
			"steps[2].target.locators[0].kind unknown", "steps[2].target.locators[1].kind required",
			"steps[2].target.locators[1].value required", "steps[2].target.locators[2].value format",
			"steps[3].target.frame[0].value required", "steps[3].target.locators[0].exact unsupported",
			"steps[3].target.locators[0].name unsupported",
			"steps[4].target.fingerprint format", "steps[4].target.locators[0].value format"}},
		{"regex", func(d *Document) { d.Steps[14].Expected = Ptr("(") }, []string{"steps[14].expected format"}},
		{"regex with reference", func(d *Document) { d.Steps[14].Expected = Ptr("^${user}+$") }, nil},
		{"references", func(d *Document) {
			d.Steps[0].URL = "${baseUrl/login"
			d.Steps[4].Value = Ptr("${}")
			d.Steps[12].Expected = Ptr("${a..b}")
			d.Steps[13].Expected = Ptr("${secrets.PW} ${secrets.}")
			d.Steps[20].Inputs = map[string]string{"x": "${ x }"}
		}, []string{"steps[0].url format", "steps[4].value format", "steps[12].expected format",
			"steps[13].expected format", "steps[20].inputs.x format"}},
		{"secret reference is fine", func(d *Document) { d.Steps[4].Value = Ptr("${secrets.PASSWORD}") }, nil},
		{"script code may use ${ freely", func(d *Document) { d.Steps[19].Code = "return `${a + b}`" }, nil},
		{"variable names in steps", func(d *Document) { d.Steps[18].Name = "1x"; d.Steps[19].Assign = "a-b" },
			[]string{"steps[18].name format", "steps[19].assign format"}},
		{"setVariable value and target", func(d *Document) { d.Steps[18].Value = Ptr("v") }, []string{"steps[18] conflict"}},
		{"setVariable neither", func(d *Document) { d.Steps[18].Target = nil }, []string{"steps[18].value required"}},
		{"screenshot", func(d *Document) { d.Steps[17].Name = "a/b"; d.Steps[17].Target = el("#x") },
			[]string{"steps[17].fullPage conflict", "steps[17].name format"}},
		{"component id", func(d *Document) { d.Steps[20].Component = "tc_1" }, []string{"steps[20].component format"}},
		{"inputs names", func(d *Document) { d.Steps[20].Inputs = map[string]string{"a b": "x"} }, []string{`steps[20].inputs["a b"] format`}},
		{"blank key", func(d *Document) { d.Steps[5].Key = " " }, []string{"steps[5].key required"}},
		{"long description", func(d *Document) { d.Steps[0].Description = strings.Repeat("d", 1001) }, []string{"steps[0].description too_long"}},
		// PostgreSQL refuses NUL in text and jsonb: every string says where.
		{"NUL characters", func(d *Document) {
			d.Description = "a\x00b"
			d.Variables["user"] = "al\x00ice"
			d.Tags = []string{"t\x00"}
			d.Steps[0].URL = "${baseUrl}/\x00"
			d.Steps[0].Description = "\x00"
			d.Steps[1].Target.Locators[0].Value = "#go\x00"
			d.Steps[1].Target.Fingerprint = map[string]string{"tag": "a\x00", "i\x00d": "x"}
			d.Steps[4].Value = Ptr("\x00")
			d.Steps[5].Key = "Enter\x00"
			d.Steps[11].Expected = Ptr("Welcome\x00")
			d.Steps[19].Code = "return 1;\x00"
			d.Steps[20].Inputs["user"] = "\x00"
		}, []string{"description format", "steps[0].description format", "steps[0].url format",
			"steps[1].target.fingerprint.tag format", `steps[1].target.fingerprint["i\u0000d"] format`,
			"steps[1].target.locators[0].value format", "steps[4].value format", "steps[5].key format",
			"steps[11].expected format", "steps[19].code format", "steps[20].inputs.user format", "tags[0] format", "variables.user format"}},
		{"control characters in free text", func(d *Document) {
			d.Description = "bell\a"
			d.Steps[0].Description = "escape\x1b[0m"
			d.Steps[19].Code = "return 1;\x7f"
		}, []string{"description format", "steps[0].description format", "steps[19].code format"}},
		{"line breaks and tabs in free text", func(d *Document) {
			d.Description = "one\r\ntwo\tthree"
			d.Steps[0].Description = "a\nb"
			d.Steps[19].Code = "if (a) {\r\n\treturn 1;\n}"
			d.Steps[4].Value = Ptr("line\nbreak\x01")
		}, nil},
		{"invisible characters in names", func(d *Document) {
			d.Name = "Sign in\u202e"
			d.Suite = "A\u0085"
			d.Tags = []string{"zero\u200bwidth"}
		}, []string{"name format", "suite format", "tags[0] format"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := validDoc()
			tc.change(&d)
			wantIssues(t, d.Validate(), tc.want...)
		})
	}
}

func fill(tags []string) {
	for i := range tags {
		tags[i] = "t" + itoa(i)
	}
}

// All problems come back at once, ordered by path.
func TestValidateEverything(t *testing.T) {
	d := Document{DSL: 2, Suite: "x/y", Steps: []Step{
		{ID: "a", Type: "navigate"},
		{ID: "a", Type: "fill", Target: &Target{Locators: []Locator{{Kind: "label"}}}},
		{ID: "c", Type: "nope"},
	}}
	wantIssues(t, d.Validate(), "name required", "steps[0].url required", "steps[1].id duplicate",
		"steps[1].target.locators[0].value required", "steps[1].value required", "steps[2].type unknown", "suite format")
}

func TestUnknownTypeSuggestion(t *testing.T) {
	d := validDoc()
	d.Steps[0].Type = "clik"
	d.Steps[1].Type = "AssertText"
	d.Steps[2].Type = "frobnicate"
	is := d.Validate()
	if len(is) != 3 || is[0].Message != `unknown step type "clik" (did you mean "click"?)` ||
		is[1].Message != `unknown step type "AssertText" (did you mean "assertText"?)` ||
		is[2].Message != `unknown step type "frobnicate"` {
		t.Errorf("messages: %s", messages(is))
	}
}

func TestMessages(t *testing.T) {
	d := validDoc()
	d.Steps[0].URL = ""
	if is := d.Validate(); len(is) != 1 || is[0].Message != "url is required for a navigate step" {
		t.Errorf("got %v", is)
	}
}

// An absurd document gets a bounded list: the first issues and a count.
func TestIssueCap(t *testing.T) {
	d := Document{DSL: 2, Name: "many"}
	for i := 0; i < 2*MaxSteps; i++ {
		d.Steps = append(d.Steps, Step{ID: "s" + itoa(i), Type: "nope"})
	}
	is := d.Validate()
	if len(is) != maxIssues+1 || is[maxIssues].Message != "1501 more issues are not shown" || is[0].Path != "steps" {
		t.Errorf("%d issues, last %+v, first %+v", len(is), is[len(is)-1], is[0])
	}
}
