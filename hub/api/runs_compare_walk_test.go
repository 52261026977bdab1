package api

import (
	"image"
	"image/color"
	"slices"
	"testing"

	"github.com/testautomation/ta/protocol"
)

func res(id, status string, iter ...int) protocol.StepResult {
	return protocol.StepResult{ID: id, Type: "click", Status: status, Iteration: iter, Screenshot: id + ".png"}
}

func block(id, typ, status string, steps ...protocol.StepResult) protocol.StepResult {
	return protocol.StepResult{ID: id, Type: typ, Status: status, Steps: steps, Screenshot: id + ".png"}
}

func loop(id, status string, iterations ...[]protocol.StepResult) protocol.StepResult {
	b := protocol.StepResult{ID: id, Type: protocol.TypeRepeat, Status: status}
	for i, steps := range iterations {
		b.Iterations = append(b.Iterations, protocol.IterationResult{Iteration: i, Status: status, Steps: steps})
	}
	return b
}

const (
	P = protocol.StepPassed
	F = protocol.StepFailed
	S = protocol.StepSkipped
)

// The walk names the first step execution (step id and iteration) where
// two runs did something else, with the reason the comparison gives.
func TestDiverge(t *testing.T) {
	flat := []protocol.StepResult{res("s1", P), res("s2", P), res("s3", P)}
	cases := []struct {
		name       string
		run, base  []protocol.StepResult
		want       string // id + iteration, "" for none
		reason     string
		status     string
		baseStatus string
	}{
		{"same steps, same statuses", flat, flat, "", "", "", ""},
		{"failed where it passed", []protocol.StepResult{res("s1", P), res("s2", F), res("s3", S)}, flat, "s2[]", "failed", F, P},
		{"passed where the other run failed", flat, []protocol.StepResult{res("s1", P), res("s2", F), res("s3", S)}, "s2[]", "status", P, F},
		{"a step the baseline did not have", []protocol.StepResult{res("s1", P), res("new", F), res("s2", S)}, flat, "new[]", "not_in_baseline", F, ""},
		{"stopped early: never reported", []protocol.StepResult{res("s1", P)}, flat, "s2[]", "not_run", "", P},
		{"stopped early: skipped is not run", []protocol.StepResult{res("s1", P), res("s2", S), res("s3", S)}, flat, "s2[]", "not_run", "", P},
		{"no result at all", nil, flat, "s1[]", "not_run", "", P},
		{"a step removed", []protocol.StepResult{res("s1", P), res("s3", P)}, flat, "s2[]", "not_run", "", P},
		{"the other branch of an if",
			[]protocol.StepResult{res("s1", P), block("if", protocol.TypeIf, P, res("else1", P)), res("s3", F)},
			[]protocol.StepResult{res("s1", P), block("if", protocol.TypeIf, P, res("then1", P)), res("s3", P)},
			"else1[]", "not_in_baseline", P, ""},
		{"a failure inside a loop names the step, not the loop",
			[]protocol.StepResult{loop("rep", F, []protocol.StepResult{res("in", P, 0)}, []protocol.StepResult{res("in", F, 1)})},
			[]protocol.StepResult{loop("rep", P, []protocol.StepResult{res("in", P, 0)}, []protocol.StepResult{res("in", P, 1)}, []protocol.StepResult{res("in", P, 2)})},
			"in[1]", "failed", F, P},
		{"one more iteration",
			[]protocol.StepResult{loop("rep", P, []protocol.StepResult{res("in", P, 0)}, []protocol.StepResult{res("in", P, 1)}), res("end", P)},
			[]protocol.StepResult{loop("rep", P, []protocol.StepResult{res("in", P, 0)}), res("end", P)},
			"in[1]", "not_in_baseline", P, ""},
		{"an if's own failure (its condition) is the if's",
			[]protocol.StepResult{res("s1", P), block("if", protocol.TypeIf, F), res("s3", S)},
			[]protocol.StepResult{res("s1", P), block("if", protocol.TypeIf, P), res("s3", P)},
			"if[]", "failed", F, P},
		{"nested loops: the iteration path counts",
			[]protocol.StepResult{loop("outer", F, []protocol.StepResult{loop("inner", F, []protocol.StepResult{res("x", P, 0, 0)}, []protocol.StepResult{res("x", F, 0, 1)})})},
			[]protocol.StepResult{loop("outer", P, []protocol.StepResult{loop("inner", P, []protocol.StepResult{res("x", P, 0, 0)}, []protocol.StepResult{res("x", P, 0, 1)})})},
			"x[0 1]", "failed", F, P},
	}
	for _, c := range cases {
		d := diverge(c.run, c.base)
		if c.want == "" {
			if d != nil {
				t.Errorf("%s: diverged at %s (%s)", c.name, execKey(d.step), d.reason)
			}
			continue
		}
		if d == nil {
			t.Errorf("%s: no divergence, want %s", c.name, c.want)
			continue
		}
		if execKey(d.step) != c.want || d.reason != c.reason || d.status != c.status || d.baseStatus != c.baseStatus {
			t.Errorf("%s: %s %s (%q / %q), want %s %s (%q / %q)", c.name, execKey(d.step), d.reason, d.status, d.baseStatus,
				c.want, c.reason, c.status, c.baseStatus)
		}
		// Screenshots are each run's own, of that execution.
		if (d.status == "") != (d.screenshot == "") || (d.baseStatus == "") != (d.baseScreenshot == "") {
			t.Errorf("%s: screenshots %q %q", c.name, d.screenshot, d.baseScreenshot)
		}
	}
}

func traced(index int, network []protocol.NetworkEntry, console ...protocol.ConsoleEntry) protocol.TraceStep {
	return protocol.TraceStep{Index: index, ID: "s", Network: network, Console: console}
}

func req(method, url string, status int, failure string) protocol.NetworkEntry {
	return protocol.NetworkEntry{Method: method, URL: url, Status: status, Failure: failure}
}

// Requests pair by method and URL (fragment dropped) in order; a change
// of status or failure is listed, a request only one run made only when
// it failed there, one still unanswered never.
func TestChangedRequests(t *testing.T) {
	run := []protocol.TraceStep{
		traced(0, []protocol.NetworkEntry{req("GET", "http://a/page#top", 200, ""), req("GET", "http://a/api?x=1", 200, ""), req("GET", "http://a/api?x=1", 500, "")}),
		traced(1, []protocol.NetworkEntry{req("POST", "http://a/api?x=1", 200, ""), req("GET", "http://a/new", 404, ""), req("GET", "http://a/fine", 200, ""),
			req("GET", "http://a/slow", 0, ""), req("GET", "http://down/x.js", 0, "refused")}),
	}
	base := []protocol.TraceStep{
		traced(0, []protocol.NetworkEntry{req("GET", "http://a/page", 200, ""), req("GET", "http://a/api?x=1", 200, ""), req("GET", "http://a/api?x=1", 200, "")}),
		traced(1, []protocol.NetworkEntry{req("POST", "http://a/api?x=1", 200, ""), req("GET", "http://a/slow", 200, ""), req("GET", "http://down/x.js", 200, "")}),
		traced(2, []protocol.NetworkEntry{req("GET", "http://a/gone", 0, "dns"), req("GET", "http://a/ok-gone", 200, "")}),
	}
	got, dropped := changedRequests(run, base)
	want := []requestChangeJSON{
		{Method: "GET", URL: "http://a/api?x=1", Status: 500, BaselineStatus: 200, Index: 0},
		{Method: "GET", URL: "http://a/new", Status: 404, Index: 1},
		{Method: "GET", URL: "http://down/x.js", Failure: "refused", BaselineStatus: 200, Index: 1},
		// http://a/gone failed in the baseline only: what no longer fails
		// explains no failure (a favicon's 404 the browser asks for once).
	}
	if dropped != 0 || len(got) != len(want) {
		t.Fatalf("got %+v (dropped %d), want %+v", got, dropped, want)
	}
	for i := range want {
		if g, w := got[i], want[i]; g.Method != w.Method || g.URL != w.URL || g.Status != w.Status || g.BaselineStatus != w.BaselineStatus ||
			g.Failure != w.Failure || g.BaselineFailure != w.BaselineFailure || g.Index != w.Index {
			t.Errorf("request %d: %+v, want %+v", i, g, w)
		}
	}
	// At most maxCompareEntries; the rest are counted.
	var many []protocol.NetworkEntry
	for range maxCompareEntries + 7 {
		many = append(many, req("GET", "http://a/broken", 503, ""))
	}
	if got, dropped := changedRequests([]protocol.TraceStep{traced(0, many)}, nil); len(got) != maxCompareEntries || dropped != 7 {
		t.Errorf("%d listed, %d dropped", len(got), dropped)
	}
}

// New console errors: this run's errors whose text no baseline error has.
func TestNewConsoleErrors(t *testing.T) {
	e := func(level, text string) protocol.ConsoleEntry { return protocol.ConsoleEntry{Level: level, Text: text} }
	run := []protocol.TraceStep{traced(0, nil, e("error", "old error"), e("log", "a log")), traced(3, nil, e("error", "TypeError: boom"), e("warning", "hm"), e("error", "was a log"))}
	base := []protocol.TraceStep{traced(0, nil, e("error", "old error"), e("log", "was a log"))}
	got, dropped := newConsoleErrors(run, base)
	var texts []string
	for _, c := range got {
		texts = append(texts, c.Text)
	}
	if !slices.Equal(texts, []string{"TypeError: boom", "was a log"}) || got[0].Index != 3 || dropped != 0 {
		t.Errorf("new errors %v (%+v), dropped %d", texts, got, dropped)
	}
}

// Pixels differing by more than the tolerance in a channel count, and
// are magenta in the overlay; the rest are transparent. A JPEG (YCbCr)
// and a PNG of the same colours compare equal.
func TestDiffImages(t *testing.T) {
	a := image.NewNRGBA(image.Rect(0, 0, 4, 3))
	b := image.NewRGBA(image.Rect(0, 0, 4, 3))
	for y := range 3 {
		for x := range 4 {
			a.Set(x, y, color.NRGBA{100, 150, 200, 255})
			b.Set(x, y, color.RGBA{100, 150, 200, 255})
		}
	}
	b.Set(1, 1, color.RGBA{100 + pixelTolerance, 150 - pixelTolerance, 200, 255}) // within the tolerance
	b.Set(2, 1, color.RGBA{100 + pixelTolerance + 1, 150, 200, 255})              // past it
	b.Set(3, 2, color.RGBA{0, 0, 0, 255})
	n, over := diffImages(a, b, true)
	if n != 2 {
		t.Errorf("%d different pixels, want 2", n)
	}
	for y := range 3 {
		for x := range 4 {
			want := color.NRGBA{}
			if x == 2 && y == 1 || x == 3 && y == 2 {
				want = color.NRGBA{R: 0xff, B: 0xff, A: 0xff}
			}
			if got := over.At(x, y); got != want {
				t.Errorf("overlay at %d,%d: %v, want %v", x, y, got, want)
			}
		}
	}
	yc := image.NewYCbCr(image.Rect(0, 0, 4, 3), image.YCbCrSubsampleRatio420)
	yy, cb, cr := color.RGBToYCbCr(100, 150, 200)
	for i := range yc.Y {
		yc.Y[i] = yy
	}
	for i := range yc.Cb {
		yc.Cb[i], yc.Cr[i] = cb, cr
	}
	if n, over := diffImages(yc, a, false); n != 0 || over != nil {
		t.Errorf("a JPEG of the same colour: %d different", n)
	}
}
