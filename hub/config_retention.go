package main

import "fmt"

// maxRetainDays bounds the retention settings: a hundred years is forever
// enough, and a bigger number would overflow a time.Duration.
const maxRetainDays = 36500

// parseRetention reads HUB_RETAIN_RUNS_DAYS, HUB_RETAIN_FAILED_DAYS and
// HUB_RETAIN_RUN_ROWS_DAYS (docs/retention.md); each unset keeps forever.
func parseRetention(getenv func(string) string, c *config) error {
	for _, s := range []struct {
		key string
		dst *int
	}{
		{"HUB_RETAIN_RUNS_DAYS", &c.Retention.PassedDays},
		{"HUB_RETAIN_FAILED_DAYS", &c.Retention.FailedDays},
		{"HUB_RETAIN_RUN_ROWS_DAYS", &c.Retention.RowsDays},
	} {
		if err := intEnv(getenv, s.key, 1, s.dst); err != nil {
			return fmt.Errorf("%w: the number of days to keep, or unset to keep forever", err)
		}
		if *s.dst > maxRetainDays {
			return fmt.Errorf("%s %d is more than %d days: unset it to keep forever", s.key, *s.dst, maxRetainDays)
		}
	}
	return nil
}
