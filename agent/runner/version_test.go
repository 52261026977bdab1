package runner

import (
	"regexp"
	"testing"
)

// The agent reports its Chromium's version on hello (issue 27): the
// product as Chrome names it, also for the headless shell.
func TestBrowserVersion(t *testing.T) {
	re := regexp.MustCompile(`^Chrome/\d+\.\d+\.\d+\.\d+$`)
	if v := testBrowser.Version(t.Context()); !re.MatchString(v) {
		t.Errorf("version %q", v)
	}
	if v := shell(t).Version(t.Context()); !re.MatchString(v) {
		t.Errorf("headless shell version %q", v)
	}
}
