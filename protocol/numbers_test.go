package protocol

import (
	"slices"
	"testing"
)

func TestStepNumbers(t *testing.T) {
	for _, c := range []struct {
		calls []string
		want  []string
	}{
		{nil, []string{}},
		{[]string{"", "", ""}, []string{"1", "2", "3"}},
		// The test's step 2 calls a component of three steps; step 3 calls
		// another of one; step 4 is the test's own.
		{[]string{"", "s2", "s2", "s2", "s3", ""}, []string{"1", "2.1", "2.2", "2.3", "3.1", "4"}},
		{[]string{"c1", "c2", "c2"}, []string{"1.1", "2.1", "2.2"}},
	} {
		if got := StepNumbers(c.calls); !slices.Equal(got, c.want) {
			t.Errorf("StepNumbers(%q) = %q, want %q", c.calls, got, c.want)
		}
	}
	res := []StepResult{{Index: 0}, {Index: 1, Call: "s2"}, {Index: 2, Call: "s2"}, {Index: 3}}
	if got := ResultStepNumbers(res); got[2] != "2.2" || got[3] != "3" {
		t.Errorf("ResultStepNumbers = %v", got)
	}
}
