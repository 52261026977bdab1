package main

import (
	"io"
	"strings"
	"testing"

	"github.com/testautomation/ta/hub/retention"
)

// The retention settings: unset keeps forever; a bad value stops the hub
// naming the variable.
func TestParseConfigRetention(t *testing.T) {
	parse := func(env map[string]string) (config, error) {
		return parseConfig(nil, func(k string) string { return env[k] }, io.Discard)
	}
	c, err := parse(nil)
	if err != nil || c.Retention != (retention.Policy{}) || c.Retention.On() {
		t.Fatalf("unset: %+v, %v", c.Retention, err)
	}
	c, err = parse(map[string]string{"HUB_RETAIN_RUNS_DAYS": "30", "HUB_RETAIN_FAILED_DAYS": " 90 ", "HUB_RETAIN_RUN_ROWS_DAYS": "365"})
	if err != nil || c.Retention != (retention.Policy{PassedDays: 30, FailedDays: 90, RowsDays: 365}) {
		t.Fatalf("set: %+v, %v", c.Retention, err)
	}
	for _, key := range []string{"HUB_RETAIN_RUNS_DAYS", "HUB_RETAIN_FAILED_DAYS", "HUB_RETAIN_RUN_ROWS_DAYS"} {
		for _, v := range []string{"0", "-3", "thirty", "1.5", "36501"} {
			if _, err := parse(map[string]string{key: v}); err == nil || !strings.Contains(err.Error(), key) {
				t.Errorf("%s=%s: %v", key, v, err)
			}
		}
	}
}
