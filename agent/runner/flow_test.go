package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

// Blocks through a real Chromium (docs/flow.md): every kind, nested two
// deep, with iterations on events and results and the result tree.

func ifStep(id string, c protocol.Condition, then []protocol.Step, els ...protocol.Step) protocol.Step {
	return protocol.Step{ID: id, Type: protocol.TypeIf, Condition: &c, Steps: then, Else: els}
}

func withID(id string, st protocol.Step) protocol.Step { st.ID = id; return st }

func visibleCond(t *protocol.Target) protocol.Condition {
	return protocol.Condition{Kind: "visible", Target: t}
}

// TestBlocksRun: the banner is dismissed only when it shows; Add runs five
// times; Load more runs while fewer than 9 rows are listed; every item of
// a JSON list variable is typed and saved; a literal list too.
func TestBlocksRun(t *testing.T) {
	steps := []protocol.Step{
		withID("open", nav("/flow.html?banner=1")),
		ifStep("banner", visibleCond(css("#accept")), []protocol.Step{withID("accept", click(css("#accept")))},
			withID("nobanner", protocol.Step{Type: "log", Message: "no banner"})),
		ifStep("again", visibleCond(css("#accept")), []protocol.Step{withID("accept2", click(css("#accept")))}),
		{ID: "five", Type: protocol.TypeRepeat, Times: protocol.Ptr(5), Steps: []protocol.Step{
			withID("add", click(css("#add"))),
			{ID: "count", Type: "setVariable", Name: "rows", From: "count", Target: css("#rows li")},
		}},
		textIs(css("#count"), "equals", "5"),
		{ID: "more", Type: protocol.TypeRepeat, While: &protocol.Condition{Kind: "script", Code: "${rows} < 9"}, Steps: []protocol.Step{
			withID("load", click(css("#more"))),
			{ID: "recount", Type: "setVariable", Name: "rows", From: "count", Target: css("#rows li")},
		}},
		textIs(css("#count"), "equals", "9"),
		{ID: "each", Type: protocol.TypeForEach, Items: &protocol.Items{Ref: "${people}"}, As: "p", Steps: []protocol.Step{
			withID("name", fillStep(css("#name"), "${p.name}")),
			withID("save", click(css("#save"))),
			{ID: "nested", Type: protocol.TypeForEach, Items: &protocol.Items{List: []string{"x", "y"}}, Steps: []protocol.Step{
				ifStep("only-y", protocol.Condition{Kind: "variable", Name: "item", Expected: protocol.Ptr("y"), Match: "equals"},
					[]protocol.Step{withID("say", protocol.Step{Type: "log", Message: "${p.name} ${item}"})}),
			}},
		}},
		textIs(css("#saved"), "equals", "Ann Bo"),
	}
	for i := range steps {
		if steps[i].ID == "" {
			steps[i].ID = fmt.Sprintf("s%d", i+1)
		}
	}
	doc := protocol.Document{DSL: protocol.DSLVersion, Name: t.Name(), Steps: steps,
		Variables: map[string]string{"people": `[{"name":"Ann"},{"name":"Bo"}]`}}
	if issues := doc.Validate(); len(issues) > 0 {
		t.Fatal(issues)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, rec := runJob(t, ctx, protocol.Job{Version: 1, Document: doc, Screenshots: true})
	mustPass(t, res)

	banner, again := res.Steps[1], res.Steps[2]
	if banner.Branch != "then" || len(banner.Steps) != 1 || banner.Steps[0].ID != "accept" || again.Branch != "none" || len(again.Steps) != 0 {
		t.Errorf("ifs: %+v / %+v", banner, again)
	}
	five := res.Steps[3]
	if len(five.Iterations) != 5 || five.Iterations[4].Iteration != 4 || five.Iterations[4].Steps[0].ID != "add" ||
		!slices.Equal(five.Iterations[4].Steps[0].Iteration, []int{4}) || five.Iterations[4].Status != protocol.StepPassed {
		t.Errorf("repeat: %+v", five)
	}
	if more := res.Steps[5]; len(more.Iterations) != 2 {
		t.Errorf("while ran %d times, want 2 (5 rows, +2, +2)", len(more.Iterations))
	}
	each := res.Steps[7]
	if len(each.Iterations) != 2 {
		t.Fatalf("forEach: %+v", each)
	}
	nested := each.Iterations[1].Steps[2]
	say := nested.Iterations[1].Steps[0].Steps
	if nested.ID != "nested" || len(nested.Iterations) != 2 || nested.Iterations[0].Steps[0].Branch != "none" ||
		len(say) != 1 || !slices.Equal(say[0].Iteration, []int{1, 1}) {
		t.Errorf("nested: %+v", nested)
	}
	// Indexes follow the tree in order; the counts are of steps, however
	// many times they ran: accept2 and nobanner never did.
	all := protocol.AllResults(res.Steps)
	idx := map[string]int{}
	for _, r := range all {
		idx[r.ID] = r.Index
	}
	if idx["open"] != 0 || idx["banner"] != 1 || idx["accept"] != 2 || idx["again"] != 4 ||
		idx["five"] != 6 || idx["add"] != 7 || idx["say"] != 19 {
		t.Errorf("indexes: %v", idx)
	}
	if _, ran := idx["nobanner"]; ran {
		t.Error("the else branch not taken was reported")
	}
	if total := protocol.CountSteps(steps); res.Total != total-2 || res.Passed != res.Total {
		t.Errorf("passed %d of %d (tree has %d)", res.Passed, res.Total, total)
	}
	// Events: each execution once, with its iteration; screenshots per
	// execution.
	var says []string
	shots := map[string]bool{}
	for _, e := range rec.events {
		if e.Kind == protocol.StepFinished && e.StepID == "say" {
			says = append(says, fmt.Sprint(e.Iteration))
		}
		if e.Kind == protocol.StepFinished && e.Screenshot != "" {
			shots[e.Screenshot] = true
		}
	}
	if strings.Join(says, " ") != "[0 1] [1 1]" {
		t.Errorf("say finished in iterations %v", says)
	}
	if !shots["step-008-add-i0.jpg"] || !shots["step-008-add-i4.jpg"] || !shots["step-020-say-i1.1.jpg"] {
		t.Errorf("screenshots: %v", shots)
	}
	if all[7].Screenshot == "" {
		t.Errorf("a step inside a loop has no screenshot in the result: %+v", all[7])
	}
}

// TestBlockFailures: a loop at max fails with a clear error; a failure in
// an iteration names it, the block fails, and what follows is skipped; a
// soft failure in a block lets the run go on, ending failed.
func TestBlockFailures(t *testing.T) {
	t.Run("max", func(t *testing.T) {
		res, _ := runSteps(t, nav("/flow.html"),
			protocol.Step{ID: "forever", Type: protocol.TypeRepeat, Max: protocol.Ptr(3),
				While: &protocol.Condition{Kind: "exists", Target: css("#add")}, Steps: []protocol.Step{withID("add", click(css("#add")))}},
			withID("after", click(css("#add"))))
		if res.Status != protocol.RunFailed || !strings.Contains(res.Error, "step 2 (forever, repeat) failed: stopped: its condition still held after max 3 iterations") {
			t.Errorf("%s: %s", res.Status, res.Error)
		}
		if len(res.Steps[1].Iterations) != 3 || res.Steps[2].Status != protocol.StepSkipped {
			t.Errorf("steps: %+v", res.Steps)
		}
	})
	t.Run("failing iteration", func(t *testing.T) {
		res, _ := runSteps(t, nav("/flow.html"),
			protocol.Step{ID: "loop", Type: protocol.TypeForEach, Items: &protocol.Items{List: []string{"1", "2", "3"}}, Steps: []protocol.Step{
				withID("add", click(css("#add"))),
				withID("check", short(textIs(css("#count"), "equals", "${item}"), 300)),
				withID("bad", short(textIs(css("#count"), "equals", "1"), 300)),
			}},
			withID("after", click(css("#add"))))
		if res.Status != protocol.RunFailed || !strings.HasPrefix(res.Error, "step 2.3 (bad, assertText) failed in iteration 2: ") {
			t.Errorf("%s: %s", res.Status, res.Error)
		}
		loop := res.Steps[1]
		if loop.Status != protocol.StepFailed || len(loop.Iterations) != 2 || loop.Iterations[0].Status != protocol.StepPassed ||
			loop.Iterations[1].Status != protocol.StepFailed || res.Steps[2].Status != protocol.StepSkipped {
			t.Errorf("loop: %+v", loop)
		}
		if res.Passed != 3 || res.Total != 6 { // open, add and check passed every time; bad and loop did not, after was skipped
			t.Errorf("passed %d of %d", res.Passed, res.Total)
		}
	})
	t.Run("soft", func(t *testing.T) {
		soft := short(textIs(css("#count"), "equals", "9"), 200)
		soft.Soft = true
		res, _ := runSteps(t, nav("/flow.html"),
			protocol.Step{ID: "loop", Type: protocol.TypeRepeat, Times: protocol.Ptr(2), Steps: []protocol.Step{withID("soft", soft)}},
			withID("after", click(css("#add"))))
		if res.Status != protocol.RunFailed || res.Steps[2].Status != protocol.StepPassed || res.Steps[1].Status != protocol.StepFailed ||
			!strings.Contains(res.Error, "(and 1 more soft assertions failed)") {
			t.Errorf("%s: %s %+v", res.Status, res.Error, res.Steps)
		}
	})
	t.Run("condition waits briefly", func(t *testing.T) {
		start := time.Now()
		res, _ := runSteps(t, nav("/flow.html"),
			ifStep("b", visibleCond(css("#accept")), []protocol.Step{withID("x", click(css("#accept")))}))
		mustPass(t, res)
		if d := time.Since(start); d > 8*time.Second || res.Steps[1].Branch != "none" {
			t.Errorf("took %s, branch %q", d, res.Steps[1].Branch)
		}
	})
	t.Run("bad items", func(t *testing.T) {
		res, _ := runSteps(t, nav("/flow.html"),
			protocol.Step{ID: "loop", Type: protocol.TypeForEach, Items: &protocol.Items{Ref: "${baseUrl}"}, Steps: []protocol.Step{withID("add", click(css("#add")))}})
		if res.Status != protocol.RunFailed || !strings.Contains(res.Error, "unknown variable ${baseUrl}") {
			t.Errorf("%s: %s", res.Status, res.Error)
		}
	})
}
