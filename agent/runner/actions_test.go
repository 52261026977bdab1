package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"image/jpeg"
	"strings"
	"testing"
	"time"

	"github.com/testautomation/ta/protocol"
)

func dialog(action string, expected string, text *string) protocol.Step {
	st := protocol.Step{Type: "dialog", Action: action, Text: text}
	if expected != "" {
		st.Expected, st.Match = protocol.Ptr(expected), "equals"
	}
	return st
}

func switchTo(to string) protocol.Step { return protocol.Step{Type: "switchTab", To: to} }

func titleIs(title string) protocol.Step {
	return protocol.Step{Type: "assertTitle", Expected: protocol.Ptr(title), Match: "equals"}
}

// actionStepCases are TestStepTypes' cases of the steps of issue 28's
// actions: dialogs, tabs, drags and the mouse, history and the viewport.
func actionStepCases() []struct {
	name  string
	vars  map[string]string
	steps []protocol.Step
} {
	drag := "/drag.html"
	return []struct {
		name  string
		vars  map[string]string
		steps []protocol.Step
	}{
		{"dialog: accept a confirm, dismiss it, answer a prompt, wait for a late alert", nil, []protocol.Step{nav("/dialogs.html"),
			dialog("accept", "Delete 3 items?", nil), click(css("#confirm")), textIs(out, "equals", "confirmed"),
			dialog("dismiss", "", nil), click(css("#confirm")), textIs(out, "equals", "cancelled"),
			dialog("accept", "", protocol.Ptr("Ann")), click(css("#prompt")), textIs(out, "equals", "name=Ann"),
			dialog("accept", "Later", nil), click(css("#later")), textIs(out, "equals", "later done"),
			typed("check", css("#guard")),
			dialog("accept", "", nil), click(css("#away")), titleIs("Tabs")}},
		{"switchTab: new tabs from a link and a script, opener, index, match; closeTab", nil, []protocol.Step{nav("/tabs.html"),
			click(css("#link")), switchTo("new"), titleIs("Second tab"),
			click(css("#hello")), textIs(out, "equals", "hello from ?via=link"),
			switchTo("opener"), titleIs("Tabs"),
			click(css("#open")), {Type: "switchTab", To: "match", URL: "via=script"},
			click(css("#hello")), textIs(out, "equals", "hello from ?via=script"),
			{Type: "switchTab", To: "index", Index: protocol.Ptr(0)}, titleIs("Tabs"),
			{Type: "switchTab", To: "index", Index: protocol.Ptr(1)}, textIs(out, "equals", "hello from ?via=link"),
			{Type: "closeTab"}, titleIs("Tabs"),
			click(css("#opened-later")), switchTo("new"), {Type: "assertUrl", Expected: protocol.Ptr("via=later")},
			{Type: "switchTab", To: "match", URL: "tab2.html", Title: "Second", Match: "contains"},
			dialog("accept", "Really?", nil), click(css("#confirm")), textIs(out, "equals", "yes"),
			click(css("#close")), titleIs("Tabs")}},
		{"dragTo: HTML5 drag and drop, and a pointer-based drag", nil, []protocol.Step{nav(drag),
			{Type: "dragTo", Target: css("#card"), ToTarget: css("#bin")}, textIs(out, "contains", "dropped card-1;"),
			{Type: "dragTo", Target: css("#handle"), ToTarget: css("#target")}, textIs(out, "contains", "pointer dropped after moves;")}},
		{"mouse: down, move and up drag by pointer events", nil, []protocol.Step{nav(drag),
			{Type: "mouse", Action: "down", Target: css("#handle")},
			{Type: "mouse", Action: "move", Target: css("#target")},
			{Type: "mouse", Action: "up"}, textIs(out, "contains", "pointer dropped after moves;"),
			{Type: "mouse", Action: "move", Position: &protocol.Position{X: 30, Y: 310}},
			{Type: "mouse", Action: "down"}, {Type: "mouse", Action: "up", Position: &protocol.Position{X: 30, Y: 310}},
			textIs(out, "contains", "click b0  at 10,10;")}},
		{"click and dblclick: buttons, modifiers, position", nil, []protocol.Step{nav(drag),
			{Type: "click", Target: css("#pad"), Button: "right"}, textIs(out, "contains", "contextmenu b2;"),
			{Type: "click", Target: css("#pad"), Button: "middle"}, textIs(out, "contains", "auxclick b1;"),
			{Type: "click", Target: css("#pad"), Modifiers: []string{"Shift", "Alt"}, Position: &protocol.Position{X: 5, Y: 7}},
			textIs(out, "contains", "click b0 Alt+Shift at 5,7;"),
			{Type: "dblclick", Target: css("#pad"), Modifiers: []string{"Control"}}, textIs(out, "contains", "dblclick b0;"),
			textIs(out, "contains", "click b0 Control at 100,50;")}},
		{"goBack, goForward and reload wait for the page", nil, []protocol.Step{nav("/login.html"), nav("/widgets.html"),
			{Type: "goBack"}, titleIs("Login"), {Type: "goForward"}, titleIs("Widgets"),
			{Type: "script", Code: "window.marked = 1"}, {Type: "reload"}, jsAssert("window.marked === undefined"), titleIs("Widgets")}},
		{"setViewport", nil, []protocol.Step{nav("/login.html"),
			{Type: "setViewport", Width: 500, Height: 400}, jsAssert("innerWidth === 500 && innerHeight === 400"),
			{Type: "screenshot", FullPage: true}, jsAssert("innerWidth === 500 && innerHeight === 400")}},
	}
}

// TestDeviceOption: the run option device makes every page of the run,
// the first and the ones it opens, emulate the phone.
func TestDeviceOption(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	phone := "innerWidth === 412 && devicePixelRatio === 2.625 && navigator.maxTouchPoints > 0 && navigator.userAgent.includes('Pixel 7')"
	res, _ := runJob(t, ctx, protocol.Job{Version: 1, Device: "Pixel 7", Document: document(t, nav("/tabs.html"), jsAssert(phone),
		click(css("#open")), switchTo("new"), jsAssert(phone),
		protocol.Step{Type: "setViewport", Width: 500, Height: 600}, jsAssert("innerWidth === 500 && innerHeight === 600 && devicePixelRatio === 2.625"))})
	mustPass(t, res)

	res, _ = runJob(t, ctx, protocol.Job{Version: 1, Device: "Nokia 3310", Document: document(t, nav("/tabs.html"))})
	if res.Status != protocol.RunError || !strings.Contains(res.Error, `unknown device "Nokia 3310": this agent knows iPhone SE`) {
		t.Errorf("run %s: %q, want an error naming the known devices", res.Status, res.Error)
	}
}

// TestUnarmedDialog: a dialog no step armed is dismissed at once, logged
// on the step that opened it, and the step does not wait for its timeout.
func TestUnarmedDialog(t *testing.T) {
	t.Parallel()
	start := time.Now()
	res, rec := runSteps(t, nav("/dialogs.html"), click(css("#confirm")), textIs(out, "equals", "cancelled"),
		click(css("#alert")), textIs(out, "equals", "alerted"))
	mustPass(t, res)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the run took %s: a dialog held a step", d)
	}
	var logged []string
	for _, e := range rec.ofKind(protocol.LogLine) {
		if strings.Contains(e.Message, "dialog dismissed") {
			logged = append(logged, e.Message)
			if e.Step == nil || *e.Step != 1 && *e.Step != 3 {
				t.Errorf("dialog logged on step %v, not on the click that opened it: %s", e.Step, e.Message)
			}
		}
	}
	if len(logged) != 2 || !strings.Contains(logged[0], "confirm dialog dismissed: Delete 3 items?") {
		t.Errorf("dialog logs %q", logged)
	}
}

// TestActionStepErrors: the failures say what was expected.
func TestActionStepErrors(t *testing.T) {
	cases := []struct {
		name  string
		steps []protocol.Step
		want  string
	}{
		{"armed dialog never opened", []protocol.Step{nav("/dialogs.html"), dialog("accept", "Delete 3 items?", nil), short(click(css("#noop")), 1000)},
			`expected a dialog (accept "Delete 3 items?", armed by step 2) but none opened before this step ended`},
		{"dialog message mismatch", []protocol.Step{nav("/dialogs.html"), dialog("accept", "Delete 4 items?", nil), click(css("#confirm"))},
			`expected the confirm dialog's message to equal "Delete 4 items?", but it is "Delete 3 items?" (armed by step 2)`},
		{"switchTab new without a new tab", []protocol.Step{nav("/tabs.html"), short(switchTo("new"), 1000)},
			"timed out after 1s: no new tab opened"},
		{"switchTab match without a match", []protocol.Step{nav("/tabs.html"), short(protocol.Step{Type: "switchTab", To: "match", Title: "Nope", Match: "equals"}, 1000)},
			`no tab matches: the open tabs have title "Tabs"`},
		{"closeTab of the first tab", []protocol.Step{nav("/tabs.html"), {Type: "closeTab"}}, "cannot close the run's only tab"},
		{"switchTab opener from the first tab", []protocol.Step{nav("/tabs.html"), click(css("#open")), switchTo("opener")},
			"this tab has no opener to switch to: it is the run's first tab"},
		{"goForward without history", []protocol.Step{nav("/tabs.html"), {Type: "goForward"}}, "there is no page to go forward to"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, _ := runSteps(t, tc.steps...)
			last := res.Steps[len(res.Steps)-1]
			if res.Status != protocol.RunFailed || last.Status != protocol.StepFailed || !strings.Contains(last.Error, tc.want) {
				t.Fatalf("run %s, last step %s: %q, want failed with %q", res.Status, last.Status, last.Error, tc.want)
			}
		})
	}
}

// TestScreenshotOfOtherTab: the screenshot after a step in a tab the run
// switched to shows that tab (tab2.html is red), with the browser's own
// capture and in the headless shell (a popup has no frames on demand).
func TestScreenshotOfOtherTab(t *testing.T) {
	for name, b := range map[string]func(testing.TB) *Browser{"browser": func(testing.TB) *Browser { return testBrowser }, "headless shell": shell} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b := b(t)
			ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
			defer cancel()
			job := protocol.Job{RunID: "run_tabs", Version: 1, Screenshots: true, Document: document(t, nav("/tabs.html"),
				click(css("#link")), switchTo("new"), click(css("#hello")), switchTo("opener"))}
			res, rec := unlessStalled(t, b, func(rec *recorder) protocol.RunResult { return b.Run(ctx, job, rec) })
			mustPass(t, res)
			for i, want := range map[int]bool{3: true, 4: false} {
				name := res.Steps[i].Screenshot
				if name == "" {
					t.Fatalf("step %d has no screenshot: %s (logs %q)", i+1, res.Steps[i].ScreenshotError, rec.logs())
				}
				img, err := jpeg.Decode(bytes.NewReader(rec.artifacts[name]))
				if err != nil {
					t.Fatalf("step %d screenshot %q: %v", i+1, name, err)
				}
				r, g, b, _ := img.At(img.Bounds().Dx()-5, img.Bounds().Dy()-5).RGBA()
				red := r>>8 > 200 && g>>8 < 60 && b>>8 < 60
				if red != want {
					t.Errorf("step %d's screenshot red=%v (%d,%d,%d), want %v", i+1, red, r>>8, g>>8, b>>8, want)
				}
			}
		})
	}
}

// TestActionStepsInterpolateAndMask: a prompt's answer, a switchTab title
// and a drop target take references; a secret answered into a prompt or
// expected of a dialog never shows in what the run reports.
func TestActionStepsInterpolateAndMask(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	const secret = "s3cr3t-answer"
	job := protocol.Job{Version: 1, Secrets: map[string]string{"PW": secret}, Variables: map[string]string{"bin": "bin", "tab": "Second"},
		Document: document(t, nav("/dialogs.html"),
			dialog("accept", "", protocol.Ptr("${secrets.PW}")), click(css("#prompt")), textIs(out, "equals", "name=${secrets.PW}"),
			nav("/drag.html"), protocol.Step{Type: "dragTo", Target: css("#card"), ToTarget: css("#${bin}")}, textIs(out, "contains", "dropped card-1"),
			nav("/tabs.html"), click(css("#open")), protocol.Step{Type: "switchTab", To: "match", Title: "${tab}"},
			nav("/dialogs.html"), dialog("accept", "${secrets.PW}", nil), click(css("#confirm")))}
	res, rec := runJob(t, ctx, job)
	last := res.Steps[len(res.Steps)-1]
	if res.Status != protocol.RunFailed || last.Status != protocol.StepFailed || !strings.Contains(last.Error, `expected the confirm dialog's message to equal "`) {
		t.Fatalf("run %s %q, last step %s %q: want only the last step failed on the message", res.Status, res.Error, last.Status, last.Error)
	}
	all, _ := json.Marshal([]any{res, rec.events})
	if strings.Contains(string(all), secret) {
		t.Errorf("the secret shows in the run's result or events")
	}
	if used := res.Steps[1].Used; used["text"] == "" {
		t.Errorf("the dialog step reports no text used: %v", used)
	}
}
