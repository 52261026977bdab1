package ci

import (
	"fmt"

	"github.com/testautomation/ta/protocol"
)

// flakyText is a run's status as the command prints it: a run that
// passed on a retry says so, "passed (flaky, 2 attempts)"; a data-driven
// one, whose rows were retried each on its own, "passed (flaky)"
// (docs/retries.md).
func flakyText(r snapshot) string {
	d := r.detail
	switch {
	case d == nil || !d.Flaky || r.status != protocol.RunPassed:
		return r.status
	case len(d.AttemptResults) > 1:
		return fmt.Sprintf("%s (flaky, %d attempts)", r.status, len(d.AttemptResults))
	}
	return r.status + " (flaky)"
}
