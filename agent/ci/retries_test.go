package ci

import (
	"io"
	"strings"
	"testing"
)

// --retries takes 0 to 3, the run option's range; anything else is a
// usage error before anything starts.
func TestRetriesFlag(t *testing.T) {
	base := []string{"--hub", "http://hub.test", "--token", "t", "--suite", "Smoke"}
	for _, tc := range []struct {
		args []string
		want int
		err  string
	}{
		{nil, 0, ""},
		{[]string{"--retries", "2"}, 2, ""},
		{[]string{"--retries", "4"}, 0, "--retries must be from 0 to 3"},
		{[]string{"--retries", "-1"}, 0, "--retries must be from 0 to 3"},
	} {
		o, err := ParseFlags(append(append([]string{}, base...), tc.args...), io.Discard)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.err)
		case tc.err == "" && (err != nil || o.Retries != tc.want):
			t.Errorf("%v: retries %d (%v), want %d", tc.args, o.Retries, err, tc.want)
		}
	}
}
