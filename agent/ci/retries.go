package ci

import (
	"fmt"

	"github.com/testautomation/ta/protocol"
)

// statusText is a run's status as the command prints it: a run that
// passed on a retry says so, "passed (flaky, 2 attempts)" (docs/retries.md).
func statusText(r snapshot) string {
	if d := r.detail; d != nil && d.Flaky && r.status == protocol.RunPassed {
		return fmt.Sprintf("%s (flaky, %d attempts)", r.status, max(len(d.AttemptResults), 2))
	}
	return r.status
}
