package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

// flowLines is a compact view of a tree: one line per step, indented by
// depth, "else:" before an if's else steps.
func flowLines(steps []Step, depth int) []string {
	var out []string
	pad := strings.Repeat("  ", depth)
	for _, s := range steps {
		line := s.Type
		switch {
		case s.Condition != nil:
			line += " " + s.Condition.Kind + " " + s.Condition.Code
		case s.While != nil:
			line += " while " + s.While.Code
		case s.Times != nil:
			line += " times " + itoa(*s.Times)
		case s.Items != nil:
			b, _ := json.Marshal(s.Items)
			line += " " + string(b) + " as " + s.As
		case s.Target != nil:
			line += " " + s.Target.Locators[0].Value
		case s.Type == "script":
			line += " " + strings.SplitN(s.Code, "\n", 2)[0] + " -> " + s.Assign
		case s.Type == "callComponent":
			line += " " + s.Component
		}
		if s.Max != nil {
			line += " max " + itoa(*s.Max)
		}
		out = append(out, pad+line)
		out = append(out, flowLines(s.Steps, depth+1)...)
		if len(s.Else) > 0 {
			out = append(out, pad+"else:")
			out = append(out, flowLines(s.Else, depth+1)...)
		}
	}
	return out
}

func wantTree(t *testing.T, steps []Step, want ...string) {
	t.Helper()
	got := strings.Join(flowLines(steps, 0), "\n")
	if got != strings.Join(want, "\n") {
		t.Errorf("tree:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

// Selenium IDE's if/elseIf/else/end become an if whose else holds the
// else-if's if; its JavaScript conditions become script conditions, with
// ${x} kept as a reference (the agent passes the variable's value).
func TestImportSideIfElse(t *testing.T) {
	d := sideProject(t,
		cmd("executeScript", `return "b"`, "myVar"),
		cmd("if", `${myVar} === "a"`, ""), cmd("executeScript", `return "a"`, "output"),
		cmd("elseIf", `${myVar} === "b"`, ""), cmd("executeScript", `return "b"`, "output"),
		cmd("else", "", ""), cmd("executeScript", `return "c"`, "output"),
		cmd("end", "", ""),
		cmd("assert", "output", "b"),
	)
	wantTree(t, d.Steps,
		`script return "b" -> myVar`,
		`if script ${myVar} === "a"`,
		`  script return "a" -> output`,
		`else:`,
		`  if script ${myVar} === "b"`,
		`    script return "b" -> output`,
		`  else:`,
		`    script return "c" -> output`,
		`assertVariable`,
	)
	var ids []string
	WalkSteps(d.Steps, func(_ string, _ int, s *Step) bool { ids = append(ids, s.ID); return true })
	if strings.Join(ids, ",") != "s1,s2,s3,s4,s5,s6,s7" {
		t.Errorf("ids %v", ids)
	}
}

// times with a number is a repeat (value, the loop limit, is its max);
// with a ${variable} a script makes the list 1..n and a forEach goes
// through it; while is a repeat while; forEach goes through the list
// variable its target names; blocks nest.
func TestImportSideLoops(t *testing.T) {
	d := sideProject(t,
		cmd("store", "1", "ONE"),
		cmd("times", "${ONE}", "3"), cmd("click", "id=a", ""), cmd("end", "", ""),
		cmd("times", "2.7", ""),
		cmd("while", "${n} < 3", "50"), cmd("executeScript", "return ${n} + 1", "n"),
		cmd("forEach", "${rows}", "row"), cmd("echo", "${row}", ""), cmd("end", "", ""),
		cmd("end", "", ""),
		cmd("end", "", ""),
		cmd("forEach", "names", "name"), cmd("end", "", ""),
	)
	wantTree(t, d.Steps,
		`setVariable`,
		`script const t = '' + String(${ONE}); -> times2list`,
		`forEach "${times2list}" as times2 max 3`,
		`  click #a`,
		`repeat times 2`,
		`  repeat while ${n} < 3 max 50`,
		`    script return ${n} + 1 -> n`,
		`    forEach "${rows}" as row`,
		`      log`,
		`forEach "${names}" as name`,
	)
}

// do ... repeatIf runs its steps once, then again while the condition
// holds: the steps come once, then in a repeat while, a copy with ids of
// its own.
func TestImportSideDoRepeatIf(t *testing.T) {
	d := sideProject(t,
		cmd("do", "", ""), cmd("click", "id=more", ""), cmd("storeElementCount", "css=li", "n"),
		cmd("repeatIf", "${n} < 5", "20"),
		cmd("echo", "done", ""),
	)
	wantTree(t, d.Steps,
		`click #more`,
		`setVariable li`,
		`repeat while ${n} < 5 max 20`,
		`  click #more`,
		`  setVariable li`,
		`log`,
	)
	seen := map[string]bool{}
	WalkSteps(d.Steps, func(_ string, _ int, s *Step) bool {
		if seen[s.ID] {
			t.Errorf("id %s twice", s.ID)
		}
		seen[s.ID] = true
		return true
	})
}

// Blocks that do not pair are issues at the command that shows it, as
// Selenium IDE refuses to play such a test; nothing panics.
func TestImportSideUnpairedBlocks(t *testing.T) {
	for _, tc := range []struct {
		cmds []any
		want string
	}{
		{[]any{cmd("click", "id=a", ""), cmd("end", "", "")}, "tests[0].commands[1].command: end without an if, times, while or forEach"},
		{[]any{cmd("if", "true", ""), cmd("click", "id=a", "")}, "tests[0].commands[0].command: if has no end"},
		{[]any{cmd("else", "", "")}, "tests[0].commands[0].command: else without an if"},
		{[]any{cmd("times", "2", ""), cmd("else", "", ""), cmd("end", "", "")}, "tests[0].commands[1].command: else where the loop of command 1 needs end"},
		{[]any{cmd("if", "1", ""), cmd("else", "", ""), cmd("elseIf", "2", ""), cmd("end", "", "")}, "tests[0].commands[2].command: elseIf after else"},
		{[]any{cmd("repeatIf", "true", "")}, "tests[0].commands[0].command: repeatIf without a do"},
		{[]any{cmd("do", "", ""), cmd("end", "", "")}, "tests[0].commands[1].command: end inside a do"},
		{[]any{cmd("do", "", "")}, "tests[0].commands[0].command: do has no repeatIf"},
		{[]any{cmd("while", "true", ""), cmd("if", "1", ""), cmd("end", "", "")}, "tests[0].commands[0].command: the loop has no end"},
		{[]any{cmd("if", "1", ""), cmd("repeatIf", "1", ""), cmd("end", "", "")}, "tests[0].commands[1].command: repeatIf inside an if"},
	} {
		data, _ := json.Marshal(map[string]any{"tests": []any{map[string]any{"name": "T", "commands": tc.cmds}}})
		_, _, issues := ImportSide(data)
		if len(issues) != 1 || !strings.HasPrefix(issues[0].Path+": "+issues[0].Message, tc.want) {
			t.Errorf("%v: issues %+v, want %s", tc.cmds, issues, tc.want)
		}
	}
	// Deeper than blocks may nest.
	var deep []any
	for range MaxDepth + 1 {
		deep = append(deep, cmd("if", "true", ""))
	}
	for range MaxDepth + 1 {
		deep = append(deep, cmd("end", "", ""))
	}
	data, _ := json.Marshal(map[string]any{"tests": []any{map[string]any{"name": "T", "commands": deep}}})
	if _, _, issues := ImportSide(data); len(issues) != 1 || !strings.Contains(issues[0].Message, "nest more than 8 deep") {
		t.Errorf("deep: %+v", issues)
	}
}

// A block command that cannot be converted leaves its block out whole:
// it and each command inside are listed; the rest of the test comes.
func TestImportSideBlockLeftOut(t *testing.T) {
	data, _ := json.Marshal(map[string]any{"tests": []any{map[string]any{"name": "T", "commands": []any{
		cmd("click", "id=a", ""),
		cmd("times", "lots", ""), cmd("click", "id=b", ""), cmd("if", "1", ""), cmd("click", "id=c", ""), cmd("end", "", ""), cmd("end", "", ""),
		cmd("if", "", ""), cmd("click", "id=d", ""), cmd("end", "", ""),
		cmd("forEach", "rows", ""), cmd("end", "", ""),
		cmd("times", "5", "3"), cmd("end", "", ""),
		cmd("while", "true", "0"), cmd("end", "", ""),
		cmd("if", "1", ""), cmd("store", "x", "not a name"), cmd("click", "id=e", ""), cmd("end", "", ""),
		cmd("do", "", ""), cmd("click", "id=f", ""), cmd("repeatIf", "", ""),
	}}}})
	docs, skipped, issues := ImportSide(data)
	wantIssues(t, issues)
	wantSkipped(t, skipped,
		"T#1 times: a number or a ${variable}", "T#2 click: inside the repeat of command 2", "T#3 if: inside the repeat",
		"T#4 click: inside the repeat", "T#7 if: needs a condition", "T#8 click: inside the if of command 8",
		"T#10 forEach: variable for each item", "T#12 times: times 5 is above the loop limit 3",
		"T#14 while: loop limit in value must be a number from 1", "T#17 store: name",
		"T#21 click: inside the do of command 21", "T#22 repeatIf: needs a condition")
	wantTree(t, docs[0].Steps,
		`click #a`,
		`if script 1`,
		`  click #e`,
	)
}

// Comments on end, else and do go to the next step; the words of a
// trailing end to the last step.
func TestImportSideFlowComments(t *testing.T) {
	end := cmd("end", "", "")
	end["comment"] = "after the loop"
	last := cmd("end", "", "")
	last["comment"] = "the end"
	d := sideProject(t, cmd("times", "2", ""), cmd("click", "id=a", ""), end, cmd("click", "id=b", ""),
		cmd("if", "1", ""), cmd("click", "id=c", ""), last)
	if got := d.Steps[1].Description; got != "after the loop" {
		t.Errorf("description %q", got)
	}
	if got := d.Steps[2].Steps[0].Description; got != "the end" {
		t.Errorf("description %q", got)
	}
}

// A dialog answered after a command inside a block is armed inside the
// block, just before that command.
func TestImportSideDialogInBlock(t *testing.T) {
	d := sideProject(t, cmd("if", "1", ""), cmd("click", "id=b", ""), cmd("end", "", ""), cmd("acceptAlert", "", ""))
	wantTree(t, d.Steps, `if script 1`, `  dialog`, `  click #b`)
}

// run <test> calls the component the called test becomes: one per
// called test, named after it, with its steps (calls of its own too); a
// run that would go round in a circle, or names no test, is left out.
func TestImportSideRun(t *testing.T) {
	data, _ := json.Marshal(map[string]any{"url": "http://app.test", "tests": []any{
		map[string]any{"name": "Main", "commands": []any{cmd("run", "Login", ""), cmd("if", "1", ""), cmd("run", "Login", ""), cmd("end", "", ""), cmd("run", "Nope", "")}},
		map[string]any{"name": "Login", "commands": []any{cmd("open", "/login", ""), cmd("run", "Fill", "")}},
		map[string]any{"name": "Fill", "commands": []any{cmd("type", "id=u", "ann"), cmd("run", "Fill", "")}},
		map[string]any{"name": "Empty", "commands": []any{}},
		map[string]any{"name": "Calls empty", "commands": []any{cmd("run", "Empty", ""), cmd("click", "id=x", "")}},
		map[string]any{"name": "Ping", "commands": []any{cmd("run", "Pong", "")}},
		map[string]any{"name": "Pong", "commands": []any{cmd("run", "Ping", ""), cmd("click", "id=p", "")}},
	}})
	imp := ImportSideProject(data)
	wantIssues(t, imp.Issues)
	wantSkipped(t, imp.Skipped, `Main#4 run: no test named "Nope"`, `Fill#1 run: runs this test again`,
		`Calls empty#0 run: test "Empty" has no commands`, `Ping#0 run: runs this test again`, `Pong#0 run: runs this test again`)
	wantTree(t, imp.Docs[0].Steps, `callComponent cmp_side1`, `if script 1`, `  callComponent cmp_side1`)
	if len(imp.Components) != 2 || imp.Components[0].Name != "Login" || imp.Components[1].Name != "Fill" {
		t.Fatalf("components %+v", imp.Components)
	}
	wantTree(t, imp.Components[0].Steps, `navigate`, `callComponent cmp_side2`)
	imp.RenameComponents(map[string]string{"cmp_side1": "cmp_login", "cmp_side2": "cmp_fill"})
	wantTree(t, imp.Docs[0].Steps, `callComponent cmp_login`, `if script 1`, `  callComponent cmp_login`)
	wantTree(t, imp.Docs[1].Steps, `navigate`, `callComponent cmp_fill`)
	if imp.Components[0].ID != "cmp_login" || imp.Components[0].Steps[1].Component != "cmp_fill" {
		t.Errorf("renamed %+v", imp.Components)
	}
	for _, d := range imp.Docs {
		wantIssues(t, d.Validate())
	}
	// A DSL version 1 document has no other tests to run.
	_, _, issues := Parse([]byte(`{"version":1,"name":"x","steps":[{"command":"run","target":"Login"}]}`))
	if len(issues) != 1 || !strings.Contains(issues[0].Message, ".side file") {
		t.Errorf("v1 run: %+v", issues)
	}
}

// DSL version 1 documents get the same blocks; what does not pair is an
// issue at its step.
func TestMigrateV1ControlFlow(t *testing.T) {
	doc, _, issues := Parse([]byte(`{"version":1,"name":"x","steps":[
		{"id":"loop","command":"times","target":"2"},{"id":"c","command":"click","target":"id=a"},{"command":"end"}]}`))
	wantIssues(t, issues)
	if len(doc.Steps) != 1 || doc.Steps[0].ID != "loop" || doc.Steps[0].Type != TypeRepeat || len(doc.Steps[0].Steps) != 1 || doc.Steps[0].Steps[0].ID != "c" {
		t.Errorf("steps %+v", doc.Steps)
	}
	_, _, issues = Parse([]byte(`{"version":1,"name":"x","steps":[{"command":"end"},{"command":"if","target":""}]}`))
	if len(issues) != 2 || !strings.Contains(issues[0].Path+issues[1].Path, "steps[0].command") || !strings.Contains(issues[0].Message+issues[1].Message, "if needs a condition") {
		t.Errorf("issues %+v", issues)
	}
}
